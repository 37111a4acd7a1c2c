/**
 * Proxmox task identifiers:
 * `UPID:<node>:<pid 8 hex>:<pstart 8-9 hex>:<starttime 8 hex>:<type>:<id>:<user>:`
 */

export interface Upid {
  node: string;
  /** Worker process id. */
  pid: number;
  /** Process start time in clock ticks since boot. */
  pstart: number;
  /** Unix epoch seconds. */
  starttime: number;
  /** Task type, e.g. qmclone, qmstart, qmdestroy. */
  type: string;
  /** Task subject, usually a VMID (for qmclone the SOURCE vmid); may be empty. */
  id: string;
  /** The user or API token id that started the task, e.g. root@pam!controlplane. */
  user: string;
}

/** A task as Proxmox reports it: its UPID, the fields the UPID encodes, and whether it ended. */
export interface ProxmoxTaskState extends Upid {
  upid: string;
  status: 'running' | 'stopped';
  /** Set once stopped: "OK", "WARNINGS: N" or an error text. */
  exitstatus?: string;
}

const UPID_RE =
  /^UPID:([a-zA-Z0-9](?:[a-zA-Z0-9-]*[a-zA-Z0-9])?):([0-9A-Fa-f]{8}):([0-9A-Fa-f]{8,9}):([0-9A-Fa-f]{8}):([^:\s]+):([^:\s]*):([^:\s]+):$/;

export function isUpid(value: unknown): value is string {
  return typeof value === 'string' && UPID_RE.test(value);
}

/** Parses a UPID; throws a TypeError on anything else. */
export function parseUpid(upid: string): Upid {
  const m = UPID_RE.exec(upid);
  if (!m) throw new TypeError(`not a Proxmox task id: ${JSON.stringify(upid.slice(0, 200))}`);
  const [, node, pid, pstart, starttime, type, id, user] = m as unknown as [string, string, string, string, string, string, string, string];
  return {
    node,
    pid: parseInt(pid, 16),
    pstart: parseInt(pstart, 16),
    starttime: parseInt(starttime, 16),
    type,
    id,
    user,
  };
}

function hex(n: number, width: number): string {
  return Math.trunc(n).toString(16).toUpperCase().padStart(width, '0');
}

export function formatUpid(u: Upid): string {
  return `UPID:${u.node}:${hex(u.pid, 8)}:${hex(u.pstart, 8)}:${hex(u.starttime, 8)}:${u.type}:${u.id}:${u.user}:`;
}

/** Parses a task exit status. "OK" and "WARNINGS: N" are success; anything else is an error text. */
export function parseExitStatus(exitstatus: string): { ok: boolean; warnings: number } {
  if (exitstatus === 'OK') return { ok: true, warnings: 0 };
  const m = /^WARNINGS: (\d+)$/.exec(exitstatus);
  if (m) return { ok: true, warnings: Number(m[1]) };
  return { ok: false, warnings: 0 };
}
