import { createHash } from 'node:crypto';
import type { Db, Queryable } from '../db/client';
import { isUniqueViolation } from '../db/errors';
import { claimIdempotencyKey, idempotencyCutoff } from '../db/idempotency';
import { provisionFailed, scheduled } from '../db/instance-state';
import { insertPendingInstance, lockPlanForCreate, moveToNode, readCreateCatalog, readInstance } from '../db/new-instances';
import { countCreate } from '../db/rate-limits';
import { assertProjectAllows, lockProject } from '../db/projects';
import { assertProjectQuota, assertQuota, planPlacement, releaseReservations } from '../db/reservations';
import { reserveAddress, reserveVmid, reservingTransaction } from '../db/ranges';
import { openTask } from '../db/tasks';
import { assertNotArchived } from '../domain/archived';
import { decideLogin } from '../domain/credentials-policy';
import { AppError } from '../domain/errors';
import type { Backup } from '../generated/prisma/client';
import type { CredentialType } from '../generated/prisma/enums';
import { newId } from '../security/ids';
import { startCommittedWorkflow } from '../temporal/committed-start';
import { intentColumns, workflowSummary, type StartIntent } from '../temporal/start-intents';
import { provisionWorkflowId } from '../temporal/workflow-ids';
import { decideOnServer } from './access';
import { projectNotFound, projectToCreateIn } from './projects';
import type { ServiceDeps } from './deps';
import { resolveSshKeys } from './ssh-keys';
import { instanceInclude, type InstanceRow } from './instances';
import type { Principal } from './principal';

type Deps = Pick<ServiceDeps, 'db' | 'temporal' | 'config' | 'logger' | 'afterCommit'>;

/** A create: an image to install (`imageId`), or one of the caller's backups to restore as a new server (`backupId`). */
export interface CreateInstanceRequest {
  planId: string;
  /** Required with `imageId`; with `backupId` it defaults to the backup's location. */
  locationId?: string;
  imageId?: string;
  backupId?: string;
  hostname: string;
  username?: string;
  sshKeys?: string[];
  /** Keys saved on the caller's account (see ssh-keys.ts), handed over beside `sshKeys`. */
  sshKeyIds?: string[];
  userData?: string;
  credentialType?: CredentialType;
  /** The project of the tenant it goes into; none: the tenant's default project (a project token's own). */
  projectId?: string;
}

export interface CreateResult {
  instance: InstanceRow;
  taskId: string;
  replay: boolean;
}

function canonicalHash(value: unknown): string {
  const canonical = JSON.stringify(value, (_key, v: unknown) =>
    v && typeof v === 'object' && !Array.isArray(v) ? Object.fromEntries(Object.entries(v).sort(([a], [b]) => a.localeCompare(b))) : v,
  );
  return createHash('sha256').update(canonical).digest('hex');
}

async function loadInstanceRow(db: Db, id: string): Promise<InstanceRow> {
  return db.instance.findUniqueOrThrow({ where: { id }, include: instanceInclude });
}

/**
 * An earlier request with the same key: the same body replays it, another body conflicts. A key
 * older than its lifetime (`expiredBefore`) is treated as new.
 */
async function replayOf(db: Db, userId: string, key: string, requestHash: string, expiredBefore: Date): Promise<CreateResult | null> {
  const earlier = await db.idempotencyKey.findUnique({ where: { userId_key: { userId, key } } });
  if (!earlier?.instanceId || earlier.createdAt < expiredBefore) return null;
  if (earlier.requestHash !== requestHash) {
    throw new AppError('CONFLICT', 'This Idempotency-Key was already used with a different request.', { instanceId: earlier.instanceId });
  }
  const instance = await loadInstanceRow(db, earlier.instanceId);
  const task = await db.task.findFirstOrThrow({ where: { instanceId: instance.id, type: 'INSTANCE_CREATE' } });
  return { instance, taskId: task.id, replay: true };
}

/** Another request holds the Idempotency-Key: the caller replays it once it is committed. */
class IdempotencyKeyHeld extends AppError {
  constructor() {
    super('CONFLICT', 'Another request with this Idempotency-Key is being handled; send it again for its answer.');
  }
}

/** The first line of a create's step thread, written with the task. */
const RESERVED_STEP = { step: 'schedule > reserving resources', message: 'Capacity, addresses and an ID were reserved.', progress: 5 };

/**
 * Validates a create request and commits every reservation in one transaction (no provider
 * call inside), then starts the provisioning workflow. With `backupId` it is a restore-as-new:
 * the same reservations, a disk written from the backup's archive instead of an image.
 */
export async function createInstance(deps: Deps, who: Principal, body: CreateInstanceRequest, idempotencyKey?: string): Promise<CreateResult> {
  const { db } = deps;
  const tenantId = who.tenantId;
  if (!tenantId) throw new AppError('FORBIDDEN', 'Only customers create servers.');
  const requestHash = canonicalHash(body);
  const expiredBefore = idempotencyCutoff(new Date(), deps.config.IDEMPOTENCY_KEY_TTL_HOURS);
  if (idempotencyKey) {
    const replay = await replayOf(db, who.userId, idempotencyKey, requestHash, expiredBefore);
    if (replay) return replay;
  }

  const projectId = await projectToCreateIn(deps, who, body.projectId);
  const backup = body.backupId === undefined ? null : await restorableBackup(db, tenantId, body.backupId);
  // Restoring a backup as a new server reads its disk: the caller must be allowed the backups of its server.
  const mayRestore = backup ? await decideOnServer(deps, who, 'server.backups', backup.instanceId) : null;
  if (mayRestore && !mayRestore.allowed) {
    throw mayRestore.hidden ? new AppError('NOT_FOUND', 'The backup was not found.', { fields: { backupId: 'no such backup' } }) : new AppError('FORBIDDEN', mayRestore.reason, { action: 'server.backups' });
  }
  const locationId = body.locationId ?? backup?.instance.locationId ?? '';
  const { plan, location, image, tenant } = await readCreateCatalog(db, { planId: body.planId, locationId, imageId: backup?.instance.imageId ?? body.imageId ?? '', tenantId });
  if (!tenant) throw new Error(`tenant ${tenantId} does not exist`);
  const missing: Record<string, string> = {};
  if (!plan) missing.planId = 'no such plan';
  if (!location) missing.locationId = 'no such location';
  if (!image) missing.imageId = 'no such image';
  if (!plan || !location || !image) throw new AppError('INVALID_INPUT', 'The request refers to something that does not exist.', { fields: missing });

  assertNotArchived({
    planId: plan.archivedAt,
    // A restored server keeps its original's image, archived or not: nothing is installed from it.
    imageId: backup ? null : image.archivedAt,
    locationId: location.archivedAt ?? location.connection.archivedAt,
  });
  if (body.userData !== undefined && !location.connection.snippetsStorage) {
    throw new AppError('USER_DATA_UNSUPPORTED', 'This location cannot hand custom user data to a server; create it without userData.', { fields: { userData: 'not supported in this location' } });
  }

  const login = decideLogin(
    { username: body.username, sshKeys: await resolveSshKeys(db, who, body.sshKeyIds, body.sshKeys), credentialType: body.credentialType },
    image,
    plan.defaultUsername,
    deps.config.DEFAULT_USERNAME,
  );
  const connection = location.connection;
  const templates = image.templates.filter((t) => t.connectionId === connection.id);
  if (backup) assertRestorableHere(backup, location.id, plan.diskGiB);
  else if (templates.length === 0) {
    throw new AppError('UNSUPPORTED', 'This image is not available in this location.', { fields: { imageId: 'not offered here' } });
  }
  // The archive lies on the storage of the host that wrote it, so a restore runs there.
  const candidateNodes = backup ? [backup.node] : templates.map((t) => t.node);
  const sizing = { vcpus: plan.vcpus, memoryMiB: plan.memoryMiB, diskGiB: plan.diskGiB };
  const openPools = location.ipPools.filter((p) => !p.archivedAt);
  const pool4 = openPools.find((p) => p.family === 4);
  const pool6 = openPools.find((p) => p.family === 6);

  const templateOn = (node: string) => templates.find((t) => t.node === node)?.templateVmid ?? null;
  let created: { instanceId: string; taskId: string; intent: StartIntent; row: InstanceRow };
  try {
    created = await reservingTransaction(
      db,
      async (tx, runningLow) => {
        const instanceId = newId('inst');
        const taskId = newId('task');
        const intent = provisionIntent(deps, {
          instanceId,
          taskId,
          summary: workflowSummary({ operation: 'create', hostname: body.hostname, plan: plan.name, tenantId }),
          ...(backup ? { fromBackup: true } : {}),
        });
        if (idempotencyKey && !(await claimIdempotencyKey(tx, { userId: who.userId, key: idempotencyKey, requestHash, instanceId, expiredBefore }))) {
          throw new IdempotencyKeyHeld();
        }
        const placement = await planPlacement(tx, { connectionId: connection.id, candidateNodes, sizing });
        await insertPendingInstance(tx, {
          id: instanceId,
          tenantId,
          projectId,
          userId: who.userId,
          hostname: body.hostname,
          planId: plan.id,
          locationId: location.id,
          imageId: image.id,
          connectionId: connection.id,
          username: login.username,
          sshKeys: login.sshKeys,
          userData: body.userData ?? null,
          credentialType: login.credentialType,
          restoredFromBackupId: backup?.id ?? null,
          charged: sizing,
          storage: connection.storage,
        });
        const task = await openTask(tx, { id: taskId, instanceId, tenantId, type: 'INSTANCE_CREATE', workflowId: provisionWorkflowId(instanceId), ...intentColumns(intent) }, { ...RESERVED_STEP, status: 'success' });
        // VMIDs and addresses are taken with SKIP LOCKED: no create waits for another's here.
        const vmid = await reserveVmid(tx, connection, instanceId, deps.config.VMID_REUSE_COOLDOWN_SECONDS, runningLow);
        const ipv4 = pool4 ? await reserveAddress(tx, pool4, instanceId, deps.config.ADDRESS_REUSE_COOLDOWN_SECONDS, runningLow) : null;
        if (!ipv4) throw new AppError('CAPACITY_UNAVAILABLE', 'There are no free IPv4 addresses in this location right now.', { resource: 'ipv4' });
        // IPv6 is best effort: a full or missing pool leaves the server IPv4-only.
        const ipv6 = pool6 ? await reserveAddress(tx, pool6, instanceId, deps.config.ADDRESS_REUSE_COOLDOWN_SECONDS, runningLow) : null;
        const preferred = placement.preferred.node;
        await scheduled(tx, instanceId, { actorUserId: who.userId, node: preferred, vmid, templateVmid: templateOn(preferred) });
        // The answer is the server as this transaction commits it: its own writes, and the catalog rows it was checked against.
        let instance = await readInstance(tx, instanceId);
        // The locks other creates wait for come last, user → project → tenant → node, each held until commit.
        await countCreate(tx, deps.config, who.userId);
        await assertPlanUnchanged(tx, plan);
        const project = await lockProject(tx, tenantId, projectId);
        if (!project) throw projectNotFound();
        assertProjectAllows(project, { planId: plan.id, imageId: image.id, locationId: location.id });
        await assertProjectQuota(tx, project, sizing, true, instanceId);
        await assertQuota(tx, tenant, sizing, true, instanceId);
        const { node } = await placement.reserve(tx, instanceId);
        if (node !== preferred) instance = await moveToNode(tx, instanceId, node, templateOn(node));
        const addresses = [ipv4, ipv6].flatMap((address) => (address ? [address] : []));
        return { instanceId, taskId, intent, row: { ...instance, plan, location, image, connection, addresses, iso: null, tasks: [task] } };
      },
      { maxWaitMs: 20_000, timeoutMs: 30_000 },
    );
  } catch (error) {
    if (idempotencyKey && (error instanceof IdempotencyKeyHeld || isUniqueViolation(error))) {
      const replay = await replayOf(db, who.userId, idempotencyKey, requestHash, expiredBefore);
      if (replay) return replay;
    }
    throw error;
  }

  await startProvisioning(deps, tenantId, created);
  return { instance: created.row, taskId: created.taskId, replay: false };
}

/** The caller's backup a new server is restored from; another tenant's (or a deleted one) is NOT_FOUND like any unknown id. */
async function restorableBackup(db: Db, tenantId: string, backupId: string) {
  const backup = await db.backup.findFirst({ where: { id: backupId, tenantId, status: { not: 'deleted' } }, include: { instance: true } });
  if (!backup) throw new AppError('NOT_FOUND', 'The backup was not found.', { fields: { backupId: 'no such backup' } });
  return backup;
}

/**
 * A backup restores as a new server when its archive is written (`available`, external ones
 * included), in the location whose storage holds it, onto a plan whose disk holds its server's.
 */
function assertRestorableHere(backup: Backup & { instance: { locationId: string; chargedDiskGiB: number } }, locationId: string, planDiskGiB: number): void {
  if (backup.status !== 'available' || !backup.volid) {
    throw new AppError('BACKUP_NOT_RESTORABLE', `The backup is ${backup.status}; only an available backup can be restored.`, { status: backup.status });
  }
  if (backup.instance.locationId !== locationId) {
    throw new AppError('UNSUPPORTED', "The backup is stored in another location; create the server in the backup's location.", { fields: { locationId: 'not where the backup is stored' } });
  }
  if (planDiskGiB < backup.instance.chargedDiskGiB) {
    throw new AppError('PLAN_DISK_TOO_SMALL', `The backup holds a ${backup.instance.chargedDiskGiB} GiB disk; choose a plan with at least that much disk.`, {
      fields: { planId: 'disk too small for the backup' },
      diskGiB: backup.instance.chargedDiskGiB,
    });
  }
}

/**
 * The plan as read before the transaction still holds: its row is share-locked until commit, so
 * an admin's PATCH either sees this server (and keeps the sizes) or finished first and is seen here.
 */
async function assertPlanUnchanged(tx: Queryable, plan: { id: string; vcpus: number; memoryMiB: number; diskGiB: number }): Promise<void> {
  const now = await lockPlanForCreate(tx, plan.id);
  if (!now) return;
  assertNotArchived({ planId: now.archivedAt });
  if (now.vcpus !== plan.vcpus || now.memoryMiB !== plan.memoryMiB || now.diskGiB !== plan.diskGiB) {
    throw new AppError('CONFLICT', 'The plan changed while this request was handled; send it again.', { fields: { planId: 'changed' } });
  }
}

function provisionIntent(deps: Pick<ServiceDeps, 'config'>, args: { instanceId: string; taskId: string; summary: string; fromBackup?: true }): StartIntent {
  return { workflowType: 'ProvisionInstance', workflowArgs: { ...args, timeoutScale: deps.config.STAGE_TIMEOUT_SCALE } };
}

/**
 * Starts the workflow for committed reservations. If Temporal cannot be reached after a few
 * tries the reservations are released, so nothing is stranded, and the Idempotency-Key is
 * forgotten, so the same request can be sent again.
 */
function startProvisioning(deps: Deps, tenantId: string, created: { instanceId: string; taskId: string; intent: StartIntent }): Promise<void> {
  const { instanceId } = created;
  const message = 'The provisioning service is unavailable; nothing was kept. Please try again.';
  return startCommittedWorkflow(deps, {
    ...created,
    tenantId,
    workflowId: provisionWorkflowId(instanceId),
    status: 'scheduling',
    unavailableMessage: message,
    undo: async (tx) => {
      await tx.idempotencyKey.deleteMany({ where: { instanceId } });
      await releaseReservations(tx, instanceId);
      await tx.volume.updateMany({ where: { instanceId }, data: { status: 'errored' } });
      await provisionFailed(tx, instanceId, { code: 'PROVIDER_UNAVAILABLE', message }, { reason: 'the workflow could not be started' });
    },
  });
}
