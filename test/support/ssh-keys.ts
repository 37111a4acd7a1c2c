import { generateKeyPairSync } from 'node:crypto';
import sshpk from 'sshpk';

type KeyKind = { type: 'ed25519' } | { type: 'rsa'; bits: number } | { type: 'ec'; curve: 'P-256' | 'P-384' | 'P-521' } | { type: 'dsa' };

/** A fresh public key as an OpenSSH `.pub` line (`<type> <base64> <comment>`), made with node:crypto and converted by sshpk. */
export function sshPublicKeyLine(kind: KeyKind, comment = 'me@laptop'): string {
  const pair =
    kind.type === 'ed25519'
      ? generateKeyPairSync('ed25519')
      : kind.type === 'rsa'
        ? generateKeyPairSync('rsa', { modulusLength: kind.bits })
        : kind.type === 'ec'
          ? generateKeyPairSync('ec', { namedCurve: kind.curve })
          : generateKeyPairSync('dsa', { modulusLength: 1024, divisorLength: 160 });
  const key = sshpk.parseKey(pair.publicKey.export({ type: 'spki', format: 'pem' }), 'pem');
  key.comment = comment;
  return key.toString('ssh');
}

/** A fresh private key in OpenSSH's own format, as `ssh-keygen` writes it. */
export function sshPrivateKeyText(): string {
  const pair = generateKeyPairSync('ed25519');
  return sshpk.parsePrivateKey(pair.privateKey.export({ type: 'pkcs8', format: 'pem' }), 'pem').toString('ssh-private');
}
