import { spawn } from 'node:child_process';
import { createCipheriv, createHmac, randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../../src/db/client';
import { rotateSecrets, SEALED_COLUMNS, sealedColumnName } from '../../src/db/rotate-keys';
import { SecretBox } from '../../src/security/secrets';
import { parseToken } from '../../src/simulator/server';
import { startTestApi, type TestApi } from '../support/api';
import { FAST_ENV, startStack, type Stack } from '../support/stack';
import { startReceiver } from '../support/webhook-receiver';

const OLD_KEY = randomBytes(32).toString('base64');
const NEW_KEY = randomBytes(32).toString('base64');
const RING = { ENCRYPTION_KEY: OLD_KEY, ENCRYPTION_KEYS: `k2:${NEW_KEY}`, ENCRYPTION_KEY_ID: 'k2' };
const NEW_ONLY = { ENCRYPTION_KEYS: `k2:${NEW_KEY}` };

const root = path.resolve(__dirname, '..', '..');

/** The format an earlier version wrote: no key id, sealed with the one key there was. */
function sealWithoutKeyId(key: string, plaintext: string, associatedData: string): string {
  const nonce = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', Buffer.from(key, 'base64'), nonce);
  cipher.setAAD(Buffer.from(associatedData));
  const body = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
  return ['v1', ...[nonce, cipher.getAuthTag(), body].map((b) => b.toString('base64url'))].join('.');
}

/** `npm run rotate-keys` as an operator runs it, against this file's database. */
function runRotateKeys(stack: Stack, env: Record<string, string>): Promise<{ code: number | null; out: string }> {
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(root, 'scripts', 'rotate-keys.ts'), '--batch-size', '1'], {
    cwd: root,
    env: { ...process.env, DATABASE_URL: stack.api.database.url, ENCRYPTION_KEY: '', ENCRYPTION_KEYS: '', ENCRYPTION_KEY_ID: '', LOG_LEVEL: 'silent', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (out += chunk.toString()));
  return new Promise((resolve) => child.once('exit', (code) => resolve({ code, out })));
}

/** Every sealed text of every column of SEALED_COLUMNS. */
async function sealedTexts(db: Db): Promise<string[]> {
  const texts: string[] = [];
  for (const { table, column } of SEALED_COLUMNS) {
    const rows = await db.$queryRawUnsafe<{ sealed: string }[]>(`SELECT "${column}" AS sealed FROM "${table}" WHERE "${column}" IS NOT NULL`);
    texts.push(...rows.map((row) => row.sealed));
  }
  return texts;
}

/**
 * The fields prisma/schema.prisma documents `/// sealed, associated data: <field>`, as
 * `table.column (associated data: column)`; a field named `…Cipher` without that line fails.
 */
function sealedColumnsOfTheSchema(): string[] {
  const schema = readFileSync(path.join(root, 'prisma', 'schema.prisma'), 'utf8');
  const found: string[] = [];
  for (const [, model = '', body = ''] of schema.matchAll(/^model (\w+) \{\n([\s\S]*?)^\}/gm)) {
    const table = /@@map\("([^"]+)"\)/.exec(body)?.[1] ?? model;
    const columns = new Map([...body.matchAll(/^ {2}(\w+) .*$/gm)].map(([line, field = '']) => [field, /@map\("([^"]+)"\)/.exec(line)?.[1] ?? field]));
    const fields = [...body.matchAll(/((?:^ {2}\/\/\/.*\n)*)^ {2}(\w+) /gm)];
    for (const [, docs = '', field = ''] of fields) {
      const associated = /^ {2}\/\/\/ sealed, associated data: (\w+)$/m.exec(docs)?.[1];
      if (!associated) {
        expect(field.endsWith('Cipher'), `${model}.${field} looks sealed: document it "/// sealed, associated data: <field>"`).toBe(false);
        continue;
      }
      expect(columns.has(associated), `${model}.${field}: no field ${associated}`).toBe(true);
      found.push(`${table}.${columns.get(field)} (associated data: ${columns.get(associated)})`);
    }
  }
  return found.sort();
}

let stack: Stack;
const apis: TestApi[] = [];
let receiver: Awaited<ReturnType<typeof startReceiver>>;

beforeAll(async () => {
  receiver = await startReceiver();
  stack = await startStack({ env: { ENCRYPTION_KEY: OLD_KEY, WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true', WEBHOOK_DISPATCH_INTERVAL_MS: '100', WEBHOOK_RETRY_INITIAL_MS: '100' } });
});
afterAll(async () => {
  for (const api of apis) await api.close();
  await stack?.close();
  await receiver?.close();
});

/** Another API process on the same database and task queue, started with other keys. */
async function apiWith(env: Record<string, string>): Promise<TestApi> {
  const api = await startTestApi({ database: stack.api.database, env: { ...FAST_ENV, TEMPORAL_TASK_QUEUE: stack.api.config.TEMPORAL_TASK_QUEUE, ...env } });
  apis.push(api);
  return api;
}

async function provision(api: TestApi, hostname: string): Promise<string> {
  const res = await api.request('POST', '/v1/instances', {
    token: stack.customer.token,
    body: { planId: stack.seed.plans.small, locationId: stack.seed.locationId, imageId: stack.seed.images['debian-12'], hostname },
  });
  expect(res.status, res.text).toBe(202);
  return res.body.data.id as string;
}

const reveal = (api: TestApi, id: string) => api.request('POST', `/v1/instances/${id}/credentials/reveal`, { token: stack.customer.token });

async function cipassword(hostname: string): Promise<string | undefined> {
  return (await stack.sim.state()).guests.find((g) => g.name === hostname)?.cipassword;
}

describe('rotating the encryption key', () => {
  it('re-seals every secret while servers are provisioned, then works without the old key', async () => {
    // Before: one key. The connection's token secret and console user's password are in the format of an earlier version.
    const { secret } = parseToken(stack.simToken);
    await stack.api.db.proxmoxConnection.update({
      where: { id: stack.seed.connectionId },
      data: {
        tokenSecretCipher: sealWithoutKeyId(OLD_KEY, secret, stack.seed.connectionId),
        consoleUsername: 'console@pve',
        consoleUserPasswordCipher: sealWithoutKeyId(OLD_KEY, 'console-user-password', stack.seed.connectionId),
      },
    });
    const hook = await stack.api.request('POST', '/v1/webhooks', { token: stack.customer.token, body: { url: receiver.url, eventTypes: ['instance.created'] } });
    expect(hook.status, hook.text).toBe(201);
    const before = await Promise.all(['before-1', 'before-2', 'before-3', 'before-4'].map((h) => provision(stack.api, h)));
    for (const id of before) await stack.waitForStatus(id, ['running']);
    // One password sealed by the earlier version too.
    const legacy = await stack.api.db.credential.findUniqueOrThrow({ where: { instanceId: before[0] } });
    const oldBox = new SecretBox(OLD_KEY);
    await stack.api.db.credential.update({
      where: { id: legacy.id },
      data: { secretCipher: sealWithoutKeyId(OLD_KEY, oldBox.open(legacy.secretCipher!, legacy.instanceId), legacy.instanceId) },
    });

    // Every process restarts with the ring: the old key still opens, the new one seals.
    const ringApi = await apiWith(RING);
    await stack.worker!.shutdown();
    await stack.startWorker({ ENCRYPTION_KEYS: RING.ENCRYPTION_KEYS, ENCRYPTION_KEY_ID: 'k2' });

    // Under load: servers being provisioned and passwords revealed while two rotations run at once.
    const during = ['during-1', 'during-2', 'during-3', 'during-4', 'during-5', 'during-6'];
    const duringIds = Promise.all(during.map((h) => provision(ringApi, h)));
    const [script, inProcess, revealed] = await Promise.all([
      runRotateKeys(stack, RING),
      rotateSecrets(stack.api.db, new SecretBox({ keys: [{ id: 'primary', key: OLD_KEY }, { id: 'k2', key: NEW_KEY }], writeKeyId: 'k2' }), { batchSize: 1 }),
      Promise.all([reveal(ringApi, before[2]!), reveal(ringApi, before[3]!)]),
    ]);
    expect(script.code, script.out).toBe(0);
    expect(script.out).toContain('every stored secret is sealed with "k2"');
    expect(inProcess).toMatchObject({ remaining: 0, unreadable: [] });
    for (const res of revealed) expect(res.status, res.text).toBe(200);
    expect(revealed[0]!.body.data.password).toBe(await cipassword('before-3'));

    const ids = await duringIds;
    for (const id of ids) expect((await stack.waitForStatus(id, ['running', 'failed'])).status).toBe('running');
    const sealed = await sealedTexts(stack.api.db);
    expect(sealed.length).toBeGreaterThanOrEqual(1 + 1 + 2 + during.length);
    for (const text of sealed) expect(text.startsWith('v2.k2.')).toBe(true);

    // After: the old key leaves the ring. Everything still opens.
    const newApi = await apiWith({ ENCRYPTION_KEY: '', ...NEW_ONLY });
    for (const worker of [stack.worker]) await worker?.shutdown().catch(() => undefined);
    await stack.startWorker({ ENCRYPTION_KEY: undefined, ENCRYPTION_KEYS: NEW_ONLY.ENCRYPTION_KEYS, ENCRYPTION_KEY_ID: undefined });
    const legacyReveal = await reveal(newApi, before[0]!);
    expect(legacyReveal.status, legacyReveal.text).toBe(200);
    expect(legacyReveal.body.data.password).toBe(await cipassword('before-1'));
    const underLoad = await reveal(newApi, ids[0]!);
    expect(underLoad.status, underLoad.text).toBe(200);
    expect(underLoad.body.data.password).toBe(await cipassword('during-1'));
    // The connection's token secret opens: a new server is made and an old one stops.
    const after = await provision(newApi, 'after-1');
    expect((await stack.waitForStatus(after, ['running', 'failed'])).status).toBe('running');
    // The webhook endpoint registered under the old key still signs its deliveries.
    await receiver.waitFor((received) => received.some((r) => r.json.instanceId === after), 'the new server\'s instance.created delivered');
    const delivered = receiver.received.find((r) => r.json.instanceId === after)!;
    const { t } = Object.fromEntries(String(delivered.headers['pvecp-signature']).split(',').map((part) => part.split('=')));
    expect(delivered.headers['pvecp-signature']).toBe(`t=${t},v1=${createHmac('sha256', hook.body.data.secret).update(`${t}.${delivered.body}`).digest('hex')}`);
    const stop = await newApi.request('POST', `/v1/instances/${before[1]}/stop`, { token: stack.customer.token, body: {} });
    expect(stop.status, stop.text).toBe(202);
    expect((await stack.waitForStatus(before[1]!, ['stopped', 'failed'])).status).toBe('stopped');

    // Rerunning finds nothing to do.
    const again = await runRotateKeys(stack, NEW_ONLY);
    expect(again.code, again.out).toBe(0);
    expect(again.out).toMatch(/credentials.secretCipher: 0 re-sealed/);
    const audits = await stack.api.db.auditEvent.findMany({ where: { action: 'secrets.rotated' }, orderBy: { id: 'asc' } });
    expect(audits).toHaveLength(3);
    expect(audits.every((a) => (a.details as { writeKeyId: string }).writeKeyId === 'k2')).toBe(true);
    expect(JSON.stringify(audits.map((a) => a.details))).not.toContain(NEW_KEY);
  });

  it('covers every column the schema documents as sealed, and the database holds sealed texts in no other column', async () => {
    const covered = SEALED_COLUMNS.map((c) => `${sealedColumnName(c)} (associated data: ${c.associatedData})`).sort();
    expect(covered).toEqual(sealedColumnsOfTheSchema());
    // A rescue password, as a rescue entry stores it: sealed to its row.
    const server = await stack.api.db.instance.findFirstOrThrow();
    const rescueId = `cred_rescue${randomBytes(4).toString('hex')}`;
    await stack.api.db.rescueCredential.create({
      data: { id: rescueId, instanceId: server.id, taskId: 'task_rescue', secretCipher: stack.api.deps.secrets.seal('rescue-password', rescueId), expiresAt: new Date(Date.now() + 3_600_000) },
    });
    // A tenant owner's invitation: its link sealed for the user.invited webhook.
    const invited = await stack.api.request('POST', '/v1/invitations', { token: stack.customer.token, body: { email: `sealed-${randomBytes(4).toString('hex')}@example.com`, role: 'viewer' } });
    expect(invited.status, invited.text).toBe(201);
    // After the run above, every column holding a text in the sealed format is one of them.
    const textColumns = await stack.api.db.$queryRaw<{ table: string; column: string }[]>`
      SELECT table_name AS table, column_name AS column FROM information_schema.columns
      WHERE table_schema = current_schema() AND data_type IN ('text', 'character varying')`;
    const holdingSealed: string[] = [];
    for (const { table, column } of textColumns) {
      const [row] = await stack.api.db.$queryRawUnsafe<{ found: boolean }[]>(
        `SELECT EXISTS (SELECT 1 FROM "${table}" WHERE "${column}" ~ '^v(1|2\\.[^.]+)\\.[A-Za-z0-9_-]{16}\\.[A-Za-z0-9_-]{22}\\.') AS found`,
      );
      if (row?.found) holdingSealed.push(`${table}.${column}`);
    }
    expect(holdingSealed.sort()).toEqual(SEALED_COLUMNS.map(sealedColumnName).sort());
  });

  it('leaves a secret no key of the ring opens as it is, names its row and fails', async () => {
    const stranger = new SecretBox({ keys: [{ id: 'gone', key: randomBytes(32).toString('base64') }], writeKeyId: 'gone' });
    const row = await stack.api.db.credential.findFirstOrThrow({ where: { secretCipher: { not: null } } });
    const unreadable = stranger.seal('sealed with a key nobody kept', row.instanceId);
    await stack.api.db.credential.update({ where: { id: row.id }, data: { secretCipher: unreadable } });
    const result = await runRotateKeys(stack, NEW_ONLY);
    expect(result.code).toBe(1);
    expect(result.out).toContain(`credentials.secretCipher ${row.id}: no key of the ring opens it`);
    expect(result.out).not.toContain(NEW_KEY);
    expect((await stack.api.db.credential.findUniqueOrThrow({ where: { id: row.id } })).secretCipher).toBe(unreadable);
  });
});
