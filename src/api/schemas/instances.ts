import { z } from 'zod';
import { isReservedGuestName } from '../../domain/ownership';
import { CredentialType, DesiredState, InstanceStatus, StepStatus, TaskStatus } from '../../generated/prisma/enums';
import { listQuerySchema } from '../openapi';
import { parseCloudConfig } from '../../domain/cloud-config';
import { isValidHostname, parseSshPublicKey, USERNAME_PATTERN } from '../../domain/validation';

/** An OpenSSH public key line (see parseSshPublicKey), stored in its canonical form. */
export const sshPublicKeySchema = z.string().transform((line, ctx) => {
  const key = parseSshPublicKey(line);
  if (key) return key.canonical;
  ctx.addIssue({ code: 'custom', message: 'must be an OpenSSH public key line: ssh-ed25519, ssh-rsa, ecdsa-sha2-nistp256/384/521 or sk-…, then its base64 key and an optional comment of letters, digits, spaces and ._@+=:,/()-' });
  return z.NEVER;
});

/** Keys saved on the caller's account, by id; an id that is not the caller's is 400 INVALID_INPUT like an unknown one. */
export const sshKeyIdsSchema = z
  .array(z.string().min(1).max(64))
  .max(32)
  .optional()
  .openapi({ description: 'SSH keys saved on your account (`POST /v1/ssh-keys`), by id, handed to the server beside `sshKeys`. An id that is not one of your keys is 400 INVALID_INPUT (`details.fields["sshKeyIds.N"]`).' });

export const credentialTypeSchema = z.enum(CredentialType);

export const createInstanceBody = z.strictObject({
  planId: z.string().min(1).max(64),
  locationId: z.string().min(1).max(64).optional().openapi({ description: 'Required with `imageId`; with `backupId` it defaults to the backup\'s location and must be it (else 422 UNSUPPORTED).' }),
  imageId: z.string().min(1).max(64).optional().openapi({ description: 'The image to install. Send exactly one of `imageId` and `backupId`.' }),
  backupId: z.string().min(1).max(64).optional().openapi({
    description: "Restore one of your backups as a new server instead of installing an image: the server starts as the backup's disk, with its own addresses, login and name. The backup must be `available` (409 BACKUP_NOT_RESTORABLE) and fit the plan's disk (422 PLAN_DISK_TOO_SMALL). Send exactly one of `imageId` and `backupId`.",
  }),
  hostname: z
    .string()
    .min(1)
    .max(253)
    .refine(isValidHostname, 'must be a valid host name (letters, digits and inner hyphens, dot-separated labels)')
    .refine((h) => !isReservedGuestName(h), 'names of the form pvecp-inst-… are reserved')
    .transform((h) => h.toLowerCase()),
  username: z.string().regex(USERNAME_PATTERN, 'must start with a lowercase letter or _, then up to 31 of a-z 0-9 _ -').optional(),
  sshKeys: z.array(sshPublicKeySchema).max(32).optional(),
  sshKeyIds: sshKeyIdsSchema,
  userData: z
    .string()
    .max(32_768)
    .superRefine((text, ctx) => {
      const parsed = parseCloudConfig(text);
      if (!parsed.ok) ctx.addIssue({ code: 'custom', message: parsed.reason });
    })
    .optional()
    .openapi({ description: 'A #cloud-config YAML mapping, merged with the login and hostname the service sets (those keys are ours). Needs a location whose connection has a snippets storage (else 422 USER_DATA_UNSUPPORTED).' }),
  credentialType: credentialTypeSchema.optional(),
  projectId: z.string().min(1).max(64).optional().openapi({
    description:
      "The project of your tenant the server belongs to (default: the tenant's default project; a project token's own). Its restrictions and quota are checked in the create: 422 PROJECT_PLAN_NOT_ALLOWED, PROJECT_IMAGE_NOT_ALLOWED, PROJECT_LOCATION_NOT_ALLOWED, PROJECT_QUOTA_EXCEEDED.",
  }),
}).superRefine((body, ctx) => {
  if ((body.imageId === undefined) === (body.backupId === undefined)) {
    ctx.addIssue({ code: 'custom', path: [body.imageId === undefined ? 'imageId' : 'backupId'], message: 'send exactly one of imageId and backupId' });
  }
  if (body.backupId === undefined && body.locationId === undefined) ctx.addIssue({ code: 'custom', path: ['locationId'], message: 'required unless restoring a backup' });
  // `when`: runs beside the fields' own checks, so one answer names every missing field.
}, { when: (payload) => typeof payload.value === 'object' && payload.value !== null });

export const createInstanceMeta = z.object({
  taskId: z.string().openapi({ description: 'The provisioning task: follow it on `GET /v1/tasks/{id}` or the server\'s event stream.' }),
  idempotent_replay: z.literal(true).optional().openapi({ description: 'Set when an `Idempotency-Key` replayed an earlier create (status 200).' }),
});

export const idempotencyKeyHeader = z.string().regex(/^[A-Za-z0-9._:-]{1,128}$/, 'must be 1-128 characters of A-Z a-z 0-9 . _ : -');

export const createInstanceHeaders = z.object({
  'Idempotency-Key': idempotencyKeyHeader.optional().openapi({ description: 'Retrying with the same key and body replays the first answer instead of creating again.' }),
});

/** The status ladder comes from the database schema: one list for storage, API and OpenAPI. */
export const instanceStatusSchema = z.enum(InstanceStatus);

export const listScopeSchema = z.enum(['mine', 'all']).default('all').openapi({
  description:
    '`mine`: the servers you created or that were shared with you; `all` (the default): every server of your tenant you may read (a member: their own, those shared with them and those of the projects they have a role in).',
});

export const listInstancesQuery = listQuerySchema.extend({
  state: instanceStatusSchema.optional(),
  scope: listScopeSchema,
  projectId: z.string().min(1).max(64).optional().openapi({ description: "Only this project's servers." }),
});

export const taskStepView = z.object({
  step: z.string(),
  status: z.enum(StepStatus),
  message: z.string(),
  at: z.iso.datetime(),
});

export const taskView = z.object({
  id: z.string(),
  type: z.string(),
  status: z.enum(TaskStatus),
  progress: z.number().int().min(0).max(100),
  currentStep: z.string().nullable(),
  steps: z.array(taskStepView),
  error: z.object({ code: z.string(), message: z.string() }).nullable(),
}).openapi('Task');

export const adminTaskView = taskView.extend({
  instanceId: z.string(),
  tenantId: z.string(),
  failureCause: z.unknown().nullable().openapi({ description: "Why the task failed, for operators: the failure's type, operation and phase, Proxmox's message and the provider call." }),
}).openapi('AdminTask');

const ref = z.object({ id: z.string(), name: z.string() });

export const instanceView = z.object({
  id: z.string(),
  projectId: z.string().openapi({ description: 'The project of its tenant it belongs to.' }),
  hostname: z.string(),
  status: instanceStatusSchema,
  desiredState: z.enum(DesiredState),
  plan: ref,
  location: ref,
  image: ref,
  ipv4: z.string().nullable(),
  ipv6: z.string().nullable(),
  username: z.string(),
  createdAt: z.iso.datetime(),
  updatedAt: z.iso.datetime(),
  task: z.union([taskView, z.null()]).openapi({ description: 'The latest task, if any.' }),
  failure: z.object({ code: z.string(), message: z.string() }).nullable(),
  iso: ref.nullable().openapi({ description: 'The ISO in the CD-ROM drive (the rescue system while in rescue); null: empty.' }),
  bootFirst: z.enum(['disk', 'cdrom']).openapi({ description: 'What the server boots from first (from its next start, after a change).' }),
  rescue: z.object({ since: z.iso.datetime() }).nullable().openapi({ description: 'Set while the server is in rescue mode (running, `rescue`, or stopped).' }),
}).openapi('Instance');

export const adminInstanceView = instanceView.extend({
  tenantId: z.string(),
  provider: z.object({
    connectionId: z.string(),
    node: z.string().nullable(),
    vmid: z.number().int().nullable(),
    templateVmid: z.number().int().nullable(),
    storage: z.string(),
    macAddress: z.string().nullable(),
    workflowId: z.string(),
    operations: z.array(
      z.object({ stage: z.string(), kind: z.string(), node: z.string(), upid: z.string().nullable(), status: z.string(), exitStatus: z.string().nullable() }),
    ),
  }),
  failureCause: z.unknown().nullable(),
}).openapi('AdminInstance');

export const revealView = z.object({
  username: z.string(),
  password: z.string().optional(),
  sshKeys: z.array(z.string()).optional(),
  expiresAt: z.iso.datetime(),
}).openapi('Credential');

export const rollbackResolveBody = z.strictObject({ note: z.string().min(1).max(2000) });
