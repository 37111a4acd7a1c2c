import { z } from 'zod';
import { CredentialType, DesiredState, InstanceStatus, StepStatus, TaskStatus } from '../../generated/prisma/enums';
import { listQuerySchema } from '../openapi';
import { isValidHostname, parseSshPublicKey, USERNAME_PATTERN } from '../../domain/validation';

/** An OpenSSH public key line (see parseSshPublicKey), stored in its canonical form. */
const sshPublicKeySchema = z.string().transform((line, ctx) => {
  const key = parseSshPublicKey(line);
  if (key) return key.canonical;
  ctx.addIssue({ code: 'custom', message: 'must be an OpenSSH public key line: ssh-ed25519, ssh-rsa, ecdsa-sha2-nistp256/384/521 or sk-…, then its base64 key and an optional comment of letters, digits, spaces and ._@+=:,/()-' });
  return z.NEVER;
});

export const credentialTypeSchema = z.enum(CredentialType);

export const createInstanceBody = z.strictObject({
  planId: z.string().min(1).max(64),
  locationId: z.string().min(1).max(64),
  imageId: z.string().min(1).max(64),
  hostname: z
    .string()
    .min(1)
    .max(253)
    .refine(isValidHostname, 'must be a valid host name (letters, digits and inner hyphens, dot-separated labels)')
    .transform((h) => h.toLowerCase()),
  username: z.string().regex(USERNAME_PATTERN, 'must start with a lowercase letter or _, then up to 31 of a-z 0-9 _ -').optional(),
  sshKeys: z.array(sshPublicKeySchema).max(32).optional(),
  userData: z.string().max(32_768).optional(),
  credentialType: credentialTypeSchema.optional(),
});
export type CreateInstanceBody = z.infer<typeof createInstanceBody>;

export const idempotencyKeyHeader = z.string().regex(/^[A-Za-z0-9._:-]{1,128}$/, 'must be 1-128 characters of A-Z a-z 0-9 . _ : -');

/** The status ladder comes from the database schema: one list for storage, API and OpenAPI. */
export const instanceStatusSchema = z.enum(InstanceStatus);

export const listInstancesQuery = listQuerySchema.extend({ state: instanceStatusSchema.optional() });

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
});

const ref = z.object({ id: z.string(), name: z.string() });

export const instanceView = z.object({
  id: z.string(),
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
  task: taskView.nullable(),
  failure: z.object({ code: z.string(), message: z.string() }).nullable(),
});

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
});

export const revealView = z.object({
  username: z.string(),
  password: z.string().optional(),
  sshKeys: z.array(z.string()).optional(),
  expiresAt: z.iso.datetime(),
});

export const rollbackResolveBody = z.strictObject({ note: z.string().min(1).max(2000) });
