import { AppError } from '../domain/errors';
import type { Node, ProxmoxConnection } from '../generated/prisma/client';
import { ProxmoxClient, ProxmoxError, type ClusterIdentity } from '../proxmox';
import type { ApiDeps } from './deps';

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

function clientFor(target: ConnectionTarget): ProxmoxClient {
  return new ProxmoxClient({
    baseUrl: target.url,
    tokenId: target.tokenId,
    tokenSecret: target.tokenSecret,
    caCert: target.caCert ?? undefined,
    insecureTls: target.insecureTls,
    plaintextLab: target.plaintextLab ?? false,
    timeoutMs: IDENTIFY_TIMEOUT_MS,
    getRetries: 0,
  });
}

const readIdentity = (target: ConnectionTarget): Promise<ClusterIdentity> => clientFor(target).clusterIdentity();

/**
 * The snippets storage a connection names must exist on the cluster and take content `snippets`
 * (asked of one of its nodes), or every server with user data would fail at its cloud_init stage.
 */
export async function assertSnippetsStorage(target: ConnectionTarget, node: string, storage: string): Promise<void> {
  const storages = await clientFor(target)
    .listStorages(node)
    .catch(() => {
      throw new AppError('PROVIDER_UNAVAILABLE', `Proxmox VE could not list the storages of ${node} to check the snippets storage.`);
    });
  const found = storages.find((s) => s.storage === storage);
  if (!found?.content?.split(',').includes('snippets')) {
    throw new AppError('INVALID_INPUT', 'The request body is invalid.', {
      fields: { 'snippets.storage': found ? `storage ${storage} does not take content type snippets` : `no storage ${storage} on ${node}` },
    });
  }
}

/**
 * Reads which cluster a new connection (or a connection's new settings) points at (GET
 * /cluster/status). This is the one place the API talks to Proxmox: settings are only saved once
 * Proxmox answered their token.
 */
export async function identifyCluster(target: ConnectionTarget): Promise<ClusterIdentity> {
  try {
    return await readIdentity(target);
  } catch (error) {
    if (error instanceof ProxmoxError && error.isUnauthorized) {
      throw new AppError('INVALID_INPUT', 'Proxmox VE refused this API token.', { fields: { tokenSecret: 'refused by Proxmox VE' } });
    }
    throw new AppError('PROVIDER_UNAVAILABLE', 'Proxmox VE could not be reached at this URL to identify its cluster.');
  }
}

/** How a saved connection reaches Proxmox VE, its token secret opened for this check. */
export const savedTarget = (deps: ApiDeps, connection: ProxmoxConnection): ConnectionTarget => ({ ...connection, tokenSecret: deps.secrets.open(connection.tokenSecretCipher, connection.id) });

/**
 * A node joins a connection only once the cluster lists it (GET /cluster/status through the
 * connection's own token): a typo would otherwise take placements that every clone then fails.
 */
export async function assertNodeInCluster(target: ConnectionTarget, node: string): Promise<void> {
  const { nodes } = await identifyCluster(target);
  if (!nodes.includes(node)) {
    throw new AppError('INVALID_INPUT', 'The request body is invalid.', { fields: { name: `not a node of this Proxmox VE cluster (it has ${nodes.join(', ') || 'none'})` } });
  }
}

/** An existing connection's cluster name: the recorded one, or read now (and recorded) for connections made before it was kept. */
async function clusterNameOf(deps: ApiDeps, connection: ProxmoxConnection): Promise<string | null> {
  if (connection.clusterName) return connection.clusterName;
  try {
    const { clusterName } = await readIdentity(savedTarget(deps, connection));
    if (clusterName) await deps.db.proxmoxConnection.update({ where: { id: connection.id }, data: { clusterName } });
    return clusterName;
  } catch {
    // Unreachable now: the node names decide.
    return null;
  }
}

/** The cluster a saved connection reaches, as an overlap check compares it (the name read now when none was recorded). */
export async function savedIdentity(deps: ApiDeps, connection: ProxmoxConnection & { nodes: Node[] }): Promise<ClusterIdentity> {
  return { clusterName: await clusterNameOf(deps, connection), nodes: connection.nodes.map((node) => node.name) };
}

/**
 * Two connections to one cluster must not share VMIDs: each would hand out the other's. Clusters
 * are the same when both have a name and the names match; when either has none (a standalone
 * node, or a cluster out of reach), when they share a node name.
 */
export async function assertNoVmidOverlap(deps: ApiDeps, identity: ClusterIdentity, range: { start: number; end: number }, exceptConnectionId = ''): Promise<void> {
  const overlapping: (ProxmoxConnection & { nodes: Node[] })[] = await deps.db.proxmoxConnection.findMany({
    where: { vmidStart: { lte: range.end }, vmidEnd: { gte: range.start }, id: { not: exceptConnectionId } },
    include: { nodes: true },
  });
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
