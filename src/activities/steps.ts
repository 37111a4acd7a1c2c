import { recordStep, type StepInput } from '../db/tasks';
import { PROVISION_STAGES, stageProgress, type ProvisionStage } from '../domain/provisioning';
import type { StepStatus } from '../generated/prisma/enums';
import type { ActivityDeps } from './deps';

/** The line `<stage> > <what>` of the task's step thread; a stage's `processing` line sets its progress. */
export function stepLine(taskId: string, stage: ProvisionStage | string, what: string, status: StepStatus, message: string): StepInput {
  const progress = status === 'processing' && isStage(stage) ? stageProgress(stage) : undefined;
  return { taskId, step: `${stage} > ${what}`, status, message, progress };
}

/** Writes `<stage> > <what>` to the task's step thread. */
export function say(
  deps: ActivityDeps,
  taskId: string,
  stage: ProvisionStage | string,
  what: string,
  status: StepStatus,
  message: string,
): Promise<void> {
  return recordStep(deps.db, stepLine(taskId, stage, what, status, message));
}

function isStage(stage: string): stage is ProvisionStage {
  return (PROVISION_STAGES as readonly string[]).includes(stage);
}
