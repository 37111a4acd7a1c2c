import type { Tx } from '../db/client';
import { recordAudit } from '../db/audit';
import { shareLockInstanceStatus } from '../db/locks';
import { RESCUE_USERNAME } from '../domain/boot-media';
import { AppError } from '../domain/errors';
import type { ServiceDeps } from './deps';
import { findInstance } from './instances';
import { readyIsoVolume, rescueIsoVolume } from './isos';
import { answer, requestOperation, type LockedInstance, type OperationAnswer, type OperationDeps } from './operations';
import type { Principal } from './principal';

/** Proxmox keeps an ISO on the node's own storage, or a shared one: a server's CD-ROM holds only what its node can read. */
const placementOf = (instance: LockedInstance) => ({ tenantId: instance.tenantId, locationId: instance.locationId, node: instance.node ?? '' });

/** Mounts an ISO the tenant may use and the server's node holds ready; a reboot boots from it once the CD-ROM is first. */
export async function requestIsoMount(deps: OperationDeps, who: Principal, instanceId: string, isoId: string): Promise<OperationAnswer> {
  const { taskId } = (await requestOperation(deps, who, instanceId, {
    operation: 'iso_mount',
    prepare: async (tx, instance) => ({ params: { boot: { iso: { isoId, volume: await readyIsoVolume(tx, isoId, placementOf(instance)) } } } }),
  })) as { taskId: string };
  return answer(deps, who, instanceId, taskId, 202);
}

/** Empties the CD-ROM drive (at once, on a running server too). */
export async function requestIsoEject(deps: OperationDeps, who: Principal, instanceId: string): Promise<OperationAnswer> {
  const { taskId } = (await requestOperation(deps, who, instanceId, { operation: 'iso_eject', prepare: async () => ({ params: { boot: { iso: null } } }) })) as { taskId: string };
  return answer(deps, who, instanceId, taskId, 202);
}

/** What the server boots from first, from its next start or reboot; the CD-ROM first needs an ISO in it. */
export async function requestBootOrder(deps: OperationDeps, who: Principal, instanceId: string, first: 'disk' | 'cdrom'): Promise<OperationAnswer> {
  const { taskId } = (await requestOperation(deps, who, instanceId, {
    operation: 'boot_order',
    prepare: async (_tx, instance) => {
      if (first === 'cdrom' && !instance.isoId) throw new AppError('INVALID_STATE', 'Mount an ISO before booting from the CD-ROM first.', { fields: { first: 'no ISO is mounted' } });
      return { params: { boot: { bootFirst: first } } };
    },
  })) as { taskId: string };
  return answer(deps, who, instanceId, taskId, 202);
}

async function assertRescuePossible(tx: Tx, instance: LockedInstance): Promise<void> {
  const connection = await tx.proxmoxConnection.findUniqueOrThrow({ where: { id: instance.connectionId }, select: { snippetsStorage: true, snippetsDirectory: true } });
  if (!connection.snippetsStorage || !connection.snippetsDirectory) {
    throw new AppError('RESCUE_UNAVAILABLE', "This server's location cannot hand a rescue password over (it has no snippets storage).");
  }
}

/**
 * Rescue mode: the location's rescue ISO in the CD-ROM drive, first in the boot order, a fresh
 * rescue password handed over through the cloud-init drive, then a reboot (or a start). The
 * server's disk stays attached; the server shows `rescue` while it runs in it.
 */
export async function requestRescueEnter(deps: OperationDeps, who: Principal, instanceId: string): Promise<OperationAnswer> {
  const { taskId } = (await requestOperation(deps, who, instanceId, {
    operation: 'rescue_enter',
    prepare: async (tx, instance) => {
      const iso = await rescueIsoVolume(tx, placementOf(instance));
      await assertRescuePossible(tx, instance);
      // A password of an earlier entry that failed is worth nothing now.
      await tx.rescueCredential.deleteMany({ where: { instanceId } });
      return { params: { boot: { iso, bootFirst: 'cdrom', rescue: 'enter' } } };
    },
  })) as { taskId: string };
  return answer(deps, who, instanceId, taskId, 202);
}

/** Leaves rescue mode: the CD-ROM emptied, the disk first, and a reboot into it (a stopped server stays stopped). */
export async function requestRescueLeave(deps: OperationDeps, who: Principal, instanceId: string): Promise<OperationAnswer> {
  const { taskId } = (await requestOperation(deps, who, instanceId, {
    operation: 'rescue_leave',
    prepare: async (_tx, instance) => {
      if (!instance.rescueSince) throw new AppError('INVALID_STATE', 'The server is not in rescue mode.', { status: instance.status });
      return { params: { boot: { iso: null, bootFirst: 'disk', rescue: 'leave' } } };
    },
  })) as { taskId: string };
  return answer(deps, who, instanceId, taskId, 202);
}

export interface RevealedRescuePassword {
  username: string;
  password: string;
  expiresAt: string;
}

/**
 * Reveal-once, as a provision's credential: one transaction locks the row, marks it revealed and
 * erases the secret before the plaintext leaves. Only while the server is in rescue.
 */
export async function revealRescuePassword(deps: Pick<ServiceDeps, 'db' | 'secrets'>, who: Principal, instanceId: string): Promise<RevealedRescuePassword> {
  const instance = await findInstance(deps, who, instanceId);
  return deps.db.$transaction(async (tx) => {
    const status = await shareLockInstanceStatus(tx, instance.id);
    const [row] = await tx.$queryRaw<{ id: string }[]>`SELECT id FROM rescue_credentials WHERE "instanceId" = ${instance.id} FOR UPDATE`;
    const credential = row ? await tx.rescueCredential.findUnique({ where: { id: row.id } }) : null;
    if (status !== 'rescue' && !(status === 'stopped' && instance.rescueSince)) throw new AppError('INVALID_STATE', 'The rescue password can be revealed while the server is in rescue mode.', { status });
    if (!credential) throw new AppError('NOT_FOUND', 'This server has no rescue password to reveal.');
    if (credential.revealedAt) throw new AppError('CREDENTIAL_ALREADY_REVEALED', 'This rescue password was already revealed.');
    if (credential.expiresAt.getTime() <= Date.now()) throw new AppError('CREDENTIAL_EXPIRED', 'This rescue password has expired.');
    await tx.rescueCredential.update({ where: { id: credential.id }, data: { revealedAt: new Date(), secretCipher: null } });
    await recordAudit(tx, { action: 'rescue.password_revealed', tenantId: instance.tenantId, instanceId: instance.id });
    return { username: RESCUE_USERNAME, password: deps.secrets.open(credential.secretCipher as string, credential.id), expiresAt: credential.expiresAt.toISOString() };
  });
}
