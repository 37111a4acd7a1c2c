/**
 * The official Proxmox VE API schema (apidoc, normalized to JSON), indexed once into a path
 * matcher, and a request validator that answers like Proxmox's JSONSchema checks.
 *
 * The schema files ship with the repository in `vendor/pve-api/pve-<version>.json` (see the
 * README there for their provenance); PVE_API_SCHEMA_DIR names another directory.
 */
import fs from 'node:fs';
import path from 'node:path';
import { checkScalar, type ParamDef, type ReturnsDef } from './schema-params';
import { checkReturns } from './schema-returns';

export const PVE_VERSIONS = ['8.4.5', '9.2.3'] as const;
export type PveVersion = (typeof PVE_VERSIONS)[number];
export const DEFAULT_PVE_VERSION: PveVersion = '9.2.3';

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
  /** The path below this node is one component, slashes and all. */
  restIsOneComponent?: boolean;
}

/**
 * Where Proxmox mounts a subclass with `fragmentDelimiter => ''`: a volume id may hold a `/`
 * (pve-storage, PVE/API2/Storage/Status.pm, the `{storage}/content` subclass), and so may an
 * ipset entry's CIDR (pve-firewall, PVE/API2/Firewall/IPSet.pm, each ipset's entries).
 */
const ONE_COMPONENT_BELOW = ['/nodes/{node}/storage/{storage}/content', '/nodes/{node}/qemu/{vmid}/firewall/ipset/{name}', '/cluster/firewall/ipset/{name}'];

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
    for (const template of ONE_COMPONENT_BELOW) this.insert(template).restIsOneComponent = true;
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
    // pve-http-server unescapes the whole path before PVE::RESTHandler::find_handler splits it on
    // `/+`, so an escaped and a literal slash route alike.
    let decoded: string;
    try {
      decoded = decodeURIComponent(urlPath);
    } catch {
      return undefined;
    }
    const segments = decoded.split('/').filter(Boolean);
    let node: TrieNode = this.root;
    const pathParams: Record<string, string> = {};
    for (let i = 0; i < segments.length; i++) {
      // A subclass mounted with `fragmentDelimiter => ''` takes the rest of the path as one component.
      const seg = node.restIsOneComponent ? segments.splice(i).join('/') : (segments[i] as string);
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
    return m.returns ? checkReturns({ verb: m.verb, template: m.template, returns: m.returns }, data, this.patternCache) : undefined;
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
