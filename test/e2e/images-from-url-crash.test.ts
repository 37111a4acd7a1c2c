/**
 * Workers die like crashed processes (SIGKILL) while an image from a URL is built: during the
 * download, during the import of the disk into a VM, during the conversion to a template. Another
 * worker resumes each recorded Proxmox task by its UPID: afterwards there is exactly one download
 * (of the shared storage) and one template per node, and the image is ready everywhere.
 */
import crypto from 'node:crypto';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { qcow2Image, startImageServer, type ImageServer } from '../../src/simulator';
import { startStack, type Stack, type WorkerProcess } from '../support/stack';

const NODES = ['pve1', 'pve2', 'pve3'];
const DOWNLOAD_CALL = 'POST /nodes/{node}/storage/{storage}/download-url';
const CREATE_CALL = 'POST /nodes/{node}/qemu';
const TEMPLATE_CALL = 'POST /nodes/{node}/qemu/{vmid}/template';

describe('a worker killed while an image from a URL is built', () => {
  let stack: Stack;
  let images: ImageServer;
  let worker: WorkerProcess | undefined;
  beforeAll(async () => {
    stack = await startStack({ worker: false });
    images = await startImageServer();
  });
  afterEach(async () => {
    await worker?.kill();
    await stack.sim.options({ taskMsByType: {} });
  });
  afterAll(async () => {
    await images?.close();
    await stack?.close();
  });

  const calls = async (call: string) => (await stack.sim.state()).calls[call] ?? 0;
  const sha256 = (body: Buffer) => crypto.createHash('sha256').update(body).digest('hex');

  /** Registers an image served at `path` (at `bytesPerSecond` when given); answers its id. */
  async function register(name: string, o: { bytesPerSecond?: number } = {}): Promise<string> {
    const body = qcow2Image(1024 ** 3 + crypto.randomInt(1, 1000) * 65536);
    images.serve(`/images/${name}.qcow2`, { body, ...o });
    const created = await stack.api.request('POST', '/v1/admin/images', {
      token: stack.api.adminToken,
      body: {
        name,
        os: 'debian',
        version: '12',
        loginMethods: ['password', 'ssh'],
        defaultUsername: 'debian',
        rootAllowed: false,
        source: { url: images.urlOf(`/images/${name}.qcow2`), checksum: sha256(body), checksumAlgorithm: 'sha256' },
      },
    });
    expect(created.status).toBe(201);
    return created.body.data.id as string;
  }

  const jobWithUpid = (suffix: string) =>
    expect.poll(async () => (await stack.api.db.providerJob.findFirst({ where: { key: { endsWith: suffix }, upid: { not: null }, status: 'running' } })) !== null, { timeout: 60_000, interval: 50 }).toBe(true);

  /** Kills the worker, starts another, and waits for every node's build to be ready; answers the templates' VMIDs. */
  async function killAndFinish(imageId: string): Promise<number[]> {
    await worker?.kill();
    await stack.sim.options({ taskMsByType: {} });
    worker = stack.spawnWorkerProcess();
    await expect
      .poll(async () => (await stack.api.db.imageBuild.findMany({ where: { version: { imageId } } })).map((b) => b.state).join(','), { timeout: 120_000, interval: 200 })
      .toBe(NODES.map(() => 'ready').join(','));
    const builds = await stack.api.db.imageBuild.findMany({ where: { version: { imageId } } });
    return builds.map((b) => b.templateVmid as number);
  }

  /** Exactly one template per node for these builds, and no other guest of ours for them. */
  async function expectOneTemplatePerNode(vmids: number[]): Promise<void> {
    const state = await stack.sim.state();
    const templates = state.guests.filter((g) => vmids.includes(g.vmid));
    expect(templates.map((g) => g.node).sort()).toEqual(NODES);
    expect(templates.every((g) => Number(g.config.template) === 1)).toBe(true);
  }

  it('mid-download: the recorded download task is resumed, never started twice', async () => {
    const downloads = await calls(DOWNLOAD_CALL);
    worker = stack.spawnWorkerProcess();
    const imageId = await register('crash-download', { bytesPerSecond: 32 * 1024 });
    await jobWithUpid(':shared-nfs');
    const vmids = await killAndFinish(imageId);
    expect(await calls(DOWNLOAD_CALL)).toBe(downloads + 1);
    await expectOneTemplatePerNode(vmids);
  });

  it('mid-import: the VM being created is adopted, not created again', async () => {
    await stack.sim.options({ taskMsByType: { qmcreate: 5000 } });
    const creates = await calls(CREATE_CALL);
    worker = stack.spawnWorkerProcess();
    const imageId = await register('crash-import');
    await jobWithUpid(':create');
    const vmids = await killAndFinish(imageId);
    expect(await calls(CREATE_CALL)).toBe(creates + NODES.length);
    await expectOneTemplatePerNode(vmids);
  });

  it('mid-conversion: the conversion to a template is resumed, not made again', async () => {
    await stack.sim.options({ taskMsByType: { qmtemplate: 5000 } });
    const conversions = await calls(TEMPLATE_CALL);
    worker = stack.spawnWorkerProcess();
    const imageId = await register('crash-template');
    await jobWithUpid(':template');
    const vmids = await killAndFinish(imageId);
    expect(await calls(TEMPLATE_CALL)).toBe(conversions + NODES.length);
    await expectOneTemplatePerNode(vmids);
  });
});
