import { Prisma } from '../generated/prisma/client';
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
 * Appends a line to the task's step thread and moves the task along, in one statement. (task,
 * step, status) is unique, so a retried activity that says the same thing again adds nothing.
 */
export async function recordStep(db: Db | Tx, input: StepInput): Promise<void> {
  await db.$executeRaw(recordStepSql(input));
}

/** recordStep's statement; `alongside` is one more data-modifying statement that runs in it, all or nothing. */
export function recordStepSql(input: StepInput, alongside?: Prisma.Sql): Prisma.Sql {
  const now = new Date();
  return Prisma.sql`
    WITH ${alongside ? Prisma.sql`alongside AS (${alongside}),` : Prisma.empty} line AS (
      INSERT INTO task_steps ("taskId", step, status, message, at)
      VALUES (${input.taskId}, ${input.step}, CAST(${input.status} AS "StepStatus"), ${input.message}, ${now})
      ON CONFLICT ("taskId", step, status) DO NOTHING
    )
    UPDATE tasks
    SET status = 'running', "currentStep" = ${input.step}, progress = COALESCE(${input.progress ?? null}::int, progress), "updatedAt" = ${now}
    WHERE id = ${input.taskId} AND status IN ('pending', 'running')`;
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
