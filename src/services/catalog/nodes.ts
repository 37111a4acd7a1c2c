import { countLiveServers } from '../../db/catalog';
import { findConnection, type NodeSpec } from '../../db/catalog-connections';
import { countAllocationsOn, deleteNodeRow, heldOn, insertNode, lockNode, lockNodeForDelete, updateNodeRow } from '../../db/catalog-nodes';
import { fits, type Sizing } from '../../db/reservations';
import { AppError, notFound } from '../../domain/errors';
import type { Node } from '../../generated/prisma/client';
import type { ServiceDeps } from '../deps';
import { audit, changesOf, createRow } from './changes';
import { assertNodeInCluster, savedTarget } from './cluster-identity';
import { buildImagesOnConnection } from './image-sources';

/** The nodes of a connection: the share of each we may allocate, and whether it takes placements. */

export type NodeDeps = Pick<ServiceDeps, 'db' | 'secrets'>;

export interface NodeChange {
  vcpus?: number;
  memoryMiB?: number;
  diskGiB?: number;
  /** false: no new placements, and no resize or migration to it. */
  enabled?: boolean;
  /** true: no new servers are placed here; the servers on it keep working. */
  draining?: boolean;
}

/**
 * A node of the cluster joins the connection once the cluster lists it, and takes placements at
 * once; every image from a URL offered on the connection starts building there (until ready,
 * the node takes no server of that image).
 */
export async function addNode(deps: NodeDeps & Pick<ServiceDeps, 'temporal' | 'config' | 'logger' | 'proxmox'>, actorUserId: string, connectionId: string, node: NodeSpec): Promise<Node> {
  const connection = await findConnection(deps.db, connectionId);
  if (!connection) throw notFound('connection');
  await assertNodeInCluster(savedTarget(deps, connection), connection, node.name);
  const created = await createRow(deps, ['node'], async (tx) => {
    const row = await insertNode(tx, connectionId, node);
    await audit(tx, actorUserId, 'node.added', { connectionId, ...node });
    return row;
  });
  await buildImagesOnConnection(deps, connectionId);
  return created;
}

/**
 * A node's capacity, enabled and draining flags, under the node lock every placement takes.
 * Capacity below what servers hold there is refused with the numbers.
 */
export function updateNode(deps: NodeDeps, actorUserId: string, connectionId: string, name: string, change: NodeChange): Promise<Node> {
  return deps.db.$transaction(async (tx) => {
    const node = await lockNode(tx, connectionId, name);
    if (!node) throw notFound('node');
    const held = await heldOn(tx, node.id);
    const wanted = { vcpus: change.vcpus ?? node.vcpus, memoryMiB: change.memoryMiB ?? node.memoryMiB, diskGiB: change.diskGiB ?? node.diskGiB };
    if (!fits(wanted, held)) {
      const short = (Object.keys(wanted) as (keyof Sizing)[]).filter((key) => wanted[key] < held[key]);
      throw new AppError('CONFLICT', `Servers on ${name} hold more than that: ${short.map((key) => `${key} ${held[key]}`).join(', ')}.`, {
        fields: Object.fromEntries(short.map((key) => [key, `below the ${held[key]} held by servers`])),
        held,
        requested: wanted,
      });
    }
    const updated = await updateNodeRow(tx, node.id, change);
    await audit(tx, actorUserId, 'node.updated', { connectionId, node: name, ...changesOf(node, { ...change }), held: { ...held } });
    return updated;
  });
}

/**
 * A node leaves the connection only when nothing lives on it: no server (not deleted or failed)
 * placed there, no capacity held there or moving to it. Its row lock waits for the placements
 * under way and keeps new ones out. Released allocations and its templates go with it.
 */
export async function deleteNode(deps: NodeDeps, actorUserId: string, connectionId: string, name: string): Promise<void> {
  await deps.db.$transaction(async (tx) => {
    const node = await lockNodeForDelete(tx, connectionId, name);
    if (!node) throw notFound('node');
    const servers = await countLiveServers(tx, { connectionId, node: name });
    const allocations = await countAllocationsOn(tx, node.id);
    if (servers > 0 || allocations > 0) {
      throw new AppError('NODE_IN_USE', `Servers still live on ${name}: drain it (draining: true) and migrate them away before removing it.`, { servers, allocations });
    }
    const { templatesDeleted } = await deleteNodeRow(tx, node);
    await audit(tx, actorUserId, 'node.removed', { connectionId, node: name, templatesRemoved: templatesDeleted });
  });
}
