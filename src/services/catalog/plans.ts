import { countLiveServers } from '../../db/catalog';
import { findPlans, insertPlan, lockPlan, updatePlanRow } from '../../db/catalog-plans';
import type { PageArgs } from '../../db/pages';
import { AppError } from '../../domain/errors';
import type { Plan } from '../../generated/prisma/client';
import { newId } from '../../security/ids';
import { audit, type CatalogDeps, createRow, updateRow } from './changes';

/** Plans: the sizes servers are built and charged with. */

export interface PlanSpec {
  name: string;
  vcpus: number;
  memoryMiB: number;
  diskGiB: number;
  defaultUsername?: string;
  snapshotLimit?: number;
  backupLimit?: number;
  trafficAllowanceGiB?: number | null;
  trafficCounted?: 'out' | 'in+out' | 'max';
  trafficOverage?: 'throttle' | 'none';
  throttleMbps?: number | null;
  billingPeriod?: 'calendar_month' | 'anniversary';
}

export type PlanChange = Partial<Omit<PlanSpec, 'defaultUsername'>> & { defaultUsername?: string | null; archived?: boolean };

/** The plan's columns for what was written: `in+out` is stored as `in_out`. */
function columnsOf<T extends { trafficCounted?: 'out' | 'in+out' | 'max' }>(spec: T): Omit<T, 'trafficCounted'> & { trafficCounted?: 'out' | 'in_out' | 'max' } {
  const { trafficCounted, ...rest } = spec;
  return { ...rest, ...(trafficCounted ? { trafficCounted: trafficCounted === 'in+out' ? 'in_out' : trafficCounted } : {}) };
}

/** A throttling plan needs a throttle to hold servers to. */
function assertThrottleTerms(plan: { trafficOverage: string; throttleMbps: number | null }): void {
  if (plan.trafficOverage === 'throttle' && plan.throttleMbps === null) {
    throw new AppError('INVALID_INPUT', 'The request body is invalid.', { fields: { throttleMbps: 'a plan that throttles needs throttleMbps' } });
  }
}

const SIZES = ['vcpus', 'memoryMiB', 'diskGiB'];

/** Every plan, or only the archived (true) or current (false) ones. */
export const listPlans = (deps: CatalogDeps, page: PageArgs, archived?: boolean): Promise<Plan[]> => findPlans(deps.db, page, archived);

/** The plans customers choose from: not archived. */
export const listOfferedPlans = (deps: CatalogDeps, page: PageArgs): Promise<Plan[]> => findPlans(deps.db, page, false);

export function createPlan(deps: CatalogDeps, actorUserId: string, plan: PlanSpec): Promise<Plan> {
  return createRow(deps, ['plan'], async (tx) => {
    assertThrottleTerms({ trafficOverage: plan.trafficOverage ?? 'none', throttleMbps: plan.throttleMbps ?? null });
    const created = await insertPlan(tx, { id: newId('plan'), ...columnsOf(plan), defaultUsername: plan.defaultUsername ?? null });
    await audit(tx, actorUserId, 'plan.created', { planId: created.id, name: created.name });
    return created;
  });
}

/** Sizes are what servers were built and charged with: they stay while any server uses the plan. */
export function updatePlan(deps: CatalogDeps, actorUserId: string, id: string, change: PlanChange): Promise<Plan> {
  return updateRow(deps, actorUserId, id, change, {
    duplicate: ['plan'],
    lock: lockPlan,
    noun: 'plan',
    action: 'plan.updated',
    subject: 'planId',
    apply: async (tx, { fields, archive, changes }) => {
      const sizeChanged = changes.changed.filter((key) => SIZES.includes(key));
      if (sizeChanged.length > 0) {
        const instances = await countLiveServers(tx, { planId: id });
        if (instances > 0) {
          throw new AppError('CONFLICT', `The plan's sizes cannot change while ${instances} server(s) use it; create a new plan and archive this one.`, {
            fields: Object.fromEntries(sizeChanged.map((key) => [key, 'in use'])),
            instances,
          });
        }
      }
      const updated = await updatePlanRow(tx, id, { ...columnsOf(fields as PlanChange), ...archive });
      assertThrottleTerms(updated);
      return updated;
    },
  });
}
