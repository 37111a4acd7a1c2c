import type { Role, TenantRole } from '../generated/prisma/enums';
import { Prisma } from '../generated/prisma/client';
import { runSql, type Db } from './client';

/** A token as authentication reads it: with its user's role, tenant and whether the user is disabled. */
export interface TokenHolder {
  id: string;
  userId: string;
  revokedAt: Date | null;
  expiresAt: Date | null;
  lastUsedAt: Date | null;
  role: Role;
  tenantId: string | null;
  tenantRole: TenantRole | null;
  scopes: string[] | null;
  projectId: string | null;
  disabledAt: Date | null;
}

/** A token and what its user is, by the token's digest, in one statement on the pool (every request makes it). */
export async function tokenByHash(db: Db, tokenHash: string): Promise<TokenHolder | undefined> {
  const [token] = await runSql<TokenHolder>(db, Prisma.sql`
    SELECT t.id, t."userId", t.scopes, t."projectId", t."revokedAt", t."expiresAt", t."lastUsedAt", u.role::text AS role, u."tenantId", u."tenantRole"::text AS "tenantRole", u."disabledAt"
    FROM api_tokens t JOIN users u ON u.id = t."userId" WHERE t."tokenHash" = ${tokenHash}`);
  return token;
}

/** Stamps the token's lastUsedAt unless another request did since `usedBefore`, so concurrent requests of one client write it once. */
export async function stampTokenUse(db: Db, tokenId: string, now: Date, usedBefore: Date): Promise<void> {
  await runSql(db, Prisma.sql`UPDATE api_tokens SET "lastUsedAt" = ${now} WHERE id = ${tokenId} AND ("lastUsedAt" IS NULL OR "lastUsedAt" <= ${usedBefore})`);
}
