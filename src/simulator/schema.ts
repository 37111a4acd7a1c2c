/**
 * The official Proxmox VE API schema (apidoc, normalized to JSON), indexed once into a path
 * matcher, and a request validator that answers like Proxmox's JSONSchema checks.
 *
 * The schema files ship with the repository in `vendor/pve-api/pve-<version>.json` (see the
 * README there for their provenance); PVE_API_SCHEMA_DIR names another directory.
 */
import fs from 'node:fs';
import path from 'node:path';

export const PVE_VERSIONS = ['8.4.5', '9.2.3'] as const;
export type PveVersion = (typeof PVE_VERSIONS)[number];
export const DEFAULT_PVE_VERSION: PveVersion = '9.2.3';

interface FormatEntry {
  type?: string;
  optional?: number | boolean;
  default_key?: number | boolean;
  alias?: string;
  keyAlias?: string;
  enum?: string[];
  minimum?: number;
  maximum?: number;
  format?: string | Record<string, FormatEntry>;
  pattern?: string;
}

export interface ParamDef {
  type?: string;
  optional?: number | boolean;
  enum?: string[];
  minimum?: number;
  maximum?: number;
  format?: string | Record<string, FormatEntry>;
  pattern?: string;
  max_length?: number;
  min_length?: number;
  description?: string;
  /** `requires`: the parameter this one needs beside it (`checksum` needs `checksum-algorithm`). */
  extra?: { requires?: unknown; [key: string]: unknown };
}

/**
 * What a method answers, as the apidoc states it: JSON-schema-like, with the keys that are not
 * plain JSON Schema moved under `extra` (nested definitions there keep their original shape).
 */
export interface ReturnsDef extends ParamDef {
  items?: ReturnsDef;
  properties?: Record<string, ReturnsDef>;
  additionalProperties?: number | boolean | ReturnsDef;
  extra?: { additionalProperties?: number | boolean | ReturnsDef; oneOf?: unknown; [key: string]: unknown };
  oneOf?: unknown;
}

interface RawMethod {
  verb: string;
  name: string;
  parameters: { name: string; definition: ParamDef }[];
  returns?: ReturnsDef;
  permissions?: { expression?: { check?: unknown[] } };
}

interface RawSchema {
  source_version: string;
  paths: { path: string; methods: RawMethod[] }[];
}

export interface MethodSchema {
  verb: string;
  name: string;
  template: string;
  returnsType: string | undefined;
  returns: ReturnsDef | undefined;
  params: Map<string, ParamDef>;
  indexed: { base: string; min: number; max: number; def: ParamDef }[];
  required: string[];
  /** Parameter -> the parameter it requires beside it. */
  requires: Map<string, string>;
  /** The call's `permissions.expression.check` (e.g. `['perm', '/vms/{vmid}', ['VM.Audit']]`), when it has one. */
  permissionCheck: unknown[] | undefined;
}

interface TrieNode {
  literal: Map<string, TrieNode>;
  param?: { name: string; node: TrieNode };
  template?: string;
  methods?: Map<string, MethodSchema>;
}

export interface RouteMatch {
  template: string;
  pathParams: Record<string, string>;
  /** undefined when the path exists but not with this verb. */
  method: MethodSchema | undefined;
}

/** Ranges of `name[n]` parameters when the description does not state them. */
const INDEX_RANGES: Record<string, [number, number]> = {
  net: [0, 31],
  ipconfig: [0, 31],
  scsi: [0, 30],
  virtio: [0, 15],
  sata: [0, 5],
  ide: [0, 3],
  unused: [0, 255],
  usb: [0, 13],
  hostpci: [0, 15],
  serial: [0, 3],
  parallel: [0, 2],
  numa: [0, 7],
  virtiofs: [0, 9],
};

export function resolveSchemaDir(): string {
  const fromEnv = process.env.PVE_API_SCHEMA_DIR;
  if (fromEnv) return path.resolve(fromEnv);
  return path.resolve(__dirname, '..', '..', 'vendor', 'pve-api');
}

function perlRegex(pattern: string): RegExp | undefined {
  let flags = '';
  let src = pattern.replace(/\(\?\^([a-z]*):/g, (_, f: string) => {
    if (f.includes('i')) flags = 'i';
    return '(?:';
  });
  src = src.replace(/\\z/g, '$').replace(/\\A/g, '^');
  try {
    return new RegExp(`^(?:${src})$`, flags);
  } catch {
    return undefined;
  }
}

const IPV4 = /^(?:(?:25[0-5]|2[0-4]\d|1?\d?\d)\.){3}(?:25[0-5]|2[0-4]\d|1?\d?\d)$/;
function isIpv6(v: string): boolean {
  if (!/^[0-9a-fA-F:.]+$/.test(v) || !v.includes(':')) return false;
  const parts = v.split('::');
  if (parts.length > 2) return false;
  const groups = v.split(':').filter((g) => g !== '');
  return groups.every((g) => /^[0-9a-fA-F]{1,4}$/.test(g) || IPV4.test(g)) && groups.length <= 8;
}
function isIp(v: string): boolean {
  return IPV4.test(v) || isIpv6(v);
}
function isCidr(v: string, family: 4 | 6 | 0): boolean {
  const m = /^([^/]+)\/(\d{1,3})$/.exec(v);
  if (!m) return false;
  const [, ip, len] = m as unknown as [string, string, string];
  const n = Number(len);
  if ((family === 4 || family === 0) && IPV4.test(ip)) return n <= 32;
  if ((family === 6 || family === 0) && isIpv6(ip)) return n <= 128;
  return false;
}

const CONFIGID = /^[a-z][a-z0-9_-]+$/i;

/** Devices a boot order may name (qemu-server's verify_bootdev): drives but the EFI and TPM state ones, NICs, USB and PCI devices. */
const BOOT_DEVICE_RANGES: [RegExp, number][] = [
  [/^ide(\d+)$/, 3], [/^sata(\d+)$/, 5], [/^scsi(\d+)$/, 30], [/^virtio(\d+)$/, 15],
  [/^net(\d+)$/, 31], [/^usb(\d+)$/, 13], [/^hostpci(\d+)$/, 15],
];
function isBootDevice(device: string): boolean {
  return BOOT_DEVICE_RANGES.some(([re, max]) => {
    const m = re.exec(device);
    return m !== null && /^(?:0|[1-9]\d*)$/.test(m[1] as string) && Number(m[1]) <= max;
  });
}
const TAG = /^[a-z0-9_][a-z0-9_\-+.]*$/i;

/** Named string formats; unknown names are accepted. Returns an error message or undefined. */
const STRING_FORMATS: Record<string, (v: string) => string | undefined> = {
  'pve-node': (v) => (/^[a-zA-Z0-9](?:[a-zA-Z0-9-]*[a-zA-Z0-9])?$/.test(v) ? undefined : 'value does not look like a valid node name'),
  'pve-vmid': (v) => (/^[1-9]\d{2,8}$/.test(v) ? undefined : 'value does not look like a valid VM ID'),
  'dns-name': (v) =>
    /^(?:(?:[a-zA-Z0-9](?:[a-zA-Z0-9-]*[a-zA-Z0-9])?)\.)*(?:[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?)$/.test(v)
      ? undefined
      : 'value does not look like a valid DNS name',
  'pve-storage-id': (v) => (/^[a-z][a-z0-9\-_.]*[a-z0-9]$/i.test(v) ? undefined : `storage ID '${v}' contains illegal characters`),
  'pve-poolid': (v) => (/^[A-Za-z0-9\-_/]+$/.test(v) ? undefined : `invalid pool ID '${v}'`),
  'pve-configid': (v) => (CONFIGID.test(v) ? undefined : `invalid configuration ID '${v}'`),
  'pve-configid-list': (v) => {
    for (const id of v.split(/[,;\s]+/).filter(Boolean)) if (!CONFIGID.test(id)) return `invalid configuration ID '${id}'`;
    return undefined;
  },
  'pve-tag-list': (v) => {
    const tags = v.split(/[;,\s]+/).filter(Boolean);
    if (tags.length === 0) return 'no tags given';
    for (const t of tags) if (!TAG.test(t)) return `invalid tag '${t}'`;
    return undefined;
  },
  urlencoded: (v) => (/^[-%a-zA-Z0-9_.!~*'()]*$/.test(v) ? undefined : `invalid urlencoded string: ${v}`),
  'mac-addr': (v) => (/^[0-9a-f]{2}(?::[0-9a-f]{2}){5}$/i.test(v) ? undefined : `value does not look like a valid MAC address`),
  'address-list': (v) => {
    for (const a of v.split(/[,;\s]+/).filter(Boolean)) if (!isIp(a)) return `unable to parse address '${a}'`;
    return undefined;
  },
  ip: (v) => (isIp(v) ? undefined : `value does not look like a valid IP address`),
  ipv4: (v) => (IPV4.test(v) ? undefined : `value does not look like a valid IPv4 address`),
  ipv6: (v) => (isIpv6(v) ? undefined : `value does not look like a valid IPv6 address`),
  'pve-qm-ipconfig': (v) => {
    for (const part of v.split(',')) {
      const eq = part.indexOf('=');
      if (eq < 0) return 'invalid format - value without key, but schema does not define a default key';
      const k = part.slice(0, eq);
      const val = part.slice(eq + 1);
      if (k === 'ip') {
        if (val !== 'dhcp' && !isCidr(val, 4)) return `invalid format - ip: invalid IPv4 CIDR '${val}'`;
      } else if (k === 'ip6') {
        if (val !== 'dhcp' && val !== 'auto' && !isCidr(val, 6)) return `invalid format - ip6: invalid IPv6 CIDR '${val}'`;
      } else if (k === 'gw') {
        if (!IPV4.test(val)) return `invalid format - gw: value does not look like a valid IPv4 address`;
      } else if (k === 'gw6') {
        if (!isIpv6(val)) return `invalid format - gw6: value does not look like a valid IPv6 address`;
      } else {
        return `invalid format - invalid key in comma-separated list property: ${k}`;
      }
    }
    return undefined;
  },
  'pve-vm-cpu-conf': (v) => {
    const keys = new Set(['cputype', 'flags', 'guest-phys-bits', 'hidden', 'hv-vendor-id', 'level', 'phys-bits', 'reported-model']);
    for (const [i, part] of v.split(',').entries()) {
      const eq = part.indexOf('=');
      if (eq < 0) {
        if (i === 0 && /^[a-zA-Z0-9_.+-]+$/.test(part)) continue;
        return `invalid format - value without key`;
      }
      if (!keys.has(part.slice(0, eq))) return `invalid format - invalid key in comma-separated list property: ${part.slice(0, eq)}`;
    }
    return undefined;
  },
  // qemu-server's boot format: `[legacy=]<[acdn]{1,4}>` and/or `order=<device;...>`, each device one verify_bootdev accepts
  'pve-qm-boot': (v) => {
    for (const part of v.split(',')) {
      const order = /^order=(.*)$/.exec(part);
      if (!order) {
        if (/^(?:legacy=)?[acdn]{1,4}$/.test(part)) continue;
        return 'invalid format - format error';
      }
      const bad = (order[1] as string).split(/[;\s]+/).filter(Boolean).find((device) => !isBootDevice(device));
      if (bad !== undefined) return `invalid format - order: invalid boot device '${bad}'`;
    }
    return undefined;
  },
};

function checkBoolean(v: string): boolean {
  return /^(?:1|0|true|false|yes|no|on|off)$/i.test(v);
}
function checkInteger(v: string): boolean {
  return /^[+-]?\d+$/.test(v);
}
function checkNumber(v: string): boolean {
  return /^[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?$/.test(v);
}

/** Validates a scalar against a type/enum/range/format/pattern description. */
function checkScalar(def: ParamDef | FormatEntry, value: string, patternCache: Map<string, RegExp | undefined>): string | undefined {
  const type = def.type ?? 'string';
  if (type === 'boolean') {
    if (!checkBoolean(value)) return `type check ('boolean') failed - got '${value}'`;
    return undefined;
  }
  if (type === 'integer' || type === 'number') {
    if (!(type === 'integer' ? checkInteger(value) : checkNumber(value))) return `type check ('${type}') failed - got '${value}'`;
    const n = Number(value);
    if (def.minimum !== undefined && n < def.minimum) return `value must have a minimum value of ${def.minimum}`;
    if (def.maximum !== undefined && n > def.maximum) return `value must have a maximum value of ${def.maximum}`;
  }
  if (def.enum && def.enum.length > 0 && !def.enum.includes(value)) {
    return `value '${value}' does not have a value in the enumeration '${def.enum.join(', ')}'`;
  }
  if (type === 'string') {
    const d = def as ParamDef;
    if (d.max_length !== undefined && value.length > d.max_length) return `value may only be ${d.max_length} characters long`;
    if (d.min_length !== undefined && value.length < d.min_length) return `value must have at least ${d.min_length} characters`;
    if (def.pattern) {
      let re = patternCache.get(def.pattern);
      if (!patternCache.has(def.pattern)) {
        re = perlRegex(def.pattern);
        patternCache.set(def.pattern, re);
      }
      if (re && !re.test(value)) return 'value does not match the regex pattern';
    }
    if (typeof def.format === 'string') {
      const f = STRING_FORMATS[def.format];
      const err = f?.(value);
      if (err) return err;
    } else if (def.format && typeof def.format === 'object') {
      return checkPropertyString(def.format, value, patternCache);
    }
  }
  return undefined;
}

/** Property strings like `virtio=BC:24:11:00:00:01,bridge=vmbr0,tag=10`. */
function checkPropertyString(
  format: Record<string, FormatEntry>,
  value: string,
  patternCache: Map<string, RegExp | undefined>,
): string | undefined {
  const defaultKey = Object.entries(format).find(([, e]) => e.default_key)?.[0];
  const seen = new Map<string, string>();
  for (const part of value.split(',')) {
    if (part === '') continue;
    const eq = part.indexOf('=');
    let key: string;
    let val: string;
    if (eq < 0) {
      if (!defaultKey) return 'invalid format - value without key, but schema does not define a default key';
      if (seen.has(defaultKey)) return `invalid format - duplicate key in comma-separated list property: ${defaultKey}`;
      key = defaultKey;
      val = part;
    } else {
      key = part.slice(0, eq);
      val = part.slice(eq + 1);
    }
    const entry = format[key];
    if (!entry) return `invalid format - invalid key in comma-separated list property: ${key}`;
    if (entry.keyAlias && entry.alias) {
      seen.set(entry.keyAlias, key);
      key = entry.alias;
    } else if (entry.alias) {
      key = entry.alias;
    }
    const target = format[key];
    if (!target) return `invalid format - invalid key in comma-separated list property: ${key}`;
    if (seen.has(key)) return `invalid format - duplicate key in comma-separated list property: ${key}`;
    seen.set(key, val);
    const err = checkScalar(target, val, patternCache);
    if (err) return `invalid format - ${key}: ${err}`;
  }
  for (const [k, e] of Object.entries(format)) {
    if (e.alias || e.optional) continue;
    if ((e as { default?: unknown }).default !== undefined) continue;
    if (!seen.has(k)) return `invalid format - ${k}: property is missing and it is not optional`;
  }
  return undefined;
}

/**
 * Where real Proxmox VE answers differ from its own `returns` schema, by "<VERB> <template>".
 * The simulator answers as Proxmox does, and the returns check accepts exactly these:
 * `undeclared` members (paths as in the check's messages, `[]` for any index) and integers
 * sent as JSON strings.
 */
const ANSWERED_BEYOND_SCHEMA: Record<string, { undeclared?: string[]; integerAsString?: true }> = {
  // {"data":"101"} although the schema says integer
  'GET /cluster/nextid': { integerAsString: true },
  // the host CPU flags, from which the control plane computes the cluster's CPU baseline
  'GET /nodes/{node}/status': { undeclared: ['data.cpuinfo.flags'] },
  // a token's tasks name the token apart from its user (pve-manager, API2/Tasks.pm)
  'GET /nodes/{node}/tasks': { undeclared: ['data[].tokenid'] },
  'GET /nodes/{node}/tasks/{upid}/status': { undeclared: ['data.tokenid'] },
  // `current` says whether the guest runs and the digest of its config (qemu-server, API2/Qemu.pm)
  'GET /nodes/{node}/qemu/{vmid}/snapshot': { undeclared: ['data[].running', 'data[].digest'] },
  // each volume's content type, and a backup's guest type (pve-storage, API2/Storage/Content.pm)
  'GET /nodes/{node}/storage/{storage}/content': { undeclared: ['data[].content', 'data[].subtype'] },
};

interface ReturnsCheck {
  errors: Record<string, string>;
  undeclared: Set<string>;
  integerAsString: boolean;
  patternCache: Map<string, RegExp | undefined>;
}

const isTrue = (v: unknown): boolean => v === true || v === 1;

/** The declared property for `key`: exact, or `name[n]` for `name<digits>` (net0, scsi1...). */
function declaredProperty(properties: Record<string, ReturnsDef>, key: string): ReturnsDef | undefined {
  const exact = properties[key];
  if (exact) return exact;
  const m = /^(.*?)(\d+)$/.exec(key);
  return m ? properties[`${m[1]}[n]`] : undefined;
}

/**
 * Checks one answered value the way Proxmox types its JSON (booleans 0/1, whole numbers without
 * decimals), reusing the parameter checks for enum, range, pattern and format.
 *
 * Members a schema does not declare: allowed where `additionalProperties` is true (or checked
 * against it when it is a schema), and in objects that declare no member at all (free-form maps
 * such as /access/permissions). Proxmox's own validator also lets them pass where
 * `additionalProperties` is simply unset; this check does not, so the simulator cannot invent
 * fields, except the ones real Proxmox sends (ANSWERED_BEYOND_SCHEMA).
 */
function checkReturned(def: ReturnsDef, value: unknown, at: string, c: ReturnsCheck): void {
  if (value === null || value === undefined) {
    if (def.type !== 'null' && !isTrue(def.optional)) c.errors[at] = 'property is missing and it is not optional';
    return;
  }
  if (def.oneOf !== undefined || def.extra?.oneOf !== undefined) {
    c.errors[at] = 'the returns check does not support oneOf schemas';
    return;
  }
  const type = def.type ?? 'any';
  const typeError = `type check ('${type}') failed - got ${JSON.stringify(value)}`;
  switch (type) {
    case 'any':
      return;
    case 'null':
      c.errors[at] = typeError;
      return;
    case 'boolean':
      if (value !== 0 && value !== 1) c.errors[at] = typeError;
      return;
    case 'integer':
    case 'number': {
      const asString = type === 'integer' && c.integerAsString && typeof value === 'string';
      if (!asString && (typeof value !== 'number' || !Number.isFinite(value) || (type === 'integer' && !Number.isInteger(value)))) {
        c.errors[at] = typeError;
        return;
      }
      const err = checkScalar(def, String(value), c.patternCache);
      if (err) c.errors[at] = err;
      return;
    }
    case 'string': {
      if (typeof value !== 'string') {
        c.errors[at] = typeError;
        return;
      }
      const err = checkScalar(def, value, c.patternCache);
      if (err) c.errors[at] = err;
      return;
    }
    case 'array':
      if (!Array.isArray(value)) {
        c.errors[at] = typeError;
        return;
      }
      if (def.items) value.forEach((item, i) => checkReturned(def.items as ReturnsDef, item, `${at}[${i}]`, c));
      return;
    case 'object':
      if (typeof value !== 'object' || Array.isArray(value)) {
        c.errors[at] = typeError;
        return;
      }
      checkReturnedObject(def, value as Record<string, unknown>, at, c);
      return;
    default:
      c.errors[at] = `the returns check does not know type '${type}'`;
  }
}

function checkReturnedObject(def: ReturnsDef, value: Record<string, unknown>, at: string, c: ReturnsCheck): void {
  const properties = def.properties ?? {};
  for (const [name, sub] of Object.entries(properties)) {
    if (!name.endsWith('[n]')) checkReturned(sub, value[name], `${at}.${name}`, c);
  }
  const additional = def.additionalProperties ?? def.extra?.additionalProperties;
  const freeForm = additional === undefined && Object.keys(properties).length === 0;
  for (const [key, member] of Object.entries(value)) {
    const memberAt = `${at}.${key}`;
    if (Object.hasOwn(properties, key)) continue;
    const indexed = declaredProperty(properties, key);
    if (indexed) checkReturned(indexed, member, memberAt, c);
    else if (typeof additional === 'object') checkReturned(additional, member, memberAt, c);
    else if (!isTrue(additional) && !freeForm && !c.undeclared.has(memberAt.replace(/\[\d+\]/g, '[]'))) {
      c.errors[memberAt] = 'property is not defined in schema and the schema does not allow additional properties';
    }
  }
}

export class PveSchema {
  readonly version: string;
  private readonly root: TrieNode = { literal: new Map() };
  private readonly patternCache = new Map<string, RegExp | undefined>();
  readonly methodCount: number;

  constructor(raw: RawSchema) {
    this.version = raw.source_version;
    let count = 0;
    for (const p of raw.paths) {
      const node = this.insert(p.path);
      node.template = p.path;
      node.methods ??= new Map();
      for (const m of p.methods) {
        node.methods.set(m.verb, this.compile(p.path, m));
        count++;
      }
    }
    this.methodCount = count;
  }

  private insert(template: string): TrieNode {
    let node = this.root;
    for (const seg of template.split('/').filter(Boolean)) {
      const pm = /^\{([^}]+)\}$/.exec(seg);
      if (pm) {
        node.param ??= { name: pm[1] as string, node: { literal: new Map() } };
        node = node.param.node;
      } else {
        let next = node.literal.get(seg);
        if (!next) {
          next = { literal: new Map() };
          node.literal.set(seg, next);
        }
        node = next;
      }
    }
    return node;
  }

  private compile(template: string, m: RawMethod): MethodSchema {
    const params = new Map<string, ParamDef>();
    const indexed: MethodSchema['indexed'] = [];
    const required: string[] = [];
    const requires = new Map<string, string>();
    for (const { name, definition } of m.parameters) {
      if (typeof definition.extra?.requires === 'string') requires.set(name, definition.extra.requires);
      const im = /^(.+)\[n\]$/.exec(name);
      if (im) {
        const base = im[1] as string;
        const dm = /n is (\d+) to (\d+)/.exec(definition.description ?? '');
        const range = dm ? ([Number(dm[1]), Number(dm[2])] as [number, number]) : (INDEX_RANGES[base] ?? [0, 255]);
        indexed.push({ base, min: range[0], max: range[1], def: definition });
        continue;
      }
      params.set(name, definition);
      if (!definition.optional) required.push(name);
    }
    return { verb: m.verb, name: m.name, template, returnsType: m.returns?.type, returns: m.returns, params, indexed, required, requires, permissionCheck: m.permissions?.expression?.check };
  }

  /** Finds the schema entry for a concrete path (already stripped of /api2/json). */
  match(verb: string, urlPath: string): RouteMatch | undefined {
    let node: TrieNode | undefined = this.root;
    const pathParams: Record<string, string> = {};
    for (const raw of urlPath.split('/').filter(Boolean)) {
      let seg: string;
      try {
        seg = decodeURIComponent(raw);
      } catch {
        return undefined;
      }
      const lit: TrieNode | undefined = node.literal.get(seg);
      if (lit) {
        node = lit;
      } else if (node.param) {
        pathParams[node.param.name] = seg;
        node = node.param.node;
      } else {
        return undefined;
      }
    }
    if (!node.template || !node.methods) return undefined;
    return { template: node.template, pathParams, method: node.methods.get(verb) };
  }

  private definitionFor(m: MethodSchema, name: string): ParamDef | undefined {
    const exact = m.params.get(name);
    if (exact) return exact;
    for (const ix of m.indexed) {
      if (name.startsWith(ix.base)) {
        const rest = name.slice(ix.base.length);
        if (/^\d+$/.test(rest)) {
          const n = Number(rest);
          if (n >= ix.min && n <= ix.max) return ix.def;
        }
      }
    }
    return undefined;
  }

  /** Validates all parameters (path parameters included); returns Proxmox-style errors or undefined. */
  validate(m: MethodSchema, params: Record<string, string>): Record<string, string> | undefined {
    const errors: Record<string, string> = {};
    for (const [name, value] of Object.entries(params)) {
      const def = this.definitionFor(m, name);
      if (!def) {
        errors[name] = 'property is not defined in schema and the schema does not allow additional properties';
        continue;
      }
      const err = checkScalar(def, value, this.patternCache);
      if (err) errors[name] = err;
    }
    for (const name of m.required) {
      if (params[name] === undefined && !errors[name]) errors[name] = 'property is missing and it is not optional';
    }
    // pve-common's JSONSchema check_object: a given parameter's `requires` must be given too
    for (const [name, other] of m.requires) {
      if (params[name] !== undefined && params[other] === undefined) errors[other] ??= `missing property required by '${name}'`;
    }
    return Object.keys(errors).length > 0 ? errors : undefined;
  }

  /**
   * Checks an answer's `data` against the method's `returns` (see checkReturned); errors by
   * path (`data[0].status`), or undefined when it is valid.
   */
  validateReturns(m: MethodSchema, data: unknown): Record<string, string> | undefined {
    if (!m.returns) return undefined;
    const beyond = ANSWERED_BEYOND_SCHEMA[`${m.verb} ${m.template}`];
    const c: ReturnsCheck = {
      errors: {},
      undeclared: new Set(beyond?.undeclared),
      integerAsString: beyond?.integerAsString ?? false,
      patternCache: this.patternCache,
    };
    checkReturned(m.returns, data, 'data', c);
    return Object.keys(c.errors).length > 0 ? c.errors : undefined;
  }

  /**
   * Validates a whole request: `{ ok: true, template }`, or why it would be refused
   * (`notImplemented` for unknown paths/verbs, `errors` for parameter failures).
   */
  validateRequest(
    verb: string,
    urlPath: string,
    params: Record<string, string>,
  ): { ok: true; template: string } | { ok: false; template?: string; notImplemented?: true; errors?: Record<string, string> } {
    const match = this.match(verb, urlPath);
    if (!match || !match.method) return { ok: false, template: match?.template, notImplemented: true };
    const errors = this.validate(match.method, { ...params, ...match.pathParams });
    return errors ? { ok: false, template: match.template, errors } : { ok: true, template: match.template };
  }
}

const cache = new Map<string, PveSchema>();

export function isPveVersion(v: string): v is PveVersion {
  return (PVE_VERSIONS as readonly string[]).includes(v);
}

/** Loads (once per process) and indexes the schema of a Proxmox VE release. */
export function loadSchema(version: PveVersion = DEFAULT_PVE_VERSION, dir: string = resolveSchemaDir()): PveSchema {
  const file = path.join(dir, `pve-${version}.json`);
  const hit = cache.get(file);
  if (hit) return hit;
  if (!fs.existsSync(file)) {
    throw new Error(`Proxmox VE API schema not found at ${file} (set PVE_API_SCHEMA_DIR)`);
  }
  const schema = new PveSchema(JSON.parse(fs.readFileSync(file, 'utf8')) as RawSchema);
  cache.set(file, schema);
  return schema;
}
