/**
 * The platform floor: the provisioning workflow's shape (seven activities in a row, each with
 * its stage's activity options: timeouts, retry policy) and nothing else, so the time of one
 * is the least a provision can take on this Temporal server and worker.
 */
import { proxyActivities } from '@temporalio/workflow';
import { PROVISION_STAGES } from '../../src/domain/provisioning';
import { stageOptions } from '../../src/workflows/stage-pipeline';
import type { FloorActivities } from './activities';

export async function FloorProvision(): Promise<void> {
  for (const stage of PROVISION_STAGES) {
    await proxyActivities<FloorActivities>(stageOptions(stage, 1))[stage]();
  }
}
