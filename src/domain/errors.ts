/** Every error a client can see: a stable code, its HTTP status, and a message safe to show. */
export const ERROR_STATUS = {
  INVALID_INPUT: 400,
  UNAUTHENTICATED: 401,
  FORBIDDEN: 403,
  NOT_FOUND: 404,
  CONFLICT: 409,
  INVALID_STATE: 409,
  OPERATION_IN_PROGRESS: 409,
  CONNECTION_OVERLAP: 409,
  /** A power (or other) operation while the server is being backed up. */
  BACKUP_IN_PROGRESS: 409,
  /** A customer deleting a protected backup. */
  BACKUP_PROTECTED: 409,
  CREDENTIAL_ALREADY_REVEALED: 410,
  CREDENTIAL_EXPIRED: 410,
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
  /** The server's plan allows no more snapshots (or none at all). */
  SNAPSHOT_LIMIT_REACHED: 422,
  /** The server's location stores disks where Proxmox VE cannot snapshot them. */
  SNAPSHOTS_UNSUPPORTED: 422,
  /** The server's plan allows no more backups (or none at all). */
  BACKUP_LIMIT_REACHED: 422,
  /** The server's location has no backup storage. */
  BACKUPS_UNSUPPORTED: 422,
  RATE_LIMITED: 429,
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
