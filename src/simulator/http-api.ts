/**
 * HTTP handling for /api2/json: token auth, schema lookup and validation, fault injection,
 * and the Proxmox wire format (status line carries the message, booleans as 0/1, ...).
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { delay } from '../proxmox/delay';
import { SimHttpError, type CallContext } from './call';
import { sameSecret, type AccessControl } from './access';
import { callPrivileges } from './call-privileges';
import { faultOpOf, type Fault } from './faults';
import { HANDLERS, type ApiContext } from './routes';

function statusLine(message: string): string {
  const line = message
    .trim()
    .replace(/[\r\n]+/g, ' ')
    .replace(/[^\t\x20-\x7e]/g, '?');
  return line.slice(0, 1000) || 'error';
}

function sendJson(res: ServerResponse, status: number, reason: string | undefined, body: unknown): void {
  if (res.headersSent || res.destroyed) return;
  const text = JSON.stringify(body);
  res.writeHead(status, reason ?? undefined, {
    'Content-Type': 'application/json;charset=UTF-8',
    'Content-Length': Buffer.byteLength(text),
    'Cache-Control': 'max-age=0',
    Pragma: 'no-cache',
  });
  res.end(text);
}

export function sendData(res: ServerResponse, data: unknown): void {
  sendJson(res, 200, 'OK', { data: data ?? null });
}

export function sendError(res: ServerResponse, status: number, message: string, errors?: Record<string, string>): void {
  const body: Record<string, unknown> = { data: null, message: `${message.trim()}\n` };
  if (errors) body.errors = errors;
  sendJson(res, status, statusLine(message), body);
}

/** The PVEAuthCookie of a request, if it sends one. */
function authCookie(req: IncomingMessage): string | undefined {
  for (const part of (req.headers.cookie ?? '').split(';')) {
    const [name, ...value] = part.trim().split('=');
    if (name === 'PVEAuthCookie') return decodeURIComponent(value.join('='));
  }
  return undefined;
}

/**
 * Who makes a request: the token id of a valid `Authorization: PVEAPIToken=ID=SECRET` header, or
 * the user of a valid PVEAuthCookie ticket (a write also needs its `CSRFPreventionToken` header).
 */
export function authenticate(req: IncomingMessage, access: AccessControl): string | undefined {
  const header = req.headers.authorization;
  if (header) {
    const m = /^PVEAPIToken=([^=\s]+)[=:](\S+)$/.exec(header.trim());
    if (!m) return undefined;
    const secret = access.secretOf(m[1] as string);
    if (secret === undefined || !sameSecret(secret, m[2] as string)) return undefined;
    return m[1];
  }
  const ticket = authCookie(req);
  if (ticket === undefined) return undefined;
  const csrf = req.headers.csrfpreventiontoken;
  return access.ticketUser(ticket, typeof csrf === 'string' ? csrf : undefined, (req.method ?? 'GET').toUpperCase() !== 'GET');
}

/** POST /access/ticket (open to the world): a user's password for a ticket. */
async function answerLogin(api: ApiContext, res: ServerResponse, params: Record<string, string>): Promise<void> {
  const login = params.username !== undefined && params.password !== undefined ? api.access.login(params.username, params.password) : undefined;
  if (login) return sendData(res, login);
  const authFailDelayMs = api.authFailDelayMs();
  if (authFailDelayMs > 0) await delay(authFailDelayMs);
  sendError(res, 401, 'authentication failure');
}

function paramsFromBody(body: Buffer | undefined, contentType: string | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  if (!body || body.length === 0) return out;
  const text = body.toString('utf8');
  if (contentType?.includes('application/json')) {
    const parsed = JSON.parse(text) as unknown;
    if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) {
      for (const [k, v] of Object.entries(parsed as Record<string, unknown>)) {
        if (v === null || v === undefined) continue;
        out[k] = typeof v === 'boolean' ? (v ? '1' : '0') : typeof v === 'object' ? JSON.stringify(v) : String(v);
      }
    }
    return out;
  }
  for (const [k, v] of new URLSearchParams(text)) out[k] = v;
  return out;
}

function readBody(req: IncomingMessage, limit = 2 * 1024 * 1024): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (c: Buffer) => {
      size += c.length;
      if (size > limit) {
        reject(new SimHttpError(413, 'request entity too large'));
        req.destroy();
        return;
      }
      chunks.push(c);
    });
    req.on('end', () => resolve(Buffer.concat(chunks)));
    req.on('error', reject);
  });
}

function hold(api: ApiContext, res: ServerResponse): void {
  api.held.add(res);
  res.on('close', () => api.held.delete(res));
}

/** Handles one /api2/json request. `apiPath` is the path below /api2/json. */
export async function handleApi(api: ApiContext, req: IncomingMessage, res: ServerResponse, apiPath: string, query: URLSearchParams): Promise<void> {
  const verb = (req.method ?? 'GET').toUpperCase();
  let bodyBuf: Buffer | undefined;
  try {
    bodyBuf = await readBody(req);
  } catch (e) {
    if (e instanceof SimHttpError) sendError(res, e.status, e.message);
    return;
  }

  if (verb === 'POST' && apiPath === '/access/ticket') {
    let loginParams: Record<string, string>;
    try {
      loginParams = paramsFromBody(bodyBuf, req.headers['content-type']);
    } catch {
      return sendError(res, 400, 'Parameter verification failed.', { body: 'unable to parse request body' });
    }
    return answerLogin(api, res, loginParams);
  }
  const user = authenticate(req, api.access);
  if (!user) {
    const authFailDelayMs = api.authFailDelayMs();
    if (authFailDelayMs > 0) await delay(authFailDelayMs);
    sendError(res, 401, req.headers.authorization || req.headers.cookie ? 'authentication failure' : 'No ticket');
    return;
  }

  const schema = api.schema();
  const match = schema.match(verb, apiPath);
  const implemented = match?.method ? HANDLERS[`${verb} ${match.template}`] : undefined;
  if (!match || !match.method || !implemented) {
    sendError(res, 501, `Method '${verb} ${apiPath}' not implemented`);
    return;
  }
  const key = `${verb} ${match.template}`;
  api.calls.set(key, (api.calls.get(key) ?? 0) + 1);

  let params: Record<string, string>;
  try {
    params = {};
    for (const [k, v] of query) params[k] = v;
    Object.assign(params, paramsFromBody(bodyBuf, req.headers['content-type']));
  } catch {
    sendError(res, 400, 'Parameter verification failed.', { body: 'unable to parse request body' });
    return;
  }
  if (api.maxRecordedRequests > 0) {
    api.requests.push({ method: verb, path: apiPath, template: match.template, params: { ...params } });
    if (api.requests.length > api.maxRecordedRequests) api.requests.splice(0, api.requests.length - api.maxRecordedRequests);
  }

  const errors = schema.validate(match.method, { ...params, ...match.pathParams });
  if (errors) {
    sendError(res, 400, 'Parameter verification failed.', errors);
    return;
  }

  try {
    const can = (path: string, privs: string[]) => api.access.can(user, path, privs);
    api.access.assert(user, callPrivileges(api.cluster, match.method, match.pathParams, params, can));
  } catch (e) {
    if (!(e instanceof SimHttpError)) throw e;
    sendError(res, e.status, e.message);
    return;
  }

  const node = match.pathParams.node ?? '';
  const vmid = match.pathParams.vmid !== undefined ? Number(match.pathParams.vmid) : NaN;
  const op = faultOpOf(verb, match.template, params);
  const fault: Fault | undefined = api.faults.take({ op, node: match.pathParams.node, call: key, params });
  const ctx: CallContext = { user, ...(fault ? { fault } : {}) };

  // A rejection is delayed before anything happens; every other fault does the work first and
  // delays only the answer (an accepted call whose response is slow, or lost after a while).
  const rejects = fault?.mode === 'http500' || fault?.mode === 'http400' || fault?.mode === 'http403' || fault?.mode === 'timeout';
  if (fault?.delayMs && rejects) await delay(fault.delayMs);
  if (fault) {
    if (fault.mode === 'http400') {
      sendError(res, 400, 'Parameter verification failed.', { [fault.param ?? 'value']: fault.message ?? 'value invalid' });
      return;
    }
    if (fault.mode === 'http403') {
      sendError(res, 403, fault.message ?? `Permission check failed (${apiPath})`);
      return;
    }
    const createsTask = match.method.returnsType === 'string' && verb !== 'GET';
    if (fault.mode === 'http500' || (fault.mode === 'task_fail' && !createsTask && op !== 'task')) {
      sendError(res, 500, fault.message ?? 'simulated failure');
      return;
    }
    if (fault.mode === 'timeout' || (fault.mode === 'hang' && !createsTask && op !== 'task')) {
      hold(api, res);
      return;
    }
  }

  let data: unknown;
  let failed: SimHttpError | undefined;
  try {
    data = await implemented({ ctx, node, vmid, pathParams: match.pathParams, params, api });
  } catch (e) {
    if (e instanceof SimHttpError) failed = e;
    else failed = new SimHttpError(500, e instanceof Error ? e.message : String(e));
  }

  if (fault && !failed && !ctx.faultHandled && Number.isFinite(vmid)) {
    // calls without a task: apply lock / lose_guest right away
    const g = api.cluster.guests.get(vmid);
    if (fault.mode === 'lose_guest') api.cluster.removeGuest(vmid);
    else if (fault.mode === 'lock' && g) g.config.lock = fault.message ?? 'backup';
  }

  if (fault?.delayMs && !rejects) await delay(fault.delayMs);
  if (fault?.mode === 'drop_after_accept') {
    req.socket.destroy();
    return;
  }
  if (fault?.mode === 'http500_after_accept' && !failed) {
    sendError(res, 500, fault.message ?? 'simulated failure');
    return;
  }
  if (failed) sendError(res, failed.status, failed.message, failed.errors);
  else sendData(res, data);
}
