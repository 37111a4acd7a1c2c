import { Prisma, type Task, type TaskStep } from '../generated/prisma/client';
import type { StepStatus } from '../generated/prisma/enums';
import { runSql, type Db, type Queryable, type Tx } from './client';

export interface StepInput {
  taskId: string;
  /** `<phase> > <what>`, e.g. `clone > cloning the image template` (see stepLine). */
  step: string;
  status: StepStatus;
  message: string;
  progress?: number;
}

/**
 * Appends a line to the task's step thread and moves the task along, in one statement. (task,
 * step, status) is unique, so a retried activity that says the same thing again adds nothing.
 */
export async function recordStep(db: Queryable, input: StepInput): Promise<void> {
  await runSql(db, recordStepSql(input));
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

/** A task as its request commits it: with its start intent, it waits for its workflow. */
export interface NewTask {
  id: string;
  instanceId: string;
  tenantId: string;
  type: string;
  workflowId: string;
  workflowType: string;
  workflowArgs: Prisma.InputJsonValue;
  params?: Prisma.InputJsonValue;
  /** Takes the instance's one active-task slot (default); a task about what outlives a deleted server does not. */
  holdsInstance?: boolean;
}

/**
 * Opens a task at its first step line, in one statement, and answers it with that line. The task
 * holds its instance's one active-task slot: a second open task for the same instance is a unique
 * violation, which callers answer as "an operation is in progress".
 */
export async function openTask(tx: Queryable, task: NewTask, first: Omit<StepInput, 'taskId'>): Promise<Task & { steps: TaskStep[] }> {
  const now = new Date();
  const [row] = await runSql<Task & { lineId: bigint }>(tx, Prisma.sql`
    WITH task AS (
      INSERT INTO tasks (id, "instanceId", "activeInstanceId", "tenantId", type, status, progress, "currentStep", "workflowId", "workflowType", "workflowArgs", params, "createdAt", "updatedAt")
      VALUES (${task.id}, ${task.instanceId}, ${task.holdsInstance === false ? null : task.instanceId}, ${task.tenantId}, ${task.type}, 'running', ${first.progress ?? 0}, ${first.step}, ${task.workflowId}, ${task.workflowType},
        CAST(${JSON.stringify(task.workflowArgs)} AS jsonb), CAST(${task.params === undefined ? null : JSON.stringify(task.params)} AS jsonb), ${now}, ${now})
      RETURNING *),
    line AS (
      INSERT INTO task_steps ("taskId", step, status, message, at)
      SELECT id, ${first.step}, CAST(${first.status} AS "StepStatus"), ${first.message}, ${now} FROM task
      RETURNING id)
    SELECT task.*, line.id AS "lineId" FROM task, line`);
  if (!row) throw new Error(`task ${task.id} was not opened`);
  const { lineId, ...opened } = row;
  return { ...opened, steps: [{ id: lineId, taskId: task.id, step: first.step, status: first.status, message: first.message, at: now }] };
}

/** A task that is over as it is written (what the reconciler applied on its own), with its one step line. */
export async function recordSettledTask(
  tx: Tx,
  task: Pick<NewTask, 'id' | 'instanceId' | 'tenantId' | 'type' | 'workflowId'>,
  step: Omit<StepInput, 'taskId' | 'progress'>,
): Promise<void> {
  await tx.task.create({ data: { ...task, status: 'succeeded', progress: 100, currentStep: step.step, finishedAt: new Date() } });
  await recordStep(tx, { ...step, taskId: task.id });
}

/** Records that the task's workflow exists; a no-op when that is known already. */
export async function markWorkflowStarted(db: Db | Tx, taskId: string): Promise<void> {
  // One statement (updateMany would wrap itself in a transaction of its own).
  const now = new Date();
  await runSql(db, Prisma.sql`UPDATE tasks SET "workflowStartedAt" = ${now}, "updatedAt" = ${now} WHERE id = ${taskId} AND "workflowStartedAt" IS NULL`);
}

/** Locks a task row for deciding about its start; null when it is no longer waiting for one (started, or given up and ended). */
export async function lockUnstartedTask(tx: Tx, taskId: string) {
  await tx.$queryRaw`SELECT id FROM tasks WHERE id = ${taskId} FOR UPDATE`;
  const task = await tx.task.findUnique({ where: { id: taskId } });
  if (!task || task.workflowStartedAt || task.status === 'succeeded' || task.status === 'failed') return null;
  return task;
}

/** Locks the task row; null when the task has ended already (its outcome is recorded). */
export async function lockOpenTask(tx: Tx, taskId: string) {
  await tx.$queryRaw`SELECT id FROM tasks WHERE id = ${taskId} FOR UPDATE`;
  const task = await tx.task.findUniqueOrThrow({ where: { id: taskId } });
  return task.status === 'succeeded' || task.status === 'failed' ? null : task;
}

export interface TaskOutcome {
  status: 'succeeded' | 'failed';
  /** Customer-safe. */
  errorCode?: string;
  errorMessage?: string;
  /** Operators only: the failure's type, where it happened, the provider's own words. */
  failureCause?: Record<string, unknown>;
}

/** Ends a task and frees its instance for the next operation; a no-op on an ended task. */
export async function finishTask(tx: Queryable, taskId: string, outcome: TaskOutcome): Promise<void> {
  const now = new Date();
  await runSql(tx, Prisma.sql`
    UPDATE tasks SET status = CAST(${outcome.status} AS "TaskStatus"), progress = COALESCE(${outcome.status === 'succeeded' ? 100 : null}::int, progress),
      "errorCode" = ${outcome.errorCode ?? null}, "errorMessage" = ${outcome.errorMessage ?? null},
      "failureCause" = CAST(${outcome.failureCause === undefined ? null : JSON.stringify(outcome.failureCause)} AS jsonb),
      "activeInstanceId" = NULL, "finishedAt" = ${now}, "updatedAt" = ${now}
    WHERE id = ${taskId} AND status IN ('pending', 'running')`);
}
