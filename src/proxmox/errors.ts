/**
 * Errors raised by the Proxmox VE client, and classifiers that turn Proxmox's
 * free-text failures into decisions (not found, already exists, locked, transient...).
 *
 * Proxmox reports most failures as HTTP 500 with the reason in the status line, so the
 * classifiers match on message text as well as on the HTTP status.
 */

/** How a call failed. `http`: Proxmox answered with an error status. */
export type ProxmoxErrorKind = 'http' | 'timeout' | 'network' | 'aborted' | 'protocol';

const NOT_FOUND_RE = /does not exist/i;
const ALREADY_EXISTS_RE = /already exists/i;
const ALREADY_RUNNING_RE = /already running/i;
const LOCKED_RE = /is locked \(([^)]+)\)/i;
const LOCK_TIMEOUT_RE = /can't lock file '[^']*' - got timeout/i;
const NO_SUCH_TASK_RE = /no such task/i;
const TRANSIENT_500_RE =
  /got no worker upid|got timeout|temporarily unavailable|connection (?:refused|reset|timed out)|no quorum|cluster not ready|try again later|timeout waiting on systemd/i;

/** Connection errors raised before any byte of the request could reach the server. */
const NOT_SENT_CODES = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH', 'ERR_INVALID_URL']);

function textOf(message: string, errors: Record<string, string>): string {
  const parts = [message, ...Object.values(errors)];
  return parts.join('\n');
}

/** Parses the lock kind out of "VM 100 is locked (clone)". */
export function parseLockKind(text: string): string | undefined {
  return LOCKED_RE.exec(text)?.[1];
}

export interface ProxmoxErrorInit {
  kind: ProxmoxErrorKind;
  method: string;
  path: string;
  message: string;
  status?: number;
  errors?: Record<string, string>;
  /** Low-level error code for network failures (ECONNRESET...). */
  code?: string;
  cause?: unknown;
}

/** A failed call to the Proxmox VE API. `path` is the path template, e.g. `/nodes/{node}/qemu/{vmid}/clone`. */
export class ProxmoxError extends Error {
  override readonly name = 'ProxmoxError';
  readonly kind: ProxmoxErrorKind;
  /** HTTP status, when Proxmox answered. */
  readonly status: number | undefined;
  /** Per-parameter messages from `{"data":null,"errors":{...}}`. */
  readonly errors: Record<string, string>;
  readonly method: string;
  readonly path: string;
  readonly code: string | undefined;

  constructor(init: ProxmoxErrorInit) {
    super(init.message, init.cause === undefined ? undefined : { cause: init.cause });
    this.kind = init.kind;
    this.status = init.status;
    this.errors = init.errors ?? {};
    this.method = init.method;
    this.path = init.path;
    this.code = init.code;
  }

  /** True for POST, PUT and DELETE. */
  get mutating(): boolean {
    return this.method !== 'GET';
  }

  /**
   * The request may or may not have taken effect on the server: a mutating call that timed
   * out, was aborted, or lost its connection after it could have been sent. Re-read the
   * provider's state before deciding anything; never resend blindly.
   */
  get outcomeUnknown(): boolean {
    if (!this.mutating) return false;
    if (this.kind === 'timeout' || this.kind === 'aborted' || this.kind === 'protocol') return true;
    if (this.kind === 'network') return !(this.code !== undefined && NOT_SENT_CODES.has(this.code));
    return false;
  }

  /** Proxmox answered and rejected the call: it did not happen. */
  get definitive(): boolean {
    return this.kind === 'http';
  }

  private get text(): string {
    return textOf(this.message, this.errors);
  }

  get isNotFound(): boolean {
    if (this.kind !== 'http') return false;
    if (this.status === 404) return true;
    return this.status !== undefined && this.status >= 500 && NOT_FOUND_RE.test(this.text);
  }

  get isAlreadyExists(): boolean {
    return this.kind === 'http' && ALREADY_EXISTS_RE.test(this.text);
  }

  get isAlreadyRunning(): boolean {
    return this.kind === 'http' && ALREADY_RUNNING_RE.test(this.text);
  }

  get isLocked(): boolean {
    return this.kind === 'http' && LOCKED_RE.test(this.text);
  }

  /** The lock named in "VM N is locked (<kind>)", e.g. `clone`, `migrate`, `backup`. */
  get lockKind(): string | undefined {
    return this.kind === 'http' ? parseLockKind(this.text) : undefined;
  }

  /** "can't lock file '/var/lock/qemu-server/lock-N.conf' - got timeout": another task holds the guest. */
  get isLockTimeout(): boolean {
    return this.kind === 'http' && LOCK_TIMEOUT_RE.test(this.text);
  }

  get isNoSuchTask(): boolean {
    return this.kind === 'http' && NO_SUCH_TASK_RE.test(this.text);
  }

  /** The token itself was refused (401). */
  get isUnauthorized(): boolean {
    return this.kind === 'http' && this.status === 401;
  }

  /** The token lacks a privilege the call needs (403 "Permission check failed (<path>, <privilege>)"). */
  get isPermissionDenied(): boolean {
    return this.kind === 'http' && this.status === 403;
  }

  get isParameterError(): boolean {
    return this.kind === 'http' && this.status === 400;
  }

  /**
   * A 5xx that explains nothing: it states no rule the call broke ("does not exist", "already
   * exists", "already running", locked, 501) and names no condition known to refuse before any work
   * (isTransient: a lock-file timeout, no worker...). A proxy error, a busy pvedaemon, a bare
   * "internal error": the call may pass when made again, and a mutating one may have taken effect
   * all the same (pveproxy can lose pvedaemon's answer).
   */
  get isUnexplained5xx(): boolean {
    if (this.kind !== 'http' || this.status === undefined || this.status < 500 || this.status === 501) return false;
    return !this.isTransient && !this.isLocked && !this.isNotFound && !this.isAlreadyExists && !this.isAlreadyRunning;
  }

  /**
   * Worth retrying later (for a mutating call: only after re-reading provider state).
   * Network failures, timeouts, gateway/proxy errors (502/503/504/595/596/599) and the 500s
   * Proxmox emits for contention or daemon trouble. A 500 carrying a rule failure
   * (locked, not found, already exists, shrinking...) is definitive, not transient.
   */
  get isTransient(): boolean {
    if (this.kind === 'timeout' || this.kind === 'network') return true;
    if (this.kind !== 'http' || this.status === undefined) return false;
    if (this.status === 500) return TRANSIENT_500_RE.test(this.text) && !this.isLocked;
    return this.status === 502 || this.status === 503 || this.status === 504 || this.status >= 595;
  }
}

/** A Proxmox task (UPID) that finished with an error exit status. */
export class ProxmoxTaskError extends Error {
  override readonly name = 'ProxmoxTaskError';
  readonly upid: string;
  /** The task's exit text as Proxmox reports it, e.g. "VM 100 already running". */
  readonly exitstatus: string;

  constructor(upid: string, exitstatus: string, type?: string) {
    super(type ? `task ${type} failed: ${exitstatus}` : `task failed: ${exitstatus}`);
    this.upid = upid;
    this.exitstatus = exitstatus;
  }

  get isNotFound(): boolean {
    return NOT_FOUND_RE.test(this.exitstatus);
  }
  get isAlreadyExists(): boolean {
    return ALREADY_EXISTS_RE.test(this.exitstatus);
  }
  get isAlreadyRunning(): boolean {
    return ALREADY_RUNNING_RE.test(this.exitstatus);
  }
  get isLocked(): boolean {
    return LOCKED_RE.test(this.exitstatus);
  }
  get lockKind(): string | undefined {
    return parseLockKind(this.exitstatus);
  }
  get isLockTimeout(): boolean {
    return LOCK_TIMEOUT_RE.test(this.exitstatus);
  }
}

/** Waiting for a task ran out of time; the task may still be running (or finish later). */
export class ProxmoxTaskTimeoutError extends Error {
  override readonly name = 'ProxmoxTaskTimeoutError';
  readonly upid: string;
  readonly lastStatus: string | undefined;
  constructor(upid: string, timeoutMs: number, lastStatus?: string) {
    super(`task did not finish within ${timeoutMs} ms (last status: ${lastStatus ?? 'unknown'})`);
    this.upid = upid;
    this.lastStatus = lastStatus;
  }
}

type Classified = ProxmoxError | ProxmoxTaskError;
function classified(err: unknown): Classified | undefined {
  return err instanceof ProxmoxError || err instanceof ProxmoxTaskError ? err : undefined;
}

/** 404, or a 500 / task failure saying something "does not exist". */
export function isNotFound(err: unknown): boolean {
  return classified(err)?.isNotFound ?? false;
}
export function isAlreadyExists(err: unknown): boolean {
  return classified(err)?.isAlreadyExists ?? false;
}
export function isAlreadyRunning(err: unknown): boolean {
  return classified(err)?.isAlreadyRunning ?? false;
}
export function isLocked(err: unknown): boolean {
  return classified(err)?.isLocked ?? false;
}
export function lockKindOf(err: unknown): string | undefined {
  return classified(err)?.lockKind;
}
export function isLockTimeout(err: unknown): boolean {
  return classified(err)?.isLockTimeout ?? false;
}
/** Transient call failures (see {@link ProxmoxError.isTransient}); task failures are never transient. */
export function isTransient(err: unknown): boolean {
  return err instanceof ProxmoxError ? err.isTransient : false;
}
/** A mutating call whose effect is unknown (timeout, dropped connection): re-read provider state. */
export function isOutcomeUnknown(err: unknown): boolean {
  return err instanceof ProxmoxError ? err.outcomeUnknown : false;
}
