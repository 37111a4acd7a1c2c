import type { Config } from '../config';
import type { Db } from '../db/client';
import type { ProxmoxConnection } from '../generated/prisma/client';
import type { Logger } from '../logger';
import { ProxmoxClient } from '../proxmox';
import type { SecretBox } from '../security/secrets';

/** What every activity may touch: the database, Proxmox, the secret box, settings and a logger. */
export interface ActivityDeps {
  db: Db;
  proxmox: (connection: ProxmoxConnection) => ProxmoxClient;
  secrets: SecretBox;
  config: Config;
  logger: Logger;
}

/** How a connection reaches Proxmox VE, but for its token secret. */
export type ProxmoxReach = Pick<ProxmoxConnection, 'url' | 'tokenId' | 'caCert' | 'insecureTls' | 'plaintextLab'>;

export function proxmoxClientOf(reach: ProxmoxReach, tokenSecret: string, timeoutMs = 15_000): ProxmoxClient {
  return new ProxmoxClient({
    baseUrl: reach.url,
    tokenId: reach.tokenId,
    tokenSecret,
    caCert: reach.caCert ?? undefined,
    insecureTls: reach.insecureTls,
    plaintextLab: reach.plaintextLab,
    timeoutMs,
  });
}

/**
 * One client per cluster, built from the connection row (its token secret decrypted only here);
 * a row whose URL, token or TLS settings changed (PATCH /v1/admin/connections/{id}) gets a new one.
 */
export function proxmoxClientFactory(secrets: SecretBox, timeoutMs = 15_000): ActivityDeps['proxmox'] {
  const clients = new Map<string, { updatedFrom: string; client: ProxmoxClient }>();
  return (connection) => {
    const updatedFrom = JSON.stringify([connection.tokenSecretCipher, connection.url, connection.tokenId, connection.caCert, connection.insecureTls]);
    const cached = clients.get(connection.id);
    if (cached && cached.updatedFrom === updatedFrom) return cached.client;
    const client = proxmoxClientOf(connection, secrets.open(connection.tokenSecretCipher, connection.id), timeoutMs);
    clients.set(connection.id, { updatedFrom, client });
    return client;
  };
}
