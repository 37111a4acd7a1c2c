/** The provisioning pipeline, in order. */
export const PROVISION_STAGES = ['clone', 'configure', 'cloud_init', 'network', 'boot', 'verify', 'finalize'] as const;
export type ProvisionStage = (typeof PROVISION_STAGES)[number];

/** Task progress when a stage begins: the first 5% is the API's reservation work. */
export function stageProgress(stage: ProvisionStage): number {
  const index = PROVISION_STAGES.indexOf(stage);
  return 5 + Math.floor((index * 95) / PROVISION_STAGES.length);
}
