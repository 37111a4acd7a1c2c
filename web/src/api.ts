import { createSessionClient, type components } from '../../clients/typescript/index';
import { problemOf, type Problem } from './lib/problems';

export type SignedIn = components['schemas']['SignedIn'];
export type User = components['schemas']['User'];

let csrfToken: string | undefined;
let onSessionEnded: (() => void) | undefined;

/** The one client every page calls the API with: the session cookie, and the CSRF token on every change. */
export const api = createSessionClient({ csrfToken: () => csrfToken });

api.use({
  onResponse({ request, response }) {
    // Any 401 but a refused sign-in means the session is over (signed out elsewhere, revoked, expired).
    if (response.status === 401 && !request.url.endsWith('/v1/sessions')) onSessionEnded?.();
    return response;
  },
});

export function rememberSession(session: SignedIn | undefined, ended?: () => void): void {
  csrfToken = session?.csrfToken;
  if (ended) onSessionEnded = ended;
}

/** An answer of the typed client, as a value or the refusal it was. */
export type Outcome<T> = { ok: true; data: T; status: number } | { ok: false; problem: Problem; status: number };

/** Turns a typed-client answer into an Outcome (unwrapping `{ data }`), so pages handle one shape. */
export async function outcome<T>(call: Promise<{ data?: { data: T }; error?: unknown; response: Response }>): Promise<Outcome<T>> {
  try {
    const { data, error, response } = await call;
    if (data !== undefined) return { ok: true, data: data.data, status: response.status };
    return { ok: false, problem: problemOf(error, response.status), status: response.status };
  } catch {
    return { ok: false, problem: problemOf(undefined), status: 0 };
  }
}

/** An answer without a body (204). */
export async function done(call: Promise<{ error?: unknown; response: Response }>): Promise<Outcome<null>> {
  try {
    const { error, response } = await call;
    if (response.ok) return { ok: true, data: null, status: response.status };
    return { ok: false, problem: problemOf(error, response.status), status: response.status };
  } catch {
    return { ok: false, problem: problemOf(undefined), status: 0 };
  }
}

/** A fresh Idempotency-Key for one submitted form: a retried submit replays instead of creating twice. */
export const idempotencyKey = () => `console-${crypto.randomUUID()}`;
