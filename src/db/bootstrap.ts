import { newId } from '../domain/ids';
import { hashToken } from '../security/secrets';
import type { Db } from './client';
import { isUniqueViolation } from './errors';

export const BOOTSTRAP_ADMIN_EMAIL = 'admin@localhost';

/** What a bearer token may contain (the Authorization header parser accepts exactly this). */
const TOKEN_PATTERN = /^[A-Za-z0-9._~+/=-]{16,256}$/;

export interface BootstrapResult {
  /** False when no token was configured. */
  configured: boolean;
  /** True when this call created the token (false: it already existed). */
  created: boolean;
  userId?: string;
}

/**
 * Makes sure an admin token with exactly the configured secret exists (BOOTSTRAP_ADMIN_TOKEN).
 * Idempotent and safe when several processes start at once. While the variable is set, the
 * environment is the source of truth: a revoked bootstrap token is reinstated.
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
      if (existing.revokedAt) await db.apiToken.update({ where: { id: existing.id }, data: { revokedAt: null } });
      return { configured: true, created: false, userId: existing.userId };
    }
    try {
      const user = await db.user.upsert({
        where: { email: BOOTSTRAP_ADMIN_EMAIL },
        update: {},
        create: { id: newId('usr'), email: BOOTSTRAP_ADMIN_EMAIL, role: 'admin', tenantId: null },
      });
      if (user.role !== 'admin') throw new Error(`${BOOTSTRAP_ADMIN_EMAIL} exists and is not an administrator`);
      await db.apiToken.create({ data: { id: newId('tok'), userId: user.id, tokenHash } });
      return { configured: true, created: true, userId: user.id };
    } catch (error) {
      // Another process created the user or the token first: look again.
      if (!isUniqueViolation(error)) throw error;
    }
  }
  throw new Error('could not create the bootstrap admin token');
}
