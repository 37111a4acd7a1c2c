import { z } from 'zod';
import { isSafeLine } from '../../domain/validation';
import { PROJECT_ROLES } from '../../services/authorization';
import { quotaSchema, quotaViewSchema } from './identity';

const idList = (what: string) =>
  z
    .array(z.string().min(1).max(64))
    .min(1)
    .max(100)
    .nullable()
    .openapi({ description: `The ${what} its servers may use; null: any.` });

const projectQuotaSchema = quotaSchema.nullable().openapi({ description: "Its own quota inside the tenant's, the tenant quota's shape; null: only the tenant's quota applies." });

export const projectBody = z
  .strictObject({
    name: z.string().trim().min(1).max(64).refine(isSafeLine, 'one line of text').openapi({ example: 'staging' }),
    allowedPlanIds: idList('plans').optional(),
    allowedImageIds: idList('images').optional(),
    allowedLocationIds: idList('locations').optional(),
    quota: projectQuotaSchema.optional(),
  })
  .openapi('ProjectCreate');

export const projectPatch = projectBody.partial().openapi('ProjectUpdate');

export const projectRoleSchema = z.enum(PROJECT_ROLES).openapi({
  description: "`owner`: creates servers in the project and acts on every one of them; `member`: creates servers in it, reads all of them, acts on their own and on what is shared with them; `viewer`: reads its servers. A tenant viewer reads only, whatever their project role.",
});

export const projectMemberBody = z.strictObject({ role: projectRoleSchema }).openapi('ProjectMemberUpdate');

export const projectMemberView = z
  .object({
    userId: z.string(),
    email: z.string(),
    role: projectRoleSchema,
    createdAt: z.iso.datetime(),
  })
  .openapi('ProjectMember');

export const projectView = z
  .object({
    id: z.string(),
    tenantId: z.string(),
    name: z.string(),
    isDefault: z.boolean().openapi({ description: "The tenant's default project: creates without a `projectId` land in it, every user of the tenant may create servers in it, and it is never deleted." }),
    allowedPlanIds: z.array(z.string()).nullable(),
    allowedImageIds: z.array(z.string()).nullable(),
    allowedLocationIds: z.array(z.string()).nullable(),
    quota: quotaViewSchema.nullable(),
    usage: quotaViewSchema.openapi({ description: 'What its servers whose quota is still charged hold.' }),
    members: z.array(projectMemberView),
    createdAt: z.iso.datetime(),
    updatedAt: z.iso.datetime(),
  })
  .openapi('Project');
