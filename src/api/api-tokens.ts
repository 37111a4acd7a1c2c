import type { z } from 'zod';
import type { Db } from '../db/client';
import { recordAudit } from '../db/audit';
import { notFound } from '../domain/errors';
import type { ApiToken, User } from '../generated/prisma/client';
import { newId } from '../security/ids';
import { generateApiToken, hashToken } from '../security/secrets';
import type { apiTokenSchema, createTokenSchema, issuedTokenSchema } from './schemas/identity';

const DAY_MS = 86_400_000;
const iso = (at: Date | null) => at?.toISOString() ?? null;

export const apiTokenView = (token: ApiToken & { user: User }): z.infer<typeof apiTokenSchema> => ({
  id: token.id,
  userId: token.userId,
  name: token.name,
  bootstrap: token.bootstrap,
  active: !token.revokedAt && !token.user.disabledAt && !(token.expiresAt && token.expiresAt <= new Date()),
  createdAt: token.createdAt.toISOString(),
  lastUsedAt: iso(token.lastUsedAt),
  expiresAt: iso(token.expiresAt),
  revokedAt: iso(token.revokedAt),
});

/** A new token for `user`, issued by `actorUserId` (an administrator, or the user). The plaintext is in the answer only; the database keeps its SHA-256 digest. */
export async function issueApiToken(db: Db, actorUserId: string, user: User, body: z.infer<typeof createTokenSchema>): Promise<z.infer<typeof issuedTokenSchema>> {
  const token = generateApiToken();
  const id = newId('tok');
  const name = body.name ?? null;
  const expiresAt = body.expiresAt ? new Date(body.expiresAt) : body.expiresInDays ? new Date(Date.now() + body.expiresInDays * DAY_MS) : null;
  await db.$transaction([
    db.apiToken.create({ data: { id, userId: user.id, tokenHash: hashToken(token), name, expiresAt } }),
    recordAudit(db, { action: 'token.issued', actorUserId, tenantId: user.tenantId, details: { userId: user.id, tokenId: id, expiresAt: iso(expiresAt) } }),
  ]);
  return { id, token, name, expiresAt: iso(expiresAt) };
}

/** Idempotent: a token revoked earlier is answered as it is, with no second audit row. */
export async function revokeApiToken(db: Db, actorUserId: string, where: { id: string; userId: string }): Promise<z.infer<typeof apiTokenSchema>> {
  const token = await db.$transaction(async (tx) => {
    const { count } = await tx.apiToken.updateMany({ where: { ...where, revokedAt: null }, data: { revokedAt: new Date() } });
    const row = await tx.apiToken.findFirst({ where, include: { user: true } });
    if (!row) throw notFound('token');
    if (count > 0) {
      await recordAudit(tx, { action: 'token.revoked', actorUserId, tenantId: row.user.tenantId, details: { userId: row.userId, tokenId: row.id } });
    }
    return row;
  });
  return apiTokenView(token);
}
