import { AppError } from '../domain/errors';
import type { ApiDeps } from './app';
import type { InstanceRow } from './views';

/**
 * Reveal-once: one transaction locks the credential row, marks it revealed and erases the
 * secret before the plaintext leaves; of any number of concurrent reveals exactly one succeeds.
 */
export async function revealCredential(deps: ApiDeps, instance: InstanceRow) {
  if (instance.status === 'pending' || instance.status === 'scheduling' || instance.status === 'provisioning') {
    throw new AppError('INVALID_STATE', 'The credential can be revealed once the server is running.');
  }
  return deps.db.$transaction(async (tx) => {
    const [locked] = await tx.$queryRaw<{ id: string }[]>`SELECT id FROM credentials WHERE "instanceId" = ${instance.id} FOR UPDATE`;
    const credential = locked ? await tx.credential.findUnique({ where: { id: locked.id } }) : null;
    if (!credential) throw new AppError('NOT_FOUND', 'This server has no credential to reveal.');
    if (credential.revealedAt) throw new AppError('CREDENTIAL_ALREADY_REVEALED', 'This credential was already revealed.');
    if (credential.expiresAt.getTime() <= Date.now()) throw new AppError('CREDENTIAL_EXPIRED', 'This credential has expired.');
    await tx.credential.update({ where: { id: credential.id }, data: { revealedAt: new Date(), secretCipher: null } });
    await tx.auditEvent.create({ data: { tenantId: instance.tenantId, instanceId: instance.id, action: 'credential.revealed' } });
    const password = credential.secretCipher ? deps.secrets.open(credential.secretCipher, instance.id) : undefined;
    return {
      username: credential.username,
      ...(password ? { password } : {}),
      ...(credential.sshKeys.length ? { sshKeys: credential.sshKeys } : {}),
      expiresAt: credential.expiresAt.toISOString(),
    };
  });
}
