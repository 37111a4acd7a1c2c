/**
 * Images from a URL that cannot be built, on the real stack (API, worker, Temporal, PostgreSQL,
 * the simulator fetching for real from a local image server): a file that is not a disk image, a
 * URL that answers 404 or refuses the connection, a storage without room. Each fails every node
 * with its stable code and Proxmox's words, and leaves nothing behind: no file (finished or
 * partial) in the storage's import content, no template, no other VM.
 */
import crypto from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startImageServer, type ImageServer } from '../../src/simulator';
import { suiteStack } from '../support/lifecycle';

const NODES = ['pve1', 'pve2', 'pve3'];

interface Build {
  node: string;
  version: number;
  state: string;
  templateVmid: number | null;
  errorCode: string | null;
  errorMessage: string | null;
}
interface SimFile {
  volid: string;
  storage: string;
}

let images: ImageServer;
/** A port nothing listens on: a server's, closed again. */
let closedPort: number;
beforeAll(async () => {
  images = await startImageServer();
  const server = http.createServer().listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  closedPort = (server.address() as AddressInfo).port;
  await new Promise((resolve) => server.close(resolve));
});
afterAll(async () => {
  await images?.close();
});

const sha256 = (body: Buffer) => crypto.createHash('sha256').update(body).digest('hex');

describe('images from a URL that cannot be built', () => {
  const stack = suiteStack();

  /** Registers an image of `url` (checksum of `body`), waits until every node's build failed; answers the builds. */
  async function failedBuilds(name: string, url: string, body: Buffer, storage?: string): Promise<Build[]> {
    const created = await stack.api.request('POST', '/v1/admin/images', {
      token: stack.api.adminToken,
      body: {
        name,
        os: 'debian',
        version: '12',
        loginMethods: ['password'],
        rootAllowed: false,
        source: { url, checksum: sha256(body), checksumAlgorithm: 'sha256', ...(storage ? { storage } : {}) },
      },
    });
    expect(created.status).toBe(201);
    const imageId = created.body.data.id as string;
    let builds: Build[] = [];
    await expect
      .poll(
        async () => {
          const read = await stack.api.request('GET', '/v1/admin/images?limit=100', { token: stack.api.adminToken });
          builds = (read.body.data as { id: string; builds: Build[] }[]).find((i) => i.id === imageId)?.builds ?? [];
          return builds.length === NODES.length && builds.every((b) => b.state !== 'importing');
        },
        { timeout: 90_000, interval: 200 },
      )
      .toBe(true);
    return builds;
  }

  /** What a failed build may not leave: files in import content (ours, or a download's temporary one) and guests. */
  const leftovers = async () => {
    const state = (await stack.sim.state()) as unknown as { files: SimFile[]; guests: { vmid: number }[] };
    return { files: state.files.filter((f) => /:import\//.test(f.volid)).map((f) => f.volid), guests: state.guests.map((g) => g.vmid).sort() };
  };

  const expectFailedEverywhere = (builds: Build[], code: string, words: RegExp) => {
    expect(builds.map((b) => [b.node, b.state, b.errorCode])).toEqual(NODES.map((n) => [n, 'failed', code]));
    for (const build of builds) expect(build.errorMessage).toMatch(words);
  };

  it('a file that is not a disk image fails with DOWNLOAD_INVALID_FILE (qemu-img cannot read it) and leaves nothing', async () => {
    const before = await leftovers();
    const notes = Buffer.from('release notes, not a disk image\n');
    images.serve('/images/notes.qcow2', { body: notes });
    const builds = await failedBuilds('faulty-not-an-image', images.urlOf('/images/notes.qcow2'), notes);
    expectFailedEverywhere(builds, 'DOWNLOAD_INVALID_FILE', /failed to verify file/);
    expect(await leftovers()).toEqual(before);
  });

  it('a URL that answers 404 fails with DOWNLOAD_URL_UNREACHABLE (wget\u2019s exit code 8) and leaves nothing', async () => {
    const before = await leftovers();
    const builds = await failedBuilds('faulty-missing', images.urlOf('/images/gone.qcow2'), Buffer.from('gone'));
    expectFailedEverywhere(builds, 'DOWNLOAD_URL_UNREACHABLE', /download failed: exit code 8/);
    expect(await leftovers()).toEqual(before);
  });

  it('a server that refuses the connection fails with DOWNLOAD_URL_UNREACHABLE and leaves nothing', async () => {
    const before = await leftovers();
    const builds = await failedBuilds('faulty-refused', `http://127.0.0.1:${closedPort}/images/disk.qcow2`, Buffer.from('none'));
    expectFailedEverywhere(builds, 'DOWNLOAD_URL_UNREACHABLE', /Connection refused/);
    expect(await leftovers()).toEqual(before);
  });

  it('a storage without room fails with DOWNLOAD_STORAGE_FULL on each node and leaves no partial file', async () => {
    const before = await leftovers();
    const disk = Buffer.alloc(2 * 1024 * 1024);
    images.serve('/images/big.raw', { body: disk });
    // About a megabyte on each node's `local`: the 2 MiB download cannot fit.
    await stack.sim.changeStorage('local', { totalGiB: 0.001 });
    try {
      const builds = await failedBuilds('faulty-full', images.urlOf('/images/big.raw'), disk, 'local');
      expectFailedEverywhere(builds, 'DOWNLOAD_STORAGE_FULL', /No space left on device/);
    } finally {
      await stack.sim.changeStorage('local', { totalGiB: 512 });
    }
    expect(await leftovers()).toEqual(before);
  });
});
