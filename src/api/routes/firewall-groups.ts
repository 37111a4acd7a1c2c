import { Router } from 'express';
import type { z } from 'zod';
import type { FirewallRule } from '../../domain/firewall-rules';
import type { FirewallGroup } from '../../generated/prisma/client';
import { createGroup, deleteGroup, findGroup, listGroups, updateGroup, type GroupWithServers } from '../../services/firewall-groups';
import type { ApiDeps } from '../deps';
import { principal } from '../auth';
import { listHandler, parseBody, pathParam, send } from '../http';
import { listQuerySchema, registerRoute } from '../openapi';
import { firewallGroupBody, firewallGroupPatch, firewallGroupSummaryView, firewallGroupView } from '../schemas/firewall';

const tags = ['firewall'];
const item = '/v1/firewall-groups/:id';

registerRoute({
  method: 'post',
  path: '/v1/firewall-groups',
  summary: 'Create a firewall group: named inbound rules that servers list among their own',
  description: "A server's rules name a group as `{\"group\": \"<id>\"}`; its rules then stand in that place. At most 64 rules.",
  tags,
  request: { body: firewallGroupBody },
  response: firewallGroupView,
  status: 201,
  errors: ['CONFLICT'],
});
registerRoute({ method: 'get', path: '/v1/firewall-groups', summary: "The tenant's firewall groups, newest first", tags, request: { query: listQuerySchema }, response: firewallGroupSummaryView, list: true });
registerRoute({ method: 'get', path: item, summary: 'A firewall group, with the servers that name it and how applying it to each went', tags, response: firewallGroupView, errors: ['NOT_FOUND'] });
registerRoute({
  method: 'patch',
  path: item,
  summary: 'Change a firewall group; new rules are applied again to every server that names it',
  description:
    "New rules are applied to each server that names the group as that server's `firewall` operation, a few servers at a time; `servers[].application` shows how each went (`pending` until its apply ends). A server busy with another operation is applied once it is free. Refused with 422 FIREWALL_RULE_LIMIT when a server would pass 64 rules.",
  tags,
  request: { body: firewallGroupPatch },
  response: firewallGroupView,
  errors: ['NOT_FOUND', 'CONFLICT', 'FIREWALL_RULE_LIMIT'],
});
registerRoute({ method: 'delete', path: item, summary: 'Delete a firewall group no server names', tags, status: 204, errors: ['NOT_FOUND', 'FIREWALL_GROUP_IN_USE'] });

function toSummaryView(group: FirewallGroup): z.infer<typeof firewallGroupSummaryView> {
  return {
    id: group.id,
    tenantId: group.tenantId,
    name: group.name,
    description: group.description,
    rules: group.rules as unknown as FirewallRule[],
    createdAt: group.createdAt.toISOString(),
    updatedAt: group.updatedAt.toISOString(),
  };
}

const toGroupView = ({ group, servers }: GroupWithServers): z.infer<typeof firewallGroupView> => ({ ...toSummaryView(group), servers });

/** A tenant's firewall groups: customers their own tenant's, admins any. */
export function firewallGroupsRouter(deps: ApiDeps): Router {
  const router = Router();
  router.post('/firewall-groups', async (req, res) => {
    send(res, toGroupView(await createGroup(deps, principal(req), parseBody(firewallGroupBody, req))), {}, 201);
  });
  router.get('/firewall-groups', (req, res) => listHandler((page) => listGroups(deps, principal(req), page), toSummaryView)(req, res));
  router.get('/firewall-groups/:id', async (req, res) => {
    send(res, toGroupView(await findGroup(deps, principal(req), pathParam(req, 'id'))));
  });
  router.patch('/firewall-groups/:id', async (req, res) => {
    send(res, toGroupView(await updateGroup(deps, principal(req), pathParam(req, 'id'), parseBody(firewallGroupPatch, req))));
  });
  router.delete('/firewall-groups/:id', async (req, res) => {
    await deleteGroup(deps, principal(req), pathParam(req, 'id'));
    res.status(204).end();
  });
  return router;
}
