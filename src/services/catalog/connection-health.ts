import { type ConnectionWithNodes, findConnection } from '../../db/catalog-connections';
import { notFound } from '../../domain/errors';
import type { PathPrivileges } from '../../domain/proxmox-privileges';
import { ProxmoxError } from '../../proxmox';
import type { ServiceDeps } from '../deps';
import { clientFor, type ConnectionTarget, readPrivileges, savedTarget } from './cluster-identity';

/** Said on the answer to a save, never refused: the connection is saved all the same. */
export interface ConnectionWarning {
  /** CLUSTER_FIREWALL_OFF: no guest's firewall acts; CLUSTER_FIREWALL_UNREAD: the switch could not be read. */
  code: 'CLUSTER_FIREWALL_OFF' | 'CLUSTER_FIREWALL_UNREAD';
  message: string;
}

const TURN_IT_ON =
  'Before turning it on (Datacenter → Firewall → Options → Firewall), allow the nodes’ management access you need (docs/security.md, "The cluster firewall switch"); this service never turns it on.';

/**
 * Anti-spoofing and every firewall rule of the servers act only while the cluster's firewall is
 * on: saving a connection where it is off (or cannot be read) says so.
 */
export async function clusterFirewallWarnings(target: ConnectionTarget): Promise<ConnectionWarning[]> {
  const client = clientFor(target, HEALTH_TIMEOUT_MS);
  try {
    if (await client.firewall.clusterEnabled()) return [];
    return [{ code: 'CLUSTER_FIREWALL_OFF', message: `The cluster's firewall is off: servers on this connection can take each other's addresses until it is on. ${TURN_IT_ON}` }];
  } catch (error) {
    return [{ code: 'CLUSTER_FIREWALL_UNREAD', message: `Whether the cluster's firewall is on could not be read (${whyUnread(error)}). ${TURN_IT_ON}` }];
  } finally {
    client.close();
  }
}

/**
 * A saved connection's health, read live from Proxmox VE with its own token each time it is
 * asked for: whether Proxmox answers, the minimal role as the save-time check reads it, and the
 * cluster's firewall switch. What cannot be read is reported, never raised: an operator looks at
 * a connection most when its cluster is in trouble.
 */

/** Each read waits this long at most, all at once: the answer goes back to a person. */
export const HEALTH_TIMEOUT_MS = 3_000;

/** Why Proxmox VE could not be asked: no answer in time (network, TLS, 5xx), a refused token, or a token secret no key opens. */
export type HealthErrorCode = 'PROVIDER_UNAVAILABLE' | 'TOKEN_REFUSED' | 'TOKEN_SECRET_UNREADABLE';

export interface ConnectionHealth {
  checkedAt: Date;
  /** Proxmox VE answered GET /version with the connection's token. */
  reachable: boolean;
  error: { code: HealthErrorCode; message: string } | null;
  privileges: PathPrivileges[] | null;
  clusterFirewall: { enabled: boolean } | null;
  /** Why `privileges` or `clusterFirewall` is null. */
  unavailable: { privileges?: string; clusterFirewall?: string };
}

export type HealthDeps = Pick<ServiceDeps, 'db' | 'secrets'>;

/** The connection with its health; 404 for no such connection. */
export async function readConnectionHealth(deps: HealthDeps, id: string): Promise<{ connection: ConnectionWithNodes; health: ConnectionHealth }> {
  const connection = await findConnection(deps.db, id);
  if (!connection) throw notFound('connection');
  return { connection, health: await healthOf(deps, connection) };
}

async function healthOf(deps: HealthDeps, connection: ConnectionWithNodes): Promise<ConnectionHealth> {
  const checkedAt = new Date();
  let target: ConnectionTarget;
  try {
    target = savedTarget(deps, connection);
  } catch {
    const message = 'No key of the encryption key ring opens the token secret: put back the key it was sealed with, or give the connection its token secret again (PATCH tokenSecret).';
    return unanswered(checkedAt, { code: 'TOKEN_SECRET_UNREADABLE', message }, message);
  }
  const client = clientFor(target, HEALTH_TIMEOUT_MS);
  try {
    const [version, privileges, firewall] = await Promise.allSettled([
      client.cluster.version(),
      readPrivileges(client, connection),
      client.firewall.clusterEnabled(),
    ]);
    return {
      checkedAt,
      reachable: version.status === 'fulfilled',
      error: version.status === 'rejected' ? unreachable(version.reason) : null,
      privileges: privileges.status === 'fulfilled' ? privileges.value : null,
      clusterFirewall: firewall.status === 'fulfilled' ? { enabled: firewall.value } : null,
      unavailable: {
        ...(privileges.status === 'rejected' ? { privileges: whyUnread(privileges.reason) } : {}),
        ...(firewall.status === 'rejected' ? { clusterFirewall: whyUnread(firewall.reason) } : {}),
      },
    };
  } finally {
    client.close();
  }
}

const unanswered = (checkedAt: Date, error: NonNullable<ConnectionHealth['error']>, reason: string): ConnectionHealth => ({
  checkedAt,
  reachable: false,
  error,
  privileges: null,
  clusterFirewall: null,
  unavailable: { privileges: reason, clusterFirewall: reason },
});

function unreachable(error: unknown): NonNullable<ConnectionHealth['error']> {
  if (error instanceof ProxmoxError && error.isUnauthorized) {
    return { code: 'TOKEN_REFUSED', message: 'Proxmox VE refused this API token (401): give the connection a token it accepts (PATCH tokenId and tokenSecret).' };
  }
  return { code: 'PROVIDER_UNAVAILABLE', message: `Proxmox VE did not answer: ${whyUnread(error)}` };
}

/** Proxmox VE's own words for a read that failed (`GET /cluster/firewall/options answered 403: Permission check failed (/, Sys.Audit)`), secrets scrubbed by the client. */
function whyUnread(error: unknown): string {
  if (!(error instanceof ProxmoxError)) return error instanceof Error ? error.message : String(error);
  const call = `${error.method} ${error.path}`;
  return error.kind === 'http' ? `${call} answered ${error.status}: ${error.message}` : `${call}: ${error.message}`;
}
