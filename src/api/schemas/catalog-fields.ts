import { z } from 'zod';
import { USERNAME_PATTERN } from '../../domain/validation';
import { listQuerySchema } from '../openapi';

/** Fields every kind of catalog object shares: names, ids, archiving, admin lists. */

/** Catalog names are slugs: they appear in URLs, logs and panels. */
export const nameSchema = z
  .string()
  .regex(/^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/, 'letters, digits, ".", "_" and "-", starting with a letter or digit; at most 64 characters');
export const idSchema = z.string().min(1).max(64);
export const usernameSchema = z.string().regex(USERNAME_PATTERN, 'a lowercase Linux user name');
/** Proxmox VE VMIDs. */
export const vmidSchema = z.number().int().min(100).max(999_999_999);
/** Proxmox VE node names (`pve-node` format). */
export const nodeNameSchema = z.string().regex(/^[A-Za-z0-9]([A-Za-z0-9-]{0,61}[A-Za-z0-9])?$/, 'a Proxmox VE node name');

/** `archived` of an update (PATCH: every field optional; `archived` archives or restores). */
export const archivedField = z.boolean().optional().openapi({
  description: 'true archives: existing servers keep it, new creates refuse it (422 ARCHIVED) and customers no longer see it; false restores it.',
});

/** Admin lists: `?archived=true` only archived objects, `false` only current ones; both when absent. */
export const adminListQuerySchema = listQuerySchema.extend({
  archived: z.enum(['true', 'false']).optional().openapi({ description: 'Only archived (true) or only current (false) objects.' }),
});

export const timestamp = z.iso.datetime();

/** Of an admin view. */
export const archivedAt = timestamp.nullable().openapi({ description: 'When it was archived; null while it is offered.' });
