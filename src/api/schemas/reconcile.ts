import { z } from 'zod';
import { OrphanStatus } from '../../generated/prisma/enums';
import { listQuerySchema } from '../openapi';
import { instanceStatusSchema, instanceView } from './instances';

const filterId = z.string().min(1).max(64);

export const adminListInstancesQuery = listQuerySchema.extend({
  status: instanceStatusSchema.optional(),
  tenantId: filterId.optional(),
  connectionId: filterId.optional(),
  node: z.string().min(1).max(64).optional(),
});

/** One server in the admin list: the customer's view with its tenant and where it runs. */
export const adminInstanceListItem = instanceView.extend({
  tenantId: z.string(),
  provider: z.object({ connectionId: z.string(), node: z.string().nullable(), vmid: z.number().int().nullable() }),
});

const count = z.number().int().min(0);

export const reconcileSummaryView = z.object({
  connectionId: z.string(),
  instanceId: z.string().optional(),
  startedLate: z.object({ started: count, alreadyStarted: count }).openapi({ description: 'Workflows of committed tasks that were never confirmed started.' }),
  guests: z.object({ changedOutside: count, undecided: count, lost: count, foundAgain: count, orphansFound: count, orphansGone: count }),
  operationsClosed: count,
  housekeeping: z.object({ credentialsErased: count, idempotencyKeysDeleted: count, rateLimitEventsDeleted: count, consolesLost: count }).nullable(),
  firewalls: z
    .object({ checked: count, restored: count, converged: count, undecided: count })
    .openapi({ description: "Guests whose firewall was checked; of them, those changed outside and set back (`restored`), those brought to anti-spoofing for the first time (`converged`), those that could not be read (`undecided`)." }),
});

export const orphanStatusSchema = z.enum(OrphanStatus);

export const listOrphansQuery = listQuerySchema.extend({
  status: orphanStatusSchema.optional(),
  connectionId: filterId.optional(),
});

export const orphanView = z.object({
  id: z.string(),
  connectionId: z.string(),
  node: z.string(),
  vmid: z.number().int(),
  name: z.string().nullable(),
  ownerInstanceId: z.string().openapi({ description: 'The instance named by the guest’s ownership marker (it may not exist).' }),
  reason: z.enum(['instance_missing', 'instance_deleted', 'instance_failed', 'other_vmid']),
  status: orphanStatusSchema,
  workflowId: z.string().nullable(),
  lastError: z.string().nullable(),
  createdAt: z.iso.datetime(),
  lastSeenAt: z.iso.datetime(),
  resolvedAt: z.iso.datetime().nullable(),
});
