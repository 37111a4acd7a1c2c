import { recordAudit } from '../db/audit';
import { lockCredentialOf, shareLockInstanceStatus } from '../db/locks';
import { AppError } from '../domain/errors';
import type { ServiceDeps } from './deps';
import { findInstance } from './instances';
import type { Principal } from './principal';

/** States with no operation under way: the stored credential is the one of the disk the server runs. */
const REVEALABLE_STATUSES = ['running', 'stopped'];

export interface RevealedCredential {
  username: string;
  password?: string;
  sshKeys?: string[];
  expiresAt: string;
}

/**
 * Reveal-once: one transaction locks the credential row, marks it revealed and erases the
 * secret before the plaintext leaves; of any number of concurrent reveals exactly one succeeds.
 * Only a `running` or `stopped` server reveals: its instance row is share-locked, so an
 * operation (a rebuild minting a new credential) cannot begin in between.
 */
export async function revealCredential(deps: Pick<ServiceDeps, 'db' | 'secrets'>, who: Principal, instanceId: string): Promise<RevealedCredential> {
  const instance = await findInstance(deps, who, instanceId);
  return deps.db.$transaction(async (tx) => {
    const status = await shareLockInstanceStatus(tx, instance.id);
    if (!status || !REVEALABLE_STATUSES.includes(status)) {
      throw new AppError('INVALID_STATE', 'The credential can be revealed while the server is running or stopped.');
    }
    const locked = await lockCredentialOf(tx, instance.id);
    const credential = locked ? await tx.credential.findUnique({ where: { id: locked } }) : null;
    if (!credential) throw new AppError('NOT_FOUND', 'This server has no credential to reveal.');
    if (credential.revealedAt) throw new AppError('CREDENTIAL_ALREADY_REVEALED', 'This credential was already revealed.');
    if (credential.expiresAt.getTime() <= Date.now()) throw new AppError('CREDENTIAL_EXPIRED', 'This credential has expired.');
    await tx.credential.update({ where: { id: credential.id }, data: { revealedAt: new Date(), secretCipher: null } });
    await recordAudit(tx, { action: 'credential.revealed', tenantId: instance.tenantId, instanceId: instance.id });
    const password = credential.secretCipher ? deps.secrets.open(credential.secretCipher, instance.id) : undefined;
    return {
      username: credential.username,
      ...(password ? { password } : {}),
      ...(credential.sshKeys.length ? { sshKeys: credential.sshKeys } : {}),
      expiresAt: credential.expiresAt.toISOString(),
    };
  });
}
