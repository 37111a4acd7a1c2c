import { isMap, parseDocument, stringify } from 'yaml';

/**
 * Custom cloud-init user data. A customer's `userData` is a #cloud-config YAML document; the
 * control plane writes it, merged with the identity it must set, as a snippet the guest reads
 * (`cicustom: user=…`). The identity always wins: the customer cannot change who logs in.
 */

export type CloudConfig = Record<string, unknown>;

/** Keys that decide who logs in and as what host: only the control plane sets them. */
export const IDENTITY_KEYS = ['hostname', 'fqdn', 'preserve_hostname', 'user', 'password', 'chpasswd', 'ssh_pwauth', 'ssh_authorized_keys'] as const;

/** The document as a mapping, or the reason it is not one (safe to show). */
export function parseCloudConfig(text: string): { ok: true; config: CloudConfig } | { ok: false; reason: string } {
  const document = parseDocument(text, { prettyErrors: false, uniqueKeys: true });
  if (document.errors.length > 0) return { ok: false, reason: `not valid YAML: ${document.errors[0]?.message.split('\n')[0] ?? 'parse error'}` };
  if (document.contents !== null && !isMap(document.contents)) return { ok: false, reason: 'a #cloud-config YAML mapping (key: value) is required' };
  const config = (document.toJS({ maxAliasCount: 100 }) ?? {}) as CloudConfig;
  return { ok: true, config };
}

export interface GuestIdentity {
  hostname: string;
  username: string;
  /** SHA-512 crypt hash, or null when the login is by SSH key only. */
  passwordHash: string | null;
  sshKeys: string[];
}

const userName = (entry: unknown): string | undefined =>
  typeof entry === 'string' ? entry : entry && typeof entry === 'object' && 'name' in entry ? String((entry as { name: unknown }).name) : undefined;

/**
 * The snippet's text: the customer's keys, minus the identity keys, plus ours. The customer's
 * extra `users` are kept after ours; an entry named like our user, and `default`, are dropped.
 */
export function mergeCloudConfig(customer: CloudConfig, identity: GuestIdentity): string {
  const rest = Object.fromEntries(Object.entries(customer).filter(([key]) => !(IDENTITY_KEYS as readonly string[]).includes(key) && key !== 'users'));
  const theirUsers = Array.isArray(customer.users) ? customer.users.filter((entry) => ![identity.username, 'default'].includes(userName(entry) ?? '')) : [];
  const ours: Record<string, unknown> = {
    name: identity.username,
    shell: '/bin/bash',
    sudo: 'ALL=(ALL) NOPASSWD:ALL',
    lock_passwd: identity.passwordHash === null,
    ...(identity.passwordHash ? { passwd: identity.passwordHash } : {}),
    ...(identity.sshKeys.length ? { ssh_authorized_keys: identity.sshKeys } : {}),
  };
  const merged: CloudConfig = {
    ...rest,
    hostname: identity.hostname,
    preserve_hostname: false,
    ssh_pwauth: identity.passwordHash !== null,
    users: [ours, ...theirUsers],
  };
  return `#cloud-config\n${stringify(merged, { lineWidth: 0 })}`;
}
