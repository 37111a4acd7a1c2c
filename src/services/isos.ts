import type { Tx } from '../db/client';
import { recordAudit } from '../db/audit';
import { AppError, notFound } from '../domain/errors';
import type { Iso, IsoCopy, Location, Prisma } from '../generated/prisma/client';
import { newId } from '../security/ids';
import { startIsoSync } from '../temporal/starts';
import type { ServiceDeps } from './deps';
import { findInstance } from './instances';
import type { Caller, Principal } from './principal';

/**
 * The ISO library: an operator's ISO images, public or private to one tenant, each with a copy
 * on the ISO storage of every location that has one (once on a shared storage, once per node on a
 * local one). A server's CD-ROM holds only an ISO its tenant may use and its own node holds ready.
 */

type Deps = Pick<ServiceDeps, 'db'>;
type SyncDeps = Pick<ServiceDeps, 'db' | 'temporal' | 'config' | 'logger'>;

/** Starts the ISO's sync (SyncIso); a start that fails is logged, and `refresh` starts it again. */
async function startSync(deps: SyncDeps, iso: IsoWithCopies): Promise<IsoWithCopies> {
  try {
    await startIsoSync(deps.temporal, deps.config, iso.id);
  } catch (error) {
    deps.logger.warn({ isoId: iso.id, err: error }, 'the sync of an ISO could not be started');
  }
  return iso;
}

export type IsoWithCopies = Iso & { copies: (IsoCopy & { location: Pick<Location, 'id' | 'name'> })[] };

const withCopies = { copies: { include: { location: { select: { id: true, name: true } } }, orderBy: [{ locationId: 'asc' }, { node: 'asc' }] } } satisfies Prisma.IsoInclude;

/** The ISOs a tenant may use: public ones and its own, not deleted. */
const usableBy = (tenantId: string): Prisma.IsoWhereInput => ({ deletedAt: null, OR: [{ tenantId: null }, { tenantId }] });

/** Where a server is: its tenant, location and node. */
export interface ServerPlace {
  tenantId: string;
  locationId: string;
  node: string;
}

/** Its copy the node reads: on the node's own storage, or on the location's shared one. */
const copyOnNode = (place: ServerPlace): Prisma.IsoCopyWhereInput => ({ locationId: place.locationId, state: 'ready', OR: [{ node: null }, { node: place.node }] });

const volumeOf = (copy: Pick<IsoCopy, 'storage'>, iso: Pick<Iso, 'fileName'>) => `${copy.storage}:iso/${iso.fileName}`;

/**
 * The volume of an ISO the server may mount: the tenant's or public, ready on the server's node.
 * Anything else (another tenant's, another node's, still downloading, failed) is refused alike,
 * so that nothing about other tenants' ISOs is told.
 */
export async function readyIsoVolume(tx: Tx, isoId: string, place: ServerPlace): Promise<string> {
  const iso = await tx.iso.findFirst({ where: { id: isoId, rescue: false, ...usableBy(place.tenantId) }, include: { copies: { where: copyOnNode(place), take: 1 } } });
  const copy = iso?.copies[0];
  if (!iso || !copy) throw new AppError('ISO_NOT_AVAILABLE', "This ISO is not available on this server's host.", { fields: { isoId: 'not ready here' } });
  return volumeOf(copy, iso);
}

/** The location's rescue ISO: the newest public one ready on the server's node. */
export async function rescueIsoVolume(tx: Tx, place: ServerPlace): Promise<{ isoId: string; volume: string }> {
  const iso = await tx.iso.findFirst({
    where: { rescue: true, tenantId: null, deletedAt: null, copies: { some: copyOnNode(place) } },
    orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
    include: { copies: { where: copyOnNode(place), take: 1 } },
  });
  const copy = iso?.copies[0];
  if (!iso || !copy) throw new AppError('RESCUE_UNAVAILABLE', "No rescue system is ready on this server's host.");
  return { isoId: iso.id, volume: volumeOf(copy, iso) };
}

/**
 * The ISOs a customer may mount, with the locations they are ready in (on every node there, or
 * some); with `instanceId`, only those ready on that server's node. Rescue systems are not listed:
 * rescue mode mounts them.
 */
export async function listUsableIsos(deps: Deps, who: Principal, filter: { instanceId?: string; locationId?: string }): Promise<IsoWithCopies[]> {
  const instance = filter.instanceId ? await findInstance(deps, who, filter.instanceId) : null;
  const tenantId = instance?.tenantId ?? who.tenantId;
  const where: Prisma.IsoWhereInput = { rescue: false, ...(tenantId ? usableBy(tenantId) : { deletedAt: null }) };
  const ready: Prisma.IsoCopyWhereInput = instance
    ? copyOnNode({ tenantId: instance.tenantId, locationId: instance.locationId, node: instance.node ?? '' })
    : { state: 'ready', ...(filter.locationId ? { locationId: filter.locationId } : {}) };
  const isos = await deps.db.iso.findMany({
    where: { ...where, copies: { some: ready } },
    orderBy: [{ name: 'asc' }, { id: 'asc' }],
    include: { copies: { where: ready, include: { location: { select: { id: true, name: true } } } } },
  });
  return isos;
}

export interface IsoSpec {
  name: string;
  url: string;
  checksum: string;
  checksumAlgorithm: 'md5' | 'sha1' | 'sha224' | 'sha256' | 'sha384' | 'sha512';
  tenantId?: string | null;
  rescue?: boolean;
}

/** The copies an ISO needs: per location with an ISO storage, once when shared, per enabled node when not. */
async function plannedCopies(tx: Tx, isoId: string): Promise<Prisma.IsoCopyCreateManyInput[]> {
  const locations = await tx.location.findMany({ where: { isoStorage: { not: null }, archivedAt: null }, include: { connection: { include: { nodes: { where: { enabled: true } } } } } });
  return locations.flatMap((location) => {
    const nodes = location.isoStorageShared ? [null] : location.connection.nodes.map((n) => n.name);
    return nodes.map((node) => ({ id: newId('isoc'), isoId, locationId: location.id, storage: location.isoStorage as string, node, state: 'importing' as const }));
  });
}

/**
 * Records an ISO and the copy each location's ISO storage is to hold, all `importing`; Proxmox
 * downloads them (download-url, content iso) and checks the checksum. A rescue ISO is public.
 */
export async function createIso(deps: SyncDeps, actorUserId: string, spec: IsoSpec): Promise<IsoWithCopies> {
  if (spec.rescue && spec.tenantId) throw new AppError('INVALID_INPUT', 'The request body is invalid.', { fields: { tenantId: 'a rescue ISO serves every tenant' } });
  const created = await deps.db.$transaction(async (tx) => {
    if (spec.tenantId && !(await tx.tenant.findUnique({ where: { id: spec.tenantId }, select: { id: true } }))) {
      throw new AppError('INVALID_INPUT', 'The request body is invalid.', { fields: { tenantId: 'no such tenant' } });
    }
    const id = newId('iso');
    await tx.iso.create({
      data: { id, name: spec.name, url: spec.url, checksum: spec.checksum.toLowerCase(), checksumAlgorithm: spec.checksumAlgorithm, tenantId: spec.tenantId ?? null, rescue: spec.rescue ?? false, fileName: `${id}.iso` },
    });
    await tx.isoCopy.createMany({ data: await plannedCopies(tx, id) });
    await recordAudit(tx, { action: 'iso.created', actorUserId, details: { isoId: id, name: spec.name, tenantId: spec.tenantId ?? null, rescue: spec.rescue ?? false } });
    return tx.iso.findUniqueOrThrow({ where: { id }, include: withCopies });
  });
  return startSync(deps, created);
}

export async function findIso(deps: Deps, who: Caller, id: string): Promise<IsoWithCopies> {
  const iso = await deps.db.iso.findFirst({ where: { id, ...(who.role === 'admin' ? {} : usableBy(who.tenantId ?? '-')) }, include: withCopies });
  if (!iso) throw notFound('ISO');
  return iso;
}

export const listIsos = (deps: Deps): Promise<IsoWithCopies[]> => deps.db.iso.findMany({ where: { deletedAt: null }, orderBy: [{ createdAt: 'desc' }, { id: 'desc' }], include: withCopies });

/**
 * Downloads again what failed, and adds the copies of locations (or nodes) that got an ISO
 * storage since; ready copies stay.
 */
export async function refreshIso(deps: SyncDeps, actorUserId: string, id: string): Promise<IsoWithCopies> {
  const refreshed = await deps.db.$transaction(async (tx) => {
    const iso = await tx.iso.findFirst({ where: { id, deletedAt: null }, include: { copies: true } });
    if (!iso) throw notFound('ISO');
    await tx.isoCopy.updateMany({ where: { isoId: id, state: 'failed' }, data: { state: 'importing', failureMessage: null } });
    const have = new Set(iso.copies.map((c) => `${c.locationId}/${c.storage}/${c.node ?? ''}`));
    const missing = (await plannedCopies(tx, id)).filter((c) => !have.has(`${c.locationId}/${c.storage}/${c.node ?? ''}`));
    await tx.isoCopy.createMany({ data: missing });
    await recordAudit(tx, { action: 'iso.refreshed', actorUserId, details: { isoId: id } });
    return tx.iso.findUniqueOrThrow({ where: { id }, include: withCopies });
  });
  return startSync(deps, refreshed);
}

/**
 * Deletes an ISO from the library: no server may mount it from now on, and its copies are
 * removed from the storages. A server that has it mounted keeps it until ejected (409 otherwise
 * would let one customer hold an operator's library hostage): it is named in the answer.
 */
export async function deleteIso(deps: SyncDeps, actorUserId: string, id: string): Promise<IsoWithCopies> {
  const deleted = await deps.db.$transaction(async (tx) => {
    const iso = await tx.iso.findFirst({ where: { id, deletedAt: null } });
    if (!iso) throw notFound('ISO');
    const mounted = await tx.instance.count({ where: { isoId: id, status: { not: 'deleted' } } });
    if (mounted > 0) throw new AppError('CONFLICT', 'Servers still have this ISO mounted; they must eject it (or leave rescue) first.', { mountedBy: mounted });
    await tx.iso.update({ where: { id }, data: { deletedAt: new Date() } });
    await tx.isoCopy.updateMany({ where: { isoId: id }, data: { state: 'deleting' } });
    await recordAudit(tx, { action: 'iso.deleted', actorUserId, details: { isoId: id } });
    return tx.iso.findUniqueOrThrow({ where: { id }, include: withCopies });
  });
  return startSync(deps, deleted);
}
