/**
 * Snippets storages as each node sees them: a node lists the files of the directory that storage
 * maps to on that node, a storage configured for some nodes only is unavailable elsewhere, and
 * `cicustom` must name a file the guest's own node can read.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { demoCluster } from '../../src/simulator';
import { useSim } from './support';

const dir = (name: string) => mkdtempSync(path.join(tmpdir(), `pvecp-sim-${name}-`));
const shared = dir('shared');
const [local1, local2] = [dir('local1'), dir('local2')];
const pve1Only = dir('pve1-only');
const elsewhere = dir('elsewhere');
afterAll(() => {
  for (const d of [shared, local1, local2, pve1Only, elsewhere]) rmSync(d, { recursive: true, force: true });
});

const h = useSim({
  cluster: {
    storages: [
      ...demoCluster().storages,
      { storage: 'cephfs', type: 'cephfs', shared: true, content: 'snippets,iso', snippetsDir: shared },
      { storage: 'local', type: 'dir', content: 'snippets', snippetsDirByNode: { pve1: local1, pve2: local2, pve3: dir('local3') } },
      { storage: 'nfs-pve1', type: 'nfs', shared: true, content: 'snippets', nodes: ['pve1'], snippetsDir: pve1Only },
    ],
  },
});

type Entry = Record<string, unknown>;
const snippets = async (node: string, storage: string) => {
  const r = await h.api('GET', `/nodes/${node}/storage/${storage}/content`, { content: 'snippets' });
  expect(r.status, r.statusText).toBe(200);
  return (r.body.data as Entry[]).map((v) => v.volid);
};

describe('snippets storages, node by node', () => {
  it('a shared storage lists the same files on every node, without hidden ones', async () => {
    writeFileSync(path.join(shared, 'a.yaml'), '#cloud-config\n');
    writeFileSync(path.join(shared, '.a.yaml.tmp'), 'half written');
    for (const node of ['pve1', 'pve2', 'pve3']) expect(await snippets(node, 'cephfs')).toEqual(['cephfs:snippets/a.yaml']);
  });

  it('a local storage lists on each node what that node holds', async () => {
    writeFileSync(path.join(local1, 'one.yaml'), '#cloud-config\n');
    writeFileSync(path.join(local2, 'two.yaml'), '#cloud-config\n');
    expect(await snippets('pve1', 'local')).toEqual(['local:snippets/one.yaml']);
    expect(await snippets('pve2', 'local')).toEqual(['local:snippets/two.yaml']);
    expect(await snippets('pve3', 'local')).toEqual([]);
    // A storage without content type snippets lists none.
    expect(await snippets('pve1', 'local-lvm')).toEqual([]);
  });

  it('a storage configured for one node is listed disabled elsewhere, and its content cannot be read there', async () => {
    const storages = async (node: string) => ((await h.api('GET', `/nodes/${node}/storage`)).body.data as Entry[]).find((s) => s.storage === 'nfs-pve1');
    expect(await storages('pve1')).toMatchObject({ shared: 1, enabled: 1, active: 1 });
    expect(await storages('pve2')).toMatchObject({ shared: 1, enabled: 0, active: 0, total: 0 });
    const read = await h.api('GET', '/nodes/pve2/storage/nfs-pve1/content', { content: 'snippets' });
    expect([read.status, read.statusText]).toEqual([500, "storage 'nfs-pve1' is not available on node 'pve2'"]);
    const resources = (await h.api('GET', '/cluster/resources', { type: 'storage' })).body.data as Entry[];
    expect(resources.filter((r) => r.storage === 'nfs-pve1').map((r) => r.node)).toEqual(['pve1']);
  });

  it('cicustom must name a file the guest’s node reads', async () => {
    writeFileSync(path.join(local1, 'only-on-pve1.yaml'), '#cloud-config\n');
    await h.wait(await h.client.guests.clone('pve2', 9010, { newid: 150, name: 'ud-1' }));
    const refused = await h.api('PUT', '/nodes/pve2/qemu/150/config', { cicustom: 'user=local:snippets/only-on-pve1.yaml' });
    expect([refused.status, refused.statusText]).toEqual([500, "volume 'local:snippets/only-on-pve1.yaml' does not exist"]);
    const elsewhereNode = await h.api('PUT', '/nodes/pve2/qemu/150/config', { cicustom: 'user=nfs-pve1:snippets/x.yaml' });
    expect(elsewhereNode.statusText).toBe("storage 'nfs-pve1' is not available on node 'pve2'");
    writeFileSync(path.join(local2, 'on-pve2.yaml'), '#cloud-config\n');
    expect((await h.api('PUT', '/nodes/pve2/qemu/150/config', { cicustom: 'user=local:snippets/on-pve2.yaml' })).status).toBe(200);
  });

  it('the control API changes where a storage reads its snippets and which nodes it is on, until a reset', async () => {
    writeFileSync(path.join(elsewhere, 'moved.yaml'), '#cloud-config\n');
    const changed = await h.control<{ storage: Entry }>('POST', '/storages/cephfs', { snippetsDir: elsewhere, nodes: ['pve1', 'pve3'] });
    expect(changed.storage).toMatchObject({ snippetsDir: elsewhere, nodes: ['pve1', 'pve3'] });
    expect(await snippets('pve1', 'cephfs')).toEqual(['cephfs:snippets/moved.yaml']);
    expect((await h.api('GET', '/nodes/pve2/storage/cephfs/content', { content: 'snippets' })).status).toBe(500);
    await h.control('POST', '/storages/cephfs', { nodes: null });
    expect(await snippets('pve2', 'cephfs')).toEqual(['cephfs:snippets/moved.yaml']);
    expect(await h.control('POST', '/storages/nope', {})).toEqual({ error: 'no such storage' });
    expect(await h.control('POST', '/storages/cephfs', { snippetsDir: 42 })).toMatchObject({ error: 'invalid storage change' });
    h.sim.reset();
    expect(await snippets('pve1', 'cephfs')).not.toContain('cephfs:snippets/moved.yaml');
  });
});
