import { type Config, encryptionKeyRing, type EncryptionKeyRing, PRIMARY_KEY_ID } from '../config';
import { createCipheriv, createDecipheriv, createHash, randomBytes, randomInt, timingSafeEqual } from 'node:crypto';

/**
 * AES-256-GCM with a random 96-bit nonce over a ring of keys: one seals, all open. The output
 * `v2.<key id>.<nonce>.<tag>.<ciphertext>` (base64url) names its format and its key, so keys can
 * be rotated (scripts/rotate-keys.ts). Texts of the first format, `v1.<nonce>.<tag>.<ciphertext>`,
 * carry no key id: they were sealed with the one key there was, the ring's `primary`.
 */
export class SecretBox {
  private readonly keys = new Map<string, Buffer>();
  /** The key new secrets are sealed with. */
  readonly writeKeyId: string;

  /** A base64 key alone is a ring of one, the key `primary`. */
  constructor(ring: string | EncryptionKeyRing) {
    const { keys, writeKeyId } = typeof ring === 'string' ? { keys: [{ id: PRIMARY_KEY_ID, key: ring }], writeKeyId: PRIMARY_KEY_ID } : ring;
    for (const { id, key } of keys) {
      const bytes = Buffer.from(key, 'base64');
      if (bytes.length !== 32) throw new Error(`encryption key "${id}" must be 32 bytes`);
      this.keys.set(id, bytes);
    }
    if (!this.keys.has(writeKeyId)) throw new Error(`the write key "${writeKeyId}" is not in the key ring`);
    this.writeKeyId = writeKeyId;
  }

  seal(plaintext: string, associatedData = ''): string {
    const nonce = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.key(this.writeKeyId), nonce);
    cipher.setAAD(Buffer.from(associatedData));
    const body = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
    return ['v2', this.writeKeyId, ...[nonce, cipher.getAuthTag(), body].map((part) => part.toString('base64url'))].join('.');
  }

  open(sealed: string, associatedData = ''): string {
    const { keyId, nonce, tag, body } = parseSealed(sealed);
    // A fixed 16-byte tag: Node would otherwise accept truncated tags that are far easier to forge.
    const decipher = createDecipheriv('aes-256-gcm', this.key(keyId), Buffer.from(nonce, 'base64url'), { authTagLength: 16 });
    decipher.setAAD(Buffer.from(associatedData));
    decipher.setAuthTag(Buffer.from(tag, 'base64url'));
    return Buffer.concat([decipher.update(Buffer.from(body, 'base64url')), decipher.final()]).toString('utf8');
  }

  /** Whether a sealed text is already under the write key (a rotation leaves it as it is). */
  isCurrent(sealed: string): boolean {
    return sealed.startsWith(this.currentPrefix());
  }

  /** What every text sealed with the write key starts with. */
  currentPrefix(): string {
    return `v2.${this.writeKeyId}.`;
  }

  private key(id: string): Buffer {
    const key = this.keys.get(id);
    if (!key) throw new Error(`sealed with the key "${id}", which is not in the key ring (ENCRYPTION_KEY / ENCRYPTION_KEYS)`);
    return key;
  }
}

/** The parts of a sealed text, either format. */
function parseSealed(sealed: string): { keyId: string; nonce: string; tag: string; body: string } {
  const parts = sealed.split('.');
  const [version] = parts;
  if (version === 'v1' && parts.length === 4) {
    const [, nonce, tag, body] = parts as [string, string, string, string];
    if (nonce && tag) return { keyId: PRIMARY_KEY_ID, nonce, tag, body };
  }
  if (version === 'v2' && parts.length === 5) {
    const [, keyId, nonce, tag, body] = parts as [string, string, string, string, string];
    if (keyId && nonce && tag) return { keyId, nonce, tag, body };
  }
  throw new Error('unrecognised ciphertext');
}

/** The secret box of a validated configuration. */
export function secretBoxOf(config: Config): SecretBox {
  return new SecretBox(encryptionKeyRing(config));
}

const PASSWORD_ALPHABETS = ['ABCDEFGHJKLMNPQRSTUVWXYZ', 'abcdefghijkmnopqrstuvwxyz', '23456789', '-_.:+=@'];

/** A fresh CSPRNG password: 24 characters with every class present, no look-alike characters. */
export function generatePassword(length = 24): string {
  const all = PASSWORD_ALPHABETS.join('');
  const chars = PASSWORD_ALPHABETS.map((set) => set[randomInt(set.length)] as string);
  while (chars.length < length) chars.push(all[randomInt(all.length)] as string);
  for (let i = chars.length - 1; i > 0; i--) {
    const j = randomInt(i + 1);
    [chars[i], chars[j]] = [chars[j] as string, chars[i] as string];
  }
  return chars.join('');
}

/** A bearer token: 256 random bits, recognisable by its prefix in secret scanners. */
export function generateApiToken(): string {
  return `pvecp_${randomBytes(32).toString('base64url')}`;
}

export function hashToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

export function constantTimeEqual(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
}
