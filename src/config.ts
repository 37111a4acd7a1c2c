import path from 'node:path';
import ipaddr from 'ipaddr.js';
import { z } from 'zod';

const integer = (fallback: number) => z.coerce.number().int().positive().default(fallback);
const seconds = (fallback: number) => z.coerce.number().int().min(0).default(fallback);

const isAesKey = (base64: string) => Buffer.from(base64, 'base64').length === 32;
const KEY_MESSAGE = 'must be 32 bytes encoded as base64 (openssl rand -base64 32)';
const KEY_ID = /^[A-Za-z0-9_-]{1,32}$/;
/** An empty variable counts as unset (`ENCRYPTION_KEY=` in an env file). */
const optional = <T extends z.ZodType>(schema: T) => z.preprocess((v) => (v === '' ? undefined : v), schema.optional());

/** An IP address or a host name to listen on. */
const bindAddress = z.union([z.ipv4(), z.ipv6(), z.hostname()], { error: 'must be an IP address or a host name' });

/** The address ranges Express names (proxy-addr): 127.0.0.1/8 and ::1/128, 169.254.0.0/16 and fe80::/10, 10/8, 172.16/12, 192.168/16 and fc00::/7. */
const NAMED_PROXY_RANGES = new Set(['loopback', 'linklocal', 'uniquelocal']);

const isAddress = (text: string) => ipaddr.IPv4.isValidFourPartDecimal(text) || ipaddr.IPv6.isValid(text);
const isRange = (text: string) => {
  const slash = text.lastIndexOf('/');
  const bits = text.slice(slash + 1);
  if (slash < 0 || !/^\d{1,3}$/.test(bits)) return false;
  const address = text.slice(0, slash);
  return (ipaddr.IPv4.isValidFourPartDecimal(address) && Number(bits) <= 32) || (ipaddr.IPv6.isValid(address) && Number(bits) <= 128);
};

/**
 * Which peers may name the client's address in X-Forwarded-For, as Express's `trust proxy` takes
 * it: a number of proxy hops in front of the API (0: none), or a comma-separated list of
 * addresses, CIDR ranges and the names loopback, linklocal and uniquelocal. `true` (everyone) is
 * refused: any client could then name any address and step around the per-address lockout.
 */
const trustProxy = z
  .string()
  .default('loopback')
  .transform((text, ctx): number | string[] => {
    const trimmed = text.trim();
    if (/^\d{1,3}$/.test(trimmed)) return Number(trimmed);
    const entries = trimmed.split(',').map((entry) => entry.trim());
    entries.forEach((entry, index) => {
      if (!NAMED_PROXY_RANGES.has(entry) && !isAddress(entry) && !isRange(entry)) {
        ctx.addIssue({ code: 'custom', message: `entry ${index + 1} must be an IP address, a CIDR range (10.0.0.0/8), loopback, linklocal or uniquelocal; or the whole value a number of proxy hops` });
      }
    });
    return entries;
  });

/** The key id ENCRYPTION_KEY gets in the ring; ciphertexts written before key ids existed open with it. */
export const PRIMARY_KEY_ID = 'primary';

export interface EncryptionKeyRing {
  keys: { id: string; key: string }[];
  writeKeyId: string;
}

/**
 * The key ring from ENCRYPTION_KEY (id `primary`), ENCRYPTION_KEYS (`id:base64,...`) and
 * ENCRYPTION_KEY_ID (the key new secrets are sealed with), or the problems with them. Messages
 * name the variable and the key's position or id, never a key.
 */
export function parseEncryptionKeyRing(env: { ENCRYPTION_KEY?: string; ENCRYPTION_KEYS?: string; ENCRYPTION_KEY_ID?: string }): EncryptionKeyRing | { problems: { variable: string; message: string }[] } {
  const problems: { variable: string; message: string }[] = [];
  const keys: EncryptionKeyRing['keys'] = [];
  if (env.ENCRYPTION_KEY !== undefined) keys.push({ id: PRIMARY_KEY_ID, key: env.ENCRYPTION_KEY });
  (env.ENCRYPTION_KEYS ?? '')
    .split(',')
    .map((entry) => entry.trim())
    .forEach((entry, index) => {
      if (!entry) return;
      const colon = entry.indexOf(':');
      const id = entry.slice(0, colon);
      if (colon < 0 || !KEY_ID.test(id)) {
        problems.push({ variable: 'ENCRYPTION_KEYS', message: `entry ${index + 1} must be <id>:<base64 key> with an id of 1-32 letters, digits, _ or -` });
      } else if (!isAesKey(entry.slice(colon + 1))) {
        problems.push({ variable: 'ENCRYPTION_KEYS', message: `key "${id}" ${KEY_MESSAGE}` });
      } else if (keys.some((key) => key.id === id)) {
        const clash = id === PRIMARY_KEY_ID && env.ENCRYPTION_KEY !== undefined ? ' (ENCRYPTION_KEY is the key "primary")' : '';
        problems.push({ variable: 'ENCRYPTION_KEYS', message: `key id "${id}" appears twice${clash}` });
      } else {
        keys.push({ id, key: entry.slice(colon + 1) });
      }
    });
  if (keys.length === 0 && problems.length === 0) {
    problems.push({ variable: 'ENCRYPTION_KEY', message: `required (or ENCRYPTION_KEYS): ${KEY_MESSAGE}` });
  }
  const writeKeyId = env.ENCRYPTION_KEY_ID ?? (env.ENCRYPTION_KEY !== undefined ? PRIMARY_KEY_ID : keys.length === 1 ? keys[0]?.id : undefined);
  if (problems.length === 0) {
    if (writeKeyId === undefined) {
      problems.push({ variable: 'ENCRYPTION_KEY_ID', message: 'required when ENCRYPTION_KEYS holds several keys: the id of the key that encrypts new secrets' });
    } else if (!keys.some((key) => key.id === writeKeyId)) {
      problems.push({ variable: 'ENCRYPTION_KEY_ID', message: 'must name a key of ENCRYPTION_KEYS (or "primary" for ENCRYPTION_KEY)' });
    }
  }
  return problems.length > 0 || writeKeyId === undefined ? { problems } : { keys, writeKeyId };
}

/** Every setting the processes read, validated once at start. */
export const configSchema = z.object({
  NODE_ENV: z.enum(['development', 'test', 'production']).default('development'),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  /**
   * The address the API (and, unless METRICS_HOST says otherwise, the metrics listener) binds to:
   * loopback unless set, so only a reverse proxy on the same host reaches it. `0.0.0.0` or `::`
   * for every interface (a container behind its platform's proxy).
   */
  HOST: bindAddress.default('127.0.0.1'),
  DATABASE_URL: z.url({ protocol: /^postgres(ql)?$/ }).default('postgresql://postgres@127.0.0.1:5432/pve_control_plane'),
  TEMPORAL_ADDRESS: z.string().min(1).default('127.0.0.1:7233'),
  TEMPORAL_NAMESPACE: z.string().min(1).default('default'),
  TEMPORAL_TASK_QUEUE: z.string().min(1).default('provisioning'),
  /** TLS to Temporal with the system's trust store (implied by a CA file, a client certificate or an API key). */
  TEMPORAL_TLS: z.enum(['0', '1', 'true', 'false']).default('false').transform((v) => v === '1' || v === 'true'),
  /** PEM file of the CA that signed the Temporal frontend's certificate. */
  TEMPORAL_TLS_CA_FILE: z.string().min(1).optional(),
  /** PEM files of this process's client certificate and key (mTLS); both or neither. */
  TEMPORAL_TLS_CERT_FILE: z.string().min(1).optional(),
  TEMPORAL_TLS_KEY_FILE: z.string().min(1).optional(),
  /** The name the frontend's certificate carries, when it differs from the address's host. */
  TEMPORAL_TLS_SERVER_NAME: z.string().min(1).optional(),
  /** API key sent as a bearer token (e.g. Temporal Cloud); a secret, never logged. */
  TEMPORAL_API_KEY: z.string().min(1).optional(),
  /** 32 bytes, base64: encrypts credentials and Proxmox token secrets at rest (AES-256-GCM); the key `primary` of the ring. */
  ENCRYPTION_KEY: optional(z.string().refine(isAesKey, KEY_MESSAGE)),
  /** More keys of the ring, `id:base64,id:base64`: every key opens what it sealed. */
  ENCRYPTION_KEYS: optional(z.string()),
  /** The key that seals new secrets (default: `primary`, or the only key of ENCRYPTION_KEYS). */
  ENCRYPTION_KEY_ID: optional(z.string()),
  BOOTSTRAP_ADMIN_TOKEN: z.string().min(16, 'must be at least 16 characters').optional(),
  RATE_LIMIT_CREATE_PER_MINUTE: integer(5),
  RATE_LIMIT_CREATE_PER_HOUR: integer(20),
  CREDENTIAL_TTL_HOURS: integer(24),
  /** Seconds a given-back VMID stays out of circulation, so a late destroy on Proxmox never meets the next server (0: reuse at once). */
  VMID_REUSE_COOLDOWN_SECONDS: seconds(600),
  /** Seconds a given-back address stays out of circulation, so DNS and ARP caches pointing at it expire before the next tenant gets it (0: reuse at once). */
  ADDRESS_REUSE_COOLDOWN_SECONDS: seconds(3600),
  /** Hours an Idempotency-Key replays its create; an older key is treated as new, and the reconciler deletes it. */
  IDEMPOTENCY_KEY_TTL_HOURS: integer(24),
  DEFAULT_USERNAME: z.string().regex(/^[a-z_][a-z0-9_-]{0,31}$/).default('cloud'),
  /** Seconds an ACPI shutdown may take before a forced stop. */
  SHUTDOWN_TIMEOUT_SECONDS: integer(60),
  /** Scales every stage's time budget (tests shorten them). */
  STAGE_TIMEOUT_SCALE: z.coerce.number().positive().default(1),
  /**
   * Task waiting pace (see ProxmoxTaskWatcher): a node's task list is read at most every fifth of
   * this, and a task polled on its own (fallback) at most this far apart.
   */
  TASK_POLL_INTERVAL_MS: integer(500),
  /**
   * How long a worker waits for a snippet it wrote to show in Proxmox's listing of the storage
   * (shared storages may show it late: NFS clients cache directory listings). Bounded below the
   * cloud_init stage's attempt (120 s × STAGE_TIMEOUT_SCALE).
   */
  SNIPPETS_VISIBLE_WITHIN_SECONDS: z.coerce.number().int().min(0).max(90).default(30),
  /** Whether new Proxmox connections skip TLS verification unless they say otherwise; keep it off outside labs. */
  PROXMOX_INSECURE_TLS_DEFAULT: z.enum(['0', '1', 'true', 'false']).default('false').transform((v) => v === '1' || v === 'true'),
  /** How often each Proxmox connection's Reconcile workflow runs (its Temporal Schedule). */
  RECONCILE_INTERVAL_SECONDS: integer(30),
  /**
   * How many guests of a connection each reconcile pass checks the firewall of (anti-spoofing and
   * the rules), those checked longest ago first: the calls a pass costs stay the same at any number
   * of guests, and every guest is looked at once per ceil(guests / this) passes.
   */
  FIREWALL_CHECKS_PER_PASS: z.coerce.number().int().min(1).max(5000).default(200),
  /** How often each Proxmox connection's traffic sampler (SampleTraffic, a Temporal Schedule) reads every guest's counters. */
  TRAFFIC_SAMPLE_SECONDS: integer(300),
  /** A server in rescue mode longer than this is reported to operators by every reconcile pass (a warning in the log). */
  RESCUE_REPORT_AFTER_HOURS: integer(24),
  /** How long a committed task may wait for its workflow start to be confirmed before the reconciler starts it. */
  START_INTENT_GRACE_SECONDS: integer(15),
  /** Lets webhook endpoints point at loopback, link-local and private addresses (checked at registration and at every delivery). */
  WEBHOOK_ALLOW_PRIVATE_TARGETS: z.enum(['0', '1', 'true', 'false']).default('false').transform((v) => v === '1' || v === 'true'),
  /**
   * Lets an image's checksum URL (read by the control plane itself, unlike the image, which Proxmox
   * VE fetches) point at loopback, link-local and private addresses: labs, tests, a local mirror.
   */
  CHECKSUM_URL_ALLOW_PRIVATE_TARGETS: z.enum(['0', '1', 'true', 'false']).default('false').transform((v) => v === '1' || v === 'true'),
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
  /** Workflows a worker keeps in memory (bench/README.md measures the cost); an evicted one replays its short history on its next task. */
  WORKER_MAX_CACHED_WORKFLOWS: integer(64),
  /** Activities a worker runs at once; most wait on a Proxmox task or the database, so this is many more than cores. */
  WORKER_MAX_CONCURRENT_ACTIVITIES: integer(100),
  /** Workflow tasks a worker runs at once. */
  WORKER_MAX_CONCURRENT_WORKFLOW_TASKS: integer(40),
  /** PostgreSQL connections each API or worker process opens at most. */
  DATABASE_POOL_SIZE: integer(10),
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
  /** Seconds a server's usage graphs (GET /v1/instances/{id}/metrics) are kept per server and time frame before Proxmox VE is read again. */
  METRICS_CACHE_SECONDS: seconds(15),
  /** How long an API or worker process may take to stop after SIGTERM or SIGINT. */
  SIGTERM_GRACE_SECONDS: integer(10),
  /** Guest consoles (screen or serial) one user may hold open at once, tickets not yet redeemed included. */
  CONSOLE_SESSIONS_PER_USER: integer(3),
  /** Seconds a console ticket may wait to be redeemed (at most 30). */
  CONSOLE_TICKET_SECONDS: integer(30).pipe(z.number().max(30, 'at most 30')),
  /** A guest console ends after this long (reason `max_duration`); the page asks for a fresh ticket. */
  CONSOLE_MAX_SECONDS: integer(4 * 3600),
  /** A guest console with no input from its client for this long ends (reason `idle_timeout`). */
  CONSOLE_IDLE_SECONDS: integer(900),
  /** How often an open guest console checks that its server still runs where it ran. */
  CONSOLE_WATCH_SECONDS: integer(2),
  /**
   * An open console's slot is held by a lease its API process renews (every third of this); when
   * the process dies the slot is free again after at most this long.
   */
  CONSOLE_LEASE_SECONDS: integer(30),
  /** Hours a console session lasts at most from sign-in. */
  SESSION_TTL_HOURS: integer(12),
  /** A console session unused for this many minutes ends. */
  SESSION_IDLE_MINUTES: integer(120),
  /** Hours an invite link stays usable. */
  INVITE_TTL_HOURS: integer(72),
  /** Failed sign-ins of one account within LOGIN_LOCKOUT_MINUTES that lock it for the rest of that window. */
  LOGIN_MAX_FAILURES_PER_ACCOUNT: integer(5),
  /** Failed sign-ins from one address within LOGIN_LOCKOUT_MINUTES that lock the address out. */
  LOGIN_MAX_FAILURES_PER_ADDRESS: integer(20),
  LOGIN_LOCKOUT_MINUTES: integer(15).pipe(z.number().max(1440, 'at most 1440 (a day)')),
  /** Password hashes (scrypt, 128 MiB each) an API process computes at once; keep it below the thread pool's size (UV_THREADPOOL_SIZE, 4). */
  PASSWORD_HASHING_CONCURRENCY: integer(2).pipe(z.number().max(64, 'at most 64')),
  /** Password checks that may wait for a hashing slot; more at once answer 503 SERVICE_BUSY with Retry-After. */
  PASSWORD_HASHING_QUEUE: z.coerce.number().int().min(0).max(1000).default(8),
  /** Which proxies may name the client's address in X-Forwarded-For (see trustProxy). */
  TRUST_PROXY: trustProxy,
  /** Where people reach the console; invite links point here, and over https the session cookie is `Secure` and `__Host-` prefixed. */
  PUBLIC_URL: z.url({ protocol: /^https?$/ }).default('http://127.0.0.1:3000').transform((url) => url.replace(/\/+$/, '')),
  /** The built console (`npm run build:web`), served at `/`. */
  WEB_DIST_DIR: z.string().min(1).default(path.join(__dirname, '..', 'web', 'dist')),
  /** The Temporal Web UI, linked from the operator pages. */
  TEMPORAL_UI_URL: z.url({ protocol: /^https?$/ }).default('http://127.0.0.1:8233').transform((url) => url.replace(/\/+$/, '')),
  /** Serve /metrics on this port only (not on PORT). */
  METRICS_PORT: z.coerce.number().int().min(0).max(65535).optional(),
  /** The address the METRICS_PORT listener binds to (default: HOST), e.g. the interface Prometheus scrapes. */
  METRICS_HOST: bindAddress.optional(),
  /** When set, /metrics needs `Authorization: Bearer <METRICS_TOKEN>`. */
  METRICS_TOKEN: z.string().min(16, 'must be at least 16 characters').optional(),
}).superRefine((config, ctx) => {
  if (Boolean(config.TEMPORAL_TLS_CERT_FILE) !== Boolean(config.TEMPORAL_TLS_KEY_FILE)) {
    ctx.addIssue({ code: 'custom', path: [config.TEMPORAL_TLS_CERT_FILE ? 'TEMPORAL_TLS_KEY_FILE' : 'TEMPORAL_TLS_CERT_FILE'], message: 'a client certificate needs both TEMPORAL_TLS_CERT_FILE and TEMPORAL_TLS_KEY_FILE' });
  }
  const ring = parseEncryptionKeyRing(config);
  if ('problems' in ring) for (const { variable, message } of ring.problems) ctx.addIssue({ code: 'custom', path: [variable], message });
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

/** The encryption key ring of a validated configuration. */
export function encryptionKeyRing(config: Config): EncryptionKeyRing {
  const ring = parseEncryptionKeyRing(config);
  if ('problems' in ring) throw new ConfigError('Invalid configuration: the encryption keys');
  return ring;
}
