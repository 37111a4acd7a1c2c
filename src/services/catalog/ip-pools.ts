import type { Tx } from '../../db/client';
import {
  deletePoolAddresses,
  findIpPools,
  insertIpPool,
  lockAddressesHandedOut,
  lockIpPool,
  lockPoolNetworks,
  updateIpPoolRow,
  withdrawAddress,
} from '../../db/catalog-ip-pools';
import type { PageArgs } from '../../db/pages';
import { AppError } from '../../domain/errors';
import type { IpPool } from '../../generated/prisma/client';
import { canonicalAddress } from '../../net/ip';
import { ipPoolProblems, type Network, networksOverlap, parseNetwork } from '../../net/pool-networks';
import { newId } from '../../security/ids';
import { audit, badReference, type CatalogDeps, createRow, updateRow } from './changes';

/** IP pools: the networks servers get their addresses from, each in at most one location. */

export interface IpPoolSpec {
  cidr: string;
  gateway: string;
  bridge: string;
  vlan?: number;
  dns: string[];
}

export type IpPoolChange = Partial<Omit<IpPoolSpec, 'vlan'>> & { vlan?: number | null; archived?: boolean };

/** Every pool, or only the archived (true) or current (false) ones. */
export const listIpPools = (deps: CatalogDeps, page: PageArgs, archived?: boolean): Promise<IpPool[]> => findIpPools(deps.db, page, archived);

/** A network of its family that no other pool overlaps, checked under a lock so two overlapping pools cannot both pass. */
async function assertNoPoolOverlap(tx: Tx, net: Network, exceptPoolId = ''): Promise<void> {
  const existing = await lockPoolNetworks(tx, net.family, exceptPoolId);
  const overlapping = existing.find((other) => {
    const otherNet = parseNetwork(other.cidr);
    return otherNet !== undefined && networksOverlap(net, otherNet);
  });
  if (overlapping) {
    throw new AppError('CONFLICT', `The network overlaps the pool ${overlapping.cidr}.`, { fields: { cidr: 'overlaps an existing pool' }, poolId: overlapping.id });
  }
}

export function createIpPool(deps: CatalogDeps, actorUserId: string, pool: IpPoolSpec): Promise<IpPool> {
  return createRow(deps, ['pool', 'cidr'], async (tx) => {
    const net = parseNetwork(pool.cidr);
    if (!net) throw badReference({ cidr: 'a network in CIDR notation' });
    await assertNoPoolOverlap(tx, net);
    const created = await insertIpPool(tx, {
      id: newId('pool'),
      cidr: net.cidr,
      family: net.family,
      gateway: canonicalAddress(pool.gateway),
      bridge: pool.bridge,
      vlan: pool.vlan ?? null,
      dns: pool.dns.map(canonicalAddress),
    });
    await audit(tx, actorUserId, 'ip_pool.created', { poolId: created.id, cidr: created.cidr });
    return created;
  });
}

/**
 * The network may change only while no address was ever handed out from the pool; a new
 * gateway may not be an address a server holds (a free one leaves circulation).
 */
export function updateIpPool(deps: CatalogDeps, actorUserId: string, id: string, change: IpPoolChange): Promise<IpPool> {
  return updateRow(deps, actorUserId, id, change, {
    duplicate: ['pool', 'cidr'],
    lock: lockIpPool,
    noun: 'IP pool',
    action: 'ip_pool.updated',
    subject: 'poolId',
    apply: async (tx, { current: pool, fields, archive }) => {
      const cidr = fields.cidr ?? pool.cidr;
      const gateway = fields.gateway ?? pool.gateway;
      const problems = ipPoolProblems({ cidr, gateway, family: pool.family === 6 ? 6 : 4 });
      if (problems.length > 0) throw badReference(Object.fromEntries(problems.map((p) => [p.field, p.message])));
      const net = parseNetwork(cidr) as Network;
      if (net.cidr !== pool.cidr) {
        const addresses = await lockAddressesHandedOut(tx, id);
        if (addresses > 0) {
          throw new AppError('CONFLICT', `The network of a pool cannot change once addresses were handed out from it (${addresses}).`, { fields: { cidr: 'addresses were handed out' }, addresses });
        }
        await assertNoPoolOverlap(tx, net, id);
        // Free rows never handed out (added ahead of demand) go with the old network.
        await deletePoolAddresses(tx, id);
      }
      const newGateway = canonicalAddress(gateway);
      if (newGateway !== pool.gateway && (await withdrawAddress(tx, id, newGateway)) === 'held') {
        throw new AppError('CONFLICT', 'A server holds that address.', { fields: { gateway: 'held by a server' } });
      }
      return updateIpPoolRow(tx, id, {
        ...fields,
        cidr: net.cidr,
        gateway: newGateway,
        ...(fields.dns ? { dns: fields.dns.map(canonicalAddress) } : {}),
        ...archive,
      });
    },
  });
}
