/**
 * Console sessions as slots: a ticket holds one of its user's slots until it expires unredeemed;
 * a redeemed session holds one while the API process relaying it renews its lease. A process that
 * dies (crash, kill, lost host) stops renewing, so its consoles stop counting within one lease.
 */
import type { Config } from '../config';
import type { ConsoleOpenerNow } from '../domain/guest-console';
import { Prisma, type ConsoleSession } from '../generated/prisma/client';
import type { InstanceStatus, ProjectRole, Role, TenantRole } from '../generated/prisma/enums';
import { runSql, type Db, type Tx } from './client';
import { recordAudit } from './audit';

/** Why a session ended that no process was left to close: recorded, never sent (nobody holds its socket). */
export const RELAY_LOST = 'relay_lost';

const leaseUntil = (config: Pick<Config, 'CONSOLE_LEASE_SECONDS'>, now = Date.now()) => new Date(now + config.CONSOLE_LEASE_SECONDS * 1000);

/** Console slots held (of one user, or of everyone): tickets still to be redeemed, and sessions whose relay is alive. */
export async function consoleSlotsHeld(db: Db | Tx, of: { userId?: string } = {}, now = new Date()): Promise<number> {
  return db.consoleSession.count({
    where: { ...of, endedAt: null, OR: [{ redeemedAt: null, expiresAt: { gt: now } }, { redeemedAt: { not: null }, leaseExpiresAt: { gt: now } }] },
  });
}

/** Redeems a ticket once (unexpired, never redeemed before) and takes the session's first lease; null when it cannot be. */
export async function redeemConsoleTicket(db: Db, config: Pick<Config, 'CONSOLE_LEASE_SECONDS'>, ticketHash: string): Promise<ConsoleSession | null> {
  const now = new Date();
  const redeemed = await db.consoleSession.updateMany({
    where: { ticketHash, redeemedAt: null, expiresAt: { gt: now } },
    data: { redeemedAt: now, leaseExpiresAt: leaseUntil(config, now.getTime()) },
  });
  return redeemed.count === 1 ? db.consoleSession.findUnique({ where: { ticketHash } }) : null;
}

/** Extends the leases of the sessions this process relays, in one statement. */
export async function renewConsoleLeases(db: Db, config: Pick<Config, 'CONSOLE_LEASE_SECONDS'>, sessionIds: string[]): Promise<void> {
  if (sessionIds.length === 0) return;
  await db.consoleSession.updateMany({ where: { id: { in: sessionIds }, endedAt: null }, data: { leaseExpiresAt: leaseUntil(config) } });
}

/** A console session's server and opener as they are now: what the relay's watch decides on. */
export interface ConsoleSessionNow extends Omit<ConsoleOpenerNow, 'mayAccessServer'> {
  id: string;
  /** The server's status, node, VMID and deletion (status null when its row is gone). */
  status: InstanceStatus | null;
  node: string | null;
  vmid: number | null;
  deletedAt: Date | null;
  /** Who opened it, as the authorization decision reads them. */
  userId: string;
  role: Role;
  userTenantId: string | null;
  tenantRole: TenantRole | null;
  /** The server's tenant and creator (null when its row is gone), and what it was shared with the opener. */
  serverTenantId: string | null;
  serverProjectId: string | null;
  serverUserId: string | null;
  grant: string[] | null;
  /** The opener's role in the server's project, and the project the opening token is limited to. */
  projectRole: ProjectRole | null;
  tokenProjectId: string | null;
}

/**
 * Reads, for every console session named, its server's state and whether whoever opened it still
 * signs requests in (session or token, user enabled, password unchanged since) with what they are
 * to the server now (tenant, role, grant), in one statement: a relaying process asks this once per watch for all its consoles.
 * A session row deleted by housekeeping (a day past its expiry) counts as ended.
 */
export async function consoleSessionsNow(db: Db, sessionIds: string[], now = new Date()): Promise<ConsoleSessionNow[]> {
  if (sessionIds.length === 0) return [];
  return runSql<ConsoleSessionNow>(db, Prisma.sql`
    SELECT cs.id, i.status::text AS status, i.node, i.vmid, i."deletedAt",
      u."disabledAt" IS NOT NULL AS "userDisabled",
      CASE WHEN cs."openedBySessionId" IS NULL THEN NULL
        ELSE s.id IS NULL OR s."revokedAt" IS NOT NULL OR s."expiresAt" <= ${now} END AS "sessionEnded",
      CASE WHEN cs."openedByTokenId" IS NULL THEN NULL
        ELSE t.id IS NULL OR t."revokedAt" IS NOT NULL OR t."expiresAt" <= ${now} END AS "tokenEnded",
      COALESCE(u."passwordChangedAt" > cs."createdAt", false) AS "passwordChangedSinceOpened",
      cs."userId", u.role::text AS role, u."tenantId" AS "userTenantId", u."tenantRole"::text AS "tenantRole",
      i."tenantId" AS "serverTenantId", i."projectId" AS "serverProjectId", i."userId" AS "serverUserId", g.permissions AS "grant",
      pm.role::text AS "projectRole", t."projectId" AS "tokenProjectId"
    FROM console_sessions cs
    JOIN users u ON u.id = cs."userId"
    LEFT JOIN instance_grants g ON g."instanceId" = cs."instanceId" AND g."userId" = cs."userId"
    LEFT JOIN sessions s ON s.id = cs."openedBySessionId"
    LEFT JOIN api_tokens t ON t.id = cs."openedByTokenId"
    LEFT JOIN instances i ON i.id = cs."instanceId"
    LEFT JOIN project_members pm ON pm."projectId" = i."projectId" AND pm."userId" = cs."userId"
    WHERE cs.id = ANY(${sessionIds}::text[])`);
}

/** Ends a session once with its reason; a second end (or one already ended as relay_lost) changes nothing. */
export async function endConsoleSession(db: Db, sessionId: string, reason: string, at = new Date()): Promise<boolean> {
  const { count } = await db.consoleSession.updateMany({ where: { id: sessionId, endedAt: null }, data: { endedAt: at, closeReason: reason } });
  return count === 1;
}

/**
 * Ends the sessions whose relay stopped renewing (its process is gone), each at its last lease,
 * with a `console.closed` audit row: no slot stays taken and every opened console is closed on record.
 */
export async function endLostConsoleSessions(db: Db, now: Date): Promise<number> {
  const lost = await db.consoleSession.findMany({
    where: { endedAt: null, redeemedAt: { not: null }, OR: [{ leaseExpiresAt: null }, { leaseExpiresAt: { lte: now } }] },
    take: 1000,
  });
  let ended = 0;
  for (const session of lost) {
    const at = session.leaseExpiresAt ?? now;
    if (!(await endConsoleSession(db, session.id, RELAY_LOST, at))) continue;
    ended++;
    const seconds = Math.max(0, Math.round((at.getTime() - (session.redeemedAt as Date).getTime()) / 1000));
    await recordAudit(db, { action: 'console.closed', actorUserId: session.userId, tenantId: session.tenantId ?? '', instanceId: session.instanceId, details: { type: session.type, seconds, reason: RELAY_LOST } });
  }
  return ended;
}
