/**
 * The OpenAPI document and what is made from it.
 *
 *     tsx scripts/openapi.ts write <file>   the document as JSON
 *     tsx scripts/openapi.ts lint           redocly lint (recommended rules, redocly.yaml), offline
 *     tsx scripts/openapi.ts client         regenerate clients/typescript/schema.d.ts
 *     tsx scripts/openapi.ts client --check fail when the committed schema.d.ts is not what the document makes
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import openapiTS, { astToString } from 'openapi-typescript';
// Every router registers its paths in the document when imported; the app imports them all.
import '../src/api/app';
import { buildOpenApiDocument } from '../src/api/openapi';

const root = path.resolve(__dirname, '..');
const CLIENT_SCHEMA_PATH = path.join(root, 'clients', 'typescript', 'schema.d.ts');

/** The document as the server serves it. */
const openApiDocument = () => buildOpenApiDocument();

const GENERATED_HEADER = '// Generated from the OpenAPI document by `npm run client:generate`; do not edit.\n\n';

/** clients/typescript/schema.d.ts as the current document makes it. */
async function generatedClientSchema(): Promise<string> {
  const ast = await openapiTS(openApiDocument() as Parameters<typeof openapiTS>[0]);
  return GENERATED_HEADER + astToString(ast);
}

function lint(): number {
  const dir = mkdtempSync(path.join(tmpdir(), 'pvecp-openapi-'));
  try {
    const file = path.join(dir, 'openapi.json');
    writeFileSync(file, JSON.stringify(openApiDocument(), null, 2));
    const redocly = path.join(root, 'node_modules', '.bin', 'redocly');
    const result = spawnSync(redocly, ['lint', '--config', path.join(root, 'redocly.yaml'), file], {
      stdio: 'inherit',
      // No usage telemetry and no update check: the lint makes no network calls.
      env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true', REDOCLY_SUPPRESS_NOTIFICATIONS: 'true' },
    });
    return result.status ?? 1;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

async function client(check: boolean): Promise<number> {
  const generated = await generatedClientSchema();
  if (!check) {
    writeFileSync(CLIENT_SCHEMA_PATH, generated);
    console.log(`wrote ${path.relative(root, CLIENT_SCHEMA_PATH)}`);
    return 0;
  }
  if (readFileSync(CLIENT_SCHEMA_PATH, 'utf8') === generated) return 0;
  console.error(`${path.relative(root, CLIENT_SCHEMA_PATH)} is not what the OpenAPI document makes: run \`npm run client:generate\` and commit it.`);
  return 1;
}

async function main(): Promise<number> {
  const [command, arg] = process.argv.slice(2);
  if (command === 'write' && arg) {
    writeFileSync(arg, JSON.stringify(openApiDocument(), null, 2));
    return 0;
  }
  if (command === 'lint') return lint();
  if (command === 'client') return client(arg === '--check');
  console.error('usage: tsx scripts/openapi.ts write <file> | lint | client [--check]');
  return 2;
}

if (require.main === module) {
  main().then(
    (code) => process.exit(code),
    (error: unknown) => {
      console.error(error);
      process.exit(1);
    },
  );
}
