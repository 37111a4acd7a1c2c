import { z } from 'zod';
import { CHECKSUM_LENGTHS } from '../../domain/image-sources';
import { refreshIntervalSeconds } from '../../domain/image-refresh';
import { isSafeLine } from '../../domain/validation';
import { archivedAt, archivedField, idSchema, nameSchema, nodeNameSchema, timestamp, usernameSchema, vmidSchema } from './catalog-fields';
import { storageIdSchema } from './connections';

const loginMethodSchema = z.enum(['password', 'ssh']);

const checksumAlgorithmSchema = z.enum(['sha256', 'sha512']);
const httpUrlSchema = z
  .url({ protocol: /^https?$/, hostname: z.regexes.hostname })
  .max(2048)
  // zod runs this refinement after a failed URL check too: a text that is no URL is left to that check.
  .refine((url) => !URL.canParse(url) || (!new URL(url).username && !new URL(url).password), 'no user name or password in the URL: it is shown to every administrator')
  .openapi({ description: 'An http or https URL Proxmox VE fetches itself.' });

export const imageSourceSchema = z
  .strictObject({
    url: httpUrlSchema.openapi({ description: 'The disk image (qcow2, raw or vmdk; `.img` is read as qcow2). Proxmox VE downloads it once per storage.' }),
    checksum: z
      .string()
      .regex(/^[0-9a-fA-F]+$/, 'hexadecimal')
      .transform((hex) => hex.toLowerCase())
      .optional()
      .openapi({ description: 'The file\'s checksum; Proxmox VE refuses a download whose checksum differs. Give either this or `checksumUrl`.', example: 'a3f1c9e2d4b5a6978877665544332211a3f1c9e2d4b5a6978877665544332211' }),
    checksumUrl: httpUrlSchema.optional().openapi({
      description:
        'A checksum list (`SHA256SUMS`-style: `<hex>  <file>`, `<hex> *<file>` or `SHA256 (<file>) = <hex>`) giving the checksum of the file `url` names (its last path segment). Read by the control plane, which reaches only public addresses unless `CHECKSUM_URL_ALLOW_PRIVATE_TARGETS` is set; read again on every refresh. Give either this or `checksum`.',
      example: 'https://cloud.debian.org/images/cloud/bookworm/latest/SHA512SUMS',
    }),
    checksumAlgorithm: checksumAlgorithmSchema,
    storage: storageIdSchema
      .optional()
      .openapi({ description: 'The storage downloads go to; it must take content type `import`. Default: a shared storage taking import where there is one, else each node\'s own.' }),
  })
  .superRefine((source, ctx) => {
    if ((source.checksum === undefined) === (source.checksumUrl === undefined)) ctx.addIssue({ code: 'custom', path: ['checksum'], message: 'give either checksum or checksumUrl' });
    const length = CHECKSUM_LENGTHS[source.checksumAlgorithm];
    if (source.checksum !== undefined && source.checksum.length !== length) ctx.addIssue({ code: 'custom', path: ['checksum'], message: `a ${source.checksumAlgorithm} checksum has ${length} hexadecimal digits` });
  })
  .openapi('ImageSource');

export const refreshScheduleSchema = z
  .strictObject({
    every: z
      .string()
      .refine((every) => refreshIntervalSeconds(every) !== undefined, 'hours (`6h`, 1 to 720) or days (`1d`, 1 to 30)')
      .openapi({ description: 'How often the checksum URL is read again: `<n>h` (1–720) or `<n>d` (1–30). A changed checksum builds a new version, as a refresh does.', example: '24h' }),
  })
  .openapi('ImageRefreshSchedule');

export const createImageSchema = z
  .strictObject({
    name: nameSchema,
    os: z.string().trim().min(1).max(64).refine(isSafeLine, 'one line of text'),
    version: z.string().trim().min(1).max(64).refine(isSafeLine, 'one line of text'),
    loginMethods: z.array(loginMethodSchema).max(2).refine((methods) => new Set(methods).size === methods.length, 'duplicate login method'),
    defaultUsername: usernameSchema.optional(),
    rootAllowed: z.boolean(),
    templates: z
      .array(z.strictObject({ connectionId: idSchema, node: nodeNameSchema, templateVmid: vmidSchema }))
      .min(1)
      .max(256)
      .optional()
      .openapi({ description: 'Hand-made templates, one per node of a connection. Give either these or `source`.' }),
    source: imageSourceSchema
      .optional()
      .openapi({ description: 'Build the image from a URL: a template on every node of every location offering it. Give either this or `templates`.' }),
    locationIds: z
      .array(idSchema)
      .min(1)
      .max(256)
      .optional()
      .openapi({ description: 'With `source`: the locations it is built in. Default: every location.' }),
    refreshSchedule: refreshScheduleSchema
      .nullable()
      .optional()
      .openapi({ description: 'With `source.checksumUrl`: refresh the image on this schedule (a Temporal Schedule per image). Default: none, refreshed only on request.' }),
  })
  .superRefine((image, ctx) => {
    if (image.defaultUsername === 'root' && !image.rootAllowed) {
      ctx.addIssue({ code: 'custom', path: ['defaultUsername'], message: 'root requires rootAllowed' });
    }
    if ((image.templates === undefined) === (image.source === undefined)) {
      ctx.addIssue({ code: 'custom', path: ['source'], message: 'give either templates or source' });
    }
    if (image.locationIds && !image.source) ctx.addIssue({ code: 'custom', path: ['locationIds'], message: 'only with source' });
    if (image.refreshSchedule && !image.source?.checksumUrl) ctx.addIssue({ code: 'custom', path: ['refreshSchedule'], message: 'only with source.checksumUrl: a fixed checksum never changes' });
    const seen = new Set<string>();
    image.templates?.forEach((template, index) => {
      const key = `${template.connectionId}/${template.node}`;
      if (seen.has(key)) ctx.addIssue({ code: 'custom', path: ['templates', index, 'node'], message: 'one template per node of a connection' });
      seen.add(key);
    });
  })
  .openapi('CreateImage');

export const updateImageSchema = z
  .strictObject({
    name: nameSchema.optional(),
    os: z.string().trim().min(1).max(64).optional(),
    version: z.string().trim().min(1).max(64).optional(),
    loginMethods: createImageSchema.shape.loginMethods.optional(),
    defaultUsername: usernameSchema.nullable().optional(),
    rootAllowed: z.boolean().optional(),
    templates: z
      .array(z.strictObject({ connectionId: idSchema, node: nodeNameSchema, templateVmid: vmidSchema }))
      .min(1)
      .max(256)
      .optional()
      .openapi({ description: 'Templates to add or replace, by connection and node; the others stay. Servers rebuild from the template of their node.' }),
    refreshSchedule: refreshScheduleSchema
      .nullable()
      .optional()
      .openapi({ description: 'A URL image\'s refresh schedule; null removes it. Only for an image with a checksum URL (else `409 INVALID_STATE`).' }),
    archived: archivedField,
  })
  .openapi('UpdateImage');

const imageFields = {
  id: z.string(),
  name: z.string(),
  os: z.string(),
  version: z.string(),
  loginMethods: z.array(loginMethodSchema),
  defaultUsername: z.string().nullable(),
  rootAllowed: z.boolean(),
};

/** What a customer sees. */
export const imageSchema = z.object(imageFields).openapi('Image');

export const imageTemplateSchema = z
  .object({ id: z.string(), connectionId: z.string(), node: z.string(), templateVmid: z.number().int() })
  .openapi('ImageTemplate');

export const imageBuildSchema = z
  .object({
    connectionId: z.string(),
    node: z.string(),
    version: z.number().int(),
    state: z.enum(['importing', 'ready', 'failed']),
    storage: z.string().nullable(),
    templateVmid: z.number().int().nullable(),
    progress: z.number().int().min(0).max(100).nullable().openapi({ description: 'Percent of the download done, as Proxmox VE\'s task log reports it; null before it starts.' }),
    errorCode: z.string().nullable(),
    errorMessage: z.string().nullable(),
    retiredAt: timestamp.nullable().openapi({ description: 'When its template (and its file, once unused) was removed: a newer version replaced it, or the image was deleted.' }),
    updatedAt: timestamp,
  })
  .openapi('ImageBuild');

export const imageVersionSchema = z
  .object({ number: z.number().int(), checksum: z.string(), createdAt: timestamp, retiredAt: timestamp.nullable() })
  .openapi('ImageVersion');

/** What an administrator sees. */
export const adminImageSchema = z
  .object({
    ...imageFields,
    templates: z.array(imageTemplateSchema),
    source: z
      .object({ url: z.string(), checksumUrl: z.string().nullable(), checksumAlgorithm: checksumAlgorithmSchema, storage: z.string().nullable(), locationIds: z.array(z.string()) })
      .nullable()
      .openapi({ description: 'Where a URL image comes from; null for hand-made templates.' }),
    refreshSchedule: refreshScheduleSchema.nullable().openapi({ description: 'How often the image is refreshed from its checksum URL; null: only on request.' }),
    versions: z.array(imageVersionSchema),
    builds: z.array(imageBuildSchema).openapi({ description: 'A URL image\'s state on each node, per version: importing (with the download\'s progress), ready, or failed with a stable code.' }),
    createdAt: timestamp,
    archivedAt,
  })
  .openapi('AdminImage');

export const refreshImageSchema = z
  .strictObject({
    checksum: imageSourceSchema.shape.checksum.openapi({
      description: 'The checksum of the file now at the image\'s URL, in the image\'s algorithm. Without it, the image\'s checksum URL is read again (an image without one needs it).',
    }),
  })
  .openapi('RefreshImage');
