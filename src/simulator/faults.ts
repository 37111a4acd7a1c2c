/**
 * Fault injection for the simulator (`POST /_sim/faults`).
 */
import { z } from 'zod';

export const FAULT_OPS = [
  'clone',
  'config',
  'resize',
  'start',
  'stop',
  'shutdown',
  'reboot',
  'destroy',
  'migrate',
  'status',
  'config_read',
  'agent',
  'snapshot',
  'rollback',
  'snapshot_delete',
  'backup',
  'restore',
  'volume_delete',
  'download',
  'url_metadata',
  'create',
  'template',
  'console',
  'task',
  'any',
] as const;
export type FaultOp = (typeof FAULT_OPS)[number];

/**
 * http500: reject the call with HTTP 500 and `message`.
 * http500_after_accept: do the work / start the task, then answer HTTP 500 with `message` (a
 *   proxy that lost the daemon's answer).
 * http400: reject the call as Proxmox's parameter check does: HTTP 400 "Parameter verification
 *   failed." with `message` as the complaint about `param` (default `value`).
 * http403: reject the call with HTTP 403 and `message` (default a failed permission check).
 * timeout: never answer (the socket is held until the client gives up).
 * task_fail: accept; the task ends with `message` as its error exit status.
 * drop_after_accept: do the work / start the task, then destroy the socket without answering.
 * hang: the task never finishes (calls without a task: like timeout).
 * lock: the guest keeps a lock afterwards (`message` names it; default clone/migrate/backup).
 * lose_guest: the guest vanishes after the call (after its task for asynchronous calls).
 * task_warnings: accept; the task ends "WARNINGS: N" (N = `warnings`, default 1).
 * delay: only delay the answer by `delayMs`.
 * connection_timeout (console): the listener vncproxy/termproxy opened gives up at once, its task
 *   ending "connection timed out" (the vncwebsocket that follows finds nobody at the port).
 * drop_socket (console): the console connection is dropped right after its authentication.
 * ticket_expired (console): vncwebsocket refuses the ticket as one past its window.
 *
 * `delayMs` with http500/http400/http403/timeout delays the rejection; with any other mode the work is done at
 * once and only the answer waits (a worker can die between the call and its answer).
 *
 * Narrowing: `call` matches one call only (`GET /cluster/resources`, as `calls` in the state
 * names it; with op `any` it reaches reads no other op covers), `param` only calls that carry
 * that parameter (`cipassword`: the cloud-init write), and `skip` lets that many matching calls
 * through first.
 */
export const FAULT_MODES = [
  'http500',
  'http500_after_accept',
  'http400',
  'http403',
  'timeout',
  'task_fail',
  'drop_after_accept',
  'hang',
  'lock',
  'lose_guest',
  'task_warnings',
  'delay',
  'connection_timeout',
  'drop_socket',
  'ticket_expired',
] as const;
export type FaultMode = (typeof FAULT_MODES)[number];

export const faultSpecSchema = z.object({
  op: z.enum(FAULT_OPS),
  mode: z.enum(FAULT_MODES),
  count: z.number().int().positive().optional(),
  node: z.string().min(1).optional(),
  message: z.string().min(1).max(500).optional(),
  delayMs: z.number().int().min(0).max(600_000).optional(),
  warnings: z.number().int().positive().optional(),
  call: z.string().regex(/^(GET|POST|PUT|DELETE) \/\S*$/).optional(),
  param: z.string().min(1).optional(),
  skip: z.number().int().positive().optional(),
});
export type FaultSpec = z.infer<typeof faultSpecSchema>;

export interface Fault {
  id: number;
  op: FaultOp;
  mode: FaultMode;
  /** Matching calls still to be affected. */
  remaining: number;
  node?: string;
  message?: string;
  delayMs?: number;
  warnings?: number;
  call?: string;
  param?: string;
  /** Matching calls still to let through before the fault applies. */
  skip?: number;
}

/** What the fault registry knows of a call. */
export interface FaultCall {
  op: FaultOp | undefined;
  node: string | undefined;
  /** `VERB template`, e.g. `GET /cluster/resources`. */
  call: string;
  params: Record<string, string>;
}

/** Maps an API call to its fault operation; reads other than status/task/url_metadata only match `any`. */
export function faultOpOf(verb: string, template: string, params: Record<string, string>): Exclude<FaultOp, 'any'> | undefined {
  const q = '/nodes/{node}/qemu/{vmid}';
  switch (`${verb} ${template}`) {
    case `POST ${q}/clone`:
      return 'clone';
    case `POST ${q}/config`:
    case `PUT ${q}/config`:
      return 'config';
    case `PUT ${q}/resize`:
      return 'resize';
    case `POST ${q}/status/start`:
      return 'start';
    case `POST ${q}/status/stop`:
      return 'stop';
    case `POST ${q}/status/shutdown`:
      return 'shutdown';
    case `POST ${q}/status/reboot`:
      return 'reboot';
    case `DELETE ${q}`:
      return 'destroy';
    case `POST ${q}/migrate`:
      return 'migrate';
    case `GET ${q}/status/current`:
      return 'status';
    case `GET ${q}/config`:
      return 'config_read';
    case `POST ${q}/agent/ping`:
      return 'agent';
    case `POST ${q}/snapshot`:
      return 'snapshot';
    case `POST ${q}/snapshot/{snapname}/rollback`:
      return 'rollback';
    case `DELETE ${q}/snapshot/{snapname}`:
      return 'snapshot_delete';
    case 'POST /nodes/{node}/vzdump':
      return 'backup';
    case 'POST /nodes/{node}/qemu':
      return params.archive !== undefined ? 'restore' : 'create';
    case `POST ${q}/template`:
      return 'template';
    case 'DELETE /nodes/{node}/storage/{storage}/content/{volume}':
      return 'volume_delete';
    case 'POST /nodes/{node}/storage/{storage}/download-url':
      return 'download';
    case 'GET /nodes/{node}/query-url-metadata':
      return 'url_metadata';
    case `POST ${q}/vncproxy`:
    case `POST ${q}/termproxy`:
      return 'console';
    // The node's task list is not "polling a task": a fault meant for a task's status must reach
    // that status read, not be spent on a watcher's list read (`any` with `call` targets the list).
    case 'GET /nodes/{node}/tasks/{upid}/status':
      return 'task';
    default:
      return undefined;
  }
}

export class FaultRegistry {
  private faults: Fault[] = [];
  private nextId = 1;

  add(spec: FaultSpec): Fault {
    const fault: Fault = {
      id: this.nextId++,
      op: spec.op,
      mode: spec.mode,
      remaining: spec.count ?? 1,
      ...(spec.node !== undefined ? { node: spec.node } : {}),
      ...(spec.message !== undefined ? { message: spec.message } : {}),
      ...(spec.delayMs !== undefined ? { delayMs: spec.delayMs } : {}),
      ...(spec.warnings !== undefined ? { warnings: spec.warnings } : {}),
      ...(spec.call !== undefined ? { call: spec.call } : {}),
      ...(spec.param !== undefined ? { param: spec.param } : {}),
      ...(spec.skip !== undefined ? { skip: spec.skip } : {}),
    };
    this.faults.push(fault);
    return fault;
  }

  list(): Fault[] {
    return this.faults.map((f) => ({ ...f }));
  }

  clear(): void {
    this.faults = [];
  }

  /** Consumes one use of the first fault matching this call (or one of its skips: the call then goes through). */
  take({ op, node, call, params }: FaultCall): Fault | undefined {
    const idx = this.faults.findIndex(
      (f) =>
        (f.op === 'any' || f.op === op) &&
        (f.node === undefined || f.node === node) &&
        (f.call === undefined || f.call === call) &&
        (f.param === undefined || Object.hasOwn(params, f.param)),
    );
    if (idx < 0) return undefined;
    const fault = this.faults[idx] as Fault;
    if (fault.skip) {
      fault.skip -= 1;
      return undefined;
    }
    fault.remaining -= 1;
    if (fault.remaining <= 0) this.faults.splice(idx, 1);
    return { ...fault };
  }
}
