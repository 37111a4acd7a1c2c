import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { ConfigError, encryptionKeyRing, loadConfig } from '../../src/config';

const KEY = randomBytes(32).toString('base64');

/** Runs loadConfig and returns its error message; fails the test when it accepts the environment. */
function refusal(env: NodeJS.ProcessEnv): string {
  try {
    loadConfig(env);
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return (error as Error).message;
  }
  throw new Error('expected the configuration to be refused');
}

describe('loadConfig: defaults', () => {
  it('needs nothing but the encryption key and fills in every other setting', () => {
    expect(loadConfig({ ENCRYPTION_KEY: KEY })).toEqual({
      NODE_ENV: 'development',
      LOG_LEVEL: 'info',
      PORT: 3000,
      HOST: '127.0.0.1',
      DATABASE_URL: 'postgresql://postgres@127.0.0.1:5432/pve_control_plane',
      TEMPORAL_ADDRESS: '127.0.0.1:7233',
      TEMPORAL_NAMESPACE: 'default',
      TEMPORAL_TASK_QUEUE: 'provisioning',
      TEMPORAL_TLS: false,
      ENCRYPTION_KEY: KEY,
      RATE_LIMIT_CREATE_PER_MINUTE: 5,
      RATE_LIMIT_CREATE_PER_HOUR: 20,
      VMID_REUSE_COOLDOWN_SECONDS: 600,
      ADDRESS_REUSE_COOLDOWN_SECONDS: 3600,
      CREDENTIAL_TTL_HOURS: 24,
      IDEMPOTENCY_KEY_TTL_HOURS: 24,
      DEFAULT_USERNAME: 'cloud',
      SHUTDOWN_TIMEOUT_SECONDS: 60,
      STAGE_TIMEOUT_SCALE: 1,
      TASK_POLL_INTERVAL_MS: 500,
      SNIPPETS_VISIBLE_WITHIN_SECONDS: 30,
      PROXMOX_INSECURE_TLS_DEFAULT: false,
      RECONCILE_INTERVAL_SECONDS: 30,
      FIREWALL_CHECKS_PER_PASS: 200,
      TRAFFIC_SAMPLE_SECONDS: 300,
      RESCUE_REPORT_AFTER_HOURS: 24,
      START_INTENT_GRACE_SECONDS: 15,
      CHECKSUM_URL_ALLOW_PRIVATE_TARGETS: false,
      WEBHOOK_ALLOW_PRIVATE_TARGETS: false,
      WEBHOOK_RETRY_WINDOW_SECONDS: 86_400,
      WEBHOOK_RETRY_INITIAL_MS: 10_000,
      WEBHOOK_DISABLE_AFTER_SECONDS: 86_400,
      WEBHOOK_DISPATCH_INTERVAL_MS: 1_000,
      WORKER_MAX_CACHED_WORKFLOWS: 64,
      WORKER_MAX_CONCURRENT_ACTIVITIES: 100,
      WORKER_MAX_CONCURRENT_WORKFLOW_TASKS: 40,
      DATABASE_POOL_SIZE: 10,
      RATE_LIMIT_READS_PER_MINUTE: 1200,
      RATE_LIMIT_OPERATIONS_PER_MINUTE: 60,
      EVENT_STREAMS_PER_TOKEN: 10,
      EVENT_STREAM_MAX_SECONDS: 1800,
      EVENT_STREAM_HEARTBEAT_SECONDS: 15,
      METRICS_CACHE_SECONDS: 15,
      SIGTERM_GRACE_SECONDS: 10,
      CONSOLE_SESSIONS_PER_USER: 3,
      CONSOLE_TICKET_SECONDS: 30,
      CONSOLE_MAX_SECONDS: 14400,
      CONSOLE_IDLE_SECONDS: 900,
      CONSOLE_LEASE_SECONDS: 30,
      CONSOLE_WATCH_SECONDS: 2,
      SESSION_TTL_HOURS: 12,
      SESSION_IDLE_MINUTES: 120,
      INVITE_TTL_HOURS: 72,
      LOGIN_MAX_FAILURES_PER_ACCOUNT: 5,
      LOGIN_MAX_FAILURES_PER_ADDRESS: 20,
      LOGIN_LOCKOUT_MINUTES: 15,
      PASSWORD_HASHING_CONCURRENCY: 2,
      PASSWORD_HASHING_QUEUE: 8,
      TRUST_PROXY: ['loopback'],
      PUBLIC_URL: 'http://127.0.0.1:3000',
      WEB_DIST_DIR: path.resolve(__dirname, '..', '..', 'web', 'dist'),
      TEMPORAL_UI_URL: 'http://127.0.0.1:8233',
    });
  });

  it('takes the console settings, trimming a trailing slash from its URLs and refusing a lockout longer than a day', () => {
    const config = loadConfig({ ENCRYPTION_KEY: KEY, PUBLIC_URL: 'https://console.example.com/', TEMPORAL_UI_URL: 'https://temporal.example.com/' });
    expect(config.PUBLIC_URL).toBe('https://console.example.com');
    expect(config.TEMPORAL_UI_URL).toBe('https://temporal.example.com');
    expect(refusal({ ENCRYPTION_KEY: KEY, LOGIN_LOCKOUT_MINUTES: '1441' })).toContain('LOGIN_LOCKOUT_MINUTES');
    expect(refusal({ ENCRYPTION_KEY: KEY, PUBLIC_URL: 'ftp://example.com' })).toContain('PUBLIC_URL');
  });

  it('leaves the optional settings unset', () => {
    const config = loadConfig({ ENCRYPTION_KEY: KEY });
    expect(config.BOOTSTRAP_ADMIN_TOKEN).toBeUndefined();
    expect(config.WORKFLOW_BUNDLE_PATH).toBeUndefined();
    expect(config.METRICS_PORT).toBeUndefined();
    expect(config.METRICS_HOST).toBeUndefined();
    expect(config.METRICS_TOKEN).toBeUndefined();
  });

  it('refuses to start without an encryption key, naming it', () => {
    expect(refusal({})).toContain('ENCRYPTION_KEY');
  });

  it('ignores variables it does not know', () => {
    expect(loadConfig({ ENCRYPTION_KEY: KEY, PATH: '/usr/bin', HOME: '/root' })).not.toHaveProperty('PATH');
  });
});

describe('loadConfig: reading values', () => {
  it('turns numeric variables into numbers', () => {
    const config = loadConfig({
      ENCRYPTION_KEY: KEY,
      PORT: '8080',
      RATE_LIMIT_CREATE_PER_MINUTE: '10',
      CREDENTIAL_TTL_HOURS: '1',
      STAGE_TIMEOUT_SCALE: '0.05',
      TASK_POLL_INTERVAL_MS: '20',
    });
    expect(config).toMatchObject({ PORT: 8080, RATE_LIMIT_CREATE_PER_MINUTE: 10, CREDENTIAL_TTL_HOURS: 1, STAGE_TIMEOUT_SCALE: 0.05, TASK_POLL_INTERVAL_MS: 20 });
  });

  it('accepts port 0 (any free port) and 65535, and nothing beyond', () => {
    expect(loadConfig({ ENCRYPTION_KEY: KEY, PORT: '0' }).PORT).toBe(0);
    expect(loadConfig({ ENCRYPTION_KEY: KEY, PORT: '65535' }).PORT).toBe(65535);
    expect(refusal({ ENCRYPTION_KEY: KEY, PORT: '65536' })).toContain('PORT');
    expect(refusal({ ENCRYPTION_KEY: KEY, PORT: '-1' })).toContain('PORT');
    expect(refusal({ ENCRYPTION_KEY: KEY, PORT: '80.5' })).toContain('PORT');
  });

  it('accepts postgres:// and postgresql:// database URLs only', () => {
    expect(loadConfig({ ENCRYPTION_KEY: KEY, DATABASE_URL: 'postgres://app@db:5432/app' }).DATABASE_URL).toBe('postgres://app@db:5432/app');
    expect(loadConfig({ ENCRYPTION_KEY: KEY, DATABASE_URL: 'postgresql://app@db/app' }).DATABASE_URL).toBe('postgresql://app@db/app');
    expect(refusal({ ENCRYPTION_KEY: KEY, DATABASE_URL: 'mysql://app@db/app' })).toContain('DATABASE_URL');
    expect(refusal({ ENCRYPTION_KEY: KEY, DATABASE_URL: 'not a url' })).toContain('DATABASE_URL');
  });

  it('takes an IP address or a host name to listen on, and refuses anything else', () => {
    expect(loadConfig({ ENCRYPTION_KEY: KEY, HOST: '0.0.0.0', METRICS_HOST: '::' })).toMatchObject({ HOST: '0.0.0.0', METRICS_HOST: '::' });
    expect(loadConfig({ ENCRYPTION_KEY: KEY, HOST: 'api.internal' }).HOST).toBe('api.internal');
    expect(refusal({ ENCRYPTION_KEY: KEY, HOST: 'http://0.0.0.0' })).toContain('HOST');
    expect(refusal({ ENCRYPTION_KEY: KEY, METRICS_HOST: 'two words' })).toContain('METRICS_HOST');
  });

  it('takes TRUST_PROXY as Express does: a number of hops, or addresses, CIDR ranges and named ranges', () => {
    expect(loadConfig({ ENCRYPTION_KEY: KEY, TRUST_PROXY: '2' }).TRUST_PROXY).toBe(2);
    expect(loadConfig({ ENCRYPTION_KEY: KEY, TRUST_PROXY: '0' }).TRUST_PROXY).toBe(0);
    expect(loadConfig({ ENCRYPTION_KEY: KEY, TRUST_PROXY: ' loopback, 10.0.0.0/8,192.0.2.7, 2001:db8::/32, fd00::1, uniquelocal ' }).TRUST_PROXY).toEqual([
      'loopback',
      '10.0.0.0/8',
      '192.0.2.7',
      '2001:db8::/32',
      'fd00::1',
      'uniquelocal',
    ]);
    for (const bad of ['true', 'all', '10.0.0.0/33', '2001:db8::/129', '10.1', '10.0.0.0/', 'loopback,,10.0.0.1', 'proxy.example.net', '1, loopback', '']) {
      expect(refusal({ ENCRYPTION_KEY: KEY, TRUST_PROXY: bad }), bad).toContain('TRUST_PROXY');
    }
    // The message names the entry, not its text.
    expect(refusal({ ENCRYPTION_KEY: KEY, TRUST_PROXY: 'loopback, secret-name' })).toContain('entry 2 must be');
  });

  it('bounds password hashing: slots between 1 and 64, a queue between 0 and 1000', () => {
    expect(loadConfig({ ENCRYPTION_KEY: KEY, PASSWORD_HASHING_CONCURRENCY: '1', PASSWORD_HASHING_QUEUE: '0' })).toMatchObject({ PASSWORD_HASHING_CONCURRENCY: 1, PASSWORD_HASHING_QUEUE: 0 });
    expect(refusal({ ENCRYPTION_KEY: KEY, PASSWORD_HASHING_CONCURRENCY: '0' })).toContain('PASSWORD_HASHING_CONCURRENCY');
    expect(refusal({ ENCRYPTION_KEY: KEY, PASSWORD_HASHING_CONCURRENCY: '65' })).toContain('PASSWORD_HASHING_CONCURRENCY');
    expect(refusal({ ENCRYPTION_KEY: KEY, PASSWORD_HASHING_QUEUE: '-1' })).toContain('PASSWORD_HASHING_QUEUE');
  });

  it.each([
    ['1', true],
    ['true', true],
    ['0', false],
    ['false', false],
  ])('reads PROXMOX_INSECURE_TLS_DEFAULT=%s as %s', (text, value) => {
    expect(loadConfig({ ENCRYPTION_KEY: KEY, PROXMOX_INSECURE_TLS_DEFAULT: text }).PROXMOX_INSECURE_TLS_DEFAULT).toBe(value);
  });

  it('refuses other spellings of a boolean rather than guessing', () => {
    for (const text of ['yes', 'no', 'TRUE', 'on', '']) {
      expect(refusal({ ENCRYPTION_KEY: KEY, PROXMOX_INSECURE_TLS_DEFAULT: text }), JSON.stringify(text)).toContain('PROXMOX_INSECURE_TLS_DEFAULT');
    }
  });

  it('refuses zero or negative limits and durations', () => {
    for (const name of ['RATE_LIMIT_CREATE_PER_MINUTE', 'RATE_LIMIT_CREATE_PER_HOUR', 'CREDENTIAL_TTL_HOURS', 'SHUTDOWN_TIMEOUT_SECONDS', 'TASK_POLL_INTERVAL_MS', 'STAGE_TIMEOUT_SCALE']) {
      expect(refusal({ ENCRYPTION_KEY: KEY, [name]: '0' }), name).toContain(name);
      expect(refusal({ ENCRYPTION_KEY: KEY, [name]: '-5' }), name).toContain(name);
    }
  });

  it('waits 0 to 90 s for a snippet to show: beyond, the cloud_init attempt would time out first', () => {
    expect(loadConfig({ ENCRYPTION_KEY: KEY, SNIPPETS_VISIBLE_WITHIN_SECONDS: '0' }).SNIPPETS_VISIBLE_WITHIN_SECONDS).toBe(0);
    expect(refusal({ ENCRYPTION_KEY: KEY, SNIPPETS_VISIBLE_WITHIN_SECONDS: '91' })).toContain('SNIPPETS_VISIBLE_WITHIN_SECONDS');
    expect(refusal({ ENCRYPTION_KEY: KEY, SNIPPETS_VISIBLE_WITHIN_SECONDS: '-1' })).toContain('SNIPPETS_VISIBLE_WITHIN_SECONDS');
  });

  it('refuses unknown environments and log levels', () => {
    expect(refusal({ ENCRYPTION_KEY: KEY, NODE_ENV: 'staging' })).toContain('NODE_ENV');
    expect(refusal({ ENCRYPTION_KEY: KEY, LOG_LEVEL: 'verbose' })).toContain('LOG_LEVEL');
  });

  it('refuses a default username that is not a valid login name', () => {
    expect(refusal({ ENCRYPTION_KEY: KEY, DEFAULT_USERNAME: 'Admin' })).toContain('DEFAULT_USERNAME');
  });
});

describe('loadConfig: error messages', () => {
  it('names a bad variable', () => {
    const message = refusal({ ENCRYPTION_KEY: KEY, PORT: 'abc' });
    expect(message).toMatch(/^Invalid configuration:/);
    expect(message).toContain('PORT');
  });

  it('names every bad variable at once, one per line', () => {
    const message = refusal({ ENCRYPTION_KEY: 'short', PORT: 'abc', NODE_ENV: 'staging' });
    const lines = message.split('\n').slice(1);
    expect(lines).toHaveLength(3);
    expect(message).toContain('ENCRYPTION_KEY');
    expect(message).toContain('PORT');
    expect(message).toContain('NODE_ENV');
  });

  it('explains what an encryption key must be', () => {
    for (const key of ['too-short', randomBytes(16).toString('base64'), randomBytes(48).toString('base64')]) {
      const message = refusal({ ENCRYPTION_KEY: key });
      expect(message).toContain('ENCRYPTION_KEY');
      expect(message).toMatch(/32 bytes/);
    }
  });

  // Configuration errors end up in logs and CI output: a secret must never be printed.
  it.each([
    ['ENCRYPTION_KEY', randomBytes(24).toString('base64')],
    ['ENCRYPTION_KEY', 'my-very-secret-passphrase'],
    ['BOOTSTRAP_ADMIN_TOKEN', 'tok-s3cr3t'],
    ['DATABASE_URL', 'mysql://app:S3cretDbPassw0rd@db/app'],
    ['DATABASE_URL', 'postgresql://app:S3cretDbPassw0rd@db:99999/app'],
    ['PORT', 'abc-s3cr3t'],
    ['NODE_ENV', 'prod-s3cr3t'],
    ['LOG_LEVEL', 'loud-s3cr3t'],
    ['DEFAULT_USERNAME', 'Bad-S3cr3t'],
    ['PROXMOX_INSECURE_TLS_DEFAULT', 'maybe-s3cr3t'],
    ['STAGE_TIMEOUT_SCALE', 'fast-s3cr3t'],
  ])('names %s but never prints its value', (name, value) => {
    const message = refusal({ ENCRYPTION_KEY: KEY, [name]: value });
    expect(message).toContain(name);
    expect(message).not.toContain(value);
    expect(message).not.toContain('s3cr3t');
    expect(message).not.toContain('S3cretDbPassw0rd');
    expect(message).not.toContain(KEY);
  });

  it('never prints a good secret while complaining about another variable', () => {
    const message = refusal({ ENCRYPTION_KEY: KEY, BOOTSTRAP_ADMIN_TOKEN: 'a-perfectly-good-admin-token', PORT: 'abc' });
    expect(message).not.toContain(KEY);
    expect(message).not.toContain('a-perfectly-good-admin-token');
  });
});

describe('loadConfig: the encryption key ring', () => {
  const K1 = randomBytes(32).toString('base64');
  const K2 = randomBytes(32).toString('base64');

  it('makes ENCRYPTION_KEY alone a ring of one, the key "primary", which writes', () => {
    expect(encryptionKeyRing(loadConfig({ ENCRYPTION_KEY: KEY }))).toEqual({ keys: [{ id: 'primary', key: KEY }], writeKeyId: 'primary' });
  });

  it('adds ENCRYPTION_KEYS to ENCRYPTION_KEY, and ENCRYPTION_KEY_ID picks the writer', () => {
    const ring = encryptionKeyRing(loadConfig({ ENCRYPTION_KEY: KEY, ENCRYPTION_KEYS: ` k2026:${K1} , k2027:${K2}`, ENCRYPTION_KEY_ID: 'k2027' }));
    expect(ring).toEqual({ keys: [{ id: 'primary', key: KEY }, { id: 'k2026', key: K1 }, { id: 'k2027', key: K2 }], writeKeyId: 'k2027' });
  });

  it('takes ENCRYPTION_KEYS alone; with one key it writes, with several ENCRYPTION_KEY_ID is required', () => {
    expect(encryptionKeyRing(loadConfig({ ENCRYPTION_KEYS: `k1:${K1}` })).writeKeyId).toBe('k1');
    expect(encryptionKeyRing(loadConfig({ ENCRYPTION_KEYS: `primary:${K1},k2:${K2}`, ENCRYPTION_KEY_ID: 'k2' })).keys.map((k) => k.id)).toEqual(['primary', 'k2']);
    expect(refusal({ ENCRYPTION_KEYS: `k1:${K1},k2:${K2}` })).toContain('ENCRYPTION_KEY_ID');
  });

  it('counts an empty variable as unset', () => {
    expect(encryptionKeyRing(loadConfig({ ENCRYPTION_KEY: KEY, ENCRYPTION_KEYS: '', ENCRYPTION_KEY_ID: '' })).writeKeyId).toBe('primary');
    expect(refusal({ ENCRYPTION_KEY: '', ENCRYPTION_KEYS: '' })).toContain('ENCRYPTION_KEY');
  });

  it.each([
    ['an entry without an id', `${K1}`, 'ENCRYPTION_KEYS'],
    ['an id with a space', `my key:${K1}`, 'ENCRYPTION_KEYS'],
    ['a short key', `k1:${randomBytes(16).toString('base64')}`, 'ENCRYPTION_KEYS'],
    ['a duplicate id', `k1:${K1},k1:${K2}`, 'ENCRYPTION_KEYS'],
    ['"primary" next to ENCRYPTION_KEY', `primary:${K1}`, 'ENCRYPTION_KEYS'],
  ])('refuses %s, naming ENCRYPTION_KEYS and never a key', (_what, keys, variable) => {
    const message = refusal({ ENCRYPTION_KEY: KEY, ENCRYPTION_KEYS: keys, ENCRYPTION_KEY_ID: 'primary' });
    expect(message).toContain(variable);
    for (const secret of [KEY, K1, K2, keys]) expect(message).not.toContain(secret);
  });

  it('refuses an ENCRYPTION_KEY_ID that names no key of the ring', () => {
    const message = refusal({ ENCRYPTION_KEY: KEY, ENCRYPTION_KEYS: `k1:${K1}`, ENCRYPTION_KEY_ID: 'k9' });
    expect(message).toContain('ENCRYPTION_KEY_ID');
    expect(message).not.toContain(K1);
  });
});
