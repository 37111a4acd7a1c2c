/**
 * A connection's snippets setting is checked through Proxmox: a worker writes a probe file to the
 * directory and every node of the connection must list it on the storage, or the setting is not
 * saved (422 SNIPPETS_NOT_VISIBLE). A snippet the guest's node does not list fails the provision
 * at cloud_init, which then rolls back with nothing left.
 */
import { mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { demoCluster } from '../../src/simulator/spec';
import { guestsOf } from '../support/stack';
import { expectFullyReleased } from '../support/reservations';
import { runningServer, suiteStack } from '../support/lifecycle';

const directory = (name: string) => mkdtempSync(path.join(tmpdir(), `pvecp-snippets-${name}-`));
/** What the cluster's nodes read as the shared storage's snippets. */
const mounted = directory('mounted');
/** A directory the workers can write that no node reads. */
const unmounted = directory('unmounted');
/** Another node's idea of the storage. */
const stale = directory('stale');
/** A local storage on pve1 only. */
const pve1Local = directory('pve1');
afterAll(() => {
  for (const d of [mounted, unmounted, stale, pve1Local]) rmSync(d, { recursive: true, force: true });
});

const WAIT_SECONDS = 1;

describe('snippets that Proxmox can see', () => {
  const stack = suiteStack({
    env: { SNIPPETS_VISIBLE_WITHIN_SECONDS: String(WAIT_SECONDS) },
    simulator: {
      cluster: {
        storages: [
          ...demoCluster().storages,
          { storage: 'cephfs-snippets', type: 'cephfs', shared: true, content: 'snippets', snippetsDir: mounted },
          { storage: 'local-snippets', type: 'dir', shared: false, content: 'snippets', nodes: ['pve1'], snippetsDir: pve1Local },
        ],
      },
    },
  });
  const admin = () => ({ token: stack.api.adminToken });
  const connectionUrl = () => `/v1/admin/connections/${stack.seed.connectionId}`;
  const setSnippets = (snippets: unknown) => stack.api.request('PATCH', connectionUrl(), { ...admin(), body: { snippets } });
  const savedSnippets = async () => (await stack.api.db.proxmoxConnection.findUniqueOrThrow({ where: { id: stack.seed.connectionId } })).snippetsStorage;
  const createConnection = (name: string, nodes: string[], snippets: unknown) =>
    stack.api.request('POST', '/v1/admin/connections', {
      ...admin(),
      body: {
        name,
        url: stack.sim.url,
        tokenId: 'root@pam!controlplane',
        tokenSecret: 'sim-secret-change-me',
        plaintextLab: true,
        vmidRange: { start: 50_000, end: 50_999 },
        nodes: nodes.map((node) => ({ name: node, vcpus: 8, memoryMiB: 16_384, diskGiB: 500 })),
        snippets,
      },
    });
  const notListed = `a file written to ${unmounted} is not listed here after ${WAIT_SECONDS} s`;

  it('refuses a directory no node lists, on create and on update, saving nothing and leaving no probe behind', async () => {
    const refused = await setSnippets({ storage: 'cephfs-snippets', directory: unmounted });
    expect(refused.status).toBe(422);
    expect(refused.body.error).toMatchObject({
      code: 'SNIPPETS_NOT_VISIBLE',
      details: { storage: 'cephfs-snippets', directory: unmounted, shared: true, nodes: { pve1: notListed, pve2: notListed, pve3: notListed } },
    });
    expect(await savedSnippets()).toBeNull();

    const connections = await stack.api.db.proxmoxConnection.count();
    const created = await createConnection('lab-unmounted', ['pve1', 'pve2'], { storage: 'cephfs-snippets', directory: unmounted });
    expect(created.status).toBe(422);
    expect(created.body.error.code).toBe('SNIPPETS_NOT_VISIBLE');
    expect(await stack.api.db.proxmoxConnection.count()).toBe(connections);
    expect(readdirSync(unmounted)).toEqual([]);
  });

  it('names the one node whose mount differs from the workers’ directory', async () => {
    await stack.sim.changeStorage('cephfs-snippets', { snippetsDirByNode: { pve3: stale } });
    try {
      const refused = await setSnippets({ storage: 'cephfs-snippets', directory: mounted });
      expect(refused.status).toBe(422);
      expect(refused.body.error.details.nodes).toEqual({ pve3: `a file written to ${mounted} is not listed here after ${WAIT_SECONDS} s` });
      expect(await savedSnippets()).toBeNull();
    } finally {
      await stack.sim.changeStorage('cephfs-snippets', { snippetsDirByNode: null });
    }
  });

  it('refuses a storage that is not on every node of the connection', async () => {
    const refused = await createConnection('lab-two-nodes', ['pve1', 'pve2'], { storage: 'local-snippets', directory: pve1Local });
    expect(refused.status).toBe(422);
    expect(refused.body.error).toMatchObject({
      code: 'SNIPPETS_NOT_VISIBLE',
      details: { storage: 'local-snippets', shared: false, nodes: { pve2: 'storage local-snippets is not available on this node' } },
    });
    expect(await stack.api.db.proxmoxConnection.findFirst({ where: { name: 'lab-two-nodes' } })).toBeNull();
    expect(readdirSync(pve1Local)).toEqual([]);
  });

  it('saves a directory every node lists, and writes snippets Proxmox can read through root squash (0644, whatever the umask)', async () => {
    const saved = await setSnippets({ storage: 'cephfs-snippets', directory: mounted });
    expect(saved.status).toBe(200);
    expect(saved.body.data.snippets).toEqual({ storage: 'cephfs-snippets', directory: mounted });
    expect(readdirSync(mounted)).toEqual([]);

    // The worker runs in this process: a strict umask must not take the read bits away.
    const umask = process.umask(0o077);
    try {
      const id = await runningServer(stack, { hostname: 'ud-seen', userData: '#cloud-config\npackages: [htop]\n' });
      // Written whole: no temporary file stays beside it.
      expect(readdirSync(mounted)).toEqual([`pvecp-${id}.yaml`]);
      expect(statSync(path.join(mounted, `pvecp-${id}.yaml`)).mode & 0o777).toBe(0o644);
    } finally {
      process.umask(umask);
    }
  });

  it('fails cloud_init cleanly when the node stops listing the snippet after the save, and rolls back with nothing left', async () => {
    expect(await savedSnippets()).toBe('cephfs-snippets');
    // The storage is remounted elsewhere on the nodes after the check passed.
    await stack.sim.changeStorage('cephfs-snippets', { snippetsDir: stale });
    try {
      const created = await stack.create({ hostname: 'ud-unseen', userData: '#cloud-config\npackages: [htop]\n' });
      const id = created.body.data.id;
      const failed = await stack.waitForStatus(id, ['failed', 'running', 'rollback_failed']);
      expect(failed.status).toBe('failed');
      expect(failed.failure?.code).toBe('PROVISIONING_FAILED');
      const instance = await stack.api.db.instance.findUniqueOrThrow({ where: { id } });
      expect(instance.failureCause).toMatchObject({ stage: 'cloud_init', type: 'SNIPPETS_NOT_VISIBLE' });
      expect(readdirSync(mounted).filter((name) => name.includes(id))).toEqual([]);
      expect(guestsOf(await stack.sim.state(), id)).toEqual([]);
      await expectFullyReleased(stack.api.db, id);
    } finally {
      await stack.sim.changeStorage('cephfs-snippets', { snippetsDir: mounted });
    }
  });
});
