import { WorkflowFailedError } from '@temporalio/client';
import { type ConnectionWithNodes, connectionsMeetingRange, recordClusterName } from '../../db/catalog-connections';
import { AppError } from '../../domain/errors';
import type { ProxmoxConnection } from '../../generated/prisma/client';
import { type ConnectionStorages, type MissingPrivilege, missingPrivileges, type PathPrivileges, privilegesByPath, requiredPaths } from '../../domain/proxmox-privileges';
import { ProxmoxClient, ProxmoxError, type ClusterIdentity } from '../../proxmox';
import { newId } from '../../security/ids';
import { runSnippetsCheck } from '../../temporal/starts';
import type { ServiceDeps } from '../deps';

/**
 * What Proxmox VE says about a connection's settings before they are saved: which cluster they
 * reach, that the token holds the privileges the control plane needs, that the workers' snippets
 * are seen by every node, and that no other connection to that cluster uses the same VMIDs.
 */

export type ClusterCheckDeps = Pick<ServiceDeps, 'db' | 'temporal' | 'config' | 'secrets'>;

/** How a connection reaches Proxmox VE; the secret in plaintext, for this check only. */
export interface ConnectionTarget {
  url: string;
  tokenId: string;
  tokenSecret: string;
  caCert?: string | null;
  insecureTls: boolean;
  plaintextLab?: boolean;
}

/** Admin checks wait a few seconds at most: the answer goes back to a person. */
const IDENTIFY_TIMEOUT_MS = 5_000;

/** A client for one check, closed by its caller: each call waits `timeoutMs` at most and a read is not retried. */
export function clientFor(target: ConnectionTarget, timeoutMs = IDENTIFY_TIMEOUT_MS): ProxmoxClient {
  return new ProxmoxClient({
    baseUrl: target.url,
    tokenId: target.tokenId,
    tokenSecret: target.tokenSecret,
    caCert: target.caCert ?? undefined,
    insecureTls: target.insecureTls,
    plaintextLab: target.plaintextLab ?? false,
    timeoutMs,
    getRetries: 0,
  });
}

function readIdentity(target: ConnectionTarget): Promise<ClusterIdentity> {
  const client = clientFor(target);
  return client.cluster.identity().finally(() => client.close());
}

/**
 * A snippets setting is saved only once Proxmox sees what the workers write: a worker writes a
 * probe file to the directory and every node of the connection must list it on the storage
 * (CheckSnippetsStorage), or every server with user data would fail at its cloud_init stage. The
 * token secret travels to the worker sealed to the check's id.
 */
export async function assertSnippetsVisible(deps: ClusterCheckDeps, target: ConnectionTarget, nodes: string[], snippets: { storage: string; directory: string }): Promise<void> {
  if (nodes.length === 0) return;
  const checkId = newId('chk');
  const verdict = await runSnippetsCheck(deps.temporal, deps.config, {
    checkId,
    proxmox: {
      url: target.url,
      tokenId: target.tokenId,
      tokenSecretCipher: deps.secrets.seal(target.tokenSecret, checkId),
      caCert: target.caCert ?? null,
      insecureTls: target.insecureTls,
      plaintextLab: target.plaintextLab ?? false,
    },
    nodes,
    ...snippets,
    waitSeconds: deps.config.SNIPPETS_VISIBLE_WITHIN_SECONDS,
  }).catch((error: unknown) => {
    if (error instanceof WorkflowFailedError) throw new AppError('PROVIDER_UNAVAILABLE', 'The snippets storage could not be checked in time; nothing was saved. Please retry.');
    throw error;
  });
  if (verdict.verdict === 'invalid') throw new AppError('INVALID_INPUT', 'The request body is invalid.', { fields: verdict.fields });
  if (verdict.verdict === 'not_visible') {
    throw new AppError('SNIPPETS_NOT_VISIBLE', `Proxmox VE does not list files written to ${snippets.directory} on storage ${snippets.storage} on every node of this connection.`, {
      ...snippets,
      shared: verdict.shared,
      nodes: verdict.nodes,
    });
  }
}

/**
 * Reads which cluster a new connection (or a connection's new settings) points at (GET
 * /cluster/status): settings are only saved once Proxmox answered their token. A token Proxmox
 * answers but may not read the cluster with (403: it lacks Sys.Audit on `/`) is told every
 * privilege of the minimal role it lacks on the connection's paths (`storages`), as assertPrivileges
 * tells it, rather than that the cluster is out of reach.
 */
export async function identifyCluster(target: ConnectionTarget, storages: ConnectionStorages): Promise<ClusterIdentity> {
  try {
    return await readIdentity(target);
  } catch (error) {
    if (error instanceof ProxmoxError && error.isUnauthorized) {
      throw new AppError('INVALID_INPUT', 'Proxmox VE refused this API token.', { fields: { tokenSecret: 'refused by Proxmox VE' } });
    }
    if (error instanceof ProxmoxError && error.isPermissionDenied) {
      await assertPrivileges(target, storages);
      // The listing shows the role complete, yet the read was refused: name what it needs.
      throw privilegesMissing([CLUSTER_STATUS_PRIVILEGE]);
    }
    throw new AppError('PROVIDER_UNAVAILABLE', 'Proxmox VE could not be reached at this URL to identify its cluster.');
  }
}

/** What GET /cluster/status checks (PVE::API2::Cluster get_status: `perm`, `/`, Sys.Audit). */
const CLUSTER_STATUS_PRIVILEGE: MissingPrivilege = { privilege: 'Sys.Audit', path: '/' };

const privilegesMissing = (missing: MissingPrivilege[]) =>
  new AppError('CONNECTION_PRIVILEGES_MISSING', 'The API token lacks privileges the control plane needs; see docs/security.md for the role.', { missing });

/**
 * The minimal role (docs/security.md) on each path a connection works on, as the token holds it:
 * GET /access/permissions?path= per path, which every token may ask about itself.
 */
export async function readPrivileges(client: ProxmoxClient, storages: ConnectionStorages): Promise<PathPrivileges[]> {
  const held = new Map<string, Set<string>>();
  await Promise.all(requiredPaths(storages).map(async (path) => held.set(path, await client.access.privilegesOn(path))));
  return privilegesByPath(storages, (path) => held.get(path) ?? new Set());
}

/**
 * The connection's token must hold the minimal role on the paths it works on (readPrivileges),
 * answered 422 CONNECTION_PRIVILEGES_MISSING listing each missing privilege and its path.
 */
export async function assertPrivileges(target: ConnectionTarget, storages: ConnectionStorages): Promise<void> {
  const client = clientFor(target);
  const byPath = await readPrivileges(client, storages)
    .catch(() => {
      throw new AppError('PROVIDER_UNAVAILABLE', 'Proxmox VE could not be asked which privileges this API token holds.');
    })
    .finally(() => client.close());
  const missing = missingPrivileges(byPath);
  if (missing.length > 0) throw privilegesMissing(missing);
}

/** How a saved connection reaches Proxmox VE, its token secret opened for this check. */
export const savedTarget = (deps: Pick<ServiceDeps, 'secrets'>, connection: ProxmoxConnection): ConnectionTarget => ({ ...connection, tokenSecret: deps.secrets.open(connection.tokenSecretCipher, connection.id) });

/**
 * A node joins a connection only once the cluster lists it (GET /cluster/status through the
 * connection's own token): a typo would otherwise take placements that every clone then fails.
 */
export async function assertNodeInCluster(target: ConnectionTarget, storages: ConnectionStorages, node: string): Promise<void> {
  const { nodes } = await identifyCluster(target, storages);
  if (!nodes.includes(node)) {
    throw new AppError('INVALID_INPUT', 'The request body is invalid.', { fields: { name: `not a node of this Proxmox VE cluster (it has ${nodes.join(', ') || 'none'})` } });
  }
}

/** An existing connection's cluster name: the recorded one, or read now (and recorded) for connections made before it was kept. */
async function clusterNameOf(deps: ClusterCheckDeps, connection: ProxmoxConnection): Promise<string | null> {
  if (connection.clusterName) return connection.clusterName;
  try {
    const { clusterName } = await readIdentity(savedTarget(deps, connection));
    if (clusterName) await recordClusterName(deps.db, connection.id, clusterName);
    return clusterName;
  } catch {
    // Unreachable now: the node names decide.
    return null;
  }
}

/** The cluster a saved connection reaches, as an overlap check compares it (the name read now when none was recorded). */
export async function savedIdentity(deps: ClusterCheckDeps, connection: ConnectionWithNodes): Promise<ClusterIdentity> {
  return { clusterName: await clusterNameOf(deps, connection), nodes: connection.nodes.map((node) => node.name) };
}

/**
 * Two connections to one cluster must not share VMIDs: each would hand out the other's. Clusters
 * are the same when both have a name and the names match; when either has none (a standalone
 * node, or a cluster out of reach), when they share a node name.
 */
export async function assertNoVmidOverlap(deps: ClusterCheckDeps, identity: ClusterIdentity, range: { start: number; end: number }, exceptConnectionId = ''): Promise<void> {
  const overlapping = await connectionsMeetingRange(deps.db, range, exceptConnectionId);
  for (const other of overlapping) {
    const otherName = await clusterNameOf(deps, other);
    const sameCluster =
      identity.clusterName && otherName ? identity.clusterName === otherName : other.nodes.some((node) => identity.nodes.includes(node.name));
    if (sameCluster) {
      throw new AppError('CONNECTION_OVERLAP', 'Another connection to this cluster already uses VMIDs in this range.', {
        connectionId: other.id,
        vmidRange: { start: other.vmidStart, end: other.vmidEnd },
      });
    }
  }
}
