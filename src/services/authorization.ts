/**
 * Who may do what, decided in one place. Every route names its action in the route table
 * (src/api/route-actions.ts) and is decided here before it runs; the console relay, the event
 * streams and the server lists ask the same function.
 */
import type { Prisma } from '../generated/prisma/client';
import type { ProjectRole, Role, TenantRole } from '../generated/prisma/enums';

/** What sharing a server may allow, each named after what it lets the user do; every grant includes `read`. */
export const SERVER_PERMISSIONS = ['read', 'power', 'console', 'credentials', 'snapshots', 'backups', 'rebuild', 'resize', 'firewall', 'rescue', 'delete'] as const;
export type ServerPermission = (typeof SERVER_PERMISSIONS)[number];

export const TENANT_ROLES = ['owner', 'member', 'viewer'] as const satisfies readonly TenantRole[];
export const PROJECT_ROLES = ['owner', 'member', 'viewer'] as const satisfies readonly ProjectRole[];

/** What a request asks to do. */
export type Action =
  /** Needs no sign-in. */
  | 'public'
  /** The platform's administration (`/v1/admin`). */
  | 'operator'
  /** The caller's own account: password, tokens, sessions. */
  | 'account'
  | 'account.read'
  | 'catalog.read'
  /** The feed of what happened to the servers the caller may read. */
  | 'events.read'
  | 'servers.list'
  /** Creating a server: decided again on the project it goes into. */
  | 'server.create'
  /** The projects the caller may see, and one of them. */
  | 'projects.list'
  | 'project.read'
  /** Create a project (tenant owners). */
  | 'project.create'
  /** Change or delete a project, and its members (decided on that project). */
  | 'project.manage'
  | `server.${ServerPermission}`
  /** List, give and revoke a server's grants. */
  | 'server.share'
  | 'tenant.users.read'
  | 'tenant.users'
  /** The tenant's invitations, which only its owners make. */
  | 'tenant.invitations.read'
  | 'tenant.webhooks'
  | 'tenant.webhooks.read'
  /** The tenant's audit trail. */
  | 'tenant.audit'
  /** The tenant's usage records (what billing imports). */
  | 'tenant.usage'
  /** The tenant's firewall groups. */
  | 'tenant.firewall.read'
  | 'tenant.firewall';

/** Who asks: what authentication found out about the caller. */
export interface Actor {
  userId: string;
  role: Role;
  tenantId: string | null;
  tenantRole: TenantRole | null;
  /** Set for a token issued with scopes: what it may do besides reading. */
  tokenScopes?: readonly string[];
  /** Set for a token limited to one project: it acts on that project's servers only. */
  tokenProjectId?: string;
}

/** A project as the decision sees it: its tenant, whether it is the default one, and the caller's role in it (null: none given). */
export interface ProjectTarget {
  kind: 'project';
  tenantId: string;
  projectId: string;
  isDefault: boolean;
  role: ProjectRole | null;
}

/**
 * The caller's own tenant, one of its projects, or one server: its tenant and project, its
 * creator, what the caller was granted on it and the caller's role in its project.
 */
export type Target =
  | { kind: 'tenant' }
  | ProjectTarget
  | { kind: 'server'; tenantId: string; projectId: string; userId: string; grant: readonly string[] | null; projectRole: ProjectRole | null };

export const TENANT: Target = { kind: 'tenant' };

/** `hidden`: the caller may not even know the target exists, and is answered 404 NOT_FOUND. */
export type Decision = { allowed: true } | { allowed: false; reason: string; hidden?: boolean };

const ALLOW: Decision = { allowed: true };
const deny = (reason: string): Decision => ({ allowed: false, reason });
const HIDDEN: Decision = { allowed: false, reason: 'No such server.', hidden: true };
const HIDDEN_PROJECT: Decision = { allowed: false, reason: 'No such project.', hidden: true };

const READS_ONLY = 'Viewers read only; a tenant owner can make you a member.';

/** What only reads: every token may, whatever its scopes. */
const READS = new Set<Action>(['public', 'account.read', 'catalog.read', 'server.read', 'servers.list', 'events.read', 'projects.list', 'project.read', 'tenant.users.read', 'tenant.invitations.read', 'tenant.webhooks.read', 'tenant.audit', 'tenant.usage', 'tenant.firewall.read']);

/** What a token may be issued for besides reading: `read` alone keeps it to reads. Its own account (password, tokens) stays with unscoped tokens and sessions. */
export const TOKEN_SCOPES = [
  'read',
  'server.create',
  ...SERVER_PERMISSIONS.filter((p) => p !== 'read').map((p) => `server.${p}` as const),
  'server.share',
  'tenant.users',
  'tenant.webhooks',
  'tenant.firewall',
  'project.create',
  'project.manage',
] as const satisfies readonly (Action | 'read')[];
export type TokenScope = (typeof TOKEN_SCOPES)[number];

function operatorDecision(action: Action): Decision {
  switch (action) {
    case 'server.create':
    case 'server.credentials':
      return deny('This route is for customers: administrators belong to no tenant.');
    case 'tenant.users':
    case 'tenant.users.read':
    case 'tenant.invitations.read':
      return deny('This route is for customers: administrators manage users under /v1/admin/users.');
    case 'tenant.usage':
      return deny('This route is for customers: administrators read usage records under /v1/admin/usage.');
    case 'tenant.firewall':
    case 'tenant.firewall.read':
      return deny("This route is for customers: firewall groups belong to a tenant.");
    case 'projects.list':
    case 'project.read':
    case 'project.create':
    case 'project.manage':
      return deny('This route is for customers: projects belong to a tenant.');
    default:
      return ALLOW;
  }
}

/** What only a tenant's owners do: its users and invitations, webhooks, audit trail, usage records, firewall groups (a change reaches every server using it) and projects. */
const OWNERS_ONLY = new Set<Action>(['tenant.users', 'tenant.invitations.read', 'tenant.webhooks', 'tenant.webhooks.read', 'tenant.audit', 'tenant.usage', 'tenant.firewall', 'project.create']);

function tenantDecision(role: TenantRole, action: Action): Decision {
  if (role === 'owner') return ALLOW;
  if (OWNERS_ONLY.has(action)) return deny('Only a tenant owner may do this.');
  return role === 'viewer' ? deny(READS_ONLY) : ALLOW;
}

function serverDecision(who: Actor & { tenantRole: TenantRole }, action: `server.${ServerPermission}` | 'server.share', server: Extract<Target, { kind: 'server' }>): Decision {
  if (server.tenantId !== who.tenantId) return HIDDEN;
  if (who.tenantRole === 'owner') return ALLOW;
  // A role in the server's project lets a member read all of the project's servers.
  const mayRead = who.tenantRole === 'viewer' || server.userId === who.userId || server.grant !== null || server.projectRole !== null;
  if (!mayRead) return HIDDEN;
  if (action === 'server.read') return ALLOW;
  if (who.tenantRole === 'viewer') return deny(READS_ONLY);
  if (server.userId === who.userId || server.projectRole === 'owner') return ALLOW;
  if (action === 'server.share') return deny("Only the server's creator, an owner of its project or a tenant owner shares it.");
  const permission = action.slice('server.'.length);
  if (server.grant?.includes(permission)) return ALLOW;
  return deny(`Your access to this server does not include ${permission}; its creator or a tenant owner can share it with you with that permission.`);
}

/**
 * A project of the caller's tenant. Every user of the tenant belongs to its default project: a
 * member creates servers there without a role in it (and reads there only their own and what was
 * shared with them, as before projects); in any other project they need a role.
 */
function projectDecision(who: Actor & { tenantRole: TenantRole }, action: Action, project: ProjectTarget): Decision {
  if (project.tenantId !== who.tenantId) return HIDDEN_PROJECT;
  if (who.tenantRole === 'owner') return ALLOW;
  if (who.tenantRole === 'member' && project.role === null && !project.isDefault) return HIDDEN_PROJECT;
  if (action === 'project.read') return ALLOW;
  if (action === 'project.manage') return deny('Only a tenant owner manages projects.');
  if (action !== 'server.create') throw new Error(`${action} is not decided on a project`);
  if (who.tenantRole === 'viewer') return deny(READS_ONLY);
  if (project.role === 'viewer') return deny('Your role in this project is viewer: you read its servers; a tenant owner can make you a member of it.');
  return ALLOW;
}

/** What a token limited to one project may do besides acting on that project and its servers: nothing of the tenant as a whole. */
const PROJECT_TOKEN_TENANT_ACTIONS = new Set<Action>(['public', 'account.read', 'catalog.read', 'events.read', 'servers.list', 'server.create', 'projects.list']);

function projectTokenDecision(projectId: string, action: Action, target: Target): Decision {
  if (target.kind === 'server' && target.projectId !== projectId) return HIDDEN;
  if (target.kind === 'project' && target.projectId !== projectId) return HIDDEN_PROJECT;
  if (target.kind === 'tenant' && !PROJECT_TOKEN_TENANT_ACTIONS.has(action)) return deny(`This API token is limited to project ${projectId}: it acts on that project's servers only.`);
  return ALLOW;
}

/**
 * The one decision: may `who` do `action` on `target`? Administrators operate the platform and act
 * on any server, but hold no tenant; a customer acts inside their tenant by their tenant role and,
 * on a server, by being its creator or by what it was shared with them.
 */
export function can(who: Actor, action: Action, target: Target = TENANT): Decision {
  const decision = userDecision(who, action, target);
  // A token's scopes and project only narrow what its user may: it never does more.
  if (!decision.allowed) return decision;
  if (who.tokenProjectId) {
    const limited = projectTokenDecision(who.tokenProjectId, action, target);
    if (!limited.allowed) return limited;
  }
  if (who.tokenScopes && !READS.has(action) && !who.tokenScopes.includes(action)) {
    return deny(`This API token may not do ${action}: it was issued for ${who.tokenScopes.join(', ')} only.`);
  }
  return decision;
}

function userDecision(who: Actor, action: Action, target: Target): Decision {
  if (action === 'public' || action === 'account' || action === 'account.read' || action === 'catalog.read') return ALLOW;
  if (who.role === 'admin') return operatorDecision(action);
  if (action === 'operator') return deny('This route is for administrators.');
  if (!who.tenantId || !who.tenantRole) return deny('This account belongs to no tenant.');
  const actor = { ...who, tenantRole: who.tenantRole };
  if (target.kind === 'server' && (action.startsWith('server.') && action !== 'server.create')) {
    return serverDecision(actor, action as `server.${ServerPermission}` | 'server.share', target);
  }
  if (target.kind === 'server') return HIDDEN;
  if (target.kind === 'project') return projectDecision(actor, action, target);
  if (action === 'project.read' || action === 'project.manage') throw new Error(`${action} needs a project`);
  if (action.startsWith('server.') && action !== 'server.create') throw new Error(`${action} needs a server`);
  return READS.has(action) && !OWNERS_ONLY.has(action) ? ALLOW : tenantDecision(who.tenantRole, action);
}

/** `mine`: what the caller created or was granted; `all`: everything of the tenant the caller may read. */
export type ListScope = 'mine' | 'all';

/** The servers `who` may read, as a Prisma filter, for lists and feeds: what serverDecision lets them read. */
export function readableServers(who: Actor, scope: ListScope = 'all'): Prisma.InstanceWhereInput {
  if (who.role === 'admin') return {};
  const within = { tenantId: who.tenantId ?? '-', ...(who.tokenProjectId ? { projectId: who.tokenProjectId } : {}) };
  const theirs: Prisma.InstanceWhereInput[] = [{ userId: who.userId }, { grants: { some: { userId: who.userId } } }];
  if (scope === 'mine') return { ...within, OR: theirs };
  if (who.tenantRole === 'owner' || who.tenantRole === 'viewer') return within;
  return { ...within, OR: [...theirs, { project: { members: { some: { userId: who.userId } } } }] };
}

/** The projects `who` may see (see projectDecision), as a Prisma filter. */
export function readableProjects(who: Actor): Prisma.ProjectWhereInput {
  const within = { tenantId: who.tenantId ?? '-', ...(who.tokenProjectId ? { id: who.tokenProjectId } : {}) };
  if (who.tenantRole === 'owner' || who.tenantRole === 'viewer') return within;
  return { ...within, OR: [{ isDefault: true }, { members: { some: { userId: who.userId } } }] };
}
