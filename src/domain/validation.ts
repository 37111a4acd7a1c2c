/** Syntax rules for what customers type: hostnames, usernames, SSH public keys. */

const LABEL = /^(?!-)[a-z0-9-]{1,63}(?<!-)$/;

/** RFC 1123 host name: dot-separated labels of letters, digits and inner hyphens; at most 253 characters. */
export function isValidHostname(hostname: string): boolean {
  if (hostname.length > 253) return false;
  const labels = hostname.toLowerCase().split('.');
  return labels.every((label) => LABEL.test(label)) && !/^[0-9]+$/.test(labels[labels.length - 1] ?? '');
}

export const USERNAME_PATTERN = /^[a-z_][a-z0-9_-]{0,31}$/;

const KEY_TYPES = new Set([
  'ssh-ed25519',
  'ssh-rsa',
  'ecdsa-sha2-nistp256',
  'ecdsa-sha2-nistp384',
  'ecdsa-sha2-nistp521',
  'sk-ssh-ed25519@openssh.com',
  'sk-ecdsa-sha2-nistp256@openssh.com',
]);

/**
 * An OpenSSH public key line: `<type> <base64 blob> [comment]`, where the blob is valid base64
 * and starts with the same type name (length-prefixed), as ssh-keygen writes it.
 */
export function isValidSshPublicKey(line: string): boolean {
  if (line.length > 16_384 || /[\r\n]/.test(line)) return false;
  const [type, blob] = line.trim().split(/\s+/, 3);
  if (!type || !blob || !KEY_TYPES.has(type)) return false;
  if (!/^[A-Za-z0-9+/]+={0,2}$/.test(blob)) return false;
  const bytes = Buffer.from(blob, 'base64');
  if (bytes.length < 4 + type.length) return false;
  const nameLength = bytes.readUInt32BE(0);
  return nameLength === type.length && bytes.subarray(4, 4 + nameLength).toString('latin1') === type;
}
