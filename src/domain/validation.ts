/** Syntax rules for what customers type: hostnames, usernames, SSH public keys. */

const LABEL = /^(?!-)[a-z0-9-]{1,63}(?<!-)$/;

/** RFC 1123 host name: dot-separated labels of letters, digits and inner hyphens; at most 253 characters. */
export function isValidHostname(hostname: string): boolean {
  if (hostname.length > 253) return false;
  const labels = hostname.toLowerCase().split('.');
  return labels.every((label) => LABEL.test(label)) && !/^[0-9]+$/.test(labels[labels.length - 1] ?? '');
}

export const USERNAME_PATTERN = /^[a-z_][a-z0-9_-]{0,31}$/;

/**
 * Characters PostgreSQL cannot store (NUL, lone UTF-16 surrogates) or that have no place in
 * what customers send (C0 controls other than tab, line feed and carriage return; DEL; C1 controls).
 */
// eslint-disable-next-line no-control-regex -- finding control characters is the point
const UNSAFE = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F]|\p{Surrogate}/u;

/** Text that may be stored and shown: well-formed UTF-16 with no control characters but tab, LF and CR. */
export function isSafeText(text: string): boolean {
  return !UNSAFE.test(text);
}

/** Safe text on one line: no tab, LF or CR either. */
export function isSafeLine(text: string): boolean {
  return isSafeText(text) && !/[\t\n\r]/.test(text);
}

/**
 * The OpenSSH public key types we accept, each with the fields of its blob after the type name:
 * a fixed length in bytes, a literal string, or any non-empty string.
 */
type BlobField = number | string | 'bytes';
const KEY_FIELDS: Readonly<Record<string, readonly BlobField[]>> = {
  'ssh-ed25519': [32],
  'ssh-rsa': ['bytes', 'bytes'],
  'ecdsa-sha2-nistp256': ['nistp256', 65],
  'ecdsa-sha2-nistp384': ['nistp384', 97],
  'ecdsa-sha2-nistp521': ['nistp521', 133],
  'sk-ssh-ed25519@openssh.com': [32, 'bytes'],
  'sk-ecdsa-sha2-nistp256@openssh.com': ['nistp256', 65, 'bytes'],
};

/** A key comment: what ssh-keygen and PuTTY write (user@host, words, dates), nothing that could end a line or quote. */
const COMMENT = /^[A-Za-z0-9._@+=:,/()-]+(?: [A-Za-z0-9._@+=:,/()-]+)*$/;
const MAX_COMMENT = 256;
/** Keys larger than 16 KiB of base64 are not keys (RSA 16384 is about 2.8 KiB). */
const MAX_BLOB = 16_384;

export interface SshPublicKey {
  type: string;
  /** The base64 blob, as sent. */
  blob: string;
  comment?: string;
  /** `type blob[ comment]` with single spaces: what cloud-init receives. */
  canonical: string;
}

/** Splits an SSH wire-format blob into its length-prefixed strings; undefined unless it is exactly that. */
function blobStrings(bytes: Buffer): Buffer[] | undefined {
  const strings: Buffer[] = [];
  let offset = 0;
  while (offset < bytes.length) {
    if (offset + 4 > bytes.length) return undefined;
    const length = bytes.readUInt32BE(offset);
    if (offset + 4 + length > bytes.length) return undefined;
    strings.push(bytes.subarray(offset + 4, offset + 4 + length));
    offset += 4 + length;
  }
  return strings;
}

/**
 * Parses an OpenSSH public key line, `<type> <base64 blob> [comment]`: a known type; a blob that
 * is base64 of exactly the fields of that type, starting with the same type name (as ssh-keygen
 * writes it); a comment of letters, digits, single spaces and `._@+=:,/()-`. No options prefix,
 * no second key, nothing that could change the cloud-init document the keys are written into.
 */
export function parseSshPublicKey(line: string): SshPublicKey | undefined {
  if (line.length > MAX_BLOB + MAX_COMMENT + 64) return undefined;
  const match = /^[ \t]*(\S+)[ \t]+(\S+)(?:[ \t]+(.*?))?[ \t]*$/.exec(line);
  if (!match) return undefined;
  const [, type = '', blob = ''] = match;
  const comment = match[3]?.split(/[ \t]+/).join(' ');
  const fields = KEY_FIELDS[type];
  if (!fields || blob.length > MAX_BLOB || !/^[A-Za-z0-9+/]+={0,2}$/.test(blob) || blob.length % 4 !== 0) return undefined;
  if (comment !== undefined && (comment.length > MAX_COMMENT || !COMMENT.test(comment))) return undefined;
  const strings = blobStrings(Buffer.from(blob, 'base64'));
  if (!strings || strings.length !== fields.length + 1 || strings[0]?.toString('latin1') !== type) return undefined;
  const fieldsMatch = fields.every((expected, index) => {
    const actual = strings[index + 1] as Buffer;
    if (typeof expected === 'number') return actual.length === expected;
    if (expected === 'bytes') return actual.length > 0;
    return actual.toString('latin1') === expected;
  });
  if (!fieldsMatch) return undefined;
  return { type, blob, ...(comment ? { comment } : {}), canonical: [type, blob, ...(comment ? [comment] : [])].join(' ') };
}

export function isValidSshPublicKey(line: string): boolean {
  return parseSshPublicKey(line) !== undefined;
}
