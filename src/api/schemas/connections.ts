import { z } from 'zod';
import { archivedAt, archivedField, nameSchema, timestamp, vmidSchema } from './catalog-fields';
import { nodeSchema, nodeSpecSchema } from './nodes';

/** Proxmox VE storage ids. */
export const storageIdSchema = z.string().regex(/^[A-Za-z][A-Za-z0-9._-]{0,63}$/, 'a Proxmox VE storage id');
/** An absolute path on the control-plane host. */
const absolutePathSchema = z.string().max(1024).regex(/^\/[^\0]*$/, 'an absolute path').refine((path) => !path.split('/').includes('..'), 'no ".." in the path');

/**
 * Where custom cloud-init user data goes: a storage with content `snippets`, written by the
 * control plane through `directory` (that storage's snippets directory, mounted on the
 * control-plane host) or, modelled but not supported yet, over SSH to the nodes.
 */
export const snippetsSchema = z
  .strictObject({
    storage: storageIdSchema.openapi({ description: 'The Proxmox VE storage id, with content type `snippets`, available on every node of the connection.' }),
    directory: absolutePathSchema.optional().openapi({
      description:
        "That storage's snippets directory as mounted on the hosts running the worker, e.g. /mnt/pve/cephfs/snippets. Saved only once a probe file a worker writes there is listed by every node (else 422 SNIPPETS_NOT_VISIBLE).",
    }),
    ssh: z
      .strictObject({
        user: z.string().regex(/^[a-z_][a-z0-9_-]{0,31}$/, 'a Linux user name'),
        privateKey: z.string().max(16_384).refine((pem) => /-----BEGIN [A-Z ]*PRIVATE KEY-----/.test(pem), 'a PEM private key'),
        directory: absolutePathSchema,
      })
      .optional()
      .openapi({ description: 'Not supported yet (422 UNSUPPORTED): write the snippet on each node over SSH.' }),
  })
  .superRefine((snippets, ctx) => {
    if ((snippets.directory === undefined) === (snippets.ssh === undefined)) {
      ctx.addIssue({ code: 'custom', path: ['directory'], message: 'exactly one of directory and ssh' });
    }
  })
  .openapi('Snippets');

/** The VMIDs a connection may hand out, both ends included. */
export const vmidRangeSchema = z
  .strictObject({ start: vmidSchema, end: vmidSchema })
  .refine((range) => range.start <= range.end, { message: 'start must not exceed end', path: ['end'] })
  .openapi('VmidRange');

/** `USER@REALM!TOKENID`, as Proxmox VE names API tokens. */
export const TOKEN_ID_PATTERN = /^[^\s@!:]{1,64}@[A-Za-z][A-Za-z0-9._-]{0,63}![A-Za-z][A-Za-z0-9._-]{0,63}$/;

export const consoleUserSchema = z
  .strictObject({
    username: z.string().regex(/^[^\s@!:]{1,64}@[A-Za-z][A-Za-z0-9._-]{0,63}$/, 'USER@REALM, e.g. console@pve'),
    password: z.string().min(5).max(256).openapi({ description: 'Write-only: stored encrypted, never returned.' }),
  })
  .openapi('ConsoleUser', {
    description:
      'A Proxmox VE user holding only VM.Console. Clusters whose access control predates token-owned console tickets (before Proxmox VE 9) give serial consoles only to users: the API logs in as this user for them. Without one, serial consoles there answer 422 CONSOLE_UNSUPPORTED.',
  });

export const createConnectionSchema = z
  .strictObject({
    name: nameSchema,
    url: z
      .url({ protocol: /^https?$/, error: 'an http(s) URL' })
      .max(512)
      .refine((url) => {
        if (!URL.canParse(url)) return true; // reported by the url check
        const parsed = new URL(url);
        return !parsed.username && !parsed.password && !parsed.search && !parsed.hash;
      }, 'no credentials, query or fragment in the URL')
      .transform((url) => url.replace(/\/+$/, '')),
    tokenId: z.string().regex(TOKEN_ID_PATTERN, 'USER@REALM!TOKENID'),
    tokenSecret: z.string().regex(/^[\x21-\x7e]{1,256}$/, 'printable characters, no spaces'),
    vmidRange: vmidRangeSchema,
    nodes: z
      .array(nodeSpecSchema)
      .min(1)
      .max(1024)
      .superRefine((nodes, ctx) => {
        const seen = new Set<string>();
        nodes.forEach((node, index) => {
          if (seen.has(node.name)) ctx.addIssue({ code: 'custom', path: [index, 'name'], message: 'duplicate node name' });
          seen.add(node.name);
        });
      }),
    storage: storageIdSchema.optional(),
    snippets: snippetsSchema.optional(),
    caCert: z
      .string()
      .max(65_536 - 4096)
      .refine((pem) => pem.includes('-----BEGIN CERTIFICATE-----'), 'a PEM certificate')
      .optional(),
    insecureTls: z.boolean().optional(),
    plaintextLab: z
      .boolean()
      .optional()
      .openapi({ description: 'Allows an http:// URL: a lab or a simulator, where the token secret may cross the network in clear. Default false: https only.' }),
    consoleUser: consoleUserSchema.optional(),
  })
  .openapi('CreateConnection', { description: '`url` must be https unless `plaintextLab` is true.' });

/** A connection's URL is https unless the connection is a plaintext lab endpoint. */
function requireHttpsUnlessPlaintextLab(connection: { url: string; plaintextLab?: boolean }, ctx: z.RefinementCtx): void {
  if (connection.plaintextLab !== true && !connection.url.startsWith('https:')) {
    ctx.addIssue({ code: 'custom', path: ['url'], message: 'must be https (set plaintextLab for a plaintext lab endpoint)' });
  }
}

/** The create body as the route checks it (kept apart so the plain object schema can still be picked from or made partial). */
export const createConnectionRequestSchema = createConnectionSchema.superRefine(requireHttpsUnlessPlaintextLab);

export const updateConnectionSchema = z
  .strictObject({
    name: nameSchema.optional(),
    url: createConnectionSchema.shape.url.optional(),
    tokenId: createConnectionSchema.shape.tokenId.optional(),
    tokenSecret: createConnectionSchema.shape.tokenSecret.optional(),
    caCert: createConnectionSchema.shape.caCert.unwrap().nullable().optional(),
    insecureTls: z.boolean().optional(),
    plaintextLab: createConnectionSchema.shape.plaintextLab,
    storage: storageIdSchema.optional().openapi({ description: 'Where new servers get their disk; existing volumes stay where they are.' }),
    snippets: snippetsSchema.nullable().optional(),
    consoleUser: consoleUserSchema.nullable().optional().openapi({ description: 'null removes the console user.' }),
    archived: archivedField,
    force: z
      .boolean()
      .optional()
      .openapi({ description: 'Save even if the new settings reach a cluster of another name than the recorded one.' }),
  })
  .openapi('UpdateConnection', {
    description:
      'A change of URL, token or TLS settings is saved only after Proxmox VE answered GET /cluster/status with them (400 token refused, 422 CONNECTION_PRIVILEGES_MISSING when the token may not read it, 503 unreachable, 409 another cluster).',
  });

export const adminConnectionSchema = z
  .object({
    id: z.string(),
    name: z.string(),
    url: z.string(),
    tokenId: z.string(),
    hasTokenSecret: z.boolean().openapi({ description: 'The secret is stored encrypted and never returned.' }),
    clusterName: z.string().nullable().openapi({ description: "The cluster's name from /cluster/status, read when the connection was made; null for a standalone node." }),
    vmidRange: z.object({ start: z.number().int(), end: z.number().int() }),
    nodes: z.array(nodeSchema),
    storage: z.string(),
    caCert: z.string().nullable(),
    insecureTls: z.boolean(),
    plaintextLab: z.boolean(),
    snippets: z
      .object({ storage: z.string(), directory: z.string() })
      .nullable()
      .openapi({ description: 'Where custom cloud-init user data is written; null: creates with userData are refused here.' }),
    consoleUser: z
      .object({ username: z.string() })
      .nullable()
      .openapi({ description: 'The user serial consoles log in as on clusters before Proxmox VE 9 (its password is stored encrypted and never returned); null: none.' }),
    createdAt: timestamp,
    archivedAt,
    warnings: z
      .array(
        z.object({
          code: z.enum(['CLUSTER_FIREWALL_OFF', 'CLUSTER_FIREWALL_UNREAD']).openapi({
            description: "CLUSTER_FIREWALL_OFF: the cluster's firewall switch is off, so no server's anti-spoofing or firewall rule acts; CLUSTER_FIREWALL_UNREAD: the switch could not be read.",
          }),
          message: z.string(),
        }),
      )
      .optional()
      .openapi({ description: 'Only on the answer to a create or an update, which saved the connection all the same: what the operator should see to (docs/security.md, "The cluster firewall switch").' }),
  })
  .openapi('AdminConnection');

/** A saved connection's health, read live from Proxmox VE with the connection's own token. */
export const connectionHealthSchema = z
  .object({
    checkedAt: timestamp,
    reachable: z.boolean().openapi({ description: 'Proxmox VE answered GET /version with this token (each read waits 3 s at most).' }),
    error: z
      .object({
        code: z.enum(['PROVIDER_UNAVAILABLE', 'TOKEN_REFUSED', 'TOKEN_SECRET_UNREADABLE']).openapi({
          description:
            'PROVIDER_UNAVAILABLE: no answer in time (network, TLS, a 5xx); TOKEN_REFUSED: Proxmox VE answered 401; TOKEN_SECRET_UNREADABLE: no key of the encryption key ring opens the stored secret.',
        }),
        message: z.string(),
      })
      .nullable()
      .openapi({ description: 'Why Proxmox VE could not be asked; null when reachable.' }),
    privileges: z
      .array(
        z.object({
          path: z.string(),
          held: z.array(z.string()).openapi({ description: "The minimal role's privileges the token holds on this path." }),
          missing: z.array(z.string()).openapi({ description: 'Those it lacks (a renamed privilege as `new or old`), as 422 CONNECTION_PRIVILEGES_MISSING names them on save.' }),
        }),
      )
      .nullable()
      .openapi({ description: 'The minimal role (docs/security.md) on each path this connection works on, read with GET /access/permissions?path=; null when unread.' }),
    clusterFirewall: z
      .object({ enabled: z.boolean().openapi({ description: "The cluster's firewall switch (`enable` of GET /cluster/firewall/options): off, no guest firewall rule acts." }) })
      .nullable()
      .openapi({ description: 'null when unread.' }),
    unavailable: z
      .object({ privileges: z.string().optional(), clusterFirewall: z.string().optional() })
      .openapi({ description: "Why `privileges` or `clusterFirewall` is null, in Proxmox VE's words (e.g. `GET /cluster/firewall/options answered 403: Permission check failed (/, Sys.Audit)`)." }),
  })
  .openapi('ConnectionHealth');

/** One connection: as listed, with its health. */
export const adminConnectionDetailSchema = adminConnectionSchema.extend({ health: connectionHealthSchema }).openapi('AdminConnectionDetail');
