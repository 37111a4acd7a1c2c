import createFetchClient, { type Client, type ClientOptions } from 'openapi-fetch';
import type { components, paths } from './schema';

export type { components, operations, paths } from './schema';

type Schemas = components['schemas'];
export type Instance = Schemas['Instance'];
export type AdminInstance = Schemas['AdminInstance'];
export type Task = Schemas['Task'];
export type InstanceEvent = Schemas['InstanceEvent'];
export type ApiError = Schemas['Error'];
export type InstanceStatus = Instance['status'];

export type PvecpClient = Client<paths>;

export interface PvecpClientOptions extends Omit<ClientOptions, 'baseUrl'> {
  /** Where the API is, e.g. `https://pvecp.example.com`. */
  baseUrl: string;
  /** An API token, sent as `Authorization: Bearer <token>`. */
  token: string;
}

export interface PvecpSessionClientOptions extends Omit<ClientOptions, 'baseUrl' | 'credentials'> {
  /** Where the API is; the page's own origin when omitted. */
  baseUrl?: string;
  /** The CSRF token of the current session (from `POST /v1/sessions` or `GET /v1/sessions/current`), if signed in. */
  csrfToken: () => string | undefined;
}

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * A client for every route of the API, typed from its OpenAPI document: paths, parameters,
 * bodies and answers are checked at compile time.
 *
 *     const pvecp = createClient({ baseUrl: 'https://pvecp.example.com', token });
 *     const { data, error } = await pvecp.GET('/v1/instances/{id}', { params: { path: { id } } });
 */
export function createClient({ token, ...options }: PvecpClientOptions): PvecpClient {
  const client = createFetchClient<paths>(options);
  client.use({
    onRequest({ request }) {
      request.headers.set('Authorization', `Bearer ${token}`);
      return request;
    },
  });
  return client;
}

/**
 * A client for a page signed in with a console session: the browser sends the session cookie
 * (same origin) and every request that changes something carries the session's CSRF token.
 *
 *     let csrf: string | undefined;
 *     const pvecp = createSessionClient({ csrfToken: () => csrf });
 *     csrf = (await pvecp.POST('/v1/sessions', { body: { email, password } })).data?.data.csrfToken;
 */
export function createSessionClient({ csrfToken, baseUrl = '', ...options }: PvecpSessionClientOptions): PvecpClient {
  const client = createFetchClient<paths>({ ...options, baseUrl, credentials: 'same-origin' });
  client.use({
    onRequest({ request }) {
      const token = csrfToken();
      if (token && !SAFE_METHODS.has(request.method)) request.headers.set('X-CSRF-Token', token);
      return request;
    },
  });
  return client;
}
