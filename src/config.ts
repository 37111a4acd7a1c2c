import { z } from 'zod';

const integer = (fallback: number) => z.coerce.number().int().positive().default(fallback);

/** Every setting the processes read, validated once at start. */
export const configSchema = z.object({
  NODE_ENV: z.enum(['development', 'test', 'production']).default('development'),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  DATABASE_URL: z.url({ protocol: /^postgres(ql)?$/ }).default('postgresql://postgres@127.0.0.1:5432/pve_control_plane'),
  TEMPORAL_ADDRESS: z.string().min(1).default('127.0.0.1:7233'),
  TEMPORAL_NAMESPACE: z.string().min(1).default('default'),
  TEMPORAL_TASK_QUEUE: z.string().min(1).default('provisioning'),
  /** 32 bytes, base64: encrypts credentials and Proxmox token secrets at rest (AES-256-GCM). */
  ENCRYPTION_KEY: z
    .string()
    .refine((v) => Buffer.from(v, 'base64').length === 32, 'must be 32 bytes encoded as base64 (openssl rand -base64 32)'),
  BOOTSTRAP_ADMIN_TOKEN: z.string().min(16, 'must be at least 16 characters').optional(),
  RATE_LIMIT_CREATE_PER_MINUTE: integer(5),
  RATE_LIMIT_CREATE_PER_HOUR: integer(20),
  CREDENTIAL_TTL_HOURS: integer(24),
  /** Hours an Idempotency-Key replays its create; an older key is treated as new, and the reconciler deletes it. */
  IDEMPOTENCY_KEY_TTL_HOURS: integer(24),
  DEFAULT_USERNAME: z.string().regex(/^[a-z_][a-z0-9_-]{0,31}$/).default('cloud'),
  /** Seconds an ACPI shutdown may take before a forced stop. */
  SHUTDOWN_TIMEOUT_SECONDS: integer(60),
  /** Scales every stage's time budget (tests shorten them). */
  STAGE_TIMEOUT_SCALE: z.coerce.number().positive().default(1),
  TASK_POLL_INTERVAL_MS: integer(500),
  /** Whether new Proxmox connections skip TLS verification unless they say otherwise; keep it off outside labs. */
  PROXMOX_INSECURE_TLS_DEFAULT: z.enum(['0', '1', 'true', 'false']).default('false').transform((v) => v === '1' || v === 'true'),
  /** How often each Proxmox connection's Reconcile workflow runs (its Temporal Schedule). */
  RECONCILE_INTERVAL_SECONDS: integer(30),
  /** How long a committed task may wait for its workflow start to be confirmed before the reconciler starts it. */
  START_INTENT_GRACE_SECONDS: integer(15),
  /** Lets webhook endpoints point at loopback, link-local and private addresses (checked at registration and at every delivery). */
  WEBHOOK_ALLOW_PRIVATE_TARGETS: z.enum(['0', '1', 'true', 'false']).default('false').transform((v) => v === '1' || v === 'true'),
  /** How long a webhook delivery is retried (with backoff) before it is marked failed. */
  WEBHOOK_RETRY_WINDOW_SECONDS: integer(86_400),
  /** The first retry's delay; each next one doubles, up to an hour. */
  WEBHOOK_RETRY_INITIAL_MS: integer(10_000),
  /** An endpoint whose deliveries have failed for this long without a success is disabled. */
  WEBHOOK_DISABLE_AFTER_SECONDS: integer(86_400),
  /** How often a worker looks for webhook deliveries whose delivery workflow is not running. */
  WEBHOOK_DISPATCH_INTERVAL_MS: integer(1_000),
  /** A prebuilt workflow bundle (`npm run build:workflows`); without it the worker bundles at start. */
  WORKFLOW_BUNDLE_PATH: z.string().min(1).optional(),
  /** Reads (GET) per API token and minute, shared by every API replica. */
  RATE_LIMIT_READS_PER_MINUTE: integer(1200),
  /** Lifecycle operations (start, stop, …, delete, migrate) per API token and minute. */
  RATE_LIMIT_OPERATIONS_PER_MINUTE: integer(60),
  /** Event streams (SSE) one API token may hold open at once, across every API replica. */
  EVENT_STREAMS_PER_TOKEN: integer(10),
  /** After this long a stream ends with `event: close` (reason `max_duration`); the client reconnects with Last-Event-ID. */
  EVENT_STREAM_MAX_SECONDS: integer(1800),
  /** Seconds between `: ping` comments on an event stream. */
  EVENT_STREAM_HEARTBEAT_SECONDS: integer(15),
  /** How long an API or worker process may take to stop after SIGTERM or SIGINT. */
  SIGTERM_GRACE_SECONDS: integer(10),
  /** Serve /metrics on this port only (not on PORT). */
  METRICS_PORT: z.coerce.number().int().min(0).max(65535).optional(),
  /** When set, /metrics needs `Authorization: Bearer <METRICS_TOKEN>`. */
  METRICS_TOKEN: z.string().min(16, 'must be at least 16 characters').optional(),
});

export type Config = z.infer<typeof configSchema>;

/** Reads the environment; on a bad value, throws one message naming each bad variable (never its value). */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const parsed = configSchema.safeParse(env);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((issue) => `  ${issue.path.join('.')}: ${issue.message}`);
    throw new ConfigError(`Invalid configuration:\n${lines.join('\n')}`);
  }
  return parsed.data;
}

export class ConfigError extends Error {
  override name = 'ConfigError';
}
