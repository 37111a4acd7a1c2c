// Everything the worker bundles as workflow code.
export { ProvisionInstance } from './provision-instance';
