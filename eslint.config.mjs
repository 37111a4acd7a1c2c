import js from '@eslint/js';
import tseslint from 'typescript-eslint';

/**
 * Which way the folders of src/ point (docs/architecture.md, "Layers"): each folder and the
 * folders it may not import at run time. Type-only imports are erased at compile time and pass,
 * except imports of src/api, which nothing but src/server.ts makes in any form.
 *
 *     api → services → db | temporal | proxmox | domain
 *     activities → services | db | proxmox | domain
 *
 * test/unit/layering.test.ts checks every runtime import of src/ against this table too.
 */
export const LAYERS = {
  api: { mayNotImport: ['db', 'temporal', 'proxmox', 'activities', 'workflows', 'webhooks', 'simulator'], except: ['db/errors'], why: 'Routes parse, call a service and send; the error handler may classify database failures (src/db/errors.ts).' },
  services: { mayNotImport: ['activities', 'workflows', 'simulator'], why: 'Services are called by routes and activities, never the other way.' },
  activities: { mayNotImport: ['temporal', 'workflows', 'simulator'], why: 'Activities reach Temporal only through a service (which owns the workflow start).' },
  webhooks: { mayNotImport: ['services', 'activities', 'workflows', 'simulator'], why: 'A feature folder holds machinery that services and activities use.' },
  temporal: { mayNotImport: ['services', 'activities', 'proxmox', 'webhooks', 'simulator'], why: 'src/temporal is a client of Temporal: it starts and signals workflows for services.' },
  db: { mayNotImport: ['services', 'activities', 'temporal', 'proxmox', 'workflows', 'webhooks', 'simulator'], why: 'src/db owns the rows and knows nothing above them.' },
  proxmox: { mayNotImport: ['services', 'activities', 'db', 'temporal', 'workflows', 'webhooks', 'simulator'], why: 'The Proxmox client knows only Proxmox.' },
  simulator: { mayNotImport: ['services', 'activities', 'db', 'temporal', 'workflows', 'webhooks'], why: 'The simulator stands in for Proxmox VE and knows nothing of the control plane.' },
  workflows: { mayNotImport: ['services', 'db', 'proxmox', 'webhooks', 'simulator'], typesOnly: ['activities'], why: 'Workflows are deterministic: activities as types only.' },
  domain: { mayNotImport: ['services', 'activities', 'workflows', 'db', 'temporal', 'proxmox', 'webhooks', 'simulator'], why: 'src/domain holds pure rules, importable by workflow code.' },
};

/** How deep below src/ a linted file may sit: each depth gets patterns that climb exactly to src/. */
const DEPTHS = [1, 2, 3];

/** An import, from a file `depth` folders below src/, of one of `folders` of src (or of `src/<folder>.ts`). */
const importOf = (folders, depth, except = []) => {
  const allowed = except.length > 0 ? `(?!(?:${except.join('|')})$)` : '';
  return `^${'\\.\\./'.repeat(depth)}${allowed}(?:${folders.join('|')})(?:/|$)`;
};

const NOT_API_MESSAGE = 'Nothing imports src/api but src/server.ts: call a service (src/services) instead.';

/** The no-restricted-imports patterns of a file `depth` folders below src/, in `folder` (undefined: a file of no layer). */
function layerPatterns(folder, depth) {
  const patterns = folder === 'api' ? [] : [{ regex: importOf(['api'], depth), message: NOT_API_MESSAGE }];
  if (!folder) return patterns;
  const { mayNotImport, except = [], typesOnly = [], why } = LAYERS[folder];
  if (mayNotImport.length > 0) patterns.push({ regex: importOf(mayNotImport, depth, except), message: why, allowTypeImports: true });
  if (typesOnly.length > 0) patterns.push({ regex: importOf(typesOnly, depth), message: why, allowTypeImports: true });
  return patterns;
}

/** Workflow code runs in Temporal's deterministic sandbox, and src/domain is held to the same rule so every pure rule there stays importable by workflows. */
const DETERMINISTIC = [
  { group: ['node:*', 'fs', 'http', 'https', 'crypto', 'child_process', 'net'], message: 'Workflows must be deterministic.' },
  { group: ['@prisma/*', 'pg', 'express'], message: 'Workflows import activities as types only.' },
  // Type-only imports from the generated Prisma client are erased at compile time, so they pass.
  { group: ['**/generated/**'], message: 'Only types of the generated Prisma client are erased from the workflow bundle.', allowTypeImports: true },
];

const restricted = (patterns) => ({ '@typescript-eslint/no-restricted-imports': ['error', { patterns }] });

export default tseslint.config(
  { ignores: ['node_modules/', 'web/dist/', 'src/generated/', '.tools/', '.data/', 'clients/typescript/schema.d.ts', 'clients/typescript/index.{js,d.ts}'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
    },
  },
  {
    // Tests inspect JSON bodies ad hoc.
    files: ['test/**/*.ts', 'bench/**/*.ts'],
    rules: { '@typescript-eslint/no-explicit-any': 'off' },
  },
  // Everything in src but the API itself and the process that serves it: no import of src/api.
  ...DEPTHS.map((depth) => ({ files: [`src/${'*/'.repeat(depth - 1)}*.ts`], ignores: ['src/server.ts'], rules: restricted(layerPatterns(undefined, depth)) })),
  ...Object.keys(LAYERS).flatMap((folder) =>
    DEPTHS.filter((depth) => depth > 1).map((depth) => ({
      files: [`src/${folder}/${'*/'.repeat(depth - 2)}*.ts`],
      rules: restricted([...(folder === 'workflows' || folder === 'domain' ? DETERMINISTIC : []), ...layerPatterns(folder, depth - 1)]),
    })),
  ),
);
