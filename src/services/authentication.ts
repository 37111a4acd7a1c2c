import { stampTokenUse, tokenByHash } from '../db/api-tokens';
import { AppError } from '../domain/errors';
import { hashToken } from '../security/secrets';
import type { ServiceDeps } from './deps';
import type { Principal } from './principal';

/** lastUsedAt is written at most this often per token, so a busy client does not write on every request. */
export const LAST_USED_RESOLUTION_MS = 60_000;

/**
 * The principal of a bearer token. Tokens are looked up by their SHA-256 digest (a unique index),
 * so the comparison never touches the plaintext and takes the same time for every wrong token.
 * A revoked or expired token, or one of a disabled user, answers exactly like an unknown one.
 */
export async function tokenPrincipal(deps: Pick<ServiceDeps, 'db'>, secret: string): Promise<Principal> {
  const token = await tokenByHash(deps.db, hashToken(secret));
  const now = new Date();
  if (!token || token.revokedAt || token.disabledAt || (token.expiresAt && token.expiresAt <= now)) {
    throw new AppError('UNAUTHENTICATED', 'A valid bearer token is required.');
  }
  if (!token.lastUsedAt || now.getTime() - token.lastUsedAt.getTime() >= LAST_USED_RESOLUTION_MS) {
    await stampTokenUse(deps.db, token.id, now, new Date(now.getTime() - LAST_USED_RESOLUTION_MS));
  }
  const scoped = token.scopes && token.scopes.length > 0 ? { tokenScopes: token.scopes } : {};
  const limited = token.projectId ? { tokenProjectId: token.projectId } : {};
  return { userId: token.userId, tokenId: token.id, role: token.role, tenantId: token.tenantId, tenantRole: token.tenantRole, ...scoped, ...limited };
}
