import { beforeAll, describe, expect, it } from 'vitest';
import { createSimulator } from '../../src/simulator/server';
import { useTestApiWithCustomer } from '../support/api';
import { freePort } from '../support/ports';

const { api, admin } = useTestApiWithCustomer();

const TOKEN = { tokenId: 'controlplane@pve!provisioner', tokenSecret: 'b1f0c5a9-e6d3-4c51-9d2e-7d4c4a0e3b8f' };

/** A Proxmox VE cluster to connect to: a simulator with this name, accepting the token above. */
async function cluster(clusterName: string): Promise<string> {
  const listening = await createSimulator({ clusterName, extraTokens: [`${TOKEN.tokenId}=${TOKEN.tokenSecret}`] }).listen(0, '127.0.0.1');
  closers.push(listening.close);
  return listening.url;
}
const closers: (() => Promise<void>)[] = [];

let labA: string;
let labAAgain: string;
let labB: string;
beforeAll(async () => {
  // Two URLs of one cluster (two of its nodes' API endpoints), and another cluster.
  [labA, labAAgain, labB] = await Promise.all([cluster('lab-a'), cluster('lab-a'), cluster('lab-b')]);
  return async () => {
    for (const close of closers) await close();
  };
});

const connect = (name: string, url: string, vmidRange: { start: number; end: number }, overrides: Record<string, unknown> = {}) =>
  api.request('POST', '/v1/admin/connections', {
    ...admin,
    body: { name, url, plaintextLab: true, ...TOKEN, vmidRange, nodes: [{ name: 'pve1', vcpus: 8, memoryMiB: 16384, diskGiB: 500 }], ...overrides },
  });

describe('a connection knows which cluster it reaches', () => {
  it("records the cluster's name, read from Proxmox VE before anything is saved", async () => {
    const res = await connect('lab-a-main', labA, { start: 1000, end: 1999 });
    expect(res.status).toBe(201);
    expect(res.body.data.clusterName).toBe('lab-a');
  });

  it('refuses a second connection to the same cluster whose VMID range overlaps, naming the one it collides with', async () => {
    const first = (await api.db.proxmoxConnection.findFirstOrThrow({ where: { name: 'lab-a-main' } })).id;
    const res = await connect('lab-a-other-url', labAAgain, { start: 1500, end: 2500 });
    expect(res.status).toBe(409);
    expect(res.body.error).toMatchObject({ code: 'CONNECTION_OVERLAP', details: { connectionId: first, vmidRange: { start: 1000, end: 1999 } } });
    expect(await api.db.proxmoxConnection.count({ where: { name: 'lab-a-other-url' } })).toBe(0);
  });

  it('accepts the same cluster with a disjoint range, and another cluster with an overlapping one', async () => {
    expect((await connect('lab-a-second-range', labAAgain, { start: 2000, end: 2999 })).status).toBe(201);
    expect((await connect('lab-b', labB, { start: 1000, end: 1999 })).status).toBe(201);
  });

  it('reads the name of a connection made before names were kept, and still refuses the overlap', async () => {
    await api.db.proxmoxConnection.updateMany({ where: { name: 'lab-b' }, data: { clusterName: null } });
    const res = await connect('lab-b-again', labB, { start: 1900, end: 1950 });
    expect(res.status).toBe(409);
    expect(res.body.error.code).toBe('CONNECTION_OVERLAP');
    expect((await api.db.proxmoxConnection.findFirstOrThrow({ where: { name: 'lab-b' } })).clusterName).toBe('lab-b');
  });

  it('refuses a token Proxmox VE rejects, and answers 503 when Proxmox VE cannot be reached; nothing is saved', async () => {
    const refused = await connect('bad-token', labA, { start: 5000, end: 5999 }, { tokenSecret: 'not-the-secret' });
    expect(refused.status).toBe(400);
    expect(refused.body.error).toMatchObject({ code: 'INVALID_INPUT', details: { fields: { tokenSecret: expect.any(String) } } });
    expect(refused.text).not.toContain('not-the-secret');

    const unreachable = await connect('nobody-home', `http://127.0.0.1:${await freePort()}`, { start: 5000, end: 5999 });
    expect(unreachable.status).toBe(503);
    expect(unreachable.body.error.code).toBe('PROVIDER_UNAVAILABLE');
    expect(await api.db.proxmoxConnection.count({ where: { name: { in: ['bad-token', 'nobody-home'] } } })).toBe(0);
  });
});
