import { isIP } from 'node:net';
import { z } from 'zod';
import { ipPoolProblems } from '../../net/pool-networks';
import { archivedAt, archivedField, timestamp } from './catalog-fields';

const addressSchema = z.string().refine((address) => isIP(address) !== 0, 'an IP address');

export const createIpPoolSchema = z
  .strictObject({
    cidr: z.string().max(64),
    gateway: z.string().max(64),
    bridge: z.string().regex(/^[A-Za-z][A-Za-z0-9_.-]{0,14}$/, 'a Linux bridge name'),
    vlan: z.number().int().min(1).max(4094).optional(),
    dns: z.array(addressSchema).max(8),
    family: z.union([z.literal(4), z.literal(6)]),
  })
  .superRefine((pool, ctx) => {
    for (const problem of ipPoolProblems(pool)) ctx.addIssue({ code: 'custom', path: [problem.field], message: problem.message });
  })
  .openapi('CreateIpPool');

export const updateIpPoolSchema = z
  .strictObject({
    cidr: z.string().max(64).optional().openapi({ description: 'Only while no address was ever handed out from the pool.' }),
    gateway: z.string().max(64).optional(),
    bridge: z.string().regex(/^[A-Za-z][A-Za-z0-9_.-]{0,14}$/, 'a Linux bridge name').optional(),
    vlan: z.number().int().min(1).max(4094).nullable().optional(),
    dns: z.array(addressSchema).max(8).optional(),
    archived: archivedField,
  })
  .openapi('UpdateIpPool', { description: 'Bridge, VLAN and DNS apply to servers created or rebuilt from now on.' });

export const adminIpPoolSchema = z
  .object({
    id: z.string(),
    cidr: z.string(),
    family: z.union([z.literal(4), z.literal(6)]),
    gateway: z.string(),
    bridge: z.string(),
    vlan: z.number().int().nullable(),
    dns: z.array(z.string()),
    locationId: z.string().nullable(),
    createdAt: timestamp,
    archivedAt,
  })
  .openapi('AdminIpPool');
