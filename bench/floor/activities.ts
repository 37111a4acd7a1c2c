/**
 * The platform floor's activities: one per provisioning stage, each doing nothing, so a floor
 * workflow costs only what Temporal and the SDK cost for seven activities in a row.
 */
import { PROVISION_STAGES, type ProvisionStage } from '../../src/domain/provisioning';

export type FloorActivities = Record<ProvisionStage, () => Promise<void>>;

export function createFloorActivities(): FloorActivities {
  // Converges on retry: does nothing, so every attempt ends the same.
  const noop = async (): Promise<void> => {};
  return Object.fromEntries(PROVISION_STAGES.map((stage) => [stage, noop])) as FloorActivities;
}
