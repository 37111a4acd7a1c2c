import { generateKeyPairSync } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { isSafeLine, isSafeText, isValidHostname, isValidSshPublicKey, parseSshPublicKey, USERNAME_PATTERN } from '../../src/domain/validation';

describe('isValidHostname', () => {
  it('accepts single labels and dotted names of letters, digits and inner hyphens', () => {
    for (const name of ['web', 'web-01', 'a', 'x1', 'db.internal', 'web-01.eu-west.example.com', '1st.example.org', 'a-b-c.d-e']) {
      expect(isValidHostname(name), name).toBe(true);
    }
  });

  it('accepts upper case, as host names are case-insensitive', () => {
    expect(isValidHostname('Web-01.Example.COM')).toBe(true);
    expect(isValidHostname('WEB')).toBe(true);
  });

  it('accepts a label of exactly 63 characters and refuses one of 64', () => {
    expect(isValidHostname(`${'a'.repeat(63)}.example.com`)).toBe(true);
    expect(isValidHostname(`${'a'.repeat(64)}.example.com`)).toBe(false);
    expect(isValidHostname('a'.repeat(63))).toBe(true);
    expect(isValidHostname('a'.repeat(64))).toBe(false);
  });

  it('accepts a name of exactly 253 characters and refuses one of 254', () => {
    const name253 = [`${'a'.repeat(63)}`, `${'b'.repeat(63)}`, `${'c'.repeat(63)}`, `${'d'.repeat(61)}`].join('.');
    expect(name253).toHaveLength(253);
    expect(isValidHostname(name253)).toBe(true);
    const name254 = [`${'a'.repeat(63)}`, `${'b'.repeat(63)}`, `${'c'.repeat(63)}`, `${'d'.repeat(62)}`].join('.');
    expect(name254).toHaveLength(254);
    expect(isValidHostname(name254)).toBe(false);
  });

  it('refuses a label that starts or ends with a hyphen', () => {
    for (const name of ['-web', 'web-', 'web.-example.com', 'web.example-.com', '-', 'web.example.com-']) {
      expect(isValidHostname(name), name).toBe(false);
    }
  });

  it('refuses an all-numeric last label, so an IPv4 address is never a host name', () => {
    for (const name of ['192.0.2.1', 'host.123', '123', 'web.example.0']) {
      expect(isValidHostname(name), name).toBe(false);
    }
    // Numeric labels elsewhere, or a last label that merely contains digits, are fine.
    expect(isValidHostname('123.example.com')).toBe(true);
    expect(isValidHostname('host.123a')).toBe(true);
  });

  it('refuses empty names and empty labels', () => {
    for (const name of ['', '.', 'web..example.com', '.example.com', 'example.com.']) {
      expect(isValidHostname(name), JSON.stringify(name)).toBe(false);
    }
  });

  it('refuses characters outside letters, digits, hyphens and dots', () => {
    for (const name of ['web_01', 'web 01', 'web!', 'wéb', 'web/01', 'web:80', 'web\n', '*.example.com']) {
      expect(isValidHostname(name), JSON.stringify(name)).toBe(false);
    }
  });
});

describe('USERNAME_PATTERN', () => {
  it('accepts lower-case POSIX-style login names of up to 32 characters', () => {
    for (const name of ['cloud', 'ubuntu', '_svc', 'deploy-bot', 'user_01', `a${'b'.repeat(31)}`]) {
      expect(USERNAME_PATTERN.test(name), name).toBe(true);
    }
  });

  it('refuses upper case, a leading digit or hyphen, other characters and more than 32 characters', () => {
    for (const name of ['Cloud', '1user', '-user', 'us er', 'user.name', 'user@host', '', `a${'b'.repeat(32)}`]) {
      expect(USERNAME_PATTERN.test(name), JSON.stringify(name)).toBe(false);
    }
  });
});

// ---------- SSH public keys, built from real key pairs ----------

function sshString(value: Buffer | string): Buffer {
  const bytes = typeof value === 'string' ? Buffer.from(value, 'latin1') : value;
  const length = Buffer.alloc(4);
  length.writeUInt32BE(bytes.length);
  return Buffer.concat([length, bytes]);
}

/** An SSH mpint: big-endian, minimal, with a leading zero byte when the top bit is set. */
function sshMpint(unsigned: Buffer): Buffer {
  let bytes = unsigned;
  while (bytes.length > 1 && bytes[0] === 0) bytes = bytes.subarray(1);
  if ((bytes[0] ?? 0) & 0x80) bytes = Buffer.concat([Buffer.from([0]), bytes]);
  return sshString(bytes);
}

function jwkField(value: string | undefined): Buffer {
  if (!value) throw new Error('missing JWK field');
  return Buffer.from(value, 'base64url');
}

function ed25519Blob(): Buffer {
  const { publicKey } = generateKeyPairSync('ed25519');
  const raw = jwkField(publicKey.export({ format: 'jwk' }).x);
  expect(raw).toHaveLength(32);
  return Buffer.concat([sshString('ssh-ed25519'), sshString(raw)]);
}

function rsaBlob(): Buffer {
  const { publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const jwk = publicKey.export({ format: 'jwk' });
  return Buffer.concat([sshString('ssh-rsa'), sshMpint(jwkField(jwk.e)), sshMpint(jwkField(jwk.n))]);
}

function ecdsaP256Blob(): Buffer {
  const { publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  const jwk = publicKey.export({ format: 'jwk' });
  const point = Buffer.concat([Buffer.from([4]), jwkField(jwk.x), jwkField(jwk.y)]);
  return Buffer.concat([sshString('ecdsa-sha2-nistp256'), sshString('nistp256'), sshString(point)]);
}

const line = (type: string, blob: Buffer, comment?: string) => [type, blob.toString('base64'), ...(comment ? [comment] : [])].join(' ');

const ED25519 = ed25519Blob();
const RSA = rsaBlob();
const ECDSA = ecdsaP256Blob();

describe('isValidSshPublicKey', () => {
  it('accepts ed25519, RSA and ECDSA keys as ssh-keygen writes them', () => {
    expect(isValidSshPublicKey(line('ssh-ed25519', ED25519))).toBe(true);
    expect(isValidSshPublicKey(line('ssh-rsa', RSA))).toBe(true);
    expect(isValidSshPublicKey(line('ecdsa-sha2-nistp256', ECDSA))).toBe(true);
  });

  it('accepts a comment, including one with spaces', () => {
    expect(isValidSshPublicKey(line('ssh-ed25519', ED25519, 'alice@laptop'))).toBe(true);
    expect(isValidSshPublicKey(line('ssh-ed25519', ED25519, 'Alice Example (work laptop)'))).toBe(true);
  });

  it('tolerates surrounding spaces and tabs between the fields', () => {
    expect(isValidSshPublicKey(`  ${line('ssh-ed25519', ED25519, 'alice')}  `)).toBe(true);
    expect(isValidSshPublicKey(`ssh-ed25519\t${ED25519.toString('base64')}\talice`)).toBe(true);
  });

  it('refuses a line whose type name differs from the one inside the blob', () => {
    expect(isValidSshPublicKey(line('ssh-rsa', ED25519))).toBe(false);
    expect(isValidSshPublicKey(line('ssh-ed25519', RSA))).toBe(false);
    expect(isValidSshPublicKey(line('ecdsa-sha2-nistp384', ECDSA))).toBe(false);
  });

  it('refuses a blob whose length prefix does not match its type name', () => {
    const blob = Buffer.from(ED25519);
    blob.writeUInt32BE(12, 0); // claims "ssh-ed25519" plus one more byte
    expect(isValidSshPublicKey(line('ssh-ed25519', blob))).toBe(false);
  });

  it('refuses a blob too short to hold its type name', () => {
    expect(isValidSshPublicKey(line('ssh-ed25519', ED25519.subarray(0, 8)))).toBe(false);
    expect(isValidSshPublicKey(line('ssh-ed25519', Buffer.alloc(0)))).toBe(false);
  });

  it('refuses type names it does not know, even with a matching blob', () => {
    const dss = Buffer.concat([sshString('ssh-dss'), sshString(Buffer.alloc(128, 1))]);
    expect(isValidSshPublicKey(line('ssh-dss', dss))).toBe(false);
    const madeUp = Buffer.concat([sshString('ssh-foo'), sshString(Buffer.alloc(32, 1))]);
    expect(isValidSshPublicKey(line('ssh-foo', madeUp))).toBe(false);
    expect(isValidSshPublicKey(line('SSH-ED25519', ED25519))).toBe(false);
  });

  it('refuses a blob that is not base64', () => {
    const base64 = ED25519.toString('base64');
    expect(isValidSshPublicKey(`ssh-ed25519 ${base64.replace(/.$/, '!')}`)).toBe(false);
    expect(isValidSshPublicKey(`ssh-ed25519 ${base64.slice(0, 10)}*${base64.slice(11)}`)).toBe(false);
    expect(isValidSshPublicKey(`ssh-ed25519 ${ED25519.toString('base64url').replace(/=+$/, '')}-_`)).toBe(false);
    expect(isValidSshPublicKey(`ssh-ed25519 ${base64}===`)).toBe(false);
  });

  it('refuses a line with a newline or carriage return anywhere, so one entry cannot smuggle in a second key', () => {
    const good = line('ssh-ed25519', ED25519, 'alice');
    expect(isValidSshPublicKey(`${good}\n${line('ssh-rsa', RSA, 'mallory')}`)).toBe(false);
    expect(isValidSshPublicKey(`${good}\r${line('ssh-rsa', RSA, 'mallory')}`)).toBe(false);
    expect(isValidSshPublicKey(`${good}\n`)).toBe(false);
    expect(isValidSshPublicKey(`ssh-ed25519 ${ED25519.toString('base64')} alice\r\n`)).toBe(false);
  });

  it('refuses a line with a missing part', () => {
    expect(isValidSshPublicKey('')).toBe(false);
    expect(isValidSshPublicKey('   ')).toBe(false);
    expect(isValidSshPublicKey('ssh-ed25519')).toBe(false);
    expect(isValidSshPublicKey(ED25519.toString('base64'))).toBe(false);
  });

  it('refuses absurdly long lines', () => {
    expect(isValidSshPublicKey(`${line('ssh-ed25519', ED25519)} ${'x'.repeat(16_384)}`)).toBe(false);
  });

  it('refuses a private key or certificate pasted in place of a public key', () => {
    const { privateKey } = generateKeyPairSync('ed25519');
    const pem = privateKey.export({ format: 'pem', type: 'pkcs8' }).toString();
    expect(isValidSshPublicKey(pem)).toBe(false);
    expect(isValidSshPublicKey(pem.split('\n').join(' '))).toBe(false);
  });
});

function ecdsaBlob(curve: 'P-384' | 'P-521', name: 'nistp384' | 'nistp521'): Buffer {
  const { publicKey } = generateKeyPairSync('ec', { namedCurve: curve });
  const jwk = publicKey.export({ format: 'jwk' });
  const point = Buffer.concat([Buffer.from([4]), jwkField(jwk.x), jwkField(jwk.y)]);
  return Buffer.concat([sshString(`ecdsa-sha2-${name}`), sshString(name), sshString(point)]);
}

describe('parseSshPublicKey: what reaches cloud-init', () => {
  it('accepts every supported type: ed25519, RSA, ECDSA P-256/384/521 and the security-key variants', () => {
    const raw = jwkField(generateKeyPairSync('ed25519').publicKey.export({ format: 'jwk' }).x);
    const skEd25519 = Buffer.concat([sshString('sk-ssh-ed25519@openssh.com'), sshString(raw), sshString('ssh:')]);
    const p256 = ECDSA.subarray(4 + 'ecdsa-sha2-nistp256'.length);
    const skEcdsa = Buffer.concat([sshString('sk-ecdsa-sha2-nistp256@openssh.com'), p256, sshString('ssh:')]);
    for (const [type, blob] of [
      ['ecdsa-sha2-nistp384', ecdsaBlob('P-384', 'nistp384')],
      ['ecdsa-sha2-nistp521', ecdsaBlob('P-521', 'nistp521')],
      ['sk-ssh-ed25519@openssh.com', skEd25519],
      ['sk-ecdsa-sha2-nistp256@openssh.com', skEcdsa],
    ] as const) {
      expect(parseSshPublicKey(line(type, blob, 'yubikey')), type).toMatchObject({ type, comment: 'yubikey' });
    }
  });

  it('gives the canonical line: single spaces, the comment kept', () => {
    const blob = ED25519.toString('base64');
    expect(parseSshPublicKey(`\tssh-ed25519  ${blob}   Alice   Example  `)?.canonical).toBe(`ssh-ed25519 ${blob} Alice Example`);
    expect(parseSshPublicKey(`ssh-ed25519 ${blob}`)?.canonical).toBe(`ssh-ed25519 ${blob}`);
  });

  it('accepts comments as ssh-keygen and PuTTY write them', () => {
    for (const comment of ['alice@laptop', 'rsa-key-20240101', 'deploy+ci@build-01.example.com', 'key (2024/01/01), backup=yes:1']) {
      expect(isValidSshPublicKey(line('ssh-ed25519', ED25519, comment)), comment).toBe(true);
    }
  });

  it('refuses a comment with control characters, quotes, backslashes, shell or YAML syntax, or non-ASCII', () => {
    for (const comment of ['alice\u0000', 'alice\u001b[31m', 'a\u0085b', "it's", 'say "hi"', 'a\\b', 'x#y', 'a;b', 'a|b', '$(id)', '`id`', 'a{b}', 'a&b', 'a*b', 'é', '😀', 'x'.repeat(257)]) {
      expect(isValidSshPublicKey(line('ssh-ed25519', ED25519, comment)), JSON.stringify(comment)).toBe(false);
    }
  });

  it('refuses an authorized_keys options prefix', () => {
    expect(isValidSshPublicKey(`command="/bin/sh" ${line('ssh-ed25519', ED25519)}`)).toBe(false);
    expect(isValidSshPublicKey(`no-pty ${line('ssh-ed25519', ED25519)}`)).toBe(false);
  });

  it('refuses a blob with the right type name but the wrong fields: too short, trailing bytes, another curve', () => {
    expect(isValidSshPublicKey(line('ssh-ed25519', Buffer.concat([sshString('ssh-ed25519'), sshString(Buffer.alloc(31, 1))])))).toBe(false);
    expect(isValidSshPublicKey(line('ssh-ed25519', Buffer.concat([ED25519, Buffer.from([0])])))).toBe(false);
    expect(isValidSshPublicKey(line('ssh-ed25519', Buffer.concat([ED25519, sshString('more')])))).toBe(false);
    const wrongCurve = Buffer.concat([sshString('ecdsa-sha2-nistp256'), sshString('nistp384'), ECDSA.subarray(ECDSA.length - 69)]);
    expect(isValidSshPublicKey(line('ecdsa-sha2-nistp256', wrongCurve))).toBe(false);
    expect(isValidSshPublicKey(line('ssh-rsa', Buffer.concat([sshString('ssh-rsa'), sshString(Buffer.alloc(0)), sshString(Buffer.alloc(256, 1))])))).toBe(false);
  });

  it('refuses base64 without its padding', () => {
    const blob = ECDSA.toString('base64').replace(/=+$/, '');
    expect(blob.length % 4).not.toBe(0);
    expect(isValidSshPublicKey(`ecdsa-sha2-nistp256 ${blob}`)).toBe(false);
  });
});

describe('isSafeText and isSafeLine: what may be stored', () => {
  it('accepts ordinary text in any script, emoji, and (in text) tabs and line breaks', () => {
    for (const text of ['', 'web-1', 'Zürich', '東京', 'emoji 😀', 'a\tb', 'line\nline', 'crlf\r\n']) expect(isSafeText(text), JSON.stringify(text)).toBe(true);
    expect(isSafeLine('a\tb')).toBe(false);
    expect(isSafeLine('line\n')).toBe(false);
    expect(isSafeLine('Zürich 😀')).toBe(true);
  });

  it('refuses NUL, other C0 controls, DEL, C1 controls and lone surrogates', () => {
    for (const text of ['a\u0000', '\u0001', '\u0008', '\u000b', '\u000c', '\u001b', '\u007f', '\u0085', '\u009f', '\ud800', 'x\udfff', '\udc00\ud800']) {
      expect(isSafeText(text), JSON.stringify(text)).toBe(false);
    }
  });
});
