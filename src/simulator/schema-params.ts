/**
 * How Proxmox VE checks a parameter against its definition in the API schema (PVE::JSONSchema:
 * `check_format`, `parse_property_string`): types, ranges, enums, patterns, named formats and
 * property strings, with the error wording Proxmox answers.
 */
import { FIREWALL_FORMATS } from './firewall-rules';

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
  ...FIREWALL_FORMATS,
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
export function checkScalar(def: ParamDef | FormatEntry, value: string, patternCache: Map<string, RegExp | undefined>): string | undefined {
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
