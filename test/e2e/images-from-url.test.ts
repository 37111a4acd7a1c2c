/**
 * Images from a URL on the real stack (API, worker, Temporal, PostgreSQL, the simulator fetching
 * from a local image server): an image registered by URL becomes a template on every node of the
 * demo cluster (one download on a shared storage, one per node on a local one) and a server made
 * from it runs; a wrong checksum fails every node with its code and leaves no file and no
 * template; a storage without `import` is refused at registration.
 */
import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_IMAGE, qcow2Image, startImageServer, type ImageServer } from '../../src/simulator';
import { runningServer, suiteStack } from '../support/lifecycle';

const NODES = ['pve1', 'pve2', 'pve3'];

interface Build {
  node: string;
  state: string;
  version: number;
  storage: string | null;
  templateVmid: number | null;
  progress: number | null;
  errorCode: string | null;
  retiredAt: string | null;
}
interface SimFile {
  volid: string;
  node?: string;
  storage: string;
}

let images: ImageServer;
beforeAll(async () => {
  images = await startImageServer();
});
afterAll(async () => {
  await images?.close();
});

const sha256 = (body: Buffer) => crypto.createHash('sha256').update(body).digest('hex');

describe('images from a URL on the real stack', () => {
  const stack = suiteStack();
  const admin = () => ({ token: stack.api.adminToken });

  const register = (name: string, source: Record<string, unknown>) =>
    stack.api.request('POST', '/v1/admin/images', {
      ...admin(),
      body: { name, os: 'debian', version: '12', loginMethods: ['password', 'ssh'], defaultUsername: 'debian', rootAllowed: false, source },
    });
  const source = (o: Record<string, unknown> = {}) => ({
    url: images.urlOf(DEFAULT_IMAGE.path),
    checksum: sha256(images.bodyOf(DEFAULT_IMAGE.path) as Buffer),
    checksumAlgorithm: 'sha256',
    ...o,
  });

  const readImage = async (imageId: string) => {
    const list = await stack.api.request('GET', '/v1/admin/images?limit=100', admin());
    return (list.body.data as { id: string; builds: Build[]; templates: { node: string; templateVmid: number }[]; archivedAt: string | null }[]).find((i) => i.id === imageId);
  };

  /** Polls the image until `done` holds of it. */
  async function until(imageId: string, done: (image: NonNullable<Awaited<ReturnType<typeof readImage>>>) => boolean, timeoutMs = 90_000) {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const image = await readImage(imageId);
      if (image && done(image)) return image;
      if (Date.now() > deadline) throw new Error(`not yet: ${JSON.stringify(image)}`);
      await new Promise((r) => setTimeout(r, 200));
    }
  }

  /** Polls the image until every node's build of its newest version has left `importing`. */
  async function settled(imageId: string, version = 1): Promise<Build[]> {
    const image = await until(imageId, (i) => {
      const builds = i.builds.filter((b) => b.version === version);
      return builds.length === NODES.length && builds.every((b) => b.state !== 'importing');
    });
    return image.builds.filter((b) => b.version === version);
  }

  /** Polls the simulator's state until `done` holds of it. */
  async function simUntil(done: (state: { guests: { vmid: number }[]; files: SimFile[] }) => boolean, timeoutMs = 30_000) {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const state = (await stack.sim.state()) as unknown as { guests: { vmid: number }[]; files: SimFile[] };
      if (done(state)) return state;
      if (Date.now() > deadline) throw new Error(`not yet: ${JSON.stringify(state.files)}`);
      await new Promise((r) => setTimeout(r, 200));
    }
  }

  const files = async (name: string) => ((await stack.sim.state()) as unknown as { files: SimFile[] }).files.filter((f) => f.volid.includes(name));
  const downloadTasks = async () => (await stack.sim.state()).tasks.filter((t) => t.type === 'download');

  it('registered by URL, it becomes a template on every node from one download on a shared storage, and a server made from it runs', async () => {
    const before = (await downloadTasks()).length;
    const created = await register('cloud-shared', source());
    expect(created.status).toBe(201);
    const imageId = created.body.data.id as string;
    expect(created.body.data.source).toMatchObject({ url: images.urlOf(DEFAULT_IMAGE.path), checksumAlgorithm: 'sha256', storage: null });

    const builds = await settled(imageId);
    expect(builds.map((b) => [b.node, b.state, b.storage, b.progress])).toEqual(NODES.map((n) => [n, 'ready', 'shared-nfs', 100]));
    expect((await downloadTasks()).length - before).toBe(1);

    const state = await stack.sim.state();
    for (const build of builds) {
      const template = state.guests.find((g) => g.vmid === build.templateVmid);
      expect(template).toMatchObject({ node: build.node });
      expect(template?.config).toMatchObject({ template: 1, serial0: 'socket', boot: 'order=scsi0', agent: 'enabled=1' });
      expect(String(template?.config.ide2)).toContain('cloudinit');
    }
    const listed = await stack.api.request('GET', '/v1/admin/images?limit=100', admin());
    const image = (listed.body.data as { id: string; templates: { node: string; templateVmid: number }[] }[]).find((i) => i.id === imageId);
    expect(image?.templates.map((t) => [t.node, t.templateVmid])).toEqual(builds.map((b) => [b.node, b.templateVmid]));

    await runningServer(stack, { hostname: 'from-url-1', imageId});
  });

  it('on a local storage each node downloads the file once for itself', async () => {
    const before = (await downloadTasks()).length;
    const created = await register('cloud-local', source({ storage: 'local' }));
    expect(created.status).toBe(201);
    const builds = await settled(created.body.data.id as string);
    expect(builds.map((b) => [b.node, b.state, b.storage])).toEqual(NODES.map((n) => [n, 'ready', 'local']));
    expect((await downloadTasks()).length - before).toBe(3);
    const local = (await stack.sim.state()) as unknown as { files: SimFile[] };
    const ours = local.files.filter((f) => f.storage === 'local' && f.volid.startsWith('local:import/pvecp-'));
    expect(ours.map((f) => f.node).sort()).toEqual(expect.arrayContaining(NODES));
  });

  it('a wrong checksum fails every node with DOWNLOAD_CHECKSUM_MISMATCH and leaves no file and no template', async () => {
    const guestsBefore = (await stack.sim.state()).guests.length;
    const created = await register('cloud-bad-sum', source({ checksum: 'b'.repeat(64) }));
    expect(created.status).toBe(201);
    const builds = await settled(created.body.data.id as string);
    expect(builds.map((b) => [b.node, b.state, b.errorCode])).toEqual(NODES.map((n) => [n, 'failed', 'DOWNLOAD_CHECKSUM_MISMATCH']));
    // Only the first test's file is on the shared storage.
    expect((await files('shared-nfs:import/pvecp-')).length).toBe(1);
    expect((await stack.sim.state()).guests.length).toBe(guestsBefore);
  });

  it('a storage that does not take import is refused at registration, and no image is kept', async () => {
    const refused = await register('cloud-lvm', source({ storage: 'local-lvm' }));
    expect(refused.status).toBe(422);
    expect(refused.body.error).toMatchObject({ code: 'IMAGE_STORAGE_REFUSED', details: { fields: { 'source.storage': 'does not take content type import' } } });
    expect(await stack.api.db.image.count({ where: { name: 'cloud-lvm' } })).toBe(0);
  });

  it('bad sources are refused with INVALID_INPUT', async () => {
    for (const bad of [source({ url: 'ftp://example.com/a.qcow2' }), source({ checksum: 'abc' }), source({ checksumAlgorithm: 'md5' }), source({ url: 'http://user:pw@example.com/a.qcow2' })]) {
      const r = await register('cloud-bad', bad);
      expect(r.status, JSON.stringify(bad)).toBe(400);
      expect(r.body.error.code).toBe('INVALID_INPUT');
    }
  });

  it('a refresh with a new checksum builds a second version while a slow clone from the first finishes; the templates and file of the first version go afterwards', async () => {
    const first = qcow2Image(1024 ** 3);
    images.serve('/images/rolling.qcow2', { body: first });
    const created = await register('cloud-rolling', source({ url: images.urlOf('/images/rolling.qcow2'), checksum: sha256(first) }));
    const imageId = created.body.data.id as string;
    const v1 = await settled(imageId);
    expect(v1.every((b) => b.state === 'ready')).toBe(true);

    await stack.sim.options({ taskMsByType: { qmclone: 4000 } });
    try {
      const server = await stack.create({ hostname: 'rolling-1', imageId });
      const id = server.body.data.id;
      // The provision has chosen a v1 template (at its create); its clone runs for seconds.
      const second = qcow2Image(2 * 1024 ** 3);
      images.serve('/images/rolling.qcow2', { body: second });
      const refreshed = await stack.api.request('POST', `/v1/admin/images/${imageId}/refresh`, { ...admin(), body: { checksum: sha256(second) } });
      expect(refreshed.status).toBe(200);
      expect(refreshed.body.meta).toEqual({ refreshed: true });
      const same = await stack.api.request('POST', `/v1/admin/images/${imageId}/refresh`, { ...admin(), body: { checksum: sha256(second) } });
      expect(same.body.meta).toEqual({ refreshed: false });

      const v2 = await settled(imageId, 2);
      expect(v2.every((b) => b.state === 'ready')).toBe(true);
      const ready = await stack.waitForStatus(id, ['running', 'failed'], 60_000);
      expect(ready.status).toBe('running');

      const after = await until(imageId, (i) => i.builds.filter((b) => b.version === 1).every((b) => b.retiredAt !== null));
      expect(after.templates.map((t) => t.templateVmid).sort()).toEqual(v2.map((b) => b.templateVmid).sort());
      // On the shared storage: the first test's file and v2's, once v1's is removed.
      const state = await simUntil((s) => s.files.filter((f) => f.storage === 'shared-nfs' && f.volid.startsWith('shared-nfs:import/pvecp-')).length === 2);
      expect(state.guests.filter((g) => v1.some((b) => b.templateVmid === g.vmid))).toEqual([]);
      expect(state.guests.filter((g) => v2.some((b) => b.templateVmid === g.vmid))).toHaveLength(3);
    } finally {
      await stack.sim.options({ taskMsByType: {} });
    }
  });

  it('deleting an image is refused while a server is being made from it, then removes its templates and files', async () => {
    const created = await register('cloud-doomed', source({ storage: 'local' }));
    const imageId = created.body.data.id as string;
    const builds = await settled(imageId);
    await stack.sim.options({ taskMsByType: { qmclone: 3000 } });
    let serverId: string;
    try {
      serverId = (await stack.create({ hostname: 'doomed-1', imageId })).body.data.id;
      const refused = await stack.api.request('DELETE', `/v1/admin/images/${imageId}`, admin());
      expect(refused.status).toBe(409);
      expect(refused.body.error.code).toBe('IMAGE_CLONE_IN_FLIGHT');
      expect((await stack.waitForStatus(serverId, ['running', 'failed'], 60_000)).status).toBe('running');
    } finally {
      await stack.sim.options({ taskMsByType: {} });
    }
    const deleted = await stack.api.request('DELETE', `/v1/admin/images/${imageId}`, admin());
    expect(deleted.status).toBe(202);
    expect(deleted.body.data.templates).toEqual([]);
    expect(deleted.body.data.archivedAt).toEqual(expect.any(String));
    await until(imageId, (i) => i.builds.every((b) => b.retiredAt !== null));
    // Only the three files of the local-storage test above are left on `local` once the removal has run.
    const state = await simUntil((s) => s.files.filter((f) => f.storage === 'local' && f.volid.startsWith('local:import/pvecp-')).length === 3);
    expect(state.guests.filter((g) => builds.some((b) => b.templateVmid === g.vmid))).toEqual([]);
    // The server made from it keeps running.
    expect((await stack.sim.state()).guests.some((g) => g.name === 'doomed-1')).toBe(true);
  });
});
