import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseEncryptionKeyRing, type EncryptionKeyRing } from '../../src/config';
import { rotateSecrets } from '../../src/db/rotate-keys';
import { SecretBox } from '../../src/security/secrets';
import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../../src/db/client';
import { createLogger } from '../../src/logger';
import { parseToken } from '../../src/simulator/server';
import { demoCluster, LEAST_PRIVILEGE_SIM_TOKEN } from '../../src/simulator/spec';
import { reconcileScheduleId } from '../../src/temporal/workflow-ids';
import type { TestApi } from '../support/api';
import { spawnAppProcess, type AppProcess } from '../support/processes';
import { startStack, type Stack } from '../support/stack';

/** Columns that hold ciphertext on purpose (AES-256-GCM under ENCRYPTION_KEY); everything else is scanned. */
const CIPHERTEXT_COLUMNS = ['secretCipher', 'tokenSecretCipher'];

/** Every row of every table as JSON text, the ciphertext columns left out. */
async function databaseDump(db: Db): Promise<string> {
  const tables = await db.$queryRaw<{ table_name: string }[]>`
    SELECT table_name FROM information_schema.tables WHERE table_schema = 'public' AND table_type = 'BASE TABLE'`;
  const rows: string[] = [];
  for (const { table_name: table } of tables) {
    const dropped = CIPHERTEXT_COLUMNS.map((column) => ` - '${column}'`).join('');
    const dump = await db.$queryRawUnsafe<{ row: string }[]>(`SELECT (to_jsonb(t)${dropped})::text AS row FROM "${table.replaceAll('"', '""')}" t`);
    rows.push(...dump.map((r) => `${table}: ${r.row}`));
  }
  return rows.join('\n');
}

/** Every string in a history, with every payload's bytes decoded as text (payloads are JSON). */
function historyText(value: unknown, out: string[] = []): string[] {
  if (typeof value === 'string') out.push(value);
  else if (value instanceof Uint8Array) out.push(Buffer.from(value).toString('utf8'));
  else if (Array.isArray(value)) for (const item of value) historyText(item, out);
  else if (value && typeof value === 'object') for (const item of Object.values(value)) historyText(item, out);
  return out;
}

/** The history of every workflow that ran on the stack's task queue (provisions, operations, reconciles). */
async function temporalHistories(api: TestApi): Promise<{ workflowIds: string[]; text: string }> {
  const workflowIds: string[] = [];
  const texts: string[] = [];
  for await (const execution of api.temporal.workflow.list({ query: `TaskQueue = "${api.config.TEMPORAL_TASK_QUEUE}"` })) {
    workflowIds.push(execution.workflowId);
    const history = await api.temporal.workflow.getHandle(execution.workflowId, execution.runId).fetchHistory();
    texts.push(historyText(history).join('\n'));
  }
  return { workflowIds, text: texts.join('\n') };
}

/**
 * After a realistic run on the real stack (create, reveal, rebuild, reveal, new tokens, a new
 * Proxmox connection, an encryption key rotation), no secret is found in the logs of API and
 * worker (at trace level), in the rotation's output, in any database column outside the known
 * ciphertext, or in any Temporal history.
 */
describe('secrets stay secret', () => {
  let stack: Stack;
  let worker: AppProcess;
  const apiLog: string[] = [];
  /** A snippets directory the connection below names: its check carries the token secret to a worker. */
  const snippetsDir = mkdtempSync(path.join(tmpdir(), 'pvecp-secrets-snippets-'));

  beforeAll(async () => {
    const destination = new Writable({
      write(chunk: Buffer, _encoding, done) {
        apiLog.push(chunk.toString('utf8'));
        done();
      },
    });
    stack = await startStack({
      worker: false,
      env: { LOG_LEVEL: 'trace' },
      deps: { logger: createLogger('api', 'trace', destination) },
      simulator: { cluster: { storages: [...demoCluster().storages, { storage: 'cephfs-snippets', type: 'cephfs', shared: true, content: 'snippets', snippetsDir }] } },
    });
    const { BOOTSTRAP_ADMIN_TOKEN: _adminToken, ...workerConfig } = stack.api.config;
    worker = spawnAppProcess('worker', workerConfig as typeof stack.api.config);
    await worker.logLine('worker started');
  });
  afterAll(async () => {
    await worker?.kill();
    await stack?.close();
    rmSync(snippetsDir, { recursive: true, force: true });
  });

  it('finds no revealed password, API token, Proxmox token secret or encryption key in logs, database or workflow histories', async () => {
    const { api, customer } = stack;
    const as = (token: string) => ({ token });
    const reveal = async (id: string) => {
      const res = await api.request('POST', `/v1/instances/${id}/credentials/reveal`, as(customer.token));
      expect(res.status).toBe(200);
      expect(res.headers.get('cache-control')).toBe('no-store');
      return res.body.data.password as string;
    };

    const id = (await stack.create({ hostname: 'secret-keeper' })).body.data.id as string;
    await stack.waitForStatus(id, ['running'], 90_000);
    const firstPassword = await reveal(id);
    const rebuild = await api.request('POST', `/v1/instances/${id}/rebuild`, { ...as(customer.token), body: {} });
    expect(rebuild.status).toBe(202);
    await expect.poll(async () => (await api.request('GET', `/v1/tasks/${rebuild.body.meta.taskId}`, as(customer.token))).body.data.status, { timeout: 90_000 }).toBe('succeeded');
    const secondPassword = await reveal(id);
    expect(secondPassword).not.toBe(firstPassword);
    // The passwords are real: the guest got the second one.
    expect((await stack.sim.state()).guests.some((guest) => guest.cipassword === secondPassword)).toBe(true);

    const newCustomer = await api.createCustomer();
    const admin = await api.request('POST', '/v1/admin/users', { ...as(api.adminToken), body: { email: 'second-admin@example.com', role: 'admin' } });
    const adminToken = (await api.request('POST', `/v1/admin/users/${admin.body.data.id}/tokens`, as(api.adminToken))).body.data.token as string;
    expect((await api.request('GET', '/v1/admin/tenants', as(adminToken))).status).toBe(200);
    const proxmoxSecret = parseToken(LEAST_PRIVILEGE_SIM_TOKEN).secret;
    const connection = await api.request('POST', '/v1/admin/connections', {
      ...as(adminToken),
      body: {
        name: 'second-range',
        url: stack.sim.url,
        plaintextLab: true,
        tokenId: parseToken(LEAST_PRIVILEGE_SIM_TOKEN).tokenId,
        tokenSecret: proxmoxSecret,
        vmidRange: { start: 50_000, end: 50_099 },
        nodes: [{ name: 'pve1', vcpus: 16, memoryMiB: 65_536, diskGiB: 1_000 }],
        snippets: { storage: 'cephfs-snippets', directory: snippetsDir },
      },
    });
    expect(connection.status).toBe(201);
    // A request that fails carries its secrets too: a body the API refuses.
    expect((await api.request('POST', '/v1/admin/connections', { ...as(adminToken), body: { tokenSecret: proxmoxSecret, name: 'x' } })).status).toBe(400);

    worker.child.kill('SIGTERM');
    await worker.exited;
    await api.temporal.schedule.getHandle(reconcileScheduleId(connection.body.data.id)).delete();

    // An operator rotates the encryption key: a new write key joins the ring and every secret is re-sealed with it.
    const rotatedRing: EncryptionKeyRing = { keys: [...encryptionKeys(api.config), { id: 'rotated', key: randomBytes(32).toString('base64') }], writeKeyId: 'rotated' };
    const rotationLog: string[] = [];
    const rotation = await rotateSecrets(api.db, new SecretBox(rotatedRing), { onProgress: (message) => rotationLog.push(message) });
    expect(Object.values(rotation.counts).reduce((sum, count) => sum + count.rotated, 0)).toBeGreaterThan(0);

    const secrets: Record<string, string> = {
      'first revealed password': firstPassword,
      'second revealed password': secondPassword,
      'customer API token': customer.token,
      "new customer's API token": newCustomer.token,
      "new admin's API token": adminToken,
      'bootstrap admin token': api.adminToken,
      'Proxmox token secret': proxmoxSecret,
      ...Object.fromEntries(
        rotatedRing.keys.flatMap(({ id, key }) => [
          [`encryption key ${id} (base64)`, key],
          [`encryption key ${id} (hex)`, Buffer.from(key, 'base64').toString('hex')],
        ]),
      ),
    };
    const histories = await temporalHistories(api);
    const haystacks: Record<string, string> = {
      'API log': apiLog.join(''),
      'worker log': worker.output(),
      'key rotation output': rotationLog.join('\n'),
      database: await databaseDump(api.db),
      'Temporal histories': histories.text,
    };

    // The haystacks hold the run: what was logged, stored and recorded (the API writes no access
    // log: it logs only what goes wrong, and nothing did).
    expect(haystacks['worker log']).toContain('worker started');
    expect(haystacks['worker log']).toContain('"level":20');
    expect(haystacks.database).toContain(id);
    expect(histories.workflowIds).toEqual(expect.arrayContaining([`provision-${id}`, expect.stringMatching(new RegExp(`^rebuild-${id}-`)), expect.stringMatching(/^snippets-check-chk_/)]));
    // Payloads are read as the JSON they are, not as base64.
    expect(haystacks['Temporal histories']).toContain(`{"instanceId":"${id}"`);

    const found: string[] = [];
    for (const [secret, value] of Object.entries(secrets)) {
      for (const [where, text] of Object.entries(haystacks)) if (text.includes(value)) found.push(`${secret} in ${where}`);
    }
    expect(found).toEqual([]);
  });
});

/** Every key of the configured ring. */
function encryptionKeys(config: Parameters<typeof parseEncryptionKeyRing>[0]): EncryptionKeyRing['keys'] {
  const ring = parseEncryptionKeyRing(config);
  if ('problems' in ring) throw new Error('the test configuration has no valid key ring');
  return ring.keys;
}
