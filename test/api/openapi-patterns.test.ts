/**
 * Every `pattern` in the OpenAPI document as served is an ECMA-262 pattern on its own, with no
 * flags (JSON Schema has none to carry them): it compiles with and without the `u` flag client
 * generators use, and it accepts a valid value — the schema's own `example`, or the one kept here.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApi, type TestApi } from '../support/api';

/** A valid value for each pattern whose schema shows no example. A new pattern needs one here. */
const EXAMPLES: Record<string, string> = {
  '^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$': 'small-2024.1',
  '^[a-z_][a-z0-9_-]{0,31}$': 'debian',
  '^[A-Za-z0-9]([A-Za-z0-9-]{0,61}[A-Za-z0-9])?$': 'pve1',
  '^[^\\s@!:]{1,64}@[A-Za-z][A-Za-z0-9._-]{0,63}![A-Za-z][A-Za-z0-9._-]{0,63}$': 'controlplane@pve!provisioning',
  '^[\\x21-\\x7e]{1,256}$': '5f0c2a3e-8b1d-4c9a-9e7f-0a1b2c3d4e5f',
  '^[A-Za-z][A-Za-z0-9._-]{0,63}$': 'local-lvm',
  '^\\/[^\\0]*$': '/mnt/pve/snippets/snippets',
  '^[^\\s@!:]{1,64}@[A-Za-z][A-Za-z0-9._-]{0,63}$': 'console@pve',
  '^[A-Za-z][A-Za-z0-9\\-_.]*[A-Za-z0-9]$': 'Backup.NFS-1',
  '^[A-Za-z][A-Za-z0-9_.-]{0,14}$': 'vmbr0',
  '^[A-Za-z0-9._:-]{1,128}$': 'order-4711:create',
  '^(0|[1-9][0-9]{0,18})$': '1024',
  '^[a-zA-Z][a-zA-Z0-9_-]+$': 'before-upgrade',
};

interface PatternUse {
  pattern: string;
  /** JSON pointer of the schema that carries it. */
  at: string;
  example?: unknown;
}

/** Every schema with a `pattern`, wherever it sits (components, parameters, bodies). */
function patternsOf(node: unknown, at = '#'): PatternUse[] {
  if (Array.isArray(node)) return node.flatMap((item, index) => patternsOf(item, `${at}/${index}`));
  if (!node || typeof node !== 'object') return [];
  const schema = node as Record<string, unknown>;
  const own: PatternUse[] = typeof schema.pattern === 'string' ? [{ pattern: schema.pattern, at, ...('example' in schema ? { example: schema.example } : {}) }] : [];
  return [...own, ...Object.entries(schema).flatMap(([key, value]) => patternsOf(value, `${at}/${key.replace(/~/g, '~0').replace(/\//g, '~1')}`))];
}

let api: TestApi;
let uses: PatternUse[];

beforeAll(async () => {
  api = await startTestApi();
  const res = await api.request('GET', '/openapi.json');
  expect(res.status).toBe(200);
  uses = patternsOf(res.body);
});

afterAll(async () => {
  await api?.close();
});

describe('patterns in the OpenAPI document', () => {
  it('has some to check', () => {
    expect(uses.length).toBeGreaterThan(10);
  });

  it('compiles each as an ECMA-262 pattern without flags, with and without the u flag', () => {
    const broken = uses.flatMap(({ pattern, at }) =>
      ['', 'u'].flatMap((flags) => {
        try {
          new RegExp(pattern, flags);
          return [];
        } catch (error) {
          return [`${at} (flags "${flags}"): ${(error as Error).message}`];
        }
      }),
    );
    expect(broken).toEqual([]);
  });

  it("matches each against a valid value: the schema's example, else the one kept here", () => {
    const missing = uses.filter((use) => use.example === undefined && !(use.pattern in EXAMPLES)).map((use) => `${use.at}: ${use.pattern}`);
    expect(missing, 'patterns with neither an example in the schema nor one in EXAMPLES').toEqual([]);
    const refused = uses.flatMap(({ pattern, at, example }) => {
      const value = example === undefined ? EXAMPLES[pattern] : example;
      if (typeof value !== 'string') return [`${at}: example ${JSON.stringify(value)} is not a string`];
      return ['', 'u'].filter((flags) => !new RegExp(pattern, flags).test(value)).map((flags) => `${at}: ${pattern} (flags "${flags}") refuses ${JSON.stringify(value)}`);
    });
    expect(refused).toEqual([]);
  });

  it('keeps no example for a pattern the document no longer has', () => {
    const served = new Set(uses.map((use) => use.pattern));
    expect(Object.keys(EXAMPLES).filter((pattern) => !served.has(pattern))).toEqual([]);
  });
});
