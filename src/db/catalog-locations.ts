import type { IpPool, Location, Prisma } from '../generated/prisma/client';
import { archivedFilter } from './catalog';
import type { Tx } from './client';
import type { PageArgs } from './pages';

/** The rows of locations. A new location's id is named by its caller (it claims the pools first). */

export type LocationWithPools = Location & { ipPools: IpPool[] };

export const findLocations = (tx: Tx, page: PageArgs, archived?: boolean): Promise<LocationWithPools[]> =>
  tx.location.findMany({ ...page, where: { ...page.where, ...archivedFilter(archived) }, include: { ipPools: true } });

/** Locations customers may choose (neither they nor their connection archived), with the families of their offered pools. */
export const findOfferedLocations = (tx: Tx, page: PageArgs): Promise<(Location & { ipPools: Pick<IpPool, 'family'>[] })[]> =>
  tx.location.findMany({
    ...page,
    where: { ...page.where, archivedAt: null, connection: { archivedAt: null } },
    include: { ipPools: { where: { archivedAt: null }, select: { family: true } } },
  });

/** The location with its pools, one known to exist (written in the caller's transaction). */
export const readLocation = (tx: Tx, id: string): Promise<LocationWithPools> => tx.location.findUniqueOrThrow({ where: { id }, include: { ipPools: true } });

export async function insertLocation(tx: Tx, location: Prisma.LocationUncheckedCreateInput): Promise<void> {
  await tx.location.create({ data: location });
}

/** The location, locked against concurrent updates; none when there is no such location. */
export async function lockLocation(tx: Tx, id: string): Promise<Location | undefined> {
  const [location] = await tx.$queryRaw<Location[]>`SELECT * FROM locations WHERE id = ${id} FOR UPDATE`;
  return location;
}

export const updateLocationRow = (tx: Tx, id: string, data: Prisma.LocationUncheckedUpdateInput): Promise<LocationWithPools> =>
  tx.location.update({ where: { id }, data, include: { ipPools: true } });
