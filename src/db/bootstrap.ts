import { newId } from '../security/ids';
import { hashToken } from '../security/secrets';
import type { Db } from './client';
import { isUniqueViolation } from './errors';
import { recordAudit } from './audit';

export const BOOTSTRAP_ADMIN_EMAIL = 'admin@localhost';

/** What a bearer token may contain (the Authorization header parser accepts exactly this). */
const TOKEN_PATTERN = /^[A-Za-z0-9._~+/=-]{16,256}$/;

export interface BootstrapResult {
  /** False when no token was configured. */
  configured: boolean;
  /** True when this call created the token (false: it already existed). */
  created: boolean;
  userId?: string;
  /** How many earlier bootstrap tokens this call revoked. */
  revokedPrevious?: number;
}

/**
 * Makes sure an admin token with exactly the configured secret exists (BOOTSTRAP_ADMIN_TOKEN)
 * and that it is the only bootstrap token that works: a start with a new value revokes the
 * previous one. Idempotent and safe when several processes start at once. While the variable is
 * set, the environment is the source of truth: a revoked bootstrap token is reinstated and its
 * user enabled again. Without the variable, nothing changes.
 */
export async function ensureBootstrapAdmin(db: Db, token?: string): Promise<BootstrapResult> {
  if (!token) return { configured: false, created: false };
  if (!TOKEN_PATTERN.test(token)) {
    throw new Error('BOOTSTRAP_ADMIN_TOKEN must be 16 to 256 characters of A-Z a-z 0-9 . _ ~ + / = -');
  }
  const tokenHash = hashToken(token);

  for (let attempt = 0; attempt < 3; attempt++) {
    const existing = await db.apiToken.findUnique({ where: { tokenHash }, include: { user: true } });
    if (existing) {
      if (existing.user.role !== 'admin') {
        throw new Error('BOOTSTRAP_ADMIN_TOKEN is already the token of a user who is not an administrator');
      }
      if (existing.revokedAt || !existing.bootstrap || existing.expiresAt) {
        await db.apiToken.update({ where: { id: existing.id }, data: { revokedAt: null, bootstrap: true, expiresAt: null } });
      }
      if (existing.user.disabledAt) await db.user.update({ where: { id: existing.userId }, data: { disabledAt: null } });
      const revokedPrevious = await revokeOtherBootstrapTokens(db, existing.id);
      return { configured: true, created: false, userId: existing.userId, revokedPrevious };
    }
    try {
      const user = await db.user.upsert({
        where: { email: BOOTSTRAP_ADMIN_EMAIL },
        update: {},
        create: { id: newId('usr'), email: BOOTSTRAP_ADMIN_EMAIL, role: 'admin', tenantId: null },
      });
      if (user.role !== 'admin') throw new Error(`${BOOTSTRAP_ADMIN_EMAIL} exists and is not an administrator`);
      if (user.disabledAt) await db.user.update({ where: { id: user.id }, data: { disabledAt: null } });
      const id = newId('tok');
      await db.apiToken.create({ data: { id, userId: user.id, tokenHash, name: 'BOOTSTRAP_ADMIN_TOKEN', bootstrap: true } });
      const revokedPrevious = await revokeOtherBootstrapTokens(db, id);
      return { configured: true, created: true, userId: user.id, revokedPrevious };
    } catch (error) {
      // Another process created the user or the token first: look again.
      if (!isUniqueViolation(error)) throw error;
    }
  }
  throw new Error('could not create the bootstrap admin token');
}

/** The bootstrap token of an earlier start stops working; each revocation is audited. */
async function revokeOtherBootstrapTokens(db: Db, currentId: string): Promise<number> {
  const previous = await db.apiToken.findMany({ where: { bootstrap: true, revokedAt: null, id: { not: currentId } }, select: { id: true, userId: true } });
  let revoked = 0;
  for (const token of previous) {
    await db.$transaction(async (tx) => {
      const { count } = await tx.apiToken.updateMany({ where: { id: token.id, revokedAt: null }, data: { revokedAt: new Date() } });
      if (count === 0) return;
      revoked += 1;
      await recordAudit(tx, { action: 'token.revoked', tenantId: null, details: { userId: token.userId, tokenId: token.id, reason: 'bootstrap token replaced' } });
    });
  }
  return revoked;
}
