/**
 * SSH public keys saved on an account: parsed and fingerprinted with sshpk, and held to what we
 * accept (docs/security.md#ssh-keys): ed25519, ECDSA on NIST P-256/384/521, RSA of 2048 bits or
 * more. A refusal never repeats the key.
 */
import sshpk from 'sshpk';
import { AppError } from '../domain/errors';
import { parseSshPublicKey } from '../domain/validation';

export const MIN_RSA_BITS = 2048;

export interface AccountSshKey {
  /** The canonical OpenSSH line handed to cloud-init. */
  publicKey: string;
  /** `SHA256:<base64 without padding>`, as `ssh-keygen -l` prints it. */
  fingerprint: string;
  type: 'ed25519' | 'ecdsa' | 'rsa';
  bits: number;
}

/** Key types OpenSSH knows that we refuse, named by the line's first word. */
const REFUSED_TYPES: Readonly<Record<string, string>> = {
  'ssh-dss': 'DSA keys are limited to 1024 bits and no longer accepted by OpenSSH',
  'sk-ssh-ed25519@openssh.com': 'security-key (FIDO) keys need a hardware key the server cannot check here',
  'sk-ecdsa-sha2-nistp256@openssh.com': 'security-key (FIDO) keys need a hardware key the server cannot check here',
};

const invalid = (reason: string) => new AppError('SSH_KEY_INVALID', `The SSH key is not one OpenSSH public key: ${reason}.`, { fields: { publicKey: reason } });
const notAllowed = (reason: string, type: string, bits?: number) =>
  new AppError('SSH_KEY_TYPE_NOT_ALLOWED', `This SSH key is not accepted: ${reason}. Use an ed25519, ECDSA or RSA (2048 bits or more) key.`, { type, ...(bits ? { bits } : {}), fields: { publicKey: reason } });

/**
 * One OpenSSH public key line, checked: SSH_KEY_INVALID for anything that is not exactly one
 * public key (garbage, a private key, several keys or lines), SSH_KEY_TYPE_NOT_ALLOWED for a key
 * of a type or size we refuse.
 */
export function parseAccountSshKey(text: string): AccountSshKey {
  const line = text.trim();
  if (/PRIVATE KEY/.test(line)) throw invalid('this is a private key; send the public key (the .pub file) and keep the private key to yourself');
  if (/[\r\n]/.test(line)) throw invalid('send one key per request, on one line');
  const word = line.split(/[ \t]/, 1)[0] ?? '';
  const refused = REFUSED_TYPES[word];
  if (refused) throw notAllowed(refused, word);
  let key: sshpk.Key;
  try {
    key = sshpk.parseKey(line, 'ssh');
  } catch {
    throw invalid('expected `<type> <base64 key> [comment]`, as in an id_ed25519.pub file');
  }
  if (key.type === 'rsa' && key.size < MIN_RSA_BITS) throw notAllowed(`an RSA key of ${key.size} bits is too short (at least ${MIN_RSA_BITS})`, 'rsa', key.size);
  if (key.type !== 'rsa' && key.type !== 'ed25519' && key.type !== 'ecdsa') throw notAllowed(`${key.type} keys are not accepted`, key.type, key.size);
  // The line goes into cloud-init as it is: the same rules as a raw key of a create (no options, a plain comment).
  const canonical = parseSshPublicKey(line);
  if (!canonical) throw invalid('the comment may hold only letters, digits, spaces and ._@+=:,/()-');
  return { publicKey: canonical.canonical, fingerprint: key.fingerprint('sha256').toString(), type: key.type, bits: key.size };
}
