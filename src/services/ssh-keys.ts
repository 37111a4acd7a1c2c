/**
 * SSH public keys saved on a user's own account, named by id (`sshKeyIds`) when a server is
 * created or rebuilt. Each key is its user's alone: another user's key is NOT_FOUND, whoever asks.
 */
import { recordAudit } from '../db/audit';
import type { Db } from '../db/client';
import type { PageArgs } from '../db/pages';
import { isUniqueViolation } from '../db/errors';
import { AppError, notFound } from '../domain/errors';
import type { SshKey } from '../generated/prisma/client';
import { newId } from '../security/ids';
import { parseAccountSshKey } from '../security/ssh-keys';
import type { ServiceDeps } from './deps';
import type { Caller } from './principal';

type Deps = Pick<ServiceDeps, 'db'>;

/** Keys one account may hold. */
export const MAX_SSH_KEYS = 100;

async function tenantOf(deps: Deps, userId: string): Promise<string | null> {
  return (await deps.db.user.findUniqueOrThrow({ where: { id: userId }, select: { tenantId: true } })).tenantId;
}

/** POST /v1/ssh-keys: the key parsed, checked and fingerprinted; the same fingerprint twice on one account is SSH_KEY_EXISTS. */
export async function addSshKey(deps: Deps, who: Caller, body: { name: string; publicKey: string }): Promise<SshKey> {
  const key = parseAccountSshKey(body.publicKey);
  const tenantId = await tenantOf(deps, who.userId);
  try {
    return await deps.db.$transaction(async (tx) => {
      // Counted under the user's row lock, so two adds at once cannot pass the limit together.
      await tx.$queryRaw`SELECT id FROM users WHERE id = ${who.userId} FOR NO KEY UPDATE`;
      const held = await tx.sshKey.count({ where: { userId: who.userId } });
      if (held >= MAX_SSH_KEYS) throw new AppError('QUOTA_EXCEEDED', `An account holds at most ${MAX_SSH_KEYS} SSH keys; delete one first.`, { resource: 'ssh_keys', limit: MAX_SSH_KEYS });
      const row = await tx.sshKey.create({ data: { id: newId('sshk'), userId: who.userId, name: body.name, ...key } });
      await recordAudit(tx, { action: 'ssh_key.added', actorUserId: who.userId, tenantId, details: { userId: who.userId, sshKeyId: row.id, fingerprint: row.fingerprint, type: row.type, bits: row.bits } });
      return row;
    });
  } catch (error) {
    if (!isUniqueViolation(error)) throw error;
    const existing = await deps.db.sshKey.findUnique({ where: { userId_fingerprint: { userId: who.userId, fingerprint: key.fingerprint } }, select: { id: true } });
    throw new AppError('SSH_KEY_EXISTS', 'Your account holds this key already.', { sshKeyId: existing?.id ?? null, fingerprint: key.fingerprint });
  }
}

/** GET /v1/ssh-keys: one page of the caller's keys, newest first. */
export function listSshKeys(deps: Deps, who: Caller, page: PageArgs): Promise<SshKey[]> {
  return deps.db.sshKey.findMany({ ...page, where: { ...page.where, userId: who.userId } });
}

/** DELETE /v1/ssh-keys/{id}: servers built with the key keep it; an unknown or another user's key is NOT_FOUND. */
export async function deleteSshKey(deps: Deps, who: Caller, id: string): Promise<void> {
  const tenantId = await tenantOf(deps, who.userId);
  await deps.db.$transaction(async (tx) => {
    const row = await tx.sshKey.findFirst({ where: { id, userId: who.userId } });
    if (!row) throw notFound('SSH key');
    await tx.sshKey.delete({ where: { id } });
    await recordAudit(tx, { action: 'ssh_key.deleted', actorUserId: who.userId, tenantId, details: { userId: who.userId, sshKeyId: id, fingerprint: row.fingerprint } });
  });
}

/**
 * The public key lines of a create's or rebuild's `sshKeyIds`, with its raw `sshKeys` after them,
 * each line once. An id that is not the caller's is refused like an unknown one (INVALID_INPUT),
 * so no one learns another user's key ids.
 */
export async function resolveSshKeys(db: Db, who: Caller, sshKeyIds: readonly string[] = [], raw: readonly string[] = []): Promise<string[]> {
  const rows = sshKeyIds.length === 0 ? [] : await db.sshKey.findMany({ where: { userId: who.userId, id: { in: [...sshKeyIds] } }, select: { id: true, publicKey: true } });
  const byId = new Map(rows.map((row) => [row.id, row.publicKey]));
  const unknown = Object.fromEntries(sshKeyIds.flatMap((id, i) => (byId.has(id) ? [] : [[`sshKeyIds.${i}`, 'no such SSH key']])));
  if (Object.keys(unknown).length > 0) throw new AppError('INVALID_INPUT', 'The request refers to something that does not exist.', { fields: unknown });
  return [...new Set([...sshKeyIds.map((id) => byId.get(id) as string), ...raw])];
}
