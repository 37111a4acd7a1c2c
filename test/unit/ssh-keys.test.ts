import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { AppError } from '../../src/domain/errors';
import { parseAccountSshKey } from '../../src/security/ssh-keys';
import { sshPrivateKeyText, sshPublicKeyLine } from '../support/ssh-keys';

const refusal = (text: string): { code: string; status: number; message: string } => {
  try {
    parseAccountSshKey(text);
  } catch (error) {
    if (error instanceof AppError) return { code: error.code, status: error.status, message: error.message };
    throw error;
  }
  throw new Error('accepted');
};

const hasSshKeygen = (() => {
  try {
    execFileSync('ssh-keygen', ['-?'], { stdio: 'ignore' });
    return true;
  } catch (error) {
    return (error as { status?: number }).status !== undefined && (error as { code?: string }).code !== 'ENOENT';
  }
})();

describe('an SSH key saved on an account', () => {
  it.each([
    ['ed25519', { type: 'ed25519' as const }, 'ed25519', 256],
    ['ECDSA P-256', { type: 'ec' as const, curve: 'P-256' as const }, 'ecdsa', 256],
    ['ECDSA P-384', { type: 'ec' as const, curve: 'P-384' as const }, 'ecdsa', 384],
    ['ECDSA P-521', { type: 'ec' as const, curve: 'P-521' as const }, 'ecdsa', 521],
    ['RSA 2048', { type: 'rsa' as const, bits: 2048 }, 'rsa', 2048],
    ['RSA 4096', { type: 'rsa' as const, bits: 4096 }, 'rsa', 4096],
  ])('accepts %s, with its type, size and SHA256 fingerprint', (_name, kind, type, bits) => {
    const line = sshPublicKeyLine(kind);
    const key = parseAccountSshKey(`  ${line}\n`);
    expect(key).toMatchObject({ publicKey: line, type, bits });
    expect(key.fingerprint).toMatch(/^SHA256:[A-Za-z0-9+/]{43}$/);
  });

  it.runIf(hasSshKeygen)('fingerprints a key as ssh-keygen -l prints it', () => {
    const line = sshPublicKeyLine({ type: 'ed25519' });
    const printed = execFileSync('ssh-keygen', ['-l', '-E', 'sha256', '-f', '-'], { input: line }).toString();
    expect(printed.split(' ')[1]).toBe(parseAccountSshKey(line).fingerprint);
  });

  it('gives one key the same fingerprint whatever its comment', () => {
    const line = sshPublicKeyLine({ type: 'ed25519' });
    expect(parseAccountSshKey(line.replace('me@laptop', 'work')).fingerprint).toBe(parseAccountSshKey(line).fingerprint);
  });

  it('refuses DSA and RSA under 2048 bits as not allowed (422), naming type and size', () => {
    expect(refusal(sshPublicKeyLine({ type: 'dsa' }))).toMatchObject({ code: 'SSH_KEY_TYPE_NOT_ALLOWED', status: 422 });
    expect(refusal(sshPublicKeyLine({ type: 'rsa', bits: 1024 }))).toMatchObject({ code: 'SSH_KEY_TYPE_NOT_ALLOWED', status: 422, message: expect.stringContaining('1024 bits') });
  });

  it('refuses security-key types as not allowed', () => {
    expect(refusal('sk-ssh-ed25519@openssh.com AAAAGnNrLXNzaC1lZDI1NTE5QG9wZW5zc2guY29tAAAAIEX/dQ0v4127bEo8eeG1EV0ApO2lWbSnN6RhusfY0Dd2AAAABHNzaDo=')).toMatchObject({ code: 'SSH_KEY_TYPE_NOT_ALLOWED' });
  });

  it('refuses what is not one public key (400), never repeating it', () => {
    const privateKey = sshPrivateKeyText();
    const two = `${sshPublicKeyLine({ type: 'ed25519' })}\n${sshPublicKeyLine({ type: 'ed25519' })}`;
    const cut = sshPublicKeyLine({ type: 'ed25519' }).slice(0, 40);
    for (const text of ['garbage', '', privateKey, two, cut, 'ssh-ed25519 !!!!', `${sshPublicKeyLine({ type: 'ed25519' }, 'x')} $(reboot)`]) {
      const answer = refusal(text);
      expect(answer, text).toMatchObject({ code: 'SSH_KEY_INVALID', status: 400 });
      if (text.length > 20) expect(answer.message).not.toContain(text.slice(12, 40));
    }
    expect(refusal(privateKey).message).toContain('private key');
  });
});
