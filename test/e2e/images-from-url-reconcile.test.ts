/**
 * The reconciler against image templates from a URL, on the real stack with a one-second
 * schedule: a template deleted behind our back makes its node not ready for the image (no create
 * is placed there) until the build is made again, at a template of its own.
 */
import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ProxmoxClient } from '../../src/proxmox';
import { DEFAULT_IMAGE, startImageServer, type ImageServer } from '../../src/simulator';
import { parseToken } from '../../src/simulator/server';
import { LEAST_PRIVILEGE_SIM_TOKEN } from '../../src/simulator/spec';
import { suiteStack } from '../support/lifecycle';

const NODES = ['pve1', 'pve2', 'pve3'];

let images: ImageServer;
beforeAll(async () => {
  images = await startImageServer();
});
afterAll(async () => {
  await images?.close();
});

describe('the reconciler and image templates from a URL', () => {
  const stack = suiteStack({ env: { RECONCILE_INTERVAL_SECONDS: '1' } });
  const { tokenId, secret: tokenSecret } = parseToken(LEAST_PRIVILEGE_SIM_TOKEN);

  it('rebuilds a template deleted behind our back, at its own VMID on its node', async () => {
    const body = images.bodyOf(DEFAULT_IMAGE.path) as Buffer;
    const created = await stack.api.request('POST', '/v1/admin/images', {
      token: stack.api.adminToken,
      body: {
        name: 'cloud-reconciled',
        os: 'debian',
        version: '12',
        loginMethods: ['password', 'ssh'],
        defaultUsername: 'debian',
        rootAllowed: false,
        source: { url: images.urlOf(DEFAULT_IMAGE.path), checksum: crypto.createHash('sha256').update(body).digest('hex'), checksumAlgorithm: 'sha256' },
      },
    });
    const imageId = created.body.data.id as string;
    const ready = async () => (await stack.api.db.imageBuild.findMany({ where: { version: { imageId }, state: 'ready' } })).map((b) => b.node).sort();
    await expect.poll(ready, { timeout: 90_000, interval: 200 }).toEqual(NODES);
    const lost = await stack.api.db.imageBuild.findFirstOrThrow({ where: { version: { imageId }, node: 'pve2' } });

    // An operator deletes the template in the Proxmox UI.
    const outside = new ProxmoxClient({ baseUrl: stack.sim.url, tokenId, tokenSecret, plaintextLab: true });
    try {
      await outside.tasks.wait(await outside.guests.delete('pve2', lost.templateVmid as number));
    } finally {
      outside.close();
    }
    const creates = (await stack.sim.state()).calls['POST /nodes/{node}/qemu'] ?? 0;
    await expect.poll(async () => (await stack.sim.state()).calls['POST /nodes/{node}/qemu'] ?? 0, { timeout: 60_000, interval: 100 }).toBeGreaterThan(creates);
    await expect.poll(ready, { timeout: 90_000, interval: 200 }).toEqual(NODES);
    const rebuilt = (await stack.sim.state()).guests.find((g) => g.vmid === lost.templateVmid);
    expect(rebuilt).toMatchObject({ node: 'pve2', config: expect.objectContaining({ template: 1 }) });
    const templates = await stack.api.db.imageTemplate.findMany({ where: { imageId } });
    expect(templates.map((t) => t.node).sort()).toEqual(NODES);
  });
});
