import fc from 'fast-check';

/** A JSON Schema node as zod-to-openapi writes it (OpenAPI 3.1). */
export interface JsonSchema {
  $ref?: string;
  type?: string | string[];
  enum?: unknown[];
  const?: unknown;
  format?: string;
  pattern?: string;
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  minItems?: number;
  maxItems?: number;
  items?: JsonSchema;
  properties?: Record<string, JsonSchema>;
  required?: string[];
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  allOf?: JsonSchema[];
}

/** One documented operation, as the fuzzer calls it. */
export interface Operation {
  method: string;
  /** OpenAPI path, e.g. `/v1/instances/{id}`. */
  path: string;
  pathParams: string[];
  query: { name: string; schema: JsonSchema }[];
  headers: { name: string; schema: JsonSchema }[];
  body?: JsonSchema;
}

export interface FuzzRequest {
  operation: string;
  method: string;
  path: string;
  headers: Record<string, string>;
  body?: string;
  /** Who sent it, for the tenant and coordinate checks; `session` is a console session of customer A's tenant (its cookie is added when sent). */
  actor: 'admin' | 'customerA' | 'customerB' | 'memberA' | 'viewerA' | 'session' | 'anonymous' | 'garbage';
  /** For the session actor: whether the session's X-CSRF-Token goes along. */
  csrf?: boolean;
}

/** Everything the generators draw real values from (filled in once the fixtures exist). */
export interface FuzzWorld {
  ids: string[];
  nodes: string[];
  simulatorUrl: string;
  sshKeys: string[];
  cursors: string[];
  /** Accounts that exist (and one that does not), for sign-in bodies. */
  emails: string[];
  /** The passwords those accounts have: sign-ins, password changes and invites draw from them. */
  passwords: string[];
  /** Invite link tokens: unused ones and one that names no invite. */
  inviteTokens: string[];
}

type Document = { paths: Record<string, Record<string, { parameters?: { in: string; name: string; schema: JsonSchema }[]; requestBody?: { content: Record<string, { schema: JsonSchema }> } }>>; components?: { schemas?: Record<string, JsonSchema> } };

/** Every operation of the OpenAPI document, with $refs resolved. */
export function operationsOf(document: unknown): Operation[] {
  const doc = document as Document;
  const resolve = (schema: JsonSchema): JsonSchema => {
    if (!schema.$ref) return schema;
    const name = schema.$ref.replace('#/components/schemas/', '');
    return doc.components?.schemas?.[name] ?? {};
  };
  const operations: Operation[] = [];
  for (const [path, methods] of Object.entries(doc.paths)) {
    for (const [method, spec] of Object.entries(methods)) {
      const parameters = spec.parameters ?? [];
      const body = spec.requestBody?.content['application/json']?.schema;
      operations.push({
        method: method.toUpperCase(),
        path,
        pathParams: parameters.filter((p) => p.in === 'path').map((p) => p.name),
        query: parameters.filter((p) => p.in === 'query').map((p) => ({ name: p.name, schema: resolve(p.schema) })),
        headers: parameters.filter((p) => p.in === 'header').map((p) => ({ name: p.name, schema: resolve(p.schema) })),
        ...(body ? { body: deepResolve(body, resolve) } : {}),
      });
    }
  }
  return operations;
}

function deepResolve(schema: JsonSchema, resolve: (s: JsonSchema) => JsonSchema): JsonSchema {
  const s = resolve(schema);
  return {
    ...s,
    ...(s.items ? { items: deepResolve(s.items, resolve) } : {}),
    ...(s.properties ? { properties: Object.fromEntries(Object.entries(s.properties).map(([k, v]) => [k, deepResolve(v, resolve)])) } : {}),
    ...(s.anyOf ? { anyOf: s.anyOf.map((x) => deepResolve(x, resolve)) } : {}),
    ...(s.oneOf ? { oneOf: s.oneOf.map((x) => deepResolve(x, resolve)) } : {}),
  };
}

// ---------- hostile values ----------

const CONTROL = fc.integer({ min: 0, max: 0x9f }).filter((c) => c < 0x20 || c >= 0x7f).map((c) => String.fromCharCode(c));
const LONE_SURROGATE = fc.constantFrom('\ud800', '\udbff', '\udc00', '\udfff');

/** Strings that have broken servers before: controls, lone surrogates, huge, odd Unicode, injection-shaped. */
export const nastyString: fc.Arbitrary<string> = fc.oneof(
  fc.tuple(fc.string({ maxLength: 8 }), fc.oneof(CONTROL, LONE_SURROGATE, fc.constant('\u0000')), fc.string({ maxLength: 8 })).map(([a, b, c]) => a + b + c),
  fc.string({ unit: 'grapheme', maxLength: 40 }),
  fc.string({ unit: 'binary', maxLength: 40 }),
  fc.nat({ max: 70_000 }).map((n) => 'x'.repeat(n)),
  fc.constantFrom('', ' ', '\t', '\n', '..', '../../etc/passwd', "' OR 1=1 --", '"; DROP TABLE instances; --', '__proto__', 'constructor', '%00', '%', '%ZZ', '\u202e', '\ufeff', '😀', 'null', 'undefined', '0', '-1', 'NaN', 'Infinity', 'pve1', 'UPID:pve1:0000'),
);

const nastyNumber: fc.Arbitrary<number> = fc.oneof(
  fc.constantFrom(0, -0, -1, 1, 0.5, 2 ** 31 - 1, 2 ** 31, 2 ** 32, 2 ** 53, 2 ** 53 + 2, -(2 ** 63), 1e308, -1e308, Number.MAX_SAFE_INTEGER, Number.MIN_VALUE),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
  fc.integer(),
);

/** A value of any JSON type, usually the wrong one. */
export const nastyValue: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 4, arbitrary: nastyString },
  { weight: 2, arbitrary: nastyNumber },
  { weight: 1, arbitrary: fc.constantFrom(null, true, false, [], {}, [null], { '': '' }, { constructor: { prototype: { admin: true } } }) },
  { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 3 }) },
  { weight: 1, arbitrary: fc.integer({ min: 1, max: 300 }).map((depth) => JSON.parse('['.repeat(depth) + ']'.repeat(depth)) as unknown) },
);

// ---------- values from a schema, sometimes wrong ----------

const limit = (n: number | undefined, cap: number) => Math.min(n ?? cap, cap);

function patternString(pattern: string): fc.Arbitrary<string> | undefined {
  try {
    return fc.stringMatching(new RegExp(pattern));
  } catch {
    return undefined;
  }
}

/** Values the schema accepts (as far as JSON Schema says; refinements are not in it), or close to them. */
function validValue(schema: JsonSchema, name: string, world: FuzzWorld, depth: number): fc.Arbitrary<unknown> {
  if (schema.const !== undefined) return fc.constant(schema.const);
  if (schema.enum) return fc.constantFrom(...schema.enum);
  const variants = schema.anyOf ?? schema.oneOf;
  if (variants) return fc.oneof(...variants.map((v) => validValue(v, name, world, depth)));
  const types = Array.isArray(schema.type) ? schema.type : schema.type ? [schema.type] : ['string'];
  return fc.oneof(...types.map((type) => typedValue({ ...schema, type }, name, world, depth)));
}

function typedValue(schema: JsonSchema, name: string, world: FuzzWorld, depth: number): fc.Arbitrary<unknown> {
  switch (schema.type) {
    case 'null':
      return fc.constant(null);
    case 'boolean':
      return fc.boolean();
    case 'integer':
      return fc.oneof(
        fc.integer({ min: Math.max(schema.minimum ?? -1e9, -(2 ** 31)), max: Math.min(schema.maximum ?? 1e9, 2 ** 31 - 1) }),
        fc.constantFrom(...[schema.minimum, schema.maximum].filter((n): n is number => n !== undefined).flatMap((n) => [n - 1, n, n + 1]), 0),
      );
    case 'number':
      return fc.double({ min: schema.minimum ?? -1e9, max: schema.maximum ?? 1e9, noNaN: true });
    case 'array': {
      const items = schema.items ? value(schema.items, name, world, depth + 1) : nastyValue;
      return fc.array(items, { minLength: schema.minItems ?? 0, maxLength: Math.max(schema.minItems ?? 0, limit(schema.maxItems, 4)) });
    }
    case 'object': {
      if (depth > 4) return fc.constant({});
      const properties = schema.properties ?? {};
      const record = Object.fromEntries(Object.entries(properties).map(([key, s]) => [key, value(s, key, world, depth + 1)]));
      return fc.record(record, { requiredKeys: (schema.required ?? []).filter((k) => k in properties) });
    }
    default:
      return stringValue(schema, name, world);
  }
}

function stringValue(schema: JsonSchema, name: string, world: FuzzWorld): fc.Arbitrary<string> {
  const real: fc.Arbitrary<string>[] = [];
  if (name === 'id' || /Id$/.test(name) || name === 'ipPools') real.push(fc.constantFrom(...world.ids));
  if (name === 'node') real.push(fc.constantFrom(...world.nodes));
  if (name === 'hostname') real.push(fc.stringMatching(/^[a-z][a-z0-9-]{0,20}[a-z0-9]$/));
  if (name === 'sshKeys') real.push(fc.constantFrom(...world.sshKeys));
  if (name === 'cursor') real.push(fc.constantFrom(...world.cursors));
  if (name === 'email') real.push(fc.constantFrom(...world.emails));
  if (name === 'password' || name === 'currentPassword' || name === 'newPassword') real.push(fc.constantFrom(...world.passwords));
  if (name === 'token') real.push(fc.constantFrom(...world.inviteTokens));
  if (name === 'cidr') real.push(fc.constantFrom('10.77.0.0/24', '10.77.1.0/24', '2001:db8:77::/64', '10.77.0.1/24', '0.0.0.0/0'));
  if (name === 'gateway' || name === 'dns') real.push(fc.constantFrom('10.77.0.1', '10.77.1.1', '2001:db8:77::1', '1.1.1.1'));
  if (schema.format === 'uri' || name === 'url') real.push(fc.constant(world.simulatorUrl));
  if (schema.format === 'email') real.push(fc.emailAddress());
  if (schema.format === 'date-time') real.push(fc.date({ noInvalidDate: true }).map((d) => d.toISOString()));
  const pattern = schema.pattern ? patternString(schema.pattern) : undefined;
  if (pattern) real.push(pattern);
  const plain = fc.string({ minLength: schema.minLength ?? 0, maxLength: Math.max(schema.minLength ?? 0, limit(schema.maxLength, 40)) });
  return real.length > 0 ? fc.oneof({ weight: 3, arbitrary: fc.oneof(...real) }, { weight: 1, arbitrary: plain }) : plain;
}

/** A schema's value: valid most of the time, hostile at any level some of the time. */
export function value(schema: JsonSchema, name: string, world: FuzzWorld, depth = 0): fc.Arbitrary<unknown> {
  return fc.oneof({ weight: 9, arbitrary: validValue(schema, name, world, depth) }, { weight: 1, arbitrary: nastyValue });
}

/** A request body: the schema's value, then maybe a field dropped or one added. */
export function bodyValue(schema: JsonSchema, world: FuzzWorld): fc.Arbitrary<unknown> {
  return fc.tuple(value(schema, '(body)', world), fc.nat({ max: 9 }), fc.string({ maxLength: 12 }), nastyValue).map(([body, mutation, key, extra]) => {
    if (body === null || typeof body !== 'object' || Array.isArray(body)) return body;
    const copy: Record<string, unknown> = { ...(body as Record<string, unknown>) };
    const keys = Object.keys(copy);
    if (mutation === 0 && keys.length > 0) delete copy[keys[key.length % keys.length] as string];
    if (mutation === 1) copy[key || 'extra'] = extra;
    return copy;
  });
}

// ---------- client addresses ----------

/**
 * X-Forwarded-For as a proxy on loopback (trusted by default) passes it on: addresses in a few
 * IPv4 hosts and IPv6 /64s (with rotating interface ids), IPv4-mapped, several hops, and text that
 * is no address. A small set of prefixes, so the per-address lockout is met along the way.
 */
export const forwardedFor: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom('198.51.100.7', '198.51.100.8', '203.0.113.200', '::ffff:198.51.100.7'),
  fc.tuple(fc.constantFrom('2001:db8:f0:1', '2001:db8:f0:2'), fc.array(fc.integer({ min: 0, max: 0xffff }), { minLength: 4, maxLength: 4 })).map(
    ([prefix, groups]) => `${prefix}:${groups.map((group) => group.toString(16)).join(':')}`,
  ),
  fc.constantFrom('198.51.100.9, 198.51.100.7', '2001:db8:f0:1::1, 10.0.0.1', 'unknown', 'not an address', '999.1.1.1', '::ffff:', 'fe80::1%eth0', '198.51.100.7:443', ' , ', 'x'.repeat(300)),
);

// ---------- encodings ----------

/** Percent-encodes a string, lone surrogates included (as the bytes a careless client would send). */
export function percentEncode(text: string): string {
  let out = '';
  for (const char of text) {
    const code = char.codePointAt(0) ?? 0;
    if (code >= 0xd800 && code <= 0xdfff) out += `%${(0xe0 | (code >> 12)).toString(16)}%${(0x80 | ((code >> 6) & 0x3f)).toString(16)}%${(0x80 | (code & 0x3f)).toString(16)}`;
    else out += encodeURIComponent(char);
  }
  return out;
}

/** Malformed JSON texts and other bodies no JSON route should take. */
export const brokenBody: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom('{', '}', '{"a":}', '{"a":1,}', "{'a':1}", 'null', 'true', '1', '"text"', '[1,2', '{"a":1e99999}', '{"a":"\\ud800"}', '{"a":"\\u0000"}', '\ufeff{}', '{"__proto__":{"x":1}}', ''),
  fc.string({ maxLength: 60 }),
  fc.nat({ max: 5_000 }).map((n) => '['.repeat(n) + ']'.repeat(n)),
  fc.nat({ max: 5_000 }).map((n) => '{"a":'.repeat(n) + '1' + '}'.repeat(n)),
  fc.integer({ min: 60_000, max: 80_000 }).map((n) => JSON.stringify({ userData: 'x'.repeat(n) })),
);
