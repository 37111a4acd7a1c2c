import type { Node, Prisma } from '../generated/prisma/client';
import type { Sizing } from '../domain/sizing';
import { newId } from '../security/ids';
import type { NodeSpec } from './catalog-connections';
import type { Tx } from './client';

/** The rows of a connection's nodes, and what servers hold on them. */

/** The nodes of these connections, by name. */
export const nodesOfConnections = (tx: Tx, connectionIds: string[]): Promise<Pick<Node, 'connectionId' | 'name'>[]> =>
  tx.node.findMany({ where: { connectionId: { in: connectionIds } }, select: { connectionId: true, name: true } });

/**
 * The node, locked as every placement locks it (FOR NO KEY UPDATE), for a change of its capacity
 * or flags; none when the connection has no such node.
 */
export async function lockNode(tx: Tx, connectionId: string, name: string): Promise<Node | undefined> {
  const [node] = await tx.$queryRaw<Node[]>`SELECT * FROM nodes WHERE "connectionId" = ${connectionId} AND name = ${name} FOR NO KEY UPDATE`;
  return node;
}

/** The node, locked FOR UPDATE so that placements under way finish first and new ones wait: for its deletion. */
export async function lockNodeForDelete(tx: Tx, connectionId: string, name: string): Promise<Node | undefined> {
  const [node] = await tx.$queryRaw<Node[]>`SELECT * FROM nodes WHERE "connectionId" = ${connectionId} AND name = ${name} FOR UPDATE`;
  return node;
}

/** Capacity held on a node: reservations, allocations, and instances migrating to it. */
export async function heldOn(tx: Tx, nodeId: string): Promise<Sizing> {
  const [held] = await tx.$queryRaw<{ vcpus: number; memory: number; disk: number }[]>`
    SELECT COALESCE(SUM(vcpus), 0)::int AS vcpus, COALESCE(SUM("memoryMiB"), 0)::int AS memory, COALESCE(SUM("diskGiB"), 0)::int AS disk
    FROM node_allocations WHERE ("nodeId" = ${nodeId} OR "targetNodeId" = ${nodeId}) AND state <> 'released'`;
  return { vcpus: held?.vcpus ?? 0, memoryMiB: held?.memory ?? 0, diskGiB: held?.disk ?? 0 };
}

/** Allocations not released that are on the node or moving to it. */
export const countAllocationsOn = (tx: Tx, nodeId: string): Promise<number> =>
  tx.nodeAllocation.count({ where: { OR: [{ nodeId }, { targetNodeId: nodeId }], state: { not: 'released' } } });

export const insertNode = (tx: Tx, connectionId: string, node: NodeSpec): Promise<Node> => tx.node.create({ data: { id: newId('node'), connectionId, ...node } });

export const updateNodeRow = (tx: Tx, id: string, data: Prisma.NodeUncheckedUpdateInput): Promise<Node> => tx.node.update({ where: { id }, data });

/** Deletes a node nothing lives on, with its released allocations and its image templates. */
export async function deleteNodeRow(tx: Tx, node: Node): Promise<{ templatesDeleted: number }> {
  await tx.nodeAllocation.deleteMany({ where: { nodeId: node.id, state: 'released' } });
  const templates = await tx.imageTemplate.deleteMany({ where: { connectionId: node.connectionId, node: node.name } });
  await tx.node.delete({ where: { id: node.id } });
  return { templatesDeleted: templates.count };
}
