import { notFound } from '../domain/errors';
import type { Prisma } from '../generated/prisma/client';
import type { ServiceDeps } from './deps';
import { tenantScope, type Caller } from './principal';

const withSteps = { steps: { orderBy: { id: 'asc' } } } as const;

export type TaskWithSteps = Prisma.TaskGetPayload<{ include: typeof withSteps }>;

/** A task with its step thread; another tenant's is NOT_FOUND (operators see every task). */
export async function findTask(deps: Pick<ServiceDeps, 'db'>, who: Caller, id: string): Promise<TaskWithSteps> {
  const task = await deps.db.task.findFirst({ where: { id, ...tenantScope(who) }, include: withSteps });
  if (!task) throw notFound('task');
  return task;
}
