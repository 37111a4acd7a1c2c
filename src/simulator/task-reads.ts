/**
 * The task API as one API token sees it: a task's status and the node's task list.
 */
import { SimHttpError } from './call';
import type { SimCluster } from './cluster';
import { bool } from './config-values';
import type { SimTask } from './tasks';

/** A task as the API shows it: the token id apart from the user. */
function taskView(t: SimTask): Record<string, unknown> {
  const bang = t.user.indexOf('!');
  return {
    upid: t.upid,
    node: t.node,
    pid: t.pid,
    pstart: t.pstart,
    starttime: t.starttime,
    type: t.type,
    id: t.id,
    user: bang >= 0 ? t.user.slice(0, bang) : t.user,
    ...(bang >= 0 ? { tokenid: t.user.slice(bang + 1) } : {}),
  };
}

/** GET /nodes/{node}/tasks/{upid}/status: only the task's own user sees it. */
export function taskStatus(cluster: SimCluster, node: string, upid: string, user: string): object {
  cluster.checkNode(node);
  const t = cluster.tasks.get(upid);
  if (!t || t.node !== node || t.user !== user) throw new SimHttpError(400, 'no such task');
  if (t.hiddenPolls > 0) {
    t.hiddenPolls--;
    throw new SimHttpError(400, 'no such task');
  }
  return { ...taskView(t), status: t.status, ...(t.exitstatus !== undefined ? { exitstatus: t.exitstatus } : {}) };
}

/**
 * The node's active-task file as Proxmox keeps it: every running task, and the node's
 * `keptEnded` most recently ended ones (with their status and end time) until newer ones push
 * them out.
 */
function activeTasks(cluster: SimCluster, node: string): Set<SimTask> {
  const onNode = cluster.tasks.all().filter((t) => t.node === node);
  const ended = onNode.filter((t) => t.status === 'stopped').sort((a, b) => (b.endedAtMs ?? 0) - (a.endedAtMs ?? 0));
  return new Set([...onNode.filter((t) => t.status === 'running'), ...ended.slice(0, cluster.settings.activeTaskListEnded)]);
}

/** GET /nodes/{node}/tasks: the caller's tasks on the node, newest first, with Proxmox's filters. */
export function taskList(cluster: SimCluster, node: string, user: string, p: Record<string, string>): object[] {
  cluster.checkNode(node);
  const source = p.source ?? 'archive';
  const limit = p.limit !== undefined ? Number(p.limit) : 50;
  const start = p.start !== undefined ? Number(p.start) : 0;
  const errorsOnly = bool(p.errors);
  const active = source === 'active' ? activeTasks(cluster, node) : undefined;
  const list = cluster.tasks
    .all()
    .filter((t) => t.node === node && t.user === user)
    .filter((t) => (active ? active.has(t) : source === 'archive' ? t.status === 'stopped' : true))
    .filter((t) => p.typefilter === undefined || t.type === p.typefilter)
    .filter((t) => p.vmid === undefined || t.id === p.vmid)
    .filter((t) => p.userfilter === undefined || t.user.includes(p.userfilter))
    .filter((t) => p.since === undefined || t.starttime >= Number(p.since))
    .filter((t) => p.until === undefined || t.starttime <= Number(p.until))
    .filter((t) => !errorsOnly || (t.status === 'stopped' && t.exitstatus !== 'OK' && !/^WARNINGS/.test(t.exitstatus ?? '')))
    .sort((a, b) => b.starttime - a.starttime || b.pid - a.pid);
  return list.slice(start, start + limit).map((t) => ({
    ...taskView(t),
    ...(t.status === 'stopped' ? { status: t.exitstatus, endtime: t.endtime } : { status: 'RUNNING' }),
  }));
}

/** GET /nodes/{node}/tasks/{upid}/log: what the task wrote, then its final line once it ended. */
export function taskLog(cluster: SimCluster, node: string, upid: string, user: string): { n: number; t: string }[] {
  cluster.checkNode(node);
  const t = cluster.tasks.get(upid);
  if (!t || t.node !== node || t.user !== user) throw new SimHttpError(400, 'no such task');
  const lines = [...cluster.taskLog(upid)];
  if (t.status === 'stopped') lines.push(t.exitstatus === 'OK' ? 'TASK OK' : /^WARNINGS/.test(t.exitstatus ?? '') ? `TASK ${t.exitstatus}` : `TASK ERROR: ${t.exitstatus}`);
  return lines.map((text, i) => ({ n: i + 1, t: text }));
}
