/**
 * The read endpoints independent Proxmox VE clients call first (go-proxmox, the Terraform
 * providers) describe the simulated cluster consistently, with the same auth and error shapes
 * as every other route.
 */
import { describe, expect, it } from 'vitest';
import { DEFAULT_CLUSTER_NAME, createSimulator, demoCluster } from '../../src/simulator';
import { startSim, useSim } from './support';

const offlineNode = { name: 'pve4', status: 'offline' as const, cpus: 8, memoryGiB: 32, cpuFlags: [] };
const h = useSim({ cluster: { nodes: [...demoCluster().nodes, offlineNode] } });

type Entry = Record<string, unknown>;
const list = async (path: string, query: Record<string, string> = {}): Promise<Entry[]> => {
  const r = await h.api('GET', path, query);
  expect(r.status, `${path}: ${r.statusText}`).toBe(200);
  return r.body.data as Entry[];
};

describe('GET /cluster/status', () => {
  it('names the cluster and lists every node as /nodes does, the answering node marked local', async () => {
    const [cluster, ...nodes] = await list('/cluster/status');
    expect(cluster).toEqual({ type: 'cluster', id: 'cluster', name: DEFAULT_CLUSTER_NAME, nodes: 4, quorate: 1, version: expect.any(Number) });
    expect(DEFAULT_CLUSTER_NAME).toBe('pvecp-sim');
    const fromNodes = (await list('/nodes')).map((n) => ({ name: n.node, online: n.status === 'online' ? 1 : 0 }));
    expect(nodes.map((n) => ({ name: n.name, online: n.online }))).toEqual(fromNodes);
    expect(nodes.map((n) => [n.type, n.id, n.nodeid])).toEqual([
      ['node', 'node/pve1', 1],
      ['node', 'node/pve2', 2],
      ['node', 'node/pve3', 3],
      ['node', 'node/pve4', 4],
    ]);
    expect(nodes.filter((n) => n.local === 1).map((n) => n.name)).toEqual(['pve1']);
    expect(new Set(nodes.map((n) => n.ip)).size).toBe(4);
    for (const n of nodes) expect(n).toMatchObject({ level: '', ip: expect.stringMatching(/^\d+\.\d+\.\d+\.\d+$/) });
  });

  it('is not quorate when half of the nodes are offline', async () => {
    const [pve1, pve2] = demoCluster().nodes;
    const h2 = await startSim({ cluster: { nodes: [pve1!, { ...pve2!, status: 'offline', ip: '203.0.113.2' }] } });
    try {
      const r = await h2.api('GET', '/cluster/status');
      const [cluster, , second] = r.body.data as Entry[];
      expect(cluster).toMatchObject({ nodes: 2, quorate: 0 });
      expect(second).toMatchObject({ name: 'pve2', online: 0, local: 0, ip: '203.0.113.2' });
    } finally {
      await h2.close();
    }
  });

  it('carries the cluster name given to the simulator, so two simulators can be one cluster or two', async () => {
    const [edge, edgeAgain] = await Promise.all([startSim({ clusterName: 'edge-2' }), startSim({ clusterName: 'edge-2' })]);
    try {
      const nameOf = async (x: typeof edge) => ((await x.api('GET', '/cluster/status')).body.data as Entry[])[0]?.name;
      expect(await nameOf(edge)).toBe('edge-2');
      expect(await nameOf(edgeAgain)).toBe('edge-2');
      expect(await nameOf(h)).toBe(DEFAULT_CLUSTER_NAME);
      expect(await edge.control('GET', '/options')).toMatchObject({ clusterName: 'edge-2' });
    } finally {
      await Promise.all([edge.close(), edgeAgain.close()]);
    }
    expect(() => createSimulator({ clusterName: 'not a name' })).toThrow(/cluster name/);
    expect(() => createSimulator({ clusterName: 'sixteen-letters1' })).toThrow(/cluster name/);
  });
});

describe('GET /nodes/{node}/qemu', () => {
  it("lists exactly the node's guests, as /cluster/resources describes them", async () => {
    await h.wait(await h.client.guests.clone('pve2', 9010, { newid: 120, name: 'app-1' }));
    await h.client.guestConfig.setSync('pve2', 120, { memory: 4096, cores: 2, sockets: 2, tags: 'pvecp' });
    await h.wait(await h.client.guests.start('pve2', 120));
    const guests = await list('/nodes/pve2/qemu');
    const resources = (await list('/cluster/resources', { type: 'vm' })).filter((r) => r.node === 'pve2');
    expect(guests.map((g) => g.vmid).sort()).toEqual(resources.map((r) => r.vmid).sort());
    for (const r of resources) {
      const g = guests.find((x) => x.vmid === r.vmid);
      expect(g).toMatchObject({ name: r.name, status: r.status, maxmem: r.maxmem, maxdisk: r.maxdisk, cpus: r.maxcpu });
      expect(g?.template).toBe(r.template);
    }
    expect(guests.find((g) => g.vmid === 120)).toMatchObject({ status: 'running', maxmem: 4096 * 1024 ** 2, cpus: 4, tags: 'pvecp' });
    expect((await list('/nodes/pve1/qemu')).map((g) => g.vmid)).not.toContain(120);
  });
});

describe('GET /nodes/{node}/storage', () => {
  it("counts the node's volumes as used space: used + avail = total", async () => {
    const before = (await list('/nodes/pve1/storage'))[0] as Entry;
    await h.wait(await h.client.guests.clone('pve1', 9000, { newid: 130, name: 'disk-1' }));
    const r = await h.client.guestConfig.resizeDisk('pve1', 130, 'scsi0', 20);
    if (r) await h.wait(r);
    const after = (await list('/nodes/pve1/storage'))[0] as Entry;
    const volumes = await list('/nodes/pve1/storage/local-lvm/content');
    expect(after.used).toBe(volumes.reduce((sum, v) => sum + Number(v.size), 0));
    expect(Number(after.used) - Number(before.used)).toBe(20 * 1024 ** 3);
    expect(Number(after.used) + Number(after.avail)).toBe(after.total);
    expect(after).toMatchObject({ storage: 'local-lvm', total: 2048 * 1024 ** 3, enabled: 1, active: 1 });
    // each node has its own local storage
    expect(((await list('/nodes/pve2/storage'))[0] as Entry).used).toBe(before.used);
  });
});

describe('GET /pools', () => {
  it('lists the pools; with poolid, the guests cloned into it', async () => {
    expect(await list('/pools')).toEqual([{ poolid: 'customers', comment: 'guests made for customers' }]);
    await h.wait(await h.client.guests.clone('pve1', 9000, { newid: 140, name: 'member-1', pool: 'customers' }));
    await h.wait(await h.client.guests.clone('pve1', 9000, { newid: 141, name: 'outsider-1' }));
    const [pool] = await list('/pools', { poolid: 'customers' });
    expect(pool).toMatchObject({ poolid: 'customers', members: [expect.objectContaining({ id: 'qemu/140', type: 'qemu', vmid: 140, node: 'pve1', name: 'member-1' })] });
    expect(await list('/pools', { poolid: 'customers', type: 'storage' })).toEqual([expect.objectContaining({ members: [] })]);
    expect((await list('/cluster/resources', { type: 'vm' })).find((r) => r.vmid === 140)).toMatchObject({ pool: 'customers' });
    // a destroyed guest leaves its pool (the client destroys with purge)
    await h.wait(await h.client.guests.delete('pve1', 140));
    expect((await list('/pools', { poolid: 'customers' }))[0]).toMatchObject({ members: [] });
  });

  it('an unknown pool is an error, and a clone into it is refused before anything is made', async () => {
    const r = await h.api('GET', '/pools', { poolid: 'nope' });
    expect([r.status, r.statusText, r.body.data]).toEqual([500, "pool 'nope' does not exist", null]);
    const clone = await h.api('POST', '/nodes/pve1/qemu/9000/clone', { newid: '142', name: 'x', pool: 'nope' });
    expect([clone.status, clone.statusText]).toEqual([403, "Permission check failed (pool 'nope' does not exist)"]);
    expect(h.sim.state.guests.has(142)).toBe(false);
  });
});

describe('GET /access/permissions', () => {
  it("grants the simulator's tokens, and their user, every privilege propagated from /; nobody else anything", async () => {
    const mine = (await h.api('GET', '/access/permissions')).body.data as Record<string, Record<string, number>>;
    expect(Object.keys(mine)).toEqual(['/']);
    expect(mine['/']).toMatchObject({ 'VM.Allocate': 1, 'VM.Clone': 1, 'VM.Config.Cloudinit': 1, 'Datastore.AllocateSpace': 1, 'Sys.Audit': 1 });
    expect((await h.api('GET', '/access/permissions', { path: '/vms/101' })).body.data).toEqual({ '/vms/101': mine['/'] });
    expect((await h.api('GET', '/access/permissions', { userid: 'root@pam' })).body.data).toEqual(mine);
    expect((await h.api('GET', '/access/permissions', { userid: 'eve@pve' })).body.data).toEqual({});
  });
});

describe('auth and errors', () => {
  it('the read endpoints answer 401 without a valid token', async () => {
    for (const path of ['/version', '/cluster/status', '/pools', '/access/permissions', '/nodes/pve1/status', '/nodes/pve1/qemu', '/nodes/pve1/storage']) {
      expect((await h.api('GET', path, {}, null)).status, path).toBe(401);
      expect((await h.api('GET', path, {}, 'PVEAPIToken=root@pam!controlplane=nope')).status, path).toBe(401);
    }
  });

  it('an offline node answers 595 and an unknown node 500, as on a real cluster', async () => {
    for (const path of ['/nodes/pve4/status', '/nodes/pve4/qemu', '/nodes/pve4/storage']) {
      const r = await h.api('GET', path);
      expect([r.status, r.body.data], path).toEqual([595, null]);
    }
    const unknown = await h.api('GET', '/nodes/pve9/qemu');
    expect(unknown.status).toBe(500);
    expect(unknown.statusText).toMatch(/^hostname lookup 'pve9' failed/);
  });

  it('a read the simulator does not implement is still 501', async () => {
    const r = await h.api('GET', '/nodes/pve1/lxc');
    expect([r.status, r.statusText, r.body.data]).toEqual([501, "Method 'GET /nodes/pve1/lxc' not implemented", null]);
  });
});
