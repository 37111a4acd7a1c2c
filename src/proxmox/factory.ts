import type { ProxmoxConnection } from '../generated/prisma/client';
import type { SecretBox } from '../security/secrets';
import { ProxmoxClient } from './client';

/** A client for a connection row: what activities, services and the console relay reach Proxmox VE through. */
export type ProxmoxClientFactory = (connection: ProxmoxConnection) => ProxmoxClient;

/** How long a call may take that a person waits for (usage graphs, consoles): a few seconds at most. */
export const INTERACTIVE_TIMEOUT_MS = 5_000;

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
export function proxmoxClientFactory(secrets: SecretBox, timeoutMs = 15_000): ProxmoxClientFactory {
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
