import { Router } from 'express';
import { requestConsole } from '../../services/consoles';
import type { ApiDeps } from '../deps';
import { principal } from '../auth';
import { parseBody, pathParam, send } from '../http';
import { registerRoute } from '../openapi';
import { consoleOfferView, consoleRequestBody } from '../schemas/console';

registerRoute({
  method: 'post',
  path: '/v1/instances/:id/console',
  summary: "Open a server's screen or serial console",
  description:
    'Answers a one-time ticket (single use, valid 30 s at most, bound to the server, the caller and the type) as a page URL and a WebSocket URL of this API; nothing of Proxmox VE reaches the client. Refused when the server is not running (409 INSTANCE_NOT_RUNNING), busy with an operation that replaces or moves its guest (409 INSTANCE_BUSY), has no screen (422 CONSOLE_TYPE_UNAVAILABLE: use `serial`), its cluster cannot give API tokens a serial console (422 CONSOLE_UNSUPPORTED), or the caller holds CONSOLE_SESSIONS_PER_USER consoles already (429 CONSOLE_LIMIT).',
  tags: ['console'],
  request: { body: consoleRequestBody },
  response: consoleOfferView,
  status: 201,
  errors: ['NOT_FOUND', 'INSTANCE_NOT_RUNNING', 'INSTANCE_BUSY', 'CONSOLE_TYPE_UNAVAILABLE', 'CONSOLE_UNSUPPORTED', 'CONSOLE_LIMIT', 'PROVIDER_UNAVAILABLE', 'RATE_LIMITED'],
});

export function guestConsoleRouter(deps: ApiDeps): Router {
  const router = Router();
  router.post('/instances/:id/console', async (req, res) => {
    const { type } = parseBody(consoleRequestBody, req);
    const offer = await requestConsole(deps, principal(req), pathParam(req, 'id'), type);
    send(res, { url: offer.url, websocketUrl: offer.websocketUrl, expiresAt: offer.expiresAt.toISOString() }, undefined, 201);
  });
  return router;
}
