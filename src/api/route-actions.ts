/**
 * The route table: what every route of the API asks to do, and where the server it acts on comes
 * from. A route that is not here is refused (see `principal` in auth.ts) and fails the
 * authorization matrix test (test/api/authorization-matrix.test.ts): add each new route here.
 */
import type { TargetSource } from '../services/access';
import type { Action } from '../services/authorization';

export interface RouteRule {
  action: Action;
  /** Set for routes on one server (or one project): the action is decided on it. */
  target?: TargetSource;
}

const publicRoute: RouteRule = { action: 'public' };
const operator: RouteRule = { action: 'operator' };
const account: RouteRule = { action: 'account' };
const accountRead: RouteRule = { action: 'account.read' };
const onServer = (action: Action): RouteRule => ({ action, target: 'instance' });
const onProject = (action: Action): RouteRule => ({ action, target: 'project' });

/** `METHOD /path` (OpenAPI style) → rule. */
export const ROUTE_ACTIONS: Readonly<Record<string, RouteRule>> = {
  'GET /healthz': publicRoute,
  'GET /readyz': publicRoute,
  'GET /metrics': publicRoute,
  'GET /openapi.json': publicRoute,
  'POST /v1/sessions': publicRoute,
  'POST /v1/invites/accept': publicRoute,
  'POST /v1/invitations/accept': publicRoute,

  'GET /v1/sessions': accountRead,
  'GET /v1/sessions/current': accountRead,
  'DELETE /v1/sessions/current': account,
  'DELETE /v1/sessions/{id}': account,
  'GET /v1/account': accountRead,
  'POST /v1/account/password': account,
  'POST /v1/account/tokens': account,
  'GET /v1/account/tokens': accountRead,
  'POST /v1/account/tokens/{id}/revoke': account,
  'POST /v1/ssh-keys': account,
  'GET /v1/ssh-keys': accountRead,
  'DELETE /v1/ssh-keys/{id}': account,

  'GET /v1/plans': { action: 'catalog.read' },
  'GET /v1/locations': { action: 'catalog.read' },
  'GET /v1/images': { action: 'catalog.read' },

  'GET /v1/users': { action: 'tenant.users.read' },
  'POST /v1/users': { action: 'tenant.users' },
  'PATCH /v1/users/{id}': { action: 'tenant.users' },
  'POST /v1/invitations': { action: 'tenant.users' },
  'GET /v1/invitations': { action: 'tenant.invitations.read' },
  'DELETE /v1/invitations/{id}': { action: 'tenant.users' },
  'GET /v1/audit': { action: 'tenant.audit' },

  'POST /v1/instances': { action: 'server.create' },
  'GET /v1/instances': { action: 'servers.list' },
  'GET /v1/events': { action: 'events.read' },
  'GET /v1/instances/{id}': onServer('server.read'),
  'GET /v1/instances/{id}/events': onServer('server.read'),
  'GET /v1/instances/{id}/metrics': onServer('server.read'),
  'POST /v1/instances/{id}/credentials/reveal': onServer('server.credentials'),
  'POST /v1/instances/{id}/start': onServer('server.power'),
  'POST /v1/instances/{id}/stop': onServer('server.power'),
  'POST /v1/instances/{id}/shutdown': onServer('server.power'),
  'POST /v1/instances/{id}/reboot': onServer('server.power'),
  'POST /v1/instances/{id}/resize': onServer('server.resize'),
  'POST /v1/instances/{id}/rebuild': onServer('server.rebuild'),
  'DELETE /v1/instances/{id}': onServer('server.delete'),
  'POST /v1/instances/{id}/console': onServer('server.console'),
  'POST /v1/instances/{id}/snapshots': onServer('server.snapshots'),
  'GET /v1/instances/{id}/snapshots': onServer('server.read'),
  'GET /v1/instances/{id}/snapshots/{name}': onServer('server.read'),
  'DELETE /v1/instances/{id}/snapshots/{name}': onServer('server.snapshots'),
  'POST /v1/instances/{id}/snapshots/{name}/rollback': onServer('server.snapshots'),
  'POST /v1/instances/{id}/backups': onServer('server.backups'),
  'GET /v1/instances/{id}/backups': onServer('server.read'),
  'PUT /v1/instances/{id}/backup-schedule': onServer('server.backups'),
  'GET /v1/instances/{id}/backup-schedule': onServer('server.read'),
  'DELETE /v1/instances/{id}/backup-schedule': onServer('server.backups'),
  'GET /v1/backups/{id}': { action: 'server.read', target: 'backup' },
  'DELETE /v1/backups/{id}': { action: 'server.backups', target: 'backup' },
  'POST /v1/backups/{id}/restore': { action: 'server.backups', target: 'backup' },
  'GET /v1/tasks/{id}': { action: 'server.read', target: 'task' },
  'POST /v1/instances/{id}/grants': onServer('server.share'),
  'GET /v1/instances/{id}/grants': onServer('server.share'),
  'DELETE /v1/instances/{id}/grants/{userId}': onServer('server.share'),
  'GET /v1/instances/{id}/firewall': onServer('server.read'),
  'PUT /v1/instances/{id}/firewall': onServer('server.firewall'),
  'GET /v1/instances/{id}/traffic': onServer('server.read'),
  'POST /v1/instances/{id}/iso': onServer('server.rescue'),
  'DELETE /v1/instances/{id}/iso': onServer('server.rescue'),
  'POST /v1/instances/{id}/boot-order': onServer('server.rescue'),
  'POST /v1/instances/{id}/rescue': onServer('server.rescue'),
  'DELETE /v1/instances/{id}/rescue': onServer('server.rescue'),
  'POST /v1/instances/{id}/rescue/reveal': onServer('server.rescue'),
  'GET /v1/isos': { action: 'catalog.read' },
  'GET /v1/usage': { action: 'tenant.usage' },

  'POST /v1/projects': { action: 'project.create' },
  'GET /v1/projects': { action: 'projects.list' },
  'GET /v1/projects/{id}': onProject('project.read'),
  'PATCH /v1/projects/{id}': onProject('project.manage'),
  'DELETE /v1/projects/{id}': onProject('project.manage'),
  'PUT /v1/projects/{id}/members/{userId}': onProject('project.manage'),
  'DELETE /v1/projects/{id}/members/{userId}': onProject('project.manage'),

  'POST /v1/firewall-groups': { action: 'tenant.firewall' },
  'GET /v1/firewall-groups': { action: 'tenant.firewall.read' },
  'GET /v1/firewall-groups/{id}': { action: 'tenant.firewall.read' },
  'PATCH /v1/firewall-groups/{id}': { action: 'tenant.firewall' },
  'DELETE /v1/firewall-groups/{id}': { action: 'tenant.firewall' },

  'POST /v1/webhooks': { action: 'tenant.webhooks' },
  'GET /v1/webhooks': { action: 'tenant.webhooks.read' },
  'GET /v1/webhooks/{id}': { action: 'tenant.webhooks.read' },
  'PATCH /v1/webhooks/{id}': { action: 'tenant.webhooks' },
  'DELETE /v1/webhooks/{id}': { action: 'tenant.webhooks' },
  'GET /v1/webhooks/{id}/deliveries': { action: 'tenant.webhooks.read' },
  'POST /v1/webhooks/{id}/deliveries/{deliveryId}/redeliver': { action: 'tenant.webhooks' },
};

/** Every route under /v1/admin is the operator's; they need no line of their own. */
const ADMIN_PREFIX = '/v1/admin/';

interface CompiledRule extends RouteRule {
  method: string;
  pattern: RegExp;
  /** Literal segments count first, so `/v1/webhooks/deliveries` would win over `/v1/webhooks/{id}`. */
  literals: number;
}

const COMPILED: CompiledRule[] = Object.entries(ROUTE_ACTIONS).map(([key, rule]) => {
  const [method = '', path = ''] = key.split(' ');
  const segments = path.split('/').slice(1);
  const pattern = new RegExp(`^/${segments.map((segment) => (segment.startsWith('{') ? '[^/]+' : segment.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))).join('/')}/?$`);
  return { ...rule, method, pattern, literals: segments.filter((segment) => !segment.startsWith('{')).length };
});

/** The rule of a request (HEAD asks as GET), or undefined for a path the table does not know. */
export function ruleOf(method: string, path: string): RouteRule | undefined {
  if (path.startsWith(ADMIN_PREFIX)) return operator;
  const asked = method === 'HEAD' ? 'GET' : method;
  let best: CompiledRule | undefined;
  for (const rule of COMPILED) {
    if (rule.method === asked && rule.pattern.test(path) && (!best || rule.literals > best.literals)) best = rule;
  }
  return best;
}
