/**
 * Proxmox tasks: one task's status and log, a node's task list, and the wait for a task to end
 * (through the node's task watcher, task-watcher.ts).
 */
import type { CallOptions, ProxmoxHttp } from './http';
import { assertNode } from './paths';
import type { ProxmoxTaskResult, WaitForProxmoxTaskOptions } from './task-poll';
import { ProxmoxTaskWatcher } from './task-watcher';
import { isUpid, parseUpid, type ProxmoxTaskState } from './upid';

/** GET /nodes/{node}/tasks/{upid}/status. */
export interface ProxmoxTaskStatus extends ProxmoxTaskState {
  tokenid?: string;
  [key: string]: unknown;
}

/** An entry of GET /nodes/{node}/tasks. */
export interface ProxmoxTaskListEntry {
  upid: string;
  node: string;
  type: string;
  id: string;
  user: string;
  starttime: number;
  endtime?: number;
  /** Exit status for finished tasks. */
  status?: string;
  [key: string]: unknown;
}

/** Query of GET /nodes/{node}/tasks. */
export interface ListProxmoxTasksOptions {
  typefilter?: string;
  vmid?: number;
  source?: 'active' | 'archive' | 'all';
  limit?: number;
  /** Only tasks started at or after this time (epoch seconds, the node's clock). */
  since?: number;
}

/** Path parameters of a task: the node its UPID names, and the UPID. */
function taskParams(upid: string): { node: string; upid: string } {
  if (!isUpid(upid)) throw new TypeError('not a Proxmox task id');
  return { node: upid.split(':')[1] as string, upid };
}

export class TasksApi {
  /** One per node, shared by every wait on this client. */
  private readonly watchers = new Map<string, ProxmoxTaskWatcher>();

  constructor(private readonly http: ProxmoxHttp) {}

  /** GET /nodes/{node-in-the-UPID}/tasks/{upid}/status */
  async status(upid: string, call?: CallOptions): Promise<ProxmoxTaskStatus> {
    return this.http.request<ProxmoxTaskStatus>('GET', '/nodes/{node}/tasks/{upid}/status', taskParams(upid), {}, call);
  }

  /** GET /nodes/{node}/tasks/{upid}/log: the task's lines, in order. */
  async log(upid: string, call?: CallOptions): Promise<string[]> {
    const data = await this.http.request<{ n: number; t: string }[]>('GET', '/nodes/{node}/tasks/{upid}/log', taskParams(upid), { limit: 1000 }, call);
    return (Array.isArray(data) ? data : []).sort((a, b) => a.n - b.n).map((l) => l.t);
  }

  /** GET /nodes/{node}/tasks: the node's tasks, filtered. */
  async list(node: string, o: ListProxmoxTasksOptions = {}, call?: CallOptions): Promise<ProxmoxTaskListEntry[]> {
    assertNode(node);
    const data = await this.http.request<ProxmoxTaskListEntry[]>(
      'GET',
      '/nodes/{node}/tasks',
      { node },
      { typefilter: o.typefilter, vmid: o.vmid, source: o.source, limit: o.limit, since: o.since },
      call,
    );
    return Array.isArray(data) ? data : [];
  }

  /**
   * Waits until a task stops, watched by its node's task watcher. "OK" and "WARNINGS: N" resolve;
   * other exits throw ProxmoxTaskError (the guarantees of pollProxmoxTask in task-poll.ts).
   */
  wait(upid: string, opts: WaitForProxmoxTaskOptions = {}): Promise<ProxmoxTaskResult> {
    const { node } = parseUpid(upid);
    let watcher = this.watchers.get(node);
    if (!watcher) {
      watcher = new ProxmoxTaskWatcher(this, node);
      this.watchers.set(node, watcher);
    }
    return watcher.wait(upid, opts);
  }
}
