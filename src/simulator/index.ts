export * from './server';
export * from './schema';
export * from './faults';
export { SimCluster, SimHttpError, demoCluster, CPU_FLAGS_V2, CPU_FLAGS_V3, DEMO_TEMPLATE_IMAGES } from './cluster';
export type { ClusterSpec, SimNodeSpec, SimStorageSpec, SimBridgeSpec, SimTemplateSpec, SimPoolSpec, SimGuest } from './cluster';
export type { SimTask } from './tasks';
export type { RecordedRequest } from './routes';
export { IMPLEMENTED_CALLS } from './routes';
