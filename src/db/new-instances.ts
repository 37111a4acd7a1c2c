/**
 * The rows a create request writes for a new server, as single statements that run in its
 * reserving transaction (a transaction of our own on the pool; see `sqlTransaction`), and the
 * catalog rows it is checked against, read in one statement before it. Rows keep the generated
 * model types.
 */
import { Prisma, type Image, type ImageTemplate, type Instance, type IpPool, type Location, type Plan, type ProxmoxConnection, type Tenant } from '../generated/prisma/client';
import type { CredentialType } from '../generated/prisma/enums';
import { newId } from '../security/ids';
import { runSql, sqlOf, type Db, type Queryable } from './client';
import { PRISMA_LIKE_TYPES, revive } from './pg-rows';

export interface CreateCatalog {
  plan: Plan | null;
  location: (Location & { ipPools: IpPool[]; connection: ProxmoxConnection }) | null;
  image: (Image & { templates: ImageTemplate[] }) | null;
  tenant: Tenant | null;
}

/** The plan, the location with its pools (oldest first) and cluster, the image with its templates, and the tenant; null for an unknown id. */
export async function readCreateCatalog(db: Db, ids: { planId: string; locationId: string; imageId: string; tenantId: string }): Promise<CreateCatalog> {
  const { rows } = await sqlOf(db).query<Record<keyof CreateCatalog, unknown>>({
    text: `SELECT
        (SELECT to_jsonb(p) FROM plans p WHERE p.id = $1) AS plan,
        (SELECT to_jsonb(l) || jsonb_build_object(
            'ipPools', (SELECT COALESCE(jsonb_agg(ip ORDER BY ip."createdAt", ip.id), '[]') FROM ip_pools ip WHERE ip."locationId" = l.id),
            'connection', (SELECT to_jsonb(c) FROM proxmox_connections c WHERE c.id = l."connectionId"))
          FROM locations l WHERE l.id = $2) AS location,
        (SELECT to_jsonb(im) || jsonb_build_object('templates', (SELECT COALESCE(jsonb_agg(t ORDER BY t.id), '[]') FROM image_templates t WHERE t."imageId" = im.id))
          FROM images im WHERE im.id = $3) AS image,
        (SELECT to_jsonb(t) FROM tenants t WHERE t.id = $4) AS tenant`,
    values: [ids.planId, ids.locationId, ids.imageId, ids.tenantId],
    types: PRISMA_LIKE_TYPES,
  });
  return revive(rows[0]) as CreateCatalog;
}

export interface PendingInstance {
  id: string;
  tenantId: string;
  projectId: string;
  userId: string;
  hostname: string;
  planId: string;
  locationId: string;
  imageId: string;
  connectionId: string;
  username: string;
  sshKeys: string[];
  userData: string | null;
  credentialType: CredentialType;
  restoredFromBackupId: string | null;
  charged: { vcpus: number; memoryMiB: number; diskGiB: number };
  /** The root volume's storage. */
  storage: string;
}

/** A server that is to be made (`pending`, desired `running`) and its root volume, in one statement. */
export async function insertPendingInstance(tx: Queryable, o: PendingInstance): Promise<void> {
  const now = new Date();
  await runSql(tx, Prisma.sql`
    WITH instance AS (
      INSERT INTO instances (id, "tenantId", "projectId", "userId", hostname, status, "desiredState", "planId", "locationId", "imageId", "connectionId",
        username, "sshKeys", "userData", "credentialType", "restoredFromBackupId", "chargedVcpus", "chargedMemoryMiB", "chargedDiskGiB", "createdAt", "updatedAt")
      VALUES (${o.id}, ${o.tenantId}, ${o.projectId}, ${o.userId}, ${o.hostname}, 'pending', 'running', ${o.planId}, ${o.locationId}, ${o.imageId}, ${o.connectionId},
        ${o.username}, CAST(${o.sshKeys} AS text[]), ${o.userData}, CAST(${o.credentialType} AS "CredentialType"), ${o.restoredFromBackupId},
        ${o.charged.vcpus}, ${o.charged.memoryMiB}, ${o.charged.diskGiB}, ${now}, ${now})
      RETURNING id)
    INSERT INTO volumes (id, "instanceId", "sizeGiB", storage, status, "createdAt", "updatedAt")
    SELECT ${newId('vol')}, instance.id, ${o.charged.diskGiB}, ${o.storage}, 'pending', ${now}, ${now} FROM instance`);
}

/** The instance row as the transaction sees it. */
export async function readInstance(tx: Queryable, instanceId: string): Promise<Instance> {
  const [instance] = await runSql<Instance>(tx, Prisma.sql`SELECT * FROM instances WHERE id = ${instanceId}`);
  if (!instance) throw new Error(`instance ${instanceId} does not exist`);
  return instance;
}

/** The node the instance's capacity was reserved on, when it is not the one it was scheduled to. */
export async function moveToNode(tx: Queryable, instanceId: string, node: string, templateVmid: number | null): Promise<Instance> {
  const [instance] = await runSql<Instance>(tx, Prisma.sql`
    UPDATE instances SET node = ${node}, "templateVmid" = ${templateVmid}::int, "updatedAt" = ${new Date()} WHERE id = ${instanceId} RETURNING *`);
  if (!instance) throw new Error(`instance ${instanceId} does not exist`);
  return instance;
}

/**
 * The plan's sizes and archive date, its row share-locked until commit: an admin's PATCH of the
 * plan either sees the new server or finished before this read. Null for a plan that is gone.
 */
export async function lockPlanForCreate(tx: Queryable, planId: string): Promise<Pick<Plan, 'vcpus' | 'memoryMiB' | 'diskGiB' | 'archivedAt'> | null> {
  const [plan] = await runSql<Pick<Plan, 'vcpus' | 'memoryMiB' | 'diskGiB' | 'archivedAt'>>(tx, Prisma.sql`
    SELECT vcpus, "memoryMiB", "diskGiB", "archivedAt" FROM plans WHERE id = ${planId} FOR KEY SHARE`);
  return plan ?? null;
}
