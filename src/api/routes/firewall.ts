import { Router, type Request, type Response } from 'express';
import type { z } from 'zod';
import { isGroupEntry } from '../../domain/firewall-rules';
import { firewallETag, readFirewall, requestFirewallUpdate, type FirewallState } from '../../services/firewall';
import type { ApiDeps } from '../deps';
import { principal } from '../auth';
import { parse, parseBody, pathParam, send } from '../http';
import { registerRoute } from '../openapi';
import { firewallBody, firewallHeaders, firewallView } from '../schemas/firewall';
import { operationMeta } from '../schemas/lifecycle';

const tags = ['firewall'];
const path = '/v1/instances/:id/firewall';

registerRoute({
  method: 'get',
  path,
  summary: "A server's inbound firewall rules",
  description: 'Answers with an `ETag` header: send it back as `If-Match` with a change. A server whose firewall was never set lets every inbound connection in (revision `0`).',
  tags,
  response: firewallView,
  errors: ['NOT_FOUND'],
});
registerRoute({
  method: 'put',
  path,
  summary: "Replace a server's inbound firewall rules",
  description:
    "The list is replaced as a whole and applied to the server as its `firewall` operation (status `updating_firewall`, its own task, step thread and events; `instance.firewall_updated` when done). Checked before anything is written: sources are IP addresses or CIDRs, ports `443` or `8000-8100` (tcp and udp only), at most 64 rules with the groups' rules counted in (422 FIREWALL_RULE_LIMIT), every group the tenant's. With `If-Match`, a firewall changed since that `ETag` answers 412 PRECONDITION_FAILED. Outbound traffic stays open; the server's address anti-spoofing is not part of these rules.",
  tags,
  request: { body: firewallBody, headers: firewallHeaders },
  response: firewallView,
  meta: operationMeta,
  status: 202,
  errors: ['NOT_FOUND', 'INVALID_STATE', 'OPERATION_IN_PROGRESS', 'BACKUP_IN_PROGRESS', 'PROVIDER_UNAVAILABLE', 'RATE_LIMITED', 'PRECONDITION_FAILED', 'FIREWALL_RULE_LIMIT'],
});

export function toFirewallView(state: FirewallState): z.infer<typeof firewallView> {
  return {
    inboundPolicy: state.spec.inboundPolicy,
    outboundPolicy: 'accept',
    rules: state.spec.rules.map((entry) => (isGroupEntry(entry) ? { group: entry.group, name: state.groupNames.get(entry.group) ?? '' } : entry)),
    revision: String(state.revision),
    application: state.application,
  };
}

function sendFirewall(res: Response, state: FirewallState, meta: Record<string, unknown> = {}, status = 200): void {
  res.setHeader('ETag', firewallETag(state.revision));
  send(res, toFirewallView(state), meta, status);
}

const ifMatchOf = (req: Request) => parse(firewallHeaders, { 'If-Match': req.get('If-Match') }, 'If-Match header')['If-Match'];

/** A server's firewall: customers on their own servers, admins on any. */
export function firewallRouter(deps: ApiDeps): Router {
  const router = Router();
  router.get('/instances/:id/firewall', async (req, res) => {
    sendFirewall(res, await readFirewall(deps, principal(req), pathParam(req, 'id')));
  });
  router.put('/instances/:id/firewall', async (req, res) => {
    const body = parseBody(firewallBody, req);
    const result = await requestFirewallUpdate(deps, principal(req), pathParam(req, 'id'), body, ifMatchOf(req));
    sendFirewall(res, result.state, { taskId: result.taskId }, 202);
  });
  return router;
}
