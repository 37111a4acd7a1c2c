/** Every error a client can see: a stable code, its HTTP status, and a message safe to show. */
export const ERROR_STATUS = {
  INVALID_INPUT: 400,
  UNAUTHENTICATED: 401,
  FORBIDDEN: 403,
  /** A state-changing request signed in with a session cookie came without its session's X-CSRF-Token header. */
  CSRF_TOKEN_INVALID: 403,
  NOT_FOUND: 404,
  CONFLICT: 409,
  INVALID_STATE: 409,
  OPERATION_IN_PROGRESS: 409,
  CONNECTION_OVERLAP: 409,
  /** The connection's API token lacks privileges of the minimal role (docs/security.md); `details.missing` lists them. */
  CONNECTION_PRIVILEGES_MISSING: 422,
  /** A node that servers still live on (or are moving to) cannot leave its connection: drain it and move them first. */
  NODE_IN_USE: 409,
  /** A VMID range that would leave out VMIDs still held (by servers, or quarantined). */
  VMID_RANGE_IN_USE: 409,
  /** A power (or other) operation while the server is being backed up. */
  BACKUP_IN_PROGRESS: 409,
  /** A customer deleting a protected backup. */
  BACKUP_PROTECTED: 409,
  /** An in-place restore of a server whose host cannot read the backup's archive (it moved): restore it as a new server. */
  BACKUP_NOT_ON_HOST: 409,
  /** Deleting a backup a new server is being restored from. */
  BACKUP_IN_USE: 409,
  /** A create from a backup that is not `available` (still being made, failed, lost or being deleted). */
  BACKUP_NOT_RESTORABLE: 409,
  /** An SSH key that is not one OpenSSH public key line (garbage, a private key, several keys in one string). */
  SSH_KEY_INVALID: 400,
  /** An SSH public key of a type or size not accepted on an account (DSA, RSA under 2048 bits, security-key types): see docs/security.md. */
  SSH_KEY_TYPE_NOT_ALLOWED: 422,
  /** The account holds a key with the same fingerprint already (`details.sshKeyId` names it). */
  SSH_KEY_EXISTS: 409,
  CREDENTIAL_ALREADY_REVEALED: 410,
  CREDENTIAL_EXPIRED: 410,
  /** The invite link is unknown, used already, expired or revoked: whoever invited can send a new one. */
  INVITE_INVALID: 410,
  /** `If-Match` names a revision that is no longer the current one (a server's firewall changed since it was read). */
  PRECONDITION_FAILED: 412,
  PAYLOAD_TOO_LARGE: 413,
  UNSUPPORTED_MEDIA_TYPE: 415,
  QUOTA_EXCEEDED: 422,
  IMAGE_SSH_KEY_REQUIRED: 422,
  IMAGE_LOGIN_METHOD_UNSUPPORTED: 422,
  UNSUPPORTED: 422,
  /** A create (or resize, or rebuild with another image) names a plan, image, location or pool an admin archived. */
  ARCHIVED: 422,
  /** `userData` for a location whose connection has no snippets storage. */
  USER_DATA_UNSUPPORTED: 422,
  /** A connection's snippets directory holds files Proxmox does not list on every node of the connection. */
  SNIPPETS_NOT_VISIBLE: 422,
  /** An image from a URL names a storage that does not take content type `import` (or no node of a location has it). */
  IMAGE_STORAGE_REFUSED: 422,
  /** An image's checksum file (`source.checksumUrl`) does not list the file its URL names, in the image's algorithm. */
  IMAGE_CHECKSUM_NOT_LISTED: 422,
  /** An image's checksum file could not be read: no connection, no answer in time, an answer other than 200, or too large. */
  IMAGE_CHECKSUM_URL_UNREACHABLE: 422,
  /** An image's checksum URL points at a loopback, link-local, private or other special-purpose address (CHECKSUM_URL_ALLOW_PRIVATE_TARGETS allows them). */
  IMAGE_CHECKSUM_URL_REFUSED: 422,
  /** An image deleted while a provision or rebuild from it is in flight: its templates must stay until that clone is done. */
  IMAGE_CLONE_IN_FLIGHT: 409,
  /** The server's plan allows no more snapshots (or none at all). */
  SNAPSHOT_LIMIT_REACHED: 422,
  /** The server's location stores disks where Proxmox VE cannot snapshot them. */
  SNAPSHOTS_UNSUPPORTED: 422,
  /** The server's plan allows no more backups (or none at all). */
  BACKUP_LIMIT_REACHED: 422,
  /** The server's location has no backup storage. */
  BACKUPS_UNSUPPORTED: 422,
  /** A console for a server that is not running. */
  INSTANCE_NOT_RUNNING: 409,
  /** A console while an operation replaces or moves the server's guest (rebuild, migrate, restore, ...). */
  INSTANCE_BUSY: 409,
  /** A screen console for a server without a display (`vga: serial0`): its serial console works. */
  CONSOLE_TYPE_UNAVAILABLE: 422,
  /** A serial console on a cluster whose access control predates token-owned console tickets. */
  CONSOLE_UNSUPPORTED: 422,
  /** The server is in rescue mode: leave it first (a resize, rebuild, restore, rollback, migration, ISO or boot-order change). */
  IN_RESCUE: 409,
  /** The ISO is not ready on the server's host (another location or node, or still downloading or failed). */
  ISO_NOT_AVAILABLE: 422,
  /** The server's location has no ISO storage, no ready rescue ISO, or no snippets storage to hand the rescue password over. */
  RESCUE_UNAVAILABLE: 422,
  /** A create from a backup whose server had a larger disk than the plan gives. */
  PLAN_DISK_TOO_SMALL: 422,
  /** A server's firewall rules (its groups' rules counted in), or a group's, would pass the limit. */
  FIREWALL_RULE_LIMIT: 422,
  /** A firewall group that servers still name cannot be deleted: take it out of their rules first. */
  FIREWALL_GROUP_IN_USE: 409,
  /** A create in a project that would pass the project's own quota (inside the tenant's). */
  PROJECT_QUOTA_EXCEEDED: 422,
  /** A create in a project with a plan, image or location its restrictions leave out. */
  PROJECT_PLAN_NOT_ALLOWED: 422,
  PROJECT_IMAGE_NOT_ALLOWED: 422,
  PROJECT_LOCATION_NOT_ALLOWED: 422,
  /** A project that still has servers cannot be deleted: delete them first. */
  PROJECT_IN_USE: 409,
  /** The tenant's default project cannot be deleted. */
  PROJECT_IS_DEFAULT: 409,
  RATE_LIMITED: 429,
  /** The user holds as many consoles open as CONSOLE_SESSIONS_PER_USER allows. */
  CONSOLE_LIMIT: 429,
  /** Proxmox VE refused the connection's token a privilege of the minimal role (docs/security.md). */
  PROVIDER_PERMISSION_DENIED: 502,
  /** Too many failed sign-ins for the account or from the address; `details.retryAfterSeconds` says when to try again. */
  SIGN_IN_LOCKED: 429,
  CAPACITY_UNAVAILABLE: 503,
  PROVIDER_UNAVAILABLE: 503,
  SERVICE_BUSY: 503,
  SERVICE_UNAVAILABLE: 503,
  INTERNAL: 500,
} as const;

export type ErrorCode = keyof typeof ERROR_STATUS;

export class AppError extends Error {
  override name = 'AppError';
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly details?: Record<string, unknown>,
  ) {
    super(message);
  }

  get status(): number {
    return ERROR_STATUS[this.code];
  }
}

export const notFound = (what = 'resource') => new AppError('NOT_FOUND', `The ${what} was not found.`);

/** The request lost its turn to contention (pool, locks, reruns); nothing was changed. */
export const serviceBusy = () => new AppError('SERVICE_BUSY', 'Too many requests are being handled right now; nothing was changed. Please retry.', { retryAfterSeconds: 1 });
