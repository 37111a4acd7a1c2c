/**
 * Addresses and ports as pve-firewall reads them (Firewall.pm: parse_address_list,
 * parse_port_name_number_or_range, clean_cidr, parse_ip_or_cidr, pve_verify_ip_or_cidr), with
 * Net::IP's checks where pve-firewall leans on them, and the address arithmetic the packet oracle
 * needs to match them.
 */
import ipaddr from 'ipaddr.js';
import { ICMP_TYPE_NAMES, ICMPV6_TYPE_NAMES, servicePort } from './firewall-names';

/** PVE::Tools' `$IPV4RE`: four decimal octets without leading zeros. */
const IPV4_RE = /^(?:(?:25[0-5]|(?:2[0-4]|1[0-9]|[1-9])?[0-9])\.){3}(?:25[0-5]|(?:2[0-4]|1[0-9]|[1-9])?[0-9])$/;

export const isIpv4 = (text: string): boolean => IPV4_RE.test(text);
export const isIpv6 = (text: string): boolean => /^[0-9a-fA-F:.]+$/.test(text) && text.includes(':') && ipaddr.IPv6.isValid(text);

/** How pve-firewall's alias, ipset and security group names look. */
const FW_NAME = '[A-Za-z][A-Za-z0-9\\-\\_]+';
export const NAME_PATTERN = new RegExp(`^${FW_NAME}$`);
/** An alias name, optionally scoped (`dc/`, `guest/`). */
export const SCOPED_ALIAS = new RegExp(`^(dc/|guest/)?(${FW_NAME})$`);
/** An ipset reference, optionally scoped. */
export const IPSET_REF = new RegExp(`^\\+(guest/|dc/|sdn/)?(${FW_NAME})$`);
const MAX_NAME_LENGTH = 64;

/** A range of addresses of one IP version, as numbers. */
export interface AddressRange {
  version: 4 | 6;
  first: bigint;
  last: bigint;
}

const bits = (version: 4 | 6): number => (version === 4 ? 32 : 128);

function toBigInt(address: ipaddr.IPv4 | ipaddr.IPv6): bigint {
  return address.toByteArray().reduce((n, byte) => (n << 8n) | BigInt(byte), 0n);
}

function fromBigInt(value: bigint, version: 4 | 6): string {
  const bytes: number[] = [];
  for (let i = bits(version) / 8 - 1; i >= 0; i--) bytes.push(Number((value >> BigInt(i * 8)) & 0xffn));
  return ipaddr.fromByteArray(bytes).toString();
}

/** One address's version and value, or undefined when it is neither (Net::IP's ip_get_version). */
function parseAddress(text: string): { version: 4 | 6; value: bigint } | undefined {
  if (!text.includes(':') && /^\d{1,3}(?:\.\d{1,3}){3}$/.test(text) && text.split('.').every((q) => Number(q) <= 255)) {
    return { version: 4, value: toBigInt(ipaddr.IPv4.parse(text.split('.').map(Number).join('.'))) };
  }
  if (isIpv6(text)) return { version: 6, value: toBigInt(ipaddr.IPv6.parse(text)) };
  return undefined;
}

const hostMask = (version: 4 | 6, length: number): bigint => (1n << BigInt(bits(version) - length)) - 1n;

/**
 * What `Net::IP->new` makes of an address, a prefix (`10.0.0.0/24`, its host bits zero) or a
 * range (`10.0.0.1-10.0.0.9`); a string is the error Net::IP gives.
 */
export function netIpRange(text: string): AddressRange | string {
  const prefix = /^(\S+?)\/(\S+)$/.exec(text);
  if (prefix) {
    const address = parseAddress(prefix[1] as string);
    if (!address) return `Cannot determine IP version for ${prefix[1]}`;
    const length = Number(prefix[2]);
    if (!/^\d+$/.test(prefix[2] as string)) return `Cannot determine IP version for ${text}`;
    if (length > bits(address.version)) return `Prefix length ${length} is longer than IP address (${bits(address.version)})`;
    if ((address.value & hostMask(address.version, length)) !== 0n) {
      return `Invalid prefix ${address.value.toString(2).padStart(bits(address.version), '0')}/${length}`;
    }
    return { version: address.version, first: address.value, last: address.value | hostMask(address.version, length) };
  }
  const range = /^(.+?)\s*-\s*(.+)$/.exec(text);
  if (range) {
    const first = parseAddress(range[1] as string);
    if (!first) return `Cannot determine IP version for ${range[1]}`;
    const last = parseAddress(range[2] as string);
    if (!last) return `Cannot determine IP version for ${range[2]}`;
    if (last.version !== first.version) return `Begin and End addresses have different IP versions - ${range[1]} - ${range[2]}`;
    if (first.value > last.value) return `Begin address is greater than End address ${range[1]} - ${range[2]}`;
    return { version: first.version, first: first.value, last: last.value };
  }
  const single = parseAddress(text);
  if (!single) return `Cannot determine IP version for ${text}`;
  return { version: single.version, first: single.value, last: single.value };
}

/** Perl's `split(/,/, $s)`: empty fields at the end are dropped. */
function perlSplitComma(text: string): string[] {
  const parts = text.split(',');
  while (parts.length > 0 && parts[parts.length - 1] === '') parts.pop();
  return parts;
}

/**
 * Firewall.pm's clean_cidr: a prefix's host bits cleared (`10.0.0.5/24` -> `10.0.0.0/24`), IPv6
 * written compressed in lower case; an address without a prefix length (or with `/0`) unchanged.
 */
export function cleanCidr(cidr: string): string {
  const [ip, length] = cidr.split('/') as [string, string | undefined];
  if (!length || length === '0') return cidr;
  const version = isIpv4(ip) ? 4 : 6;
  const address = parseAddress(ip);
  if (!address) return cidr;
  const n = Math.min(Number(length), bits(version));
  return `${fromBigInt(address.value & ~hostMask(version, n) & ((1n << BigInt(bits(version))) - 1n), version)}/${length}`;
}

/** Firewall.pm's parse_ip_or_cidr: a single address's `/32` or `/128` dropped; throws its message for anything else. */
export function parseIpOrCidr(cidr: string): { cidr: string; ipversion: 4 | 6 } {
  const m = /^([^/]+)(?:\/(\d+))?$/.exec(cidr);
  if (m && isIpv6(m[1] as string)) return { cidr: cidr.replace(/\/128$/, ''), ipversion: 6 };
  if (m && isIpv4(m[1] as string)) return { cidr: cidr.replace(/\/32$/, ''), ipversion: 4 };
  throw new Error('value does not look like a valid IP address or CIDR network');
}

/** The `IPorCIDR` format (pve_verify_ip_or_cidr): undefined when valid, else its message. */
export function verifyIpOrCidr(value: string): string | undefined {
  const m = /^([^/]+)(?:\/\d+)?$/.exec(value);
  if (!m || !(isIpv4(m[1] as string) || isIpv6(m[1] as string))) return 'value does not look like a valid IP address or CIDR network';
  const checked = netIpRange(cleanCidr(value));
  return typeof checked === 'string' ? checked : undefined;
}

/** The `IPorCIDRorAlias` format: an alias name (scoped or not), or what `IPorCIDR` accepts. */
export function verifyIpOrCidrOrAlias(value: string): string | undefined {
  return SCOPED_ALIAS.test(value) ? undefined : verifyIpOrCidr(value);
}

/**
 * Firewall.pm's parse_address_list: an ipset reference (`+name`), an alias, or a list of addresses,
 * prefixes and (alone) a range, of one IP version. Returns that version (undefined for a
 * reference); throws the message pve-firewall gives.
 */
export function parseAddressList(text: string): 4 | 6 | undefined {
  if (/^\+\S+$/.test(text)) {
    if (text.length > MAX_NAME_LENGTH + 1) throw new Error('ipset name too long');
    return undefined;
  }
  if (SCOPED_ALIAS.test(text)) {
    if (text.length > MAX_NAME_LENGTH) throw new Error('alias name too long');
    return undefined;
  }
  const elements = perlSplitComma(text);
  if (elements.join(',') !== text) throw new Error('extraneous commas in list');
  let version: 4 | 6 | undefined;
  let range = false;
  for (const element of elements) {
    const parsed = netIpRange(element);
    if (typeof parsed === 'string') throw new Error(`invalid IP address: ${parsed}`);
    if (element.includes('-')) range = true;
    if (version !== undefined && parsed.version !== version) throw new Error(`detected mixed ipv4/ipv6 addresses in address list '${text}'`);
    version = parsed.version;
  }
  if (range && elements.length > 1) throw new Error("you can't use a range in a list");
  return version;
}

/** The ports of a list, as `[from, to]` ranges; ICMP type names stand for themselves. */
type PortSpec = ([number, number] | string)[];

/**
 * Firewall.pm's parse_port_name_number_or_range: numbers, `a:b` ranges and `/etc/services` names,
 * comma separated, at most 15 "numbers" (a range counts two); for a destination port, ICMP type
 * names (alone). Throws the message pve-firewall gives.
 */
export function parsePortSpec(text: string, dport: boolean): PortSpec {
  const elements = perlSplitComma(text);
  if (elements.join(',') !== text) throw new Error('extraneous commas in list');
  let count = 0;
  let icmp = false;
  const out: PortSpec = [];
  for (const item of elements) {
    const range = /^(\d+):(\d+)$/.exec(item);
    if (range) {
      count += 2;
      const [from, to] = [Number(range[1]), Number(range[2])];
      if (from > 65535) throw new Error(`invalid port '${range[1]}'`);
      if (to > 65535) throw new Error(`invalid port '${range[2]}'`);
      if (from > to) throw new Error(`backwards range '${range[1]}:${range[2]}' not allowed, did you mean '${range[2]}:${range[1]}'?`);
      out.push([from, to]);
    } else if (/^\d+$/.test(item)) {
      count += 1;
      if (Number(item) > 65535) throw new Error(`invalid port '${item}'`);
      out.push([Number(item), Number(item)]);
    } else if (dport && (ICMP_TYPE_NAMES.has(item) || ICMPV6_TYPE_NAMES.has(item))) {
      icmp = true;
      out.push(item);
    } else {
      const port = servicePort(item);
      if (port === undefined) throw new Error(`invalid port '${item}'`);
      out.push([port, port]);
    }
  }
  if (icmp && count > 0) throw new Error('ICMP ports not allowed in port range');
  if (count > 15) throw new Error('too many entries in port list (> 15 numbers)');
  return out;
}

/** An address's version and value; undefined when it is not one. */
export function addressValue(text: string): { version: 4 | 6; value: bigint } | undefined {
  return parseAddress(text);
}

/**
 * Firewall.pm's mac_to_linklocal: the IPv6 link-local address a NIC's MAC gives (modified EUI-64,
 * RFC 4291), the one address pve-firewall puts into a VM's `ipfilter-netN` set by itself.
 */
export function macToLinkLocal(mac: string): string {
  const parts = mac.split(':');
  const first = (parseInt(parts[0] as string, 16) ^ 0x02).toString(16).padStart(2, '0');
  return `fe80::${first}${parts[1]}:${parts[2]}FF:FE${parts[3]}:${parts[4]}${parts[5]}`;
}
