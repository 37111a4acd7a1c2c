import { generateKeyPairSync } from 'node:crypto';

/** A fresh ed25519 public key line as ssh-keygen writes it, with `comment` appended as given (nothing when empty). */
export function ed25519PublicKey(comment = ''): string {
  const { publicKey } = generateKeyPairSync('ed25519');
  const raw = Buffer.from(publicKey.export({ format: 'jwk' }).x as string, 'base64url');
  const field = (bytes: Buffer) => {
    const length = Buffer.alloc(4);
    length.writeUInt32BE(bytes.length);
    return Buffer.concat([length, bytes]);
  };
  const blob = Buffer.concat([field(Buffer.from('ssh-ed25519')), field(raw)]).toString('base64');
  return comment ? `ssh-ed25519 ${blob} ${comment}` : `ssh-ed25519 ${blob}`;
}
