import { recordAudit } from '../db/audit';
import { createDefaultProject } from '../db/projects';
import { notFound } from '../domain/errors';
import type { Tenant } from '../generated/prisma/client';
import { newId } from '../security/ids';
import type { ServiceDeps } from './deps';
import type { PageArgs } from '../db/pages';
import type { Principal } from './principal';

type Deps = Pick<ServiceDeps, 'db'>;

export interface Quota {
  instances: number;
  vcpus: number;
  memoryMiB: number;
  diskGiB: number;
}

/** What a tenant holds now: the servers whose quota is still charged, and its backups. */
export interface Usage extends Quota {
  /** Backups written or being written, its servers' own and those kept after their server was deleted. */
  backups: number;
  backupBytes: number;
}

export interface TenantWithUsage {
  tenant: Tenant;
  usage: Usage;
}

export async function createTenant(deps: Deps, who: Principal, body: { name: string; quota: Quota }): Promise<Tenant> {
  return deps.db.$transaction(async (tx) => {
    const created = await tx.tenant.create({
      data: {
        id: newId('ten'),
        name: body.name,
        quotaInstances: body.quota.instances,
        quotaVcpus: body.quota.vcpus,
        quotaMemoryMiB: body.quota.memoryMiB,
        quotaDiskGiB: body.quota.diskGiB,
      },
    });
    await createDefaultProject(tx, created.id);
    await recordAudit(tx, { action: 'tenant.created', actorUserId: who.userId, tenantId: created.id, details: { name: created.name } });
    return created;
  });
}

export function listTenants(deps: Deps, page: PageArgs): Promise<Tenant[]> {
  return deps.db.tenant.findMany(page);
}

export async function readTenant(deps: Deps, tenantId: string): Promise<TenantWithUsage> {
  const tenant = await deps.db.tenant.findUnique({ where: { id: tenantId } });
  if (!tenant) throw notFound('tenant');
  return usageOf(deps, tenant);
}

/** The tenant with the sizes of its servers whose quota is still charged, and its backups until they are gone. */
export async function usageOf(deps: Deps, tenant: Tenant): Promise<TenantWithUsage> {
  const [usage, backups] = await Promise.all([
    deps.db.instance.aggregate({
      where: { tenantId: tenant.id, quotaReleasedAt: null },
      _count: { _all: true },
      _sum: { chargedVcpus: true, chargedMemoryMiB: true, chargedDiskGiB: true },
    }),
    deps.db.backup.aggregate({ where: { tenantId: tenant.id, status: { in: ['pending', 'running', 'available', 'deleting'] } }, _count: { _all: true }, _sum: { sizeBytes: true } }),
  ]);
  return {
    tenant,
    usage: {
      instances: usage._count._all,
      vcpus: usage._sum.chargedVcpus ?? 0,
      memoryMiB: usage._sum.chargedMemoryMiB ?? 0,
      diskGiB: usage._sum.chargedDiskGiB ?? 0,
      backups: backups._count._all,
      backupBytes: Number(backups._sum.sizeBytes ?? 0n),
    },
  };
}
