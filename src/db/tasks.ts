import type { StepStatus } from '../generated/prisma/enums';
import type { Db, Tx } from './client';

export interface StepInput {
  taskId: string;
  /** `<stage> > <step>`, e.g. `clone > cloning the image template`. */
  step: string;
  status: StepStatus;
  message: string;
  progress?: number;
}

/**
 * Appends a line to the task's step thread and moves the task along. (task, step, status) is
 * unique, so a retried activity that says the same thing again adds nothing.
 */
export async function recordStep(db: Db | Tx, input: StepInput): Promise<void> {
  await db.taskStep.upsert({
    where: { taskId_step_status: { taskId: input.taskId, step: input.step, status: input.status } },
    create: { taskId: input.taskId, step: input.step, status: input.status, message: input.message },
    update: {},
  });
  await db.task.updateMany({
    where: { id: input.taskId, status: { in: ['pending', 'running'] } },
    data: {
      status: 'running',
      currentStep: input.step,
      ...(input.progress === undefined ? {} : { progress: input.progress }),
    },
  });
}

export interface TaskOutcome {
  status: 'succeeded' | 'failed';
  errorCode?: string;
  errorMessage?: string;
}

/** Ends a task and frees its instance for the next operation; a no-op on an ended task. */
export async function finishTask(tx: Tx, taskId: string, outcome: TaskOutcome): Promise<void> {
  await tx.task.updateMany({
    where: { id: taskId, status: { in: ['pending', 'running'] } },
    data: {
      status: outcome.status,
      progress: outcome.status === 'succeeded' ? 100 : undefined,
      errorCode: outcome.errorCode ?? null,
      errorMessage: outcome.errorMessage ?? null,
      activeInstanceId: null,
      finishedAt: new Date(),
    },
  });
}
