import { createCipheriv, randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { constantTimeEqual, generateApiToken, generatePassword, hashToken, SecretBox } from '../../src/security/secrets';

const KEY = randomBytes(32).toString('base64');

interface Parts {
  version: string;
  keyId: string;
  nonce: Buffer;
  tag: Buffer;
  body: Buffer;
}

function parts(sealed: string): Parts {
  const [version = '', keyId = '', nonce = '', tag = '', body = ''] = sealed.split('.');
  return { version, keyId, nonce: Buffer.from(nonce, 'base64url'), tag: Buffer.from(tag, 'base64url'), body: Buffer.from(body, 'base64url') };
}

function join(p: Parts): string {
  return [p.version, p.keyId, p.nonce.toString('base64url'), p.tag.toString('base64url'), p.body.toString('base64url')].join('.');
}

/** The first format, without a key id, as texts sealed before key rings exist in the database. */
function sealV1(key: string, plaintext: string, associatedData: string): string {
  const nonce = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', Buffer.from(key, 'base64'), nonce);
  cipher.setAAD(Buffer.from(associatedData));
  const body = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
  return ['v1', nonce, cipher.getAuthTag(), body].map((part) => (typeof part === 'string' ? part : part.toString('base64url'))).join('.');
}

function flipped(buffer: Buffer, index: number): Buffer {
  const copy = Buffer.from(buffer);
  copy[index] = (copy[index] ?? 0) ^ 0x01;
  return copy;
}

describe('SecretBox', () => {
  const box = new SecretBox(KEY);

  it('opens what it sealed', () => {
    for (const plaintext of ['hunter2', '', 'ünïcødé 🔑 パスワード', 'x'.repeat(10_000)]) {
      expect(box.open(box.seal(plaintext))).toBe(plaintext);
      expect(box.open(box.seal(plaintext, 'inst_abc'), 'inst_abc')).toBe(plaintext);
    }
  });

  it('is opened by another box with the same key', () => {
    expect(new SecretBox(KEY).open(box.seal('shared', 'ad'), 'ad')).toBe('shared');
  });

  it('writes a versioned format naming its key: v2.<key id>.<nonce>.<tag>.<ciphertext>, base64url, 12-byte nonce and 16-byte tag', () => {
    const sealed = box.seal('hello');
    expect(sealed).toMatch(/^v2\.primary\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]*$/);
    const p = parts(sealed);
    expect(p.nonce).toHaveLength(12);
    expect(p.tag).toHaveLength(16);
    expect(p.body).toHaveLength(Buffer.byteLength('hello'));
  });

  it('never reveals the plaintext in the sealed text', () => {
    const sealed = box.seal('correct horse battery staple');
    expect(sealed).not.toContain('correct');
    expect(sealed).not.toContain(Buffer.from('correct horse').toString('base64url').slice(0, 12));
  });

  it('seals the same plaintext differently every time (fresh nonce)', () => {
    const sealed = new Set(Array.from({ length: 200 }, () => box.seal('same secret', 'same ad')));
    expect(sealed.size).toBe(200);
    const nonces = new Set([...sealed].map((s) => parts(s).nonce.toString('hex')));
    expect(nonces.size).toBe(200);
  });

  it('refuses a sealed text with any single byte of nonce, tag or ciphertext changed', () => {
    const original = parts(box.seal('a secret worth protecting', 'inst_1'));
    for (const field of ['nonce', 'tag', 'body'] as const) {
      for (let i = 0; i < original[field].length; i++) {
        const tampered = join({ ...original, [field]: flipped(original[field], i) });
        expect(() => box.open(tampered, 'inst_1'), `${field}[${i}]`).toThrow();
      }
    }
  });

  it('refuses a ciphertext made longer or shorter', () => {
    const original = parts(box.seal('a secret worth protecting'));
    expect(() => box.open(join({ ...original, body: original.body.subarray(0, -1) }))).toThrow();
    expect(() => box.open(join({ ...original, body: Buffer.concat([original.body, Buffer.from([0])]) }))).toThrow();
  });

  it('refuses a truncated authentication tag', () => {
    const original = parts(box.seal('a secret worth protecting'));
    for (const length of [4, 8, 12, 15]) {
      expect(() => box.open(join({ ...original, tag: original.tag.subarray(0, length) })), `tag of ${length} bytes`).toThrow();
    }
  });

  it('refuses to open with different associated data, so a secret cannot be moved to another record', () => {
    const sealed = box.seal('password of inst_a', 'inst_a');
    expect(() => box.open(sealed, 'inst_b')).toThrow();
    expect(() => box.open(sealed)).toThrow();
    expect(() => box.open(box.seal('no associated data'), 'inst_a')).toThrow();
  });

  it('refuses to open with a different key', () => {
    const sealed = box.seal('secret', 'ad');
    expect(() => new SecretBox(randomBytes(32).toString('base64')).open(sealed, 'ad')).toThrow();
  });

  it('refuses sealed texts of an unknown format', () => {
    const sealed = box.seal('secret');
    const p = parts(sealed);
    for (const bad of [
      '',
      'garbage',
      sealed.replace(/^v2/, 'v3'),
      sealed.replace(/^v2\.primary/, 'v1'.concat('.primary')),
      sealed.split('.').slice(0, 4).join('.'),
      `v2.primary..${p.tag.toString('base64url')}.`,
      `v2..${p.nonce.toString('base64url')}.${p.tag.toString('base64url')}.${p.body.toString('base64url')}`,
    ]) {
      expect(() => box.open(bad), JSON.stringify(bad)).toThrow();
    }
  });

  it('refuses a key that is not 32 bytes', () => {
    for (const key of ['', randomBytes(16).toString('base64'), randomBytes(31).toString('base64'), randomBytes(33).toString('base64'), randomBytes(64).toString('base64')]) {
      expect(() => new SecretBox(key)).toThrow(/32 bytes/);
      expect(() => new SecretBox({ keys: [{ id: 'k1', key }], writeKeyId: 'k1' })).toThrow(/32 bytes/);
    }
  });

  it('does not echo the key in its error', () => {
    const key = randomBytes(20).toString('base64');
    expect(() => new SecretBox(key)).toThrow(expect.objectContaining({ message: expect.not.stringContaining(key) }));
  });
});

describe('generatePassword', () => {
  const UPPER = /[A-Z]/;
  const LOWER = /[a-z]/;
  const DIGIT = /[0-9]/;
  const SYMBOL = /[^A-Za-z0-9]/;
  const LOOK_ALIKES = /[0O1lI]/;

  it('is 24 characters by default, or the length asked for', () => {
    expect(generatePassword()).toHaveLength(24);
    expect(generatePassword(32)).toHaveLength(32);
    expect(generatePassword(4)).toHaveLength(4);
  });

  it('contains an upper-case letter, a lower-case letter, a digit and a symbol, every time', () => {
    for (let i = 0; i < 1000; i++) {
      const password = generatePassword();
      expect(password).toMatch(UPPER);
      expect(password).toMatch(LOWER);
      expect(password).toMatch(DIGIT);
      expect(password).toMatch(SYMBOL);
    }
    for (let i = 0; i < 200; i++) {
      const short = generatePassword(4);
      for (const klass of [UPPER, LOWER, DIGIT, SYMBOL]) expect(short).toMatch(klass);
    }
  });

  it('never uses look-alike characters (0 O 1 l I) and only characters safe to type', () => {
    for (let i = 0; i < 1000; i++) {
      const password = generatePassword();
      expect(password).not.toMatch(LOOK_ALIKES);
      expect(password).toMatch(/^[A-Za-z2-9\-_.:+=@]+$/);
    }
  });

  it('does not put the mandatory characters in fixed places', () => {
    const firstIsUpper = Array.from({ length: 400 }, () => UPPER.test(generatePassword()[0] ?? '')).filter(Boolean).length;
    // If the first character were always the mandatory upper-case one, this would be 400.
    expect(firstIsUpper).toBeLessThan(300);
  });

  it('never repeats itself: 1000 passwords are all distinct', () => {
    const passwords = new Set(Array.from({ length: 1000 }, () => generatePassword()));
    expect(passwords.size).toBe(1000);
  });
});

describe('generateApiToken', () => {
  it('is recognisable by its prefix and carries 256 random bits in base64url', () => {
    const token = generateApiToken();
    expect(token).toMatch(/^pvecp_[A-Za-z0-9_-]{43}$/);
    expect(Buffer.from(token.slice('pvecp_'.length), 'base64url')).toHaveLength(32);
  });

  it('is different every time', () => {
    const tokens = new Set(Array.from({ length: 1000 }, () => generateApiToken()));
    expect(tokens.size).toBe(1000);
  });

  it('uses the whole alphabet, not a narrow slice of it', () => {
    const characters = new Set(Array.from({ length: 200 }, () => generateApiToken().slice(6)).join(''));
    expect(characters.size).toBeGreaterThan(60);
  });
});

describe('hashToken', () => {
  it('is the lower-case hex SHA-256 of the token, the same every time', () => {
    expect(hashToken('abc')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
    const token = generateApiToken();
    expect(hashToken(token)).toBe(hashToken(token));
    expect(hashToken(token)).toMatch(/^[0-9a-f]{64}$/);
  });

  it('differs for different tokens and does not contain the token', () => {
    const a = generateApiToken();
    const b = generateApiToken();
    expect(hashToken(a)).not.toBe(hashToken(b));
    expect(hashToken(a)).not.toContain(a.slice(6, 20));
  });
});

describe('constantTimeEqual', () => {
  it('is true only for identical strings', () => {
    expect(constantTimeEqual('secret-token', 'secret-token')).toBe(true);
    expect(constantTimeEqual('', '')).toBe(true);
    expect(constantTimeEqual('secret-token', 'secret-tokeN')).toBe(false);
    expect(constantTimeEqual('secret-token', 'Secret-token')).toBe(false);
  });

  it('is false, without throwing, for strings of different lengths', () => {
    expect(constantTimeEqual('secret', 'secret-token')).toBe(false);
    expect(constantTimeEqual('secret-token', '')).toBe(false);
  });

  it('compares bytes, not characters', () => {
    expect(constantTimeEqual('é', 'é')).toBe(true);
    expect(constantTimeEqual('é', 'e\u0301')).toBe(false);
  });
});

describe('SecretBox: a key ring', () => {
  const OLD = randomBytes(32).toString('base64');
  const NEW = randomBytes(32).toString('base64');
  const before = new SecretBox(OLD);
  const during = new SecretBox({ keys: [{ id: 'primary', key: OLD }, { id: 'k2', key: NEW }], writeKeyId: 'k2' });
  const after = new SecretBox({ keys: [{ id: 'k2', key: NEW }], writeKeyId: 'k2' });

  it('seals with the write key and opens with any key of the ring', () => {
    const old = before.seal('made before the rotation', 'inst_1');
    const fresh = during.seal('made during the rotation', 'inst_1');
    expect(parts(fresh).keyId).toBe('k2');
    expect(during.open(old, 'inst_1')).toBe('made before the rotation');
    expect(during.open(fresh, 'inst_1')).toBe('made during the rotation');
    expect(after.open(fresh, 'inst_1')).toBe('made during the rotation');
    expect(during.isCurrent(fresh)).toBe(true);
    expect(during.isCurrent(old)).toBe(false);
  });

  it('opens the first, key-less format with the primary key', () => {
    const legacy = sealV1(OLD, 'sealed by an earlier version', 'conn_1');
    expect(before.open(legacy, 'conn_1')).toBe('sealed by an earlier version');
    expect(during.open(legacy, 'conn_1')).toBe('sealed by an earlier version');
    expect(during.isCurrent(legacy)).toBe(false);
    expect(() => after.open(legacy, 'conn_1')).toThrow(/"primary", which is not in the key ring/);
  });

  it('names a missing key by its id and never prints a key', () => {
    const old = before.seal('secret');
    const error = (() => {
      try {
        after.open(old);
      } catch (e) {
        return e as Error;
      }
      throw new Error('expected a refusal');
    })();
    expect(error.message).toContain('"primary"');
    expect(error.message).not.toContain(OLD);
    expect(error.message).not.toContain(NEW);
  });

  it('refuses a text whose key id was swapped for another key of the ring', () => {
    const sealed = parts(during.seal('secret', 'ad'));
    expect(() => during.open(join({ ...sealed, keyId: 'primary' }), 'ad')).toThrow();
  });

  it('refuses a write key that is not in the ring', () => {
    expect(() => new SecretBox({ keys: [{ id: 'k1', key: OLD }], writeKeyId: 'k2' })).toThrow(/"k2"/);
  });
});
