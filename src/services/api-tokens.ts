import { recordAudit } from '../db/audit';
import { AppError, notFound } from '../domain/errors';
import type { ApiToken, User } from '../generated/prisma/client';
import { newId } from '../security/ids';
import { generateApiToken, hashToken } from '../security/secrets';
import { decideOnProject } from './access';
import type { ServiceDeps } from './deps';
import type { PageArgs } from '../db/pages';

type Deps = Pick<ServiceDeps, 'db'>;

const DAY_MS = 86_400_000;

export interface TokenRequest {
  name?: string;
  /** ISO date-time; wins over `expiresInDays`. */
  expiresAt?: string;
  expiresInDays?: number;
  /** What it may do besides reading (authorization.ts); none: all its user may. */
  scopes?: string[];
  /** The one project whose servers it acts on (one its user may see). */
  projectId?: string;
}

export interface IssuedToken {
  id: string;
  /** The plaintext: in this answer only. */
  token: string;
  name: string | null;
  scopes: string[];
  projectId: string | null;
  expiresAt: string | null;
}

export type TokenRow = ApiToken & { user: User };

/** The user a token is issued to or listed for; an unknown id is NOT_FOUND. */
async function userOf(deps: Deps, userId: string): Promise<User> {
  const user = await deps.db.user.findUnique({ where: { id: userId } });
  if (!user) throw notFound('user');
  return user;
}

/** A token is limited only to a project its user may see. */
async function assertProjectOf(deps: Deps, user: User, projectId: string): Promise<void> {
  const noSuchProject = new AppError('INVALID_INPUT', 'The request body is invalid.', { fields: { projectId: 'no such project' } });
  if (!user.tenantId) throw noSuchProject;
  const holder = { userId: user.id, role: user.role, tenantId: user.tenantId, tenantRole: user.tenantRole };
  if (!(await decideOnProject(deps, holder, 'project.read', projectId)).allowed) throw noSuchProject;
}

/** A new token for the user `userId`, issued by `actorUserId` (an administrator, or the user). The database keeps its SHA-256 digest only. */
export async function issueApiToken(deps: Deps, actorUserId: string, userId: string, body: TokenRequest): Promise<IssuedToken> {
  const user = await userOf(deps, userId);
  const { db } = deps;
  const token = generateApiToken();
  const id = newId('tok');
  const name = body.name ?? null;
  const expiresAt = body.expiresAt ? new Date(body.expiresAt) : body.expiresInDays ? new Date(Date.now() + body.expiresInDays * DAY_MS) : null;
  const expiresText = expiresAt?.toISOString() ?? null;
  const scopes = body.scopes ?? [];
  const projectId = body.projectId ?? null;
  if (projectId) await assertProjectOf(deps, user, projectId);
  await db.$transaction([
    db.apiToken.create({ data: { id, userId: user.id, tokenHash: hashToken(token), name, expiresAt, scopes, projectId } }),
    recordAudit(db, { action: 'token.issued', actorUserId, tenantId: user.tenantId, details: { userId: user.id, tokenId: id, expiresAt: expiresText, scopes, projectId } }),
  ]);
  return { id, token, name, scopes, projectId, expiresAt: expiresText };
}

/** One page of a user's tokens, newest first. */
export function listApiTokens(deps: Deps, userId: string, page: PageArgs): Promise<TokenRow[]> {
  return deps.db.apiToken.findMany({ ...page, where: { ...page.where, userId }, include: { user: true } });
}

/** Idempotent: a token revoked earlier is answered as it is, with no second audit row. */
export async function revokeApiToken(deps: Deps, actorUserId: string, where: { id: string; userId: string }): Promise<TokenRow> {
  return deps.db.$transaction(async (tx) => {
    const { count } = await tx.apiToken.updateMany({ where: { ...where, revokedAt: null }, data: { revokedAt: new Date() } });
    const row = await tx.apiToken.findFirst({ where, include: { user: true } });
    if (!row) throw notFound('token');
    if (count > 0) {
      await recordAudit(tx, { action: 'token.revoked', actorUserId, tenantId: row.user.tenantId, details: { userId: row.userId, tokenId: row.id } });
    }
    return row;
  });
}
