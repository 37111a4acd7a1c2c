/**
 * Simulated Proxmox worker tasks: each asynchronous call creates a task with a real-format
 * UPID that goes running -> stopped after its type's duration (`taskMs`), ending "OK",
 * "WARNINGS: N" or an error text.
 */
import { formatUpid, type ProxmoxTaskState } from '../proxmox/upid';

export interface SimTask extends ProxmoxTaskState {
  endtime?: number;
  /** Status reads still to be answered "no such task". */
  hiddenPolls: number;
  /** Wall-clock start and end in milliseconds (UPID times are whole seconds), for measuring. */
  startedAtMs: number;
  endedAtMs?: number;
}

export interface TaskSpec {
  node: string;
  type: string;
  id: string;
  user: string;
  /** Does the work when the task finishes; returns a warning count, throws Error(text) to fail. */
  run: () => number | void;
  /** Always called after the task stopped (success or failure), e.g. to release locks. */
  after?: (task: SimTask) => void;
  /** End with this error text instead of running `run`. */
  failWith?: string;
  /** Never finish. */
  hang?: boolean;
  /** Wait, running, until startClock() is called (a task queued on a lock). */
  held?: boolean;
  /** End with "WARNINGS: N" (after running `run`). */
  warnings?: number;
}

export class TaskManager {
  private readonly tasks = new Map<string, SimTask>();
  private readonly order: SimTask[] = [];
  private readonly timers = new Map<string, NodeJS.Timeout>();
  private readonly waits = new Set<NodeJS.Timeout>();
  /** Tasks whose work has begun. */
  private readonly clocked = new Set<string>();
  private readonly specs = new Map<string, TaskSpec>();
  private pid = 0x1000;
  private lastStart = 0;
  private readonly pstartBase: number;

  constructor(private readonly settings: { taskMs: (type: string) => number; hiddenPolls: () => number }) {
    this.pstartBase = 0x100000 + Math.floor(Math.random() * 0x100000);
  }

  create(spec: TaskSpec): SimTask {
    this.pid += 1 + Math.floor(Math.random() * 7);
    let starttime = Math.floor(Date.now() / 1000);
    // UPIDs must be unique: keep pid/starttime pairs distinct even within one second
    if (starttime <= this.lastStart) starttime = this.lastStart;
    this.lastStart = starttime;
    const task: SimTask = {
      upid: '',
      node: spec.node,
      pid: this.pid,
      pstart: this.pstartBase + this.pid * 3,
      starttime,
      type: spec.type,
      id: spec.id,
      user: spec.user,
      status: 'running',
      hiddenPolls: this.settings.hiddenPolls(),
      startedAtMs: Date.now(),
    };
    task.upid = formatUpid(task);
    this.tasks.set(task.upid, task);
    this.order.push(task);
    this.specs.set(task.upid, spec);
    if (!spec.held) this.startClock(task.upid);
    return task;
  }

  /** A held task's work begins: it ends after its type's duration (never, for one that hangs). */
  startClock(upid: string): void {
    const spec = this.specs.get(upid);
    if (!spec || this.clocked.has(upid)) return;
    this.clocked.add(upid);
    if (spec.hang) return;
    const timer = setTimeout(() => this.finish(upid), Math.max(0, this.settings.taskMs(spec.type)));
    this.timers.set(upid, timer);
  }

  /** Ends a running task with `error` after `ms` unless it ended before (a lock wait that times out). */
  failAfter(upid: string, ms: number, error: string): void {
    const timer = setTimeout(() => {
      if (!this.clocked.has(upid)) this.finish(upid, error);
    }, ms);
    this.waits.add(timer);
  }

  /** Adds an already finished task (e.g. history of another user). */
  seed(task: Omit<SimTask, 'upid' | 'hiddenPolls' | 'startedAtMs'>): SimTask {
    const t: SimTask = { ...task, upid: '', hiddenPolls: 0, startedAtMs: task.starttime * 1000 };
    if (task.endtime !== undefined) t.endedAtMs ??= task.endtime * 1000;
    t.upid = formatUpid(t);
    this.tasks.set(t.upid, t);
    this.order.push(t);
    return t;
  }

  /** Finishes a running task now: normally, or with the given error text. */
  finish(upid: string, failWith?: string): void {
    const task = this.tasks.get(upid);
    const spec = this.specs.get(upid);
    if (!task || task.status !== 'running' || !spec) return;
    const timer = this.timers.get(upid);
    if (timer) clearTimeout(timer);
    this.timers.delete(upid);
    this.specs.delete(upid);
    let exit: string;
    const error = failWith ?? spec.failWith;
    if (error !== undefined) {
      exit = error;
    } else {
      try {
        const warnings = (spec.run() ?? 0) + (spec.warnings ?? 0);
        exit = warnings > 0 ? `WARNINGS: ${warnings}` : 'OK';
      } catch (e) {
        exit = (e instanceof Error ? e.message : String(e)).trim() || 'unknown error';
      }
    }
    task.status = 'stopped';
    task.exitstatus = exit;
    task.endedAtMs = Date.now();
    task.endtime = Math.max(task.starttime, Math.floor(task.endedAtMs / 1000));
    spec.after?.(task);
  }

  /** Makes a running task never finish. */
  hang(upid: string): void {
    const timer = this.timers.get(upid);
    if (timer) clearTimeout(timer);
    this.timers.delete(upid);
  }

  get(upid: string): SimTask | undefined {
    return this.tasks.get(upid);
  }

  all(): SimTask[] {
    return this.order;
  }

  /** Stops all timers (tasks stay as they are). */
  stop(): void {
    for (const t of this.timers.values()) clearTimeout(t);
    this.timers.clear();
    for (const t of this.waits) clearTimeout(t);
    this.waits.clear();
  }

  clear(): void {
    this.stop();
    this.tasks.clear();
    this.specs.clear();
    this.clocked.clear();
    this.order.length = 0;
  }
}
