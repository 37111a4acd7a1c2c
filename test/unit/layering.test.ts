import fs from 'node:fs';
import path from 'node:path';
import { ESLint } from 'eslint';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
// @ts-expect-error -- the ESLint configuration is plain JavaScript, with no declarations.
import { LAYERS } from '../../eslint.config.mjs';

const root = path.resolve(__dirname, '..', '..');
const src = path.join(root, 'src');

interface Layer {
  mayNotImport: string[];
  except?: string[];
  typesOnly?: string[];
}
const layers = LAYERS as Record<string, Layer>;

/** The folder of src a file is in ('' for src/*.ts). */
const folderOf = (file: string) => {
  const parts = path.relative(src, file).split(path.sep);
  return parts.length > 1 ? (parts[0] ?? '') : '';
};

function sourceFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'generated' ? [] : sourceFiles(full);
    return entry.name.endsWith('.ts') ? [full] : [];
  });
}

/** The relative imports of a file that remain at run time: `import type`, and imports whose every name is a type, are erased. */
function runtimeImports(file: string): { specifier: string; typeOnly: boolean }[] {
  const source = ts.createSourceFile(file, fs.readFileSync(file, 'utf8'), ts.ScriptTarget.Latest);
  const found: { specifier: string; typeOnly: boolean }[] = [];
  for (const statement of source.statements) {
    if (ts.isImportDeclaration(statement) && ts.isStringLiteral(statement.moduleSpecifier)) {
      const clause = statement.importClause;
      const named = clause?.namedBindings && ts.isNamedImports(clause.namedBindings) ? clause.namedBindings.elements : undefined;
      const typeOnly = Boolean(clause && (clause.isTypeOnly || (!clause.name && named && named.length > 0 && named.every((element) => element.isTypeOnly))));
      found.push({ specifier: statement.moduleSpecifier.text, typeOnly });
    } else if (ts.isExportDeclaration(statement) && statement.moduleSpecifier && ts.isStringLiteral(statement.moduleSpecifier)) {
      found.push({ specifier: statement.moduleSpecifier.text, typeOnly: statement.isTypeOnly });
    }
  }
  return found.filter(({ specifier }) => specifier.startsWith('.'));
}

/** Every import of src/ that breaks the table, as `file → target`. */
function violations(): string[] {
  const broken: string[] = [];
  for (const file of sourceFiles(src)) {
    const relativeFile = path.relative(root, file);
    const from = folderOf(file);
    for (const { specifier, typeOnly } of runtimeImports(file)) {
      const target = path.resolve(path.dirname(file), specifier);
      if (!target.startsWith(src + path.sep)) continue;
      const to = folderOf(target.endsWith('.ts') ? target : `${target}.ts`) || path.relative(src, target).split(path.sep)[0] || '';
      const targetPath = path.relative(src, target).split(path.sep).join('/');
      if (to === from) continue;
      const rule = layers[from];
      const apiImport = to === 'api' && relativeFile !== path.join('src', 'server.ts');
      const forbidden = rule && !typeOnly && rule.mayNotImport.includes(to) && !(rule.except ?? []).includes(targetPath);
      const typesOnly = rule && !typeOnly && (rule.typesOnly ?? []).includes(to);
      if (apiImport || forbidden || typesOnly) broken.push(`${relativeFile} → src/${targetPath}`);
    }
  }
  return broken;
}

const eslint = new ESLint({ cwd: root });

/** The messages of the layering rule for `code` as if it were the file `filePath`. */
async function layeringErrors(filePath: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: path.join(root, filePath) });
  return (result?.messages ?? []).filter((m) => m.ruleId === '@typescript-eslint/no-restricted-imports').map((m) => m.message);
}

describe('layers point one way', () => {
  it('every runtime import of src/ goes the way the table says (api → services → db | temporal | proxmox | domain, activities → services | db | proxmox | domain)', () => {
    expect(violations()).toEqual([]);
  });

  it('no file of src/api reaches the database, Temporal or Proxmox through the dependencies it is handed: it calls services', () => {
    // deps.db…, `const { db } = deps`, or a raw statement or transaction of Prisma's.
    const reaching = /\bdeps\.(?:db|temporal|proxmox)\b|\{[^}]*\b(?:db|temporal|proxmox)\b[^}]*\}\s*=\s*deps\b|\.\$(?:transaction|queryRaw|executeRaw)\b/;
    const offenders = sourceFiles(path.join(src, 'api'))
      .filter((file) => reaching.test(fs.readFileSync(file, 'utf8')))
      .map((file) => path.relative(root, file));
    expect(offenders).toEqual([]);
  });

  it('lint refuses an activity that imports the API', async () => {
    const errors = await layeringErrors('src/activities/deliberate.ts', "import { createApp } from '../api/app';\nexport const app = createApp;\n");
    expect(errors).toEqual([expect.stringContaining('Nothing imports src/api but src/server.ts')]);
  });

  it('lint refuses a route that calls the database, Temporal or Proxmox itself', async () => {
    const code = [
      "import { recordAudit } from '../../db/audit';",
      "import { startDestroyOrphan } from '../../temporal/starts';",
      "import { ProxmoxClient } from '../../proxmox';",
      'export const used = [recordAudit, startDestroyOrphan, ProxmoxClient];',
      '',
    ].join('\n');
    expect(await layeringErrors('src/api/routes/deliberate.ts', code)).toHaveLength(3);
  });

  it('lint refuses an activity that starts a workflow itself, and a service that imports an activity', async () => {
    expect(await layeringErrors('src/activities/deliberate.ts', "import { startDestroyOrphan } from '../temporal/starts';\nexport const start = startDestroyOrphan;\n")).toHaveLength(1);
    expect(await layeringErrors('src/services/deliberate.ts', "import { createActivities } from '../activities';\nexport const build = createActivities;\n")).toHaveLength(1);
  });

  it('lint refuses src/db importing a service and src/proxmox importing the database', async () => {
    expect(await layeringErrors('src/db/deliberate.ts', "import { findInstance } from '../services/instances';\nexport const find = findInstance;\n")).toHaveLength(1);
    expect(await layeringErrors('src/proxmox/deliberate.ts', "import { createDb } from '../db/client';\nexport const db = createDb;\n")).toHaveLength(1);
  });

  it('lint lets the ways the table allows pass: a route calling a service, types across layers, the server importing the API', async () => {
    expect(await layeringErrors('src/api/routes/deliberate.ts', "import { findInstance } from '../../services/instances';\nimport type { Db } from '../../db/client';\nexport const find = findInstance;\nexport type D = Db;\n")).toEqual([]);
    expect(await layeringErrors('src/activities/deliberate.ts', "import { requestBackup } from '../services/backups';\nexport const ask = requestBackup;\n")).toEqual([]);
    expect(await layeringErrors('src/server.ts', "import { createApp } from './api/app';\nexport const app = createApp;\n")).toEqual([]);
  });
});
