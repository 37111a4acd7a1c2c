import { Router } from 'express';
import type { SshKey } from '../../generated/prisma/client';
import { addSshKey, deleteSshKey, listSshKeys } from '../../services/ssh-keys';
import type { ApiDeps } from '../deps';
import { principal } from '../auth';
import { listHandler, parseBody, pathParam, send } from '../http';
import { createSshKeySchema } from '../schemas/ssh-keys';

const sshKeyView = (row: SshKey) => ({
  id: row.id,
  name: row.name,
  publicKey: row.publicKey,
  fingerprint: row.fingerprint,
  type: row.type,
  bits: row.bits,
  createdAt: row.createdAt.toISOString(),
});

/** The SSH public keys of the signed-in user's own account. */
export function sshKeysRouter(deps: ApiDeps): Router {
  const router = Router();

  router.post('/ssh-keys', async (req, res) => {
    send(res, sshKeyView(await addSshKey(deps, principal(req), parseBody(createSshKeySchema, req))), {}, 201);
  });

  router.get('/ssh-keys', async (req, res) => {
    const who = principal(req);
    await listHandler((page) => listSshKeys(deps, who, page), sshKeyView)(req, res);
  });

  router.delete('/ssh-keys/:id', async (req, res) => {
    await deleteSshKey(deps, principal(req), pathParam(req, 'id'));
    res.status(204).end();
  });

  return router;
}
