import { z } from 'zod';
import { listQuerySchema, registerRoute } from '../openapi';

export const createSshKeySchema = z
  .strictObject({
    name: z.string().trim().min(1).max(64).openapi({ description: 'What you call the key, e.g. `laptop`.' }),
    publicKey: z
      .string()
      .min(1)
      .max(16_384)
      .openapi({ description: 'One OpenSSH public key line, as in `~/.ssh/id_ed25519.pub`: ed25519, ecdsa-sha2-nistp256/384/521, or ssh-rsa of 2048 bits or more.' }),
  })
  .openapi('CreateSshKey');

export const sshKeySchema = z
  .object({
    id: z.string(),
    name: z.string(),
    publicKey: z.string(),
    fingerprint: z.string().openapi({ description: 'SHA256 fingerprint as `ssh-keygen -l` prints it.', example: 'SHA256:15ymGKPKoD5bsOWJGgzRcVw5oaMmpX7P5WZUjoOBKHo' }),
    type: z.enum(['ed25519', 'ecdsa', 'rsa']),
    bits: z.number().int(),
    createdAt: z.iso.datetime(),
  })
  .openapi('SshKey');

const sshKeys = { tags: ['account'] } as const;
registerRoute({
  ...sshKeys,
  method: 'post',
  path: '/v1/ssh-keys',
  summary: 'Save an SSH public key on your account',
  description:
    'The key is parsed and fingerprinted (SHA256). Not one public key line (garbage, a private key, several keys) is 400 SSH_KEY_INVALID; ' +
    'DSA, RSA under 2048 bits and security-key types are 422 SSH_KEY_TYPE_NOT_ALLOWED; a key your account holds already is 409 SSH_KEY_EXISTS. ' +
    'Name it by id in `sshKeyIds` when you create or rebuild a server.',
  request: { body: createSshKeySchema },
  response: sshKeySchema,
  status: 201,
  errors: ['SSH_KEY_INVALID', 'SSH_KEY_TYPE_NOT_ALLOWED', 'SSH_KEY_EXISTS', 'QUOTA_EXCEEDED', 'CSRF_TOKEN_INVALID'],
});
registerRoute({ ...sshKeys, method: 'get', path: '/v1/ssh-keys', summary: 'Your SSH public keys, newest first', request: { query: listQuerySchema }, response: sshKeySchema, list: true });
registerRoute({
  ...sshKeys,
  method: 'delete',
  path: '/v1/ssh-keys/:id',
  summary: 'Delete one of your SSH keys (servers built with it keep it)',
  status: 204,
  errors: ['NOT_FOUND', 'CSRF_TOKEN_INVALID'],
});
