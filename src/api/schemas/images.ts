import { z } from 'zod';
import { isSafeLine } from '../../domain/validation';
import { archivedAt, archivedField, idSchema, nameSchema, nodeNameSchema, timestamp, usernameSchema, vmidSchema } from './catalog-fields';

const loginMethodSchema = z.enum(['password', 'ssh']);

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
      .max(256),
  })
  .superRefine((image, ctx) => {
    if (image.defaultUsername === 'root' && !image.rootAllowed) {
      ctx.addIssue({ code: 'custom', path: ['defaultUsername'], message: 'root requires rootAllowed' });
    }
    const seen = new Set<string>();
    image.templates.forEach((template, index) => {
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
    templates: createImageSchema.shape.templates
      .optional()
      .openapi({ description: 'Templates to add or replace, by connection and node; the others stay. Servers rebuild from the template of their node.' }),
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

/** What an administrator sees. */
export const adminImageSchema = z.object({ ...imageFields, templates: z.array(imageTemplateSchema), createdAt: timestamp, archivedAt }).openapi('AdminImage');
