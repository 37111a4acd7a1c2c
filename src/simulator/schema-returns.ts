/**
 * The check of an answer's `data` against a method's `returns` in the API schema, and where real
 * Proxmox VE answers beyond it.
 */
import { checkScalar, type ReturnsDef } from './schema-params';

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
  // pve-firewall answers options, rules, aliases and ipset entries with the digest of what it read
  // (copy_opject_with_digest, copy_list_with_digest), an alias with its IP version, and a rule or
  // an entry it found wrong in the file with its `errors`; PVE 8.4.5 declares only a rule's `pos`
  'GET /cluster/firewall/options': { undeclared: ['data.digest'] },
  'GET /nodes/{node}/qemu/{vmid}/firewall/options': { undeclared: ['data.digest'] },
  'GET /nodes/{node}/qemu/{vmid}/firewall/rules': {
    undeclared: ['digest', 'errors', 'type', 'action', 'enable', 'macro', 'iface', 'source', 'dest', 'proto', 'dport', 'sport', 'log', 'icmp-type', 'comment', 'ipversion'].map(
      (member) => `data[].${member}`,
    ),
  },
  'GET /nodes/{node}/qemu/{vmid}/firewall/rules/{pos}': { undeclared: ['data.digest', 'data.errors'] },
  'GET /nodes/{node}/qemu/{vmid}/firewall/aliases': { undeclared: ['data[].ipversion'] },
  'GET /nodes/{node}/qemu/{vmid}/firewall/ipset/{name}': { undeclared: ['data[].errors'] },
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

/**
 * Checks an answer's `data` against the `returns` of the method `<verb> <template>` (see
 * checkReturned); errors by path (`data[0].status`), or undefined when it is valid.
 */
export function checkReturns(method: { verb: string; template: string; returns: ReturnsDef }, data: unknown, patternCache: Map<string, RegExp | undefined>): Record<string, string> | undefined {
  const beyond = ANSWERED_BEYOND_SCHEMA[`${method.verb} ${method.template}`];
  const c: ReturnsCheck = {
    errors: {},
    undeclared: new Set(beyond?.undeclared),
    integerAsString: beyond?.integerAsString ?? false,
    patternCache,
  };
  checkReturned(method.returns, data, 'data', c);
  return Object.keys(c.errors).length > 0 ? c.errors : undefined;
}
