import fs from 'node:fs';
import { Client, Connection, type ConnectionLike, type TLSConfig } from '@temporalio/client';
import type { Config } from '../config';

export interface TemporalConnectionOptions {
  address: string;
  tls?: TLSConfig;
  apiKey?: string;
}

/**
 * How every process reaches Temporal: plain gRPC to a dev server, TLS (the system's trust or a
 * given CA, optionally with a client certificate for mTLS) and an API key for a managed cluster.
 * Files are read at start, so a missing one stops the process before it serves.
 */
export function temporalConnectionOptions(config: Config): TemporalConnectionOptions {
  const wantsTls = config.TEMPORAL_TLS || Boolean(config.TEMPORAL_TLS_CA_FILE || config.TEMPORAL_TLS_CERT_FILE || config.TEMPORAL_API_KEY);
  const options: TemporalConnectionOptions = { address: config.TEMPORAL_ADDRESS };
  if (wantsTls) {
    const tls: TLSConfig = {};
    if (config.TEMPORAL_TLS_CA_FILE) tls.serverRootCACertificate = readSetting('TEMPORAL_TLS_CA_FILE', config.TEMPORAL_TLS_CA_FILE);
    if (config.TEMPORAL_TLS_CERT_FILE && config.TEMPORAL_TLS_KEY_FILE) {
      tls.clientCertPair = { crt: readSetting('TEMPORAL_TLS_CERT_FILE', config.TEMPORAL_TLS_CERT_FILE), key: readSetting('TEMPORAL_TLS_KEY_FILE', config.TEMPORAL_TLS_KEY_FILE) };
    }
    if (config.TEMPORAL_TLS_SERVER_NAME) tls.serverNameOverride = config.TEMPORAL_TLS_SERVER_NAME;
    options.tls = tls;
  }
  if (config.TEMPORAL_API_KEY) options.apiKey = config.TEMPORAL_API_KEY;
  return options;
}

/** A client of the configured namespace over a given connection (a worker's native one, say). */
export function temporalClient(connection: ConnectionLike, config: Pick<Config, 'TEMPORAL_NAMESPACE'>): Client {
  return new Client({ connection, namespace: config.TEMPORAL_NAMESPACE });
}

/** A client on a connection of its own; whoever asked closes it (`client.connection.close()`). */
export async function connectTemporalClient(config: Config): Promise<Client> {
  return temporalClient(await Connection.connect(temporalConnectionOptions(config)), config);
}

/** Reads a file a setting names; the error names the setting and the path, never the content. */
function readSetting(variable: string, file: string): Buffer {
  try {
    return fs.readFileSync(file);
  } catch (error) {
    throw new Error(`${variable}: cannot read ${file} (${(error as NodeJS.ErrnoException).code ?? 'error'})`);
  }
}

/** Answers when the Temporal frontend answers (readiness). */
export async function pingTemporal(client: Client): Promise<void> {
  await client.workflowService.getSystemInfo({});
}
