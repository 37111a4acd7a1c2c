import { z } from 'zod';
import { archivedAt, archivedField, idSchema, nameSchema, timestamp } from './catalog-fields';
import { adminIpPoolSchema } from './ip-pools';

const snapshotsSupportedField = z
  .boolean()
  .optional()
  .openapi({ description: "false when the connection's storage cannot take snapshots (thick LVM, raw images on a directory, NFS or CIFS): snapshot requests then answer 422 SNAPSHOTS_UNSUPPORTED. Default true." });

/**
 * A location's backup storage: Proxmox VE's `pve-storage-id` (pve-common, PVE/JSONSchema.pm,
 * parse_storage_id: `^[a-z][a-z0-9\-\_\.]*[a-z0-9]$` with /i), spelled without the flag, which
 * a JSON Schema `pattern` cannot carry.
 */
const backupStorageField = z
  .string()
  .regex(/^[A-Za-z][A-Za-z0-9\-_.]*[A-Za-z0-9]$/, 'a Proxmox VE storage id')
  .nullable()
  .optional()
  .openapi({ description: 'The storage (content type `backup`) backups are written to; null: no backups in this location.' });

const isoStorageField = z
  .string()
  .regex(/^[A-Za-z][A-Za-z0-9\-_.]*[A-Za-z0-9]$/, 'a Proxmox VE storage id')
  .nullable()
  .optional()
  .openapi({ description: 'The storage (content type `iso`) the ISO library is downloaded into and mounted from; null: no ISOs or rescue mode in this location.' });

const isoStorageSharedField = z
  .boolean()
  .optional()
  .openapi({ description: "true (default) when every node of the location reads the ISO storage (NFS, CIFS, CephFS): an ISO is downloaded once. false: once per node (a node's `local`)." });

export const createLocationSchema = z
  .strictObject({
    name: nameSchema,
    connectionId: idSchema,
    ipPools: z
      .array(idSchema)
      .min(1)
      .max(64)
      .refine((ids) => new Set(ids).size === ids.length, 'duplicate pool id')
      .openapi({ description: 'Pool ids; at least one IPv4 pool, each not yet in another location.' }),
    snapshotsSupported: snapshotsSupportedField,
    backupStorage: backupStorageField,
    isoStorage: isoStorageField,
    isoStorageShared: isoStorageSharedField,
  })
  .openapi('CreateLocation');

export const updateLocationSchema = z
  .strictObject({
    name: nameSchema.optional(),
    addIpPools: z
      .array(idSchema)
      .min(1)
      .max(64)
      .refine((ids) => new Set(ids).size === ids.length, 'duplicate pool id')
      .optional()
      .openapi({ description: 'Pools to add to the location, each not yet in another location.' }),
    snapshotsSupported: snapshotsSupportedField,
    backupStorage: backupStorageField,
    isoStorage: isoStorageField,
    isoStorageShared: isoStorageSharedField,
    archived: archivedField,
  })
  .openapi('UpdateLocation');

/** What a customer sees: no provider coordinates. */
export const locationSchema = z
  .object({
    id: z.string(),
    name: z.string(),
    ipv4: z.boolean().openapi({ description: 'Instances here get an IPv4 address.' }),
    ipv6: z.boolean().openapi({ description: 'Instances here get an IPv6 address when one is free.' }),
    snapshots: z.boolean().openapi({ description: 'Servers here can take snapshots.' }),
    backups: z.boolean().openapi({ description: 'Servers here can be backed up.' }),
  })
  .openapi('Location');

export const adminLocationSchema = z
  .object({
    id: z.string(),
    name: z.string(),
    connectionId: z.string(),
    ipPools: z.array(adminIpPoolSchema),
    snapshotsSupported: z.boolean(),
    backupStorage: z.string().nullable(),
    isoStorage: z.string().nullable(),
    isoStorageShared: z.boolean(),
    createdAt: timestamp,
    archivedAt,
  })
  .openapi('AdminLocation');
