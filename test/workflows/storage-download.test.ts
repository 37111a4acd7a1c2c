/**
 * A file from a URL as one durable step (StorageDownload, downloadStorageFile), on the real
 * Temporal dev server with the real activity, database and simulator: Proxmox's download task is
 * recorded before it runs and resumed by its UPID, never started twice for one key; its failures
 * come back with stable codes and leave no file.
 */
import crypto from 'node:crypto';
import { randomBytes } from 'node:crypto';
import { WorkflowFailedError } from '@temporalio/client';
import { TestWorkflowEnvironment } from '@temporalio/testing';
import { DefaultLogger, Runtime, Worker } from '@temporalio/worker';
import { afterAll, beforeAll, expect, inject, it } from 'vitest';
import { createActivities } from '../../src/activities';
import type { ActivityDeps } from '../../src/activities/deps';
import type { StorageDownloadInput } from '../../src/activities/storage-download';
import type { Config } from '../../src/config';
import { rootFailureType } from '../../src/domain/failure-types';
import { newId } from '../../src/security/ids';
import { DEFAULT_IMAGE, startImageServer, type ImageServer } from '../../src/simulator';
import { createTestDatabase, type TestDatabase } from '../support/database';
import { startSim, type SimHarness } from '../simulator/support';

let env: TestWorkflowEnvironment;
let database: TestDatabase;
let sim: SimHarness;
let images: ImageServer;
let worker: Worker;
let running: Promise<void>;
const taskQueue = `dl-${randomBytes(4).toString('hex')}`;
const connectionId = newId('conn');

beforeAll(async () => {
  Runtime.install({ logger: new DefaultLogger('ERROR') });
  env = await TestWorkflowEnvironment.createFromExistingServer({ address: inject('temporalAddress') });
  database = await createTestDatabase();
  sim = await startSim();
  images = await startImageServer();
  await database.db.proxmoxConnection.create({
    data: { id: connectionId, name: 'lab', url: sim.server.url, tokenId: 'x', tokenSecretCipher: 'x', plaintextLab: true, vmidStart: 1000, vmidEnd: 1999 },
  });
  const deps = { db: database.db, proxmox: () => sim.client, config: { TASK_POLL_INTERVAL_MS: 20 } as Config } as unknown as ActivityDeps;
  worker = await Worker.create({ connection: env.nativeConnection, taskQueue, workflowBundle: { codePath: inject('workflowBundlePath') }, activities: createActivities(deps) });
  running = worker.run();
});
afterAll(async () => {
  worker?.shutdown();
  await running;
  await images?.close();
  await sim?.close();
  await database?.drop();
  await env?.teardown();
});

const sha256 = (body: Buffer) => crypto.createHash('sha256').update(body).digest('hex');

function input(o: Partial<StorageDownloadInput> = {}): StorageDownloadInput {
  const key = `test:${randomBytes(4).toString('hex')}`;
  return {
    key,
    connectionId,
    node: 'pve1',
    storage: 'shared-nfs',
    content: 'import',
    filename: `pvecp-${key.slice(5)}.qcow2`,
    url: images.urlOf(DEFAULT_IMAGE.path),
    checksum: sha256(images.bodyOf(DEFAULT_IMAGE.path) as Buffer),
    checksumAlgorithm: 'sha256',
    ...o,
  };
}

const run = (i: StorageDownloadInput) =>
  env.client.workflow.execute('StorageDownload', { taskQueue, workflowId: `download-${i.key}-${randomBytes(3).toString('hex')}`, args: [{ ...i, scale: 0.02 }] });

const downloadTasks = async (node: string, filename: string) =>
  (await sim.client.tasks.list(node, { source: 'all', typefilter: 'download' })).filter((t) => t.upid.includes(`:download:${filename}:`));

const listed = async (node: string, storage: string) => (await sim.client.storage.files(node, storage, 'import')).map((f) => f.volid);

it('downloads the file once into the storage and answers its volume id; the job shows 100% done', async () => {
  const i = input();
  await expect(run(i)).resolves.toEqual({ volid: `shared-nfs:import/${i.filename}` });
  expect(await listed('pve2', 'shared-nfs')).toContain(`shared-nfs:import/${i.filename}`);
  const job = await database.db.providerJob.findUniqueOrThrow({ where: { key: i.key } });
  expect(job).toMatchObject({ status: 'succeeded', progress: 100, kind: 'download', node: 'pve1' });
  expect(job.upid).toMatch(/^UPID:pve1:/);
});

it('a second run under the same key starts no second download task', async () => {
  const i = input({ storage: 'local', node: 'pve2' });
  await run(i);
  await run(i);
  expect(await downloadTasks('pve2', i.filename)).toHaveLength(1);
});

it('a worker that lost the answer adopts the download task it started instead of starting another', async () => {
  const i = input({ node: 'pve3', storage: 'local' });
  // What a crash right after the call leaves: the intent without a UPID, the task started by our token.
  const upid = await sim.client.storage.downloadUrl('pve3', 'local', { content: 'import', filename: i.filename, url: i.url, checksum: i.checksum, checksumAlgorithm: 'sha256' });
  await database.db.providerJob.create({ data: { id: newId('job'), key: i.key, connectionId, node: 'pve3', kind: 'download', status: 'issuing', attempt: 1, createdAt: new Date(Date.now() - 1000) } });
  await run(i);
  expect((await downloadTasks('pve3', i.filename)).map((t) => t.upid)).toEqual([upid]);
  expect((await database.db.providerJob.findUniqueOrThrow({ where: { key: i.key } })).upid).toBe(upid);
});

it('a wrong checksum fails with DOWNLOAD_CHECKSUM_MISMATCH and leaves no file', async () => {
  const i = input({ checksum: 'a'.repeat(64) });
  const failure = await run(i).catch((e: unknown) => e);
  expect(failure).toBeInstanceOf(WorkflowFailedError);
  expect(rootFailureType(failure)).toBe('DOWNLOAD_CHECKSUM_MISMATCH');
  expect(await listed('pve1', 'shared-nfs')).not.toContain(`shared-nfs:import/${i.filename}`);
});

it('a URL that answers 404 fails with DOWNLOAD_URL_UNREACHABLE', async () => {
  const failure = await run(input({ url: images.urlOf('/images/missing.qcow2') })).catch((e: unknown) => e);
  expect(rootFailureType(failure)).toBe('DOWNLOAD_URL_UNREACHABLE');
});

it('a file that is not a disk image fails with DOWNLOAD_INVALID_FILE', async () => {
  const body = Buffer.from('<html>not an image</html>');
  images.serve('/images/page.qcow2', { body });
  const failure = await run(input({ url: images.urlOf('/images/page.qcow2'), checksum: sha256(body) })).catch((e: unknown) => e);
  expect(rootFailureType(failure)).toBe('DOWNLOAD_INVALID_FILE');
});

it('a storage that does not take the content type fails with DOWNLOAD_STORAGE_REFUSED', async () => {
  const failure = await run(input({ storage: 'local-lvm' })).catch((e: unknown) => e);
  expect(rootFailureType(failure)).toBe('DOWNLOAD_STORAGE_REFUSED');
});
