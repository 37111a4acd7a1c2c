import { z } from 'zod';
import { IsoCopyState } from '../../generated/prisma/enums';
import { idSchema, nameSchema } from './catalog-fields';

const HEX = /^[0-9A-Fa-f]+$/;
const DIGEST_LENGTH = { md5: 32, sha1: 40, sha224: 56, sha256: 64, sha384: 96, sha512: 128 } as const;

export const createIsoBody = z
  .strictObject({
    name: nameSchema,
    url: z.url({ protocol: /^https?$/ }).max(2048).openapi({ description: 'Where Proxmox VE downloads it from (download-url, content `iso`).' }),
    checksum: z.string().regex(HEX, 'hexadecimal').max(128).openapi({ example: 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855', description: 'The hex digest Proxmox VE checks the download against.' }),
    checksumAlgorithm: z.enum(['md5', 'sha1', 'sha224', 'sha256', 'sha384', 'sha512']),
    tenantId: idSchema.nullable().optional().openapi({ description: 'Private to this tenant; absent or null: public (every tenant).' }),
    rescue: z.boolean().optional().openapi({ description: "A rescue system: the newest one ready in a location serves its servers' rescue mode. Always public." }),
  })
  .refine((body) => body.checksum.length === DIGEST_LENGTH[body.checksumAlgorithm], { path: ['checksum'], message: 'not a digest of checksumAlgorithm' })
  .openapi('CreateIso');

const ref = z.object({ id: z.string(), name: z.string() });

/** A customer's view: where it is ready, never a storage, node or URL. */
export const isoView = z.object({ id: z.string(), name: z.string(), locations: z.array(ref).openapi({ description: 'The locations where it is ready (on every host there, or on some).' }) }).openapi('Iso');

export const listIsosQuery = z.strictObject({
  instanceId: z.string().max(64).optional().openapi({ description: "Only the ISOs this server may mount: ready on its host." }),
  locationId: z.string().max(64).optional(),
});

export const adminIsoView = z
  .object({
    id: z.string(),
    name: z.string(),
    url: z.string(),
    checksum: z.string(),
    checksumAlgorithm: z.string(),
    tenantId: z.string().nullable(),
    rescue: z.boolean(),
    fileName: z.string(),
    createdAt: z.iso.datetime(),
    deletedAt: z.iso.datetime().nullable(),
    copies: z.array(
      z.object({
        location: ref,
        storage: z.string(),
        node: z.string().nullable().openapi({ description: 'The node whose local storage holds it; null: the location’s shared storage.' }),
        state: z.enum(IsoCopyState),
        failure: z.string().nullable(),
        updatedAt: z.iso.datetime(),
      }),
    ),
  })
  .openapi('AdminIso');

export const rescueRevealView = z.object({ username: z.string(), password: z.string(), expiresAt: z.iso.datetime() }).openapi('RescuePassword');
