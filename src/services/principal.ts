import type { Role, TenantRole } from '../generated/prisma/enums';

/** Who asks a service for something: the signed-in user behind a request, or a schedule acting as the user who set it. */
export interface Principal {
  userId: string;
  /** The API token (or the session) the request came with: rate limits and stream limits count per token. */
  tokenId: string;
  /** Set when the request came with a session cookie instead of a bearer token. */
  sessionId?: string;
  role: Role;
  /** Set for customers: every query they make is scoped to it. */
  tenantId: string | null;
  /** Set for customers: what they may do inside their tenant (see authorization.ts). */
  tenantRole: TenantRole | null;
  /** Set for a token issued with scopes: what it may do besides reading (see authorization.ts). */
  tokenScopes?: readonly string[];
  /** Set for a token limited to one project (see authorization.ts). */
  tokenProjectId?: string;
}

/** What a read is scoped by. */
export type Caller = Pick<Principal, 'userId' | 'role' | 'tenantId' | 'tenantRole' | 'tokenProjectId'>;

/** An operator's reads: every tenant's rows. */
export const OPERATOR: Caller = { userId: '', role: 'admin', tenantId: null, tenantRole: null };

/** The system acting on its own (the traffic sampler's throttles): every tenant's rows, no user behind it. */
export const SYSTEM: Principal = { userId: '', tokenId: 'system', role: 'admin', tenantId: null, tenantRole: null };

/** Another tenant's row is NOT_FOUND, never FORBIDDEN: customers' queries carry their tenant. */
export function tenantScope(who: Caller): { tenantId?: string } {
  return who.role === 'admin' ? {} : { tenantId: who.tenantId ?? '-' };
}
