import { recordStep, type StepInput } from '../db/tasks';
import { PROVISION_STAGES, stageProgress, type ProvisionStage } from '../domain/provisioning';
import type { StepStatus } from '../generated/prisma/enums';
import type { ActivityDeps } from './deps';

/**
 * The line `<phase> > <what>` of the task's step thread. The phase is a provisioning stage, an
 * operation's name or a destroy's purpose; a stage's `processing` line sets the task's progress.
 */
export function stepLine(taskId: string, phase: string, what: string, status: StepStatus, message: string): StepInput {
  const progress = status === 'processing' && isStage(phase) ? stageProgress(phase) : undefined;
  return { taskId, step: `${phase} > ${what}`, status, message, progress };
}

/** Writes `<phase> > <what>` to the task's step thread. */
export function say(deps: ActivityDeps, taskId: string, phase: string, what: string, status: StepStatus, message: string): Promise<void> {
  return recordStep(deps.db, stepLine(taskId, phase, what, status, message));
}

function isStage(phase: string): phase is ProvisionStage {
  return (PROVISION_STAGES as readonly string[]).includes(phase);
}
