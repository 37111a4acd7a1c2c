import { notFound } from '../domain/errors';
import type { Prisma, ProviderCall } from '../generated/prisma/client';
import type { InstanceStatus } from '../generated/prisma/enums';
import type { ServiceDeps } from './deps';
import type { PageArgs } from '../db/pages';
import { readableServers, type ListScope } from './authorization';
import { OPERATOR, tenantScope, type Caller } from './principal';

type Deps = Pick<ServiceDeps, 'db'>;

/** What every instance read loads: enough for the customer's and the admin's view, in one query. */
export const instanceInclude = {
  plan: true,
  location: true,
  image: true,
  connection: true,
  addresses: true,
  iso: { select: { id: true, name: true } },
  tasks: { orderBy: { createdAt: 'desc' }, take: 1, include: { steps: { orderBy: { id: 'asc' } } } },
} satisfies Prisma.InstanceInclude;

export type InstanceRow = Prisma.InstanceGetPayload<{ include: typeof instanceInclude }>;

/** A server the caller may see; another tenant's is NOT_FOUND. */
export async function findInstance(deps: Deps, who: Caller, id: string): Promise<InstanceRow> {
  const row = await deps.db.instance.findFirst({ where: { id, ...tenantScope(who) }, include: instanceInclude });
  if (!row) throw notFound('server');
  return row;
}

/** One page of the servers the caller may read (`scope`, see readableServers), newest first, optionally by status and project. */
export function listInstances(deps: Deps, who: Caller, page: PageArgs, filters: { state?: InstanceStatus; scope?: ListScope; projectId?: string }): Promise<InstanceRow[]> {
  const where: Prisma.InstanceWhereInput = {
    AND: [readableServers(who, filters.scope), { ...(filters.state ? { status: filters.state } : {}), ...(filters.projectId ? { projectId: filters.projectId } : {}) }],
  };
  return deps.db.instance.findMany({ ...page, where: { AND: [page.where, where] }, include: instanceInclude });
}

/** One page of every tenant's servers, for operators, by status, tenant, connection or node. */
export function listEveryInstance(deps: Deps, page: PageArgs, filters: { status?: InstanceStatus; tenantId?: string; connectionId?: string; node?: string }): Promise<InstanceRow[]> {
  const where: Prisma.InstanceWhereInput = {
    ...(filters.status ? { status: filters.status } : {}),
    ...(filters.tenantId ? { tenantId: filters.tenantId } : {}),
    ...(filters.connectionId ? { connectionId: filters.connectionId } : {}),
    ...(filters.node ? { node: filters.node } : {}),
  };
  return deps.db.instance.findMany({ ...page, where: { AND: [page.where, where] }, include: instanceInclude });
}

export interface ProviderSide {
  instance: InstanceRow;
  /** Every recorded call to Proxmox of the server, oldest first. */
  providerCalls: ProviderCall[];
}

/** A server with its provider side, for operators. */
export async function readProviderSide(deps: Deps, id: string): Promise<ProviderSide> {
  const instance = await findInstance(deps, OPERATOR, id);
  return { instance, providerCalls: await providerCallsOf(deps, id) };
}

/** Every recorded call to Proxmox of a server, oldest first (operators only: they name nodes, VMIDs and UPIDs). */
export function providerCallsOf(deps: Deps, instanceId: string): Promise<ProviderCall[]> {
  return deps.db.providerCall.findMany({ where: { instanceId }, orderBy: { createdAt: 'asc' } });
}
