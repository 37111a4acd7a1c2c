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
