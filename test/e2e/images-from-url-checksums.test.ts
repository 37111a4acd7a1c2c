/**
 * A URL image whose checksum is read from a checksum list (`SHA256SUMS`) rather than given, and
 * its refresh schedule, on the real stack (the control plane reads the list from a local image
 * server; the Temporal dev server runs the schedule, triggered here rather than waited for). A
 * refresh reads the list again, and a changed checksum builds a new version; a list that does not
 * name the file, or cannot be read, is refused with its code and no image is kept. A schedule
 * lost from Temporal is made again by the next worker start.
 */
import crypto from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { ScheduleNotFoundError } from '@temporalio/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checksumsFile, qcow2Image, startImageServer, type ImageServer } from '../../src/simulator';
import { imageRefreshScheduleId } from '../../src/temporal/workflow-ids';
import { suiteStack } from '../support/lifecycle';

const NODES = ['pve1', 'pve2', 'pve3'];

let images: ImageServer;
beforeAll(async () => {
  images = await startImageServer();
});
afterAll(async () => {
  await images?.close();
});

const sha256 = (body: Buffer) => crypto.createHash('sha256').update(body).digest('hex');

/** A mirror folder: the disk image and a SHA256SUMS listing it among other files; answers the image's bytes. */
function publish(folder: string, name: string, virtualSize: number, o: { bsd?: boolean } = {}): Buffer {
  const body = qcow2Image(virtualSize);
  images.serve(`/${folder}/${name}`, { body });
  const others = { 'other.iso': Buffer.from('an ISO'), [`${name}.manifest`]: Buffer.from('packages') };
  const list = o.bsd
    ? Object.entries({ ...others, [name]: body }).map(([file, bytes]) => `SHA256 (${file}) = ${sha256(bytes)}\n`).join('')
    : checksumsFile('sha256', { ...others, [name]: body }).replace(`  ${name}\n`, ` *${name}\n`);
  images.serve(`/${folder}/SHA256SUMS`, { body: Buffer.from(list), contentType: 'text/plain' });
  return body;
}

describe('URL images with a checksum list and a refresh schedule', () => {
  const stack = suiteStack();
  const admin = { token: '' };
  beforeAll(() => {
    admin.token = stack.api.adminToken;
  });

  const register = (name: string, source: Record<string, unknown>, more: Record<string, unknown> = {}) =>
    stack.api.request('POST', '/v1/admin/images', {
      ...admin,
      body: { name, os: 'debian', version: '12', loginMethods: ['password', 'ssh'], defaultUsername: 'debian', rootAllowed: false, source, ...more },
    });
  const readImage = async (id: string) => (await stack.api.request('GET', '/v1/admin/images?limit=100', admin)).body.data.find((i: { id: string }) => i.id === id);
  const versions = async (id: string) => ((await readImage(id)).versions as { number: number; checksum: string }[]).map((v) => [v.number, v.checksum]);
  const schedule = (id: string) => stack.api.temporal.schedule.getHandle(imageRefreshScheduleId(id));

  /**
   * Triggers one run of the image's schedule now; answers the run's result (RefreshImage's). Temporal
   * names a schedule's run by its schedule id and the second it was taken at, so a run is
   * triggered only once the second of the previous one has passed (two in one second would be one).
   */
  async function runSchedule(id: string): Promise<unknown> {
    const before = (await schedule(id).describe()).info.recentActions;
    const last = before.at(-1)?.takenAt.getTime();
    if (last !== undefined) await expect.poll(() => Math.floor(Date.now() / 1000) > Math.floor(last / 1000), { interval: 50 }).toBe(true);
    await schedule(id).trigger();
    await expect.poll(async () => (await schedule(id).describe()).info.recentActions.length, { timeout: 30_000, interval: 100 }).toBe(before.length + 1);
    const run = (await schedule(id).describe()).info.recentActions.at(-1)?.action.workflow;
    return stack.api.temporal.workflow.getHandle(run?.workflowId as string, run?.firstExecutionRunId).result();
  }

  it('builds from the checksum the list gives for the file its URL names, and a refresh reads the list again', async () => {
    const first = publish('mirror-a', 'disk.qcow2', 1024 ** 3);
    const created = await register('listed', { url: images.urlOf('/mirror-a/disk.qcow2'), checksumUrl: images.urlOf('/mirror-a/SHA256SUMS'), checksumAlgorithm: 'sha256' });
    expect(created.status).toBe(201);
    const id = created.body.data.id as string;
    expect(created.body.data.source).toMatchObject({ checksumUrl: images.urlOf('/mirror-a/SHA256SUMS') });
    expect(created.body.data.refreshSchedule).toBeNull();
    expect(await versions(id)).toEqual([[1, sha256(first)]]);
    await expect.poll(async () => ((await readImage(id)).builds as { state: string }[]).map((b) => b.state), { timeout: 90_000, interval: 250 }).toEqual(NODES.map(() => 'ready'));

    const unchanged = await stack.api.request('POST', `/v1/admin/images/${id}/refresh`, { ...admin, body: {} });
    expect(unchanged.body.meta).toEqual({ refreshed: false });
    const second = publish('mirror-a', 'disk.qcow2', 2 * 1024 ** 3, { bsd: true });
    const refreshed = await stack.api.request('POST', `/v1/admin/images/${id}/refresh`, { ...admin, body: {} });
    expect(refreshed.status).toBe(200);
    expect(refreshed.body.meta).toEqual({ refreshed: true });
    expect(await versions(id)).toEqual([
      [1, sha256(first)],
      [2, sha256(second)],
    ]);
  });

  it('a list that does not name the file is refused with IMAGE_CHECKSUM_NOT_LISTED, one that cannot be read with IMAGE_CHECKSUM_URL_UNREACHABLE; no image is kept', async () => {
    publish('mirror-b', 'disk.qcow2', 1024 ** 3);
    const notListed = await register('unlisted', { url: images.urlOf('/mirror-b/other-name.qcow2'), checksumUrl: images.urlOf('/mirror-b/SHA256SUMS'), checksumAlgorithm: 'sha256' });
    expect(notListed.status).toBe(422);
    expect(notListed.body.error).toMatchObject({ code: 'IMAGE_CHECKSUM_NOT_LISTED', details: { fields: { 'source.checksumUrl': 'does not list other-name.qcow2' } } });
    // A SHA512 list read as sha256: its lines have the wrong length.
    const otherAlgorithm = await register('unlisted', { url: images.urlOf('/images/demo-cloud.qcow2'), checksumUrl: images.urlOf('/images/SHA512SUMS'), checksumAlgorithm: 'sha256' });
    expect(otherAlgorithm.body.error.code).toBe('IMAGE_CHECKSUM_NOT_LISTED');

    const missing = await register('unlisted', { url: images.urlOf('/mirror-b/disk.qcow2'), checksumUrl: images.urlOf('/mirror-b/SHA256SUMS.gone'), checksumAlgorithm: 'sha256' });
    expect(missing.status).toBe(422);
    expect(missing.body.error).toMatchObject({ code: 'IMAGE_CHECKSUM_URL_UNREACHABLE', message: 'The checksum file could not be read: the server answered 404.' });
    const closed = http.createServer().listen(0, '127.0.0.1');
    await new Promise((resolve) => closed.once('listening', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve));
    const refused = await register('unlisted', { url: images.urlOf('/mirror-b/disk.qcow2'), checksumUrl: `http://127.0.0.1:${port}/SHA256SUMS`, checksumAlgorithm: 'sha256' });
    expect(refused.body.error).toMatchObject({ code: 'IMAGE_CHECKSUM_URL_UNREACHABLE', message: 'The checksum file could not be read: connection failed (ECONNREFUSED).' });
    expect(await stack.api.db.image.count({ where: { name: 'unlisted' } })).toBe(0);
  });

  it('takes exactly one of checksum and checksumUrl, and a schedule only with a checksum URL', async () => {
    const url = images.urlOf('/images/demo-cloud.qcow2');
    for (const source of [
      { url, checksumAlgorithm: 'sha256' },
      { url, checksum: 'a'.repeat(64), checksumUrl: images.urlOf('/images/SHA256SUMS'), checksumAlgorithm: 'sha256' },
      { url, checksumUrl: 'file:///etc/passwd', checksumAlgorithm: 'sha256' },
    ]) {
      const r = await register('one-of', source);
      expect(r.status, JSON.stringify(source)).toBe(400);
      expect(r.body.error.code).toBe('INVALID_INPUT');
    }
    const fixed = await register('one-of', { url, checksum: 'a'.repeat(64), checksumAlgorithm: 'sha256' }, { refreshSchedule: { every: '24h' } });
    expect(fixed.body.error).toMatchObject({ code: 'INVALID_INPUT', details: { fields: { refreshSchedule: 'only with source.checksumUrl: a fixed checksum never changes' } } });
    for (const every of ['0h', '721h', '31d', '1w', 'daily']) {
      const r = await register('one-of', { url, checksumUrl: images.urlOf('/images/SHA256SUMS'), checksumAlgorithm: 'sha256' }, { refreshSchedule: { every } });
      expect(r.status, every).toBe(400);
    }
  });

  it('a refresh schedule is a Temporal Schedule of the image: shown, run (a changed list builds a new version), changed, removed with null or with the image', async () => {
    const first = publish('mirror-c', 'noble.img', 1024 ** 3);
    const created = await register(
      'scheduled',
      { url: images.urlOf('/mirror-c/noble.img'), checksumUrl: images.urlOf('/mirror-c/SHA256SUMS'), checksumAlgorithm: 'sha256' },
      { refreshSchedule: { every: '24h' } },
    );
    expect(created.status).toBe(201);
    const id = created.body.data.id as string;
    expect(created.body.data.refreshSchedule).toEqual({ every: '24h' });
    expect((await schedule(id).describe()).spec.intervals).toEqual([expect.objectContaining({ every: 24 * 3600 * 1000 })]);

    // The file changes on the mirror; the schedule's next run (triggered now) reads the new checksum.
    const second = publish('mirror-c', 'noble.img', 2 * 1024 ** 3);
    expect(await runSchedule(id)).toEqual({ refreshed: true, skipped: null });
    expect(await versions(id)).toEqual([
      [1, sha256(first)],
      [2, sha256(second)],
    ]);
    // A run that finds the same checksum adds nothing; nor does one that cannot read the list.
    expect(await runSchedule(id)).toEqual({ refreshed: false, skipped: null });
    images.serve('/mirror-c/SHA256SUMS', { status: 503 });
    expect(await runSchedule(id)).toEqual({ refreshed: false, skipped: 'IMAGE_CHECKSUM_URL_UNREACHABLE' });
    expect(await versions(id)).toHaveLength(2);

    const weekly = await stack.api.request('PATCH', `/v1/admin/images/${id}`, { ...admin, body: { refreshSchedule: { every: '7d' } } });
    expect(weekly.status).toBe(200);
    expect(weekly.body.data.refreshSchedule).toEqual({ every: '7d' });
    expect((await schedule(id).describe()).spec.intervals).toEqual([expect.objectContaining({ every: 7 * 86_400 * 1000 })]);

    const off = await stack.api.request('PATCH', `/v1/admin/images/${id}`, { ...admin, body: { refreshSchedule: null } });
    expect(off.body.data.refreshSchedule).toBeNull();
    await expect(schedule(id).describe()).rejects.toBeInstanceOf(ScheduleNotFoundError);

    await stack.api.request('PATCH', `/v1/admin/images/${id}`, { ...admin, body: { refreshSchedule: { every: '12h' } } });
    expect((await schedule(id).describe()).spec.intervals).toEqual([expect.objectContaining({ every: 12 * 3600 * 1000 })]);
    const deleted = await stack.api.request('DELETE', `/v1/admin/images/${id}`, admin);
    expect(deleted.status).toBe(202);
    expect(deleted.body.data.refreshSchedule).toBeNull();
    await expect(schedule(id).describe()).rejects.toBeInstanceOf(ScheduleNotFoundError);
  });

  it('a refresh schedule lost from Temporal is made again when a worker starts', async () => {
    publish('mirror-d', 'disk.qcow2', 1024 ** 3);
    const created = await register(
      'restored',
      { url: images.urlOf('/mirror-d/disk.qcow2'), checksumUrl: images.urlOf('/mirror-d/SHA256SUMS'), checksumAlgorithm: 'sha256' },
      { refreshSchedule: { every: '6h' } },
    );
    const id = created.body.data.id as string;
    await schedule(id).delete();
    const worker = stack.spawnWorkerProcess();
    try {
      await expect
        .poll(async () => (await schedule(id).describe().catch(() => null))?.spec.intervals, { timeout: 60_000, interval: 250 })
        .toEqual([expect.objectContaining({ every: 6 * 3600 * 1000 })]);
    } finally {
      await worker.kill();
    }
    expect((await stack.api.request('DELETE', `/v1/admin/images/${id}`, admin)).status).toBe(202);
  });

  it('a schedule is refused for an image with a fixed checksum', async () => {
    const body = images.bodyOf('/images/demo-cloud.qcow2') as Buffer;
    const created = await register('fixed-sum', { url: images.urlOf('/images/demo-cloud.qcow2'), checksum: sha256(body), checksumAlgorithm: 'sha256' });
    const refused = await stack.api.request('PATCH', `/v1/admin/images/${created.body.data.id}`, { ...admin, body: { refreshSchedule: { every: '1d' } } });
    expect(refused.status).toBe(409);
    expect(refused.body.error.code).toBe('INVALID_STATE');
    // Its refresh needs the new checksum: there is no list to read it from.
    const refresh = await stack.api.request('POST', `/v1/admin/images/${created.body.data.id}/refresh`, { ...admin, body: {} });
    expect(refresh.status).toBe(400);
    expect(refresh.body.error.details.fields).toEqual({ checksum: 'required: the image has no checksum URL to read it from' });
  });
});
