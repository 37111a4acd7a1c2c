import type { Plan, Prisma } from '../generated/prisma/client';
import { archivedFilter } from './catalog';
import type { Tx } from './client';
import type { PageArgs } from './pages';

/** The rows of plans. A new row's id is named by its caller. */

export const findPlans = (tx: Tx, page: PageArgs, archived?: boolean): Promise<Plan[]> => tx.plan.findMany({ ...page, where: { ...page.where, ...archivedFilter(archived) } });

export const insertPlan = (tx: Tx, plan: Prisma.PlanUncheckedCreateInput): Promise<Plan> => tx.plan.create({ data: plan });

/** The plan, locked against concurrent updates; none when there is no such plan. */
export async function lockPlan(tx: Tx, id: string): Promise<Plan | undefined> {
  const [plan] = await tx.$queryRaw<Plan[]>`SELECT * FROM plans WHERE id = ${id} FOR UPDATE`;
  return plan;
}

export const updatePlanRow = (tx: Tx, id: string, data: Prisma.PlanUncheckedUpdateInput): Promise<Plan> => tx.plan.update({ where: { id }, data });
