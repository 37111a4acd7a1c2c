import type { Node, Prisma, ProxmoxConnection } from '../generated/prisma/client';
import { newId } from '../security/ids';
import { archivedFilter } from './catalog';
import type { Tx } from './client';
import type { PageArgs } from './pages';

/** The rows of Proxmox VE connections. A new connection's id is named by its caller (it seals the secrets). */

export type ConnectionWithNodes = ProxmoxConnection & { nodes: Node[] };

export interface NodeSpec {
  name: string;
  vcpus: number;
  memoryMiB: number;
  diskGiB: number;
}

export const findConnections = (tx: Tx, page: PageArgs, archived?: boolean): Promise<ConnectionWithNodes[]> =>
  tx.proxmoxConnection.findMany({ ...page, where: { ...page.where, ...archivedFilter(archived) }, include: { nodes: true } });

export const findConnection = (tx: Tx, id: string): Promise<ConnectionWithNodes | null> => tx.proxmoxConnection.findUnique({ where: { id }, include: { nodes: true } });

/** The connection with its nodes, one known to exist (its row locked by the caller). */
export const readConnection = (tx: Tx, id: string): Promise<ConnectionWithNodes> => tx.proxmoxConnection.findUniqueOrThrow({ where: { id }, include: { nodes: true } });

/** Connections whose VMID range meets `range`, but for `exceptId`. */
export const connectionsMeetingRange = (tx: Tx, range: { start: number; end: number }, exceptId: string): Promise<ConnectionWithNodes[]> =>
  tx.proxmoxConnection.findMany({ where: { vmidStart: { lte: range.end }, vmidEnd: { gte: range.start }, id: { not: exceptId } }, include: { nodes: true } });

export function insertConnection(tx: Tx, connection: Omit<Prisma.ProxmoxConnectionUncheckedCreateInput, 'nodes'>, nodes: NodeSpec[]): Promise<ConnectionWithNodes> {
  return tx.proxmoxConnection.create({
    data: { ...connection, nodes: { create: nodes.map((n) => ({ id: newId('node'), name: n.name, vcpus: n.vcpus, memoryMiB: n.memoryMiB, diskGiB: n.diskGiB })) } },
    include: { nodes: true },
  });
}

/** The connection, locked against concurrent updates and VMID range moves; none when there is no such connection. */
export async function lockConnection(tx: Tx, id: string): Promise<ProxmoxConnection | undefined> {
  const [connection] = await tx.$queryRaw<ProxmoxConnection[]>`SELECT * FROM proxmox_connections WHERE id = ${id} FOR UPDATE`;
  return connection;
}

export const updateConnectionRow = (tx: Tx, id: string, data: Prisma.ProxmoxConnectionUncheckedUpdateInput): Promise<ConnectionWithNodes> =>
  tx.proxmoxConnection.update({ where: { id }, data, include: { nodes: true } });

/** Records the cluster name read for a connection made before it was kept. */
export async function recordClusterName(tx: Tx, id: string, clusterName: string): Promise<void> {
  await tx.proxmoxConnection.update({ where: { id }, data: { clusterName } });
}

export const connectionExists = async (tx: Tx, id: string): Promise<boolean> => (await tx.proxmoxConnection.findUnique({ where: { id }, select: { id: true } })) !== null;
