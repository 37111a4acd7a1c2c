import type { Tx } from '../../db/client';
import { connectionExists } from '../../db/catalog-connections';
import { claimFreePools, findPoolsById } from '../../db/catalog-ip-pools';
import { findLocations, findOfferedLocations, insertLocation, type LocationWithPools, lockLocation, readLocation, updateLocationRow } from '../../db/catalog-locations';
import type { PageArgs } from '../../db/pages';
import { AppError } from '../../domain/errors';
import type { IpPool, Location } from '../../generated/prisma/client';
import { newId } from '../../security/ids';
import { audit, badReference, type CatalogDeps, createRow, updateRow } from './changes';

/** Locations: where customers place servers, a connection and its IP pools. */

export interface LocationSpec {
  name: string;
  connectionId: string;
  /** At least one IPv4 pool, each not yet in another location. */
  ipPools: string[];
  snapshotsSupported?: boolean;
  backupStorage?: string | null;
  isoStorage?: string | null;
  isoStorageShared?: boolean;
}

export interface LocationChange {
  name?: string;
  addIpPools?: string[];
  snapshotsSupported?: boolean;
  backupStorage?: string | null;
  isoStorage?: string | null;
  isoStorageShared?: boolean;
  archived?: boolean;
}

/** Every location, or only the archived (true) or current (false) ones, with their pools. */
export const listLocations = (deps: CatalogDeps, page: PageArgs, archived?: boolean): Promise<LocationWithPools[]> => findLocations(deps.db, page, archived);

/** The locations customers choose from: neither they nor their connection archived, with the families of their offered pools. */
export const listOfferedLocations = (deps: CatalogDeps, page: PageArgs): Promise<(Location & { ipPools: Pick<IpPool, 'family'>[] })[]> => findOfferedLocations(deps.db, page);

/**
 * Gives the pools to the location, only if no other location holds them; unknown pools are 400
 * (with the caller's other `fields` problems), taken ones 409, each named by `field.<index>`.
 */
async function claimPools(tx: Tx, locationId: string, poolIds: string[], field: string, fields: Record<string, string> = {}): Promise<IpPool[]> {
  const pools = await findPoolsById(tx, poolIds);
  const known = new Set(pools.map((p) => p.id));
  poolIds.forEach((poolId, i) => {
    if (!known.has(poolId)) fields[`${field}.${i}`] = 'no such IP pool';
  });
  if (Object.keys(fields).length > 0) throw badReference(fields);
  const claim = await claimFreePools(tx, locationId, poolIds);
  if (!claim.claimedAll) {
    const heldIds = new Set(claim.heldElsewhere);
    const taken = poolIds.flatMap((poolId, i) => (heldIds.has(poolId) ? [[`${field}.${i}`, 'already in another location'] as const] : []));
    throw new AppError('CONFLICT', 'An IP pool already belongs to another location.', { fields: Object.fromEntries(taken) });
  }
  return pools;
}

export function createLocation(deps: CatalogDeps, actorUserId: string, location: LocationSpec): Promise<LocationWithPools> {
  return createRow(deps, ['location'], async (tx) => {
    const connectionKnown = await connectionExists(tx, location.connectionId);
    const locationId = newId('loc');
    // Without the connection nothing is created: claimPools reports it along with any unknown pool.
    if (connectionKnown) {
      await insertLocation(tx, {
        id: locationId,
        name: location.name,
        connectionId: location.connectionId,
        snapshotsSupported: location.snapshotsSupported,
        backupStorage: location.backupStorage ?? null,
        isoStorage: location.isoStorage ?? null,
        isoStorageShared: location.isoStorageShared,
      });
    }
    const pools = await claimPools(tx, locationId, location.ipPools, 'ipPools', connectionKnown ? {} : { connectionId: 'no such connection' });
    if (!pools.some((p) => p.family === 4)) throw badReference({ ipPools: 'at least one IPv4 pool is required' });
    await audit(tx, actorUserId, 'location.created', { locationId, name: location.name });
    return readLocation(tx, locationId);
  });
}

export function updateLocation(deps: CatalogDeps, actorUserId: string, id: string, change: LocationChange): Promise<LocationWithPools> {
  return updateRow(deps, actorUserId, id, change, {
    duplicate: ['location'],
    lock: lockLocation,
    noun: 'location',
    action: 'location.updated',
    subject: 'locationId',
    apply: async (tx, { fields: { addIpPools = [], ...fields }, archive }) => {
      await claimPools(tx, id, addIpPools, 'addIpPools');
      return updateLocationRow(tx, id, { ...fields, ...archive });
    },
  });
}
