import { recordStep } from '../db/tasks';
import { PROVISION_STAGES, stageProgress, type ProvisionStage } from '../domain/provisioning';
import type { StepStatus } from '../generated/prisma/enums';
import type { ActivityDeps } from './deps';

/** Writes `<stage> > <what>` to the task's step thread. */
export function say(
  deps: ActivityDeps,
  taskId: string,
  stage: ProvisionStage | string,
  what: string,
  status: StepStatus,
  message: string,
): Promise<void> {
  const progress = status === 'processing' && isStage(stage) ? stageProgress(stage) : undefined;
  return recordStep(deps.db, { taskId, step: `${stage} > ${what}`, status, message, progress });
}

function isStage(stage: string): stage is ProvisionStage {
  return (PROVISION_STAGES as readonly string[]).includes(stage);
}
