import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../src/config';
import { temporalConnectionOptions } from '../../src/temporal/connection';

const KEY = randomBytes(32).toString('base64');
const config = (env: NodeJS.ProcessEnv) => loadConfig({ ENCRYPTION_KEY: KEY, TEMPORAL_ADDRESS: 'temporal.example:7233', ...env });

function pemFiles() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'temporal-tls-'));
  const write = (name: string, body: string) => {
    const file = path.join(dir, name);
    fs.writeFileSync(file, body);
    return file;
  };
  return { ca: write('ca.pem', 'CA PEM'), cert: write('client.pem', 'CERT PEM'), key: write('client.key', 'KEY PEM'), dir };
}

describe('reaching Temporal', () => {
  it('speaks plain gRPC to the address by default, as to a dev server', () => {
    expect(temporalConnectionOptions(config({}))).toEqual({ address: 'temporal.example:7233' });
  });

  it('uses TLS with the system trust store when asked', () => {
    expect(temporalConnectionOptions(config({ TEMPORAL_TLS: 'true' }))).toEqual({ address: 'temporal.example:7233', tls: {} });
  });

  it('trusts a given CA and presents a client certificate (mTLS), with a server name override', () => {
    const files = pemFiles();
    const options = temporalConnectionOptions(
      config({ TEMPORAL_TLS_CA_FILE: files.ca, TEMPORAL_TLS_CERT_FILE: files.cert, TEMPORAL_TLS_KEY_FILE: files.key, TEMPORAL_TLS_SERVER_NAME: 'frontend.internal' }),
    );
    expect(options.tls?.serverNameOverride).toBe('frontend.internal');
    expect(Buffer.from(options.tls?.serverRootCACertificate ?? []).toString()).toBe('CA PEM');
    expect(Buffer.from(options.tls?.clientCertPair?.crt ?? []).toString()).toBe('CERT PEM');
    expect(Buffer.from(options.tls?.clientCertPair?.key ?? []).toString()).toBe('KEY PEM');
  });

  it('sends an API key over TLS only', () => {
    expect(temporalConnectionOptions(config({ TEMPORAL_API_KEY: 'a-managed-cluster-key' }))).toEqual({ address: 'temporal.example:7233', tls: {}, apiKey: 'a-managed-cluster-key' });
  });

  it('refuses a client certificate without its key, naming the missing setting', () => {
    const files = pemFiles();
    expect(() => config({ TEMPORAL_TLS_CERT_FILE: files.cert })).toThrow(ConfigError);
    expect(() => config({ TEMPORAL_TLS_CERT_FILE: files.cert })).toThrow(/TEMPORAL_TLS_KEY_FILE/);
  });

  it('stops at start on an unreadable file, naming the setting and the path but never a file content', () => {
    const files = pemFiles();
    const missing = path.join(files.dir, 'absent.pem');
    expect(() => temporalConnectionOptions(config({ TEMPORAL_TLS_CA_FILE: missing }))).toThrow(`TEMPORAL_TLS_CA_FILE: cannot read ${missing} (ENOENT)`);
  });
});
