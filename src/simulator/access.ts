/**
 * Access control as Proxmox VE evaluates it: API tokens of users, with or without privilege
 * separation; roles (sets of privileges); ACL entries giving a role to a user or a token on a
 * path, propagating to the paths below unless `propagate` is off. `root@pam` holds everything.
 * Users with a password log in at POST /access/ticket and get a ticket (the PVEAuthCookie, valid
 * two hours) with a CSRF token for writes.
 */
import crypto from 'node:crypto';
import { SimHttpError } from './call';

/** A user who logs in with a password (the `pve` realm). */
export interface SimUserSpec {
  /** `console@pve` */
  userid: string;
  password: string;
}

export interface SimTokenSpec {
  /** Full token id, `USER@REALM!NAME`. */
  tokenid: string;
  secret: string;
  /** Privilege separation: the token holds only its own ACL entries, within its user's. */
  privsep: boolean;
}

export interface SimRoleSpec {
  roleid: string;
  privs: string[];
}

export interface SimAclEntry {
  path: string;
  /** A user id (`pvecp@pve`) or a full token id (`pvecp@pve!controlplane`). */
  ugid: string;
  roleid: string;
  /** Default true. */
  propagate?: boolean;
}

export interface AccessSpec {
  tokens: SimTokenSpec[];
  users?: SimUserSpec[];
  /** Custom roles; the built-in `Administrator` (every privilege) is always there. */
  roles: SimRoleSpec[];
  acl: SimAclEntry[];
}

/** A privilege a call needs on a path; with `any`, one of `privs` is enough. */
export interface PrivilegeCheck {
  path: string;
  privs: string[];
  any?: boolean;
}

/**
 * A permission expression's `or`: one of the sets of rules must hold entirely; when none does,
 * Proxmox answers its bare `403 Permission check failed` (RPCEnvironment exec_api2_perm_check).
 */
export interface PrivilegeAlternatives {
  anyOf: PrivilegeRule[][];
}

export type PrivilegeRule = PrivilegeCheck | PrivilegeAlternatives;

const COMMON_PRIVILEGES = [
  'Datastore.Allocate', 'Datastore.AllocateSpace', 'Datastore.AllocateTemplate', 'Datastore.Audit',
  'Group.Allocate', 'Mapping.Audit', 'Mapping.Modify', 'Mapping.Use', 'Permissions.Modify',
  'Pool.Allocate', 'Pool.Audit', 'Realm.Allocate', 'Realm.AllocateUser', 'SDN.Allocate', 'SDN.Audit', 'SDN.Use',
  'Sys.AccessNetwork', 'Sys.Audit', 'Sys.Console', 'Sys.Incoming', 'Sys.Modify', 'Sys.PowerMgmt', 'Sys.Syslog',
  'User.Modify', 'VM.Allocate', 'VM.Audit', 'VM.Backup', 'VM.Clone', 'VM.Config.CDROM', 'VM.Config.CPU',
  'VM.Config.Cloudinit', 'VM.Config.Disk', 'VM.Config.HWType', 'VM.Config.Memory', 'VM.Config.Network',
  'VM.Config.Options', 'VM.Console', 'VM.Migrate', 'VM.PowerMgmt', 'VM.Snapshot', 'VM.Snapshot.Rollback',
];

/** Every privilege of a release: PVE 9 split VM.Monitor into the VM.GuestAgent.* privileges. */
export function allPrivileges(majorRelease: number): string[] {
  const byRelease =
    majorRelease >= 9
      ? ['VM.GuestAgent.Audit', 'VM.GuestAgent.FileRead', 'VM.GuestAgent.FileSystemMgmt', 'VM.GuestAgent.FileWrite', 'VM.GuestAgent.Unrestricted', 'VM.Replicate']
      : ['VM.Monitor'];
  return [...COMMON_PRIVILEGES, ...byRelease].sort();
}

const SUPERUSER = 'root@pam';
const TICKET_LIFETIME_MS = 2 * 60 * 60 * 1000;

/** What POST /access/ticket answers. */
export interface SimLogin {
  username: string;
  ticket: string;
  CSRFPreventionToken: string;
}

/** Privilege -> propagates (1) or holds on this path only (0), as /access/permissions shows it. */
type Privileges = Map<string, number>;

const userOf = (tokenid: string): string => tokenid.slice(0, tokenid.indexOf('!'));

/** `/vms/101` -> `/`, `/vms`, `/vms/101`. */
function pathChain(path: string): string[] {
  const parts = path.split('/').filter(Boolean);
  return ['/', ...parts.map((_, i) => `/${parts.slice(0, i + 1).join('/')}`)];
}

export class AccessControl {
  private readonly tokens = new Map<string, SimTokenSpec>();
  private readonly roles = new Map<string, string[]>();
  private readonly passwords = new Map<string, string>();
  private readonly tickets = new Map<string, { user: string; csrf: string; issuedAtMs: number }>();
  private readonly everything: string[];

  constructor(
    private readonly spec: AccessSpec,
    majorRelease: number,
  ) {
    this.everything = allPrivileges(majorRelease);
    this.roles.set('Administrator', this.everything);
    // A role holds only privileges its release knows (VM.Monitor is gone in PVE 9).
    for (const r of spec.roles) this.roles.set(r.roleid, r.privs.filter((p) => this.everything.includes(p)));
    for (const t of spec.tokens) this.tokens.set(t.tokenid, t);
    for (const u of spec.users ?? []) this.passwords.set(u.userid, u.password);
  }

  /** A user who logs in with a password, holding `privs` on `path` (a role of their own). */
  addUser(user: SimUserSpec, grant: { path: string; privs: string[] }): void {
    this.passwords.set(user.userid, user.password);
    const roleid = `sim-${user.userid}`;
    this.roles.set(roleid, grant.privs.filter((p) => this.everything.includes(p)));
    this.spec.acl.splice(0, this.spec.acl.length, ...this.spec.acl.filter((e) => e.ugid !== user.userid), { path: grant.path, ugid: user.userid, roleid });
  }

  /** POST /access/ticket: a ticket for a known user's right password, else undefined (Proxmox: 401 authentication failure). */
  login(username: string, password: string): SimLogin | undefined {
    const known = this.passwords.get(username);
    if (known === undefined || !sameSecret(known, password)) return undefined;
    const stamp = Math.floor(Date.now() / 1000).toString(16).toUpperCase();
    const ticket = `PVE:${username}:${stamp}::${crypto.randomBytes(48).toString('base64')}`;
    const csrf = `${stamp}:${crypto.randomBytes(32).toString('base64').replace(/=+$/, '')}`;
    this.tickets.set(ticket, { user: username, csrf, issuedAtMs: Date.now() });
    return { username, ticket, CSRFPreventionToken: csrf };
  }

  /** The user of a ticket still valid (and, for a write, sent with its CSRF token). */
  ticketUser(ticket: string, csrf: string | undefined, write: boolean): string | undefined {
    const held = this.tickets.get(ticket);
    if (!held || Date.now() - held.issuedAtMs > TICKET_LIFETIME_MS) return undefined;
    if (write && (csrf === undefined || !sameSecret(held.csrf, csrf))) return undefined;
    return held.user;
  }

  /** The token's secret, if the token exists. */
  secretOf(tokenid: string): string | undefined {
    return this.tokens.get(tokenid)?.secret;
  }

  /**
   * What an ACL subject holds on a path: at each level from `/` down, the subject's entries there
   * (on an ancestor only the propagating ones) replace what the levels above gave.
   */
  private granted(ugid: string, path: string): Privileges {
    let held: Privileges = new Map();
    for (const level of pathChain(path)) {
      const entries = this.spec.acl.filter((e) => e.ugid === ugid && e.path === level && (level === path || e.propagate !== false));
      if (entries.length === 0) continue;
      held = new Map();
      for (const e of entries) {
        for (const priv of this.roles.get(e.roleid) ?? []) held.set(priv, Math.max(held.get(priv) ?? 0, e.propagate === false ? 0 : 1));
      }
    }
    return held;
  }

  /** What a user or token holds on a path (a privsep token: its own entries within its user's). */
  privileges(subject: string, path: string): Privileges {
    const bang = subject.indexOf('!');
    const user = bang >= 0 ? userOf(subject) : subject;
    if (user === SUPERUSER) return new Map(this.everything.map((p) => [p, 1]));
    const ofUser = this.granted(user, path);
    const token = bang >= 0 ? this.tokens.get(subject) : undefined;
    if (!token?.privsep) return ofUser;
    const ofToken = this.granted(subject, path);
    return new Map([...ofToken].filter(([priv]) => ofUser.has(priv)).map(([priv, prop]) => [priv, Math.min(prop, ofUser.get(priv) ?? 0)]));
  }

  can(subject: string, path: string, privs: string[], any = false): boolean {
    const held = this.privileges(subject, path);
    return any ? privs.some((p) => held.has(p)) : privs.every((p) => held.has(p));
  }

  /** Whether the subject passes every rule. */
  private passes(subject: string, rules: PrivilegeRule[]): boolean {
    return rules.every((r) => ('anyOf' in r ? r.anyOf.some((set) => this.passes(subject, set)) : this.can(subject, r.path, r.privs, r.any)));
  }

  /** Throws Proxmox's 403 for the first rule the caller fails. */
  assert(subject: string, rules: PrivilegeRule[]): void {
    for (const c of rules) {
      if ('anyOf' in c) {
        if (!this.passes(subject, [c])) throw new SimHttpError(403, 'Permission check failed');
        continue;
      }
      const held = this.privileges(subject, c.path);
      if (c.any) {
        if (!c.privs.some((p) => held.has(p))) throw permissionDenied(c.path, c.privs.join('|'));
        continue;
      }
      const missing = c.privs.find((p) => !held.has(p));
      if (missing) throw permissionDenied(c.path, missing);
    }
  }

  /**
   * GET /access/permissions: the subject's privileges on `path`, or, without one, on `/` and
   * every path an ACL entry of the subject (or of its user) names; paths holding nothing are left out.
   */
  permissions(caller: string, params: Record<string, string>): Record<string, Record<string, number>> {
    const subject = params.userid ?? caller;
    if (subject !== caller && !this.can(caller, '/access', ['Sys.Audit'])) throw permissionDenied('/access', 'Sys.Audit');
    const bang = subject.indexOf('!');
    const known = bang >= 0 ? this.tokens.has(subject) : subject === SUPERUSER || this.passwords.has(subject) || this.spec.tokens.some((t) => userOf(t.tokenid) === subject);
    if (!known) return {};
    const paths = params.path !== undefined
      ? [params.path]
      : [...new Set(['/', ...this.spec.acl.filter((e) => e.ugid === subject || e.ugid === (bang >= 0 ? userOf(subject) : subject)).map((e) => e.path)])];
    const out: Record<string, Record<string, number>> = {};
    for (const path of paths) {
      const held = this.privileges(subject, path);
      if (held.size > 0 || params.path !== undefined) out[path] = Object.fromEntries([...held].sort(([a], [b]) => (a < b ? -1 : 1)));
    }
    return out;
  }
}

export function sameSecret(a: string, b: string): boolean {
  const ha = crypto.createHash('sha256').update(a).digest();
  const hb = crypto.createHash('sha256').update(b).digest();
  return crypto.timingSafeEqual(ha, hb);
}

export function permissionDenied(path: string, privs: string): SimHttpError {
  return new SimHttpError(403, `Permission check failed (${path}, ${privs})`);
}
