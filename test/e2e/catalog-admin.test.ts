import { existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { parse as parseYaml } from 'yaml';
import { sweepSnippets } from '../../src/activities/snippets';
import { demoCluster } from '../../src/simulator/spec';
import { createSimulator, DEFAULT_SIM_TOKEN } from '../../src/simulator/server';
import { sha512Crypt } from '../../src/security/password-hash';
import { guestOf, runningServer, runOperation, suiteStack } from '../support/lifecycle';

/** The snippets storage's directory: the control plane writes to it, the simulated cluster reads from it. */
const snippetsDir = mkdtempSync(path.join(tmpdir(), 'pvecp-snippets-'));
afterAll(() => rmSync(snippetsDir, { recursive: true, force: true }));

const ROTATED_TOKEN = { tokenId: 'root@pam!rotated', tokenSecret: 'rotated-secret-0001' };

describe('the admin catalog on the real stack', () => {
  const stack = suiteStack({
    simulator: {
      // A second token the cluster accepts, for the rotation below.
      extraTokens: [`${ROTATED_TOKEN.tokenId}=${ROTATED_TOKEN.tokenSecret}`],
      cluster: { storages: [...demoCluster().storages, { storage: 'cephfs-snippets', type: 'cephfs', shared: true, content: 'snippets', snippetsDir }] },
    },
  });
  const admin = () => ({ token: stack.api.adminToken });
  const asCustomer = () => ({ token: stack.customer.token });
  const patch = (url: string, body: unknown) => stack.api.request('PATCH', url, { ...admin(), body });
  const names = (res: { body: { data: { name: string }[] } }) => res.body.data.map((item) => item.name);
  const instanceCount = () => stack.api.db.instance.count();
  /** The create's answer as status and body, for the refusals this file expects. */
  const tryCreate = async (body: Parameters<typeof stack.createAnswer>[0]) => {
    const { data, error, response } = await stack.createAnswer(body);
    return { status: response.status, body: (error ?? data) as any };
  };

  it('archives plans and images: gone from customer lists and new creates, still serving the servers that use them', async () => {
    const id = await runningServer(stack, { hostname: 'keeps-1' });
    const { plans, images } = stack.seed;

    const archived = await patch(`/v1/admin/plans/${plans.small}`, { archived: true });
    expect(archived.status).toBe(200);
    expect(archived.body.data.archivedAt).toEqual(expect.any(String));
    expect((await patch(`/v1/admin/images/${images['debian-12']}`, { archived: true })).status).toBe(200);

    expect(names(await stack.api.request('GET', '/v1/plans', asCustomer()))).not.toContain('small');
    expect(names(await stack.api.request('GET', '/v1/images', asCustomer()))).not.toContain('debian-12');
    expect(names(await stack.api.request('GET', '/v1/admin/plans?archived=true', admin()))).toEqual(['small']);
    expect(names(await stack.api.request('GET', '/v1/admin/plans?archived=false', admin()))).not.toContain('small');
    expect(names(await stack.api.request('GET', '/v1/admin/plans', admin()))).toContain('small');

    const before = await instanceCount();
    const refused = await tryCreate({ hostname: 'new-1' });
    expect(refused.status).toBe(422);
    expect(refused.body.error).toMatchObject({ code: 'ARCHIVED', details: { fields: { planId: 'archived', imageId: 'archived' } } });
    expect(await instanceCount()).toBe(before);

    // The server on them keeps its lifecycle, including a rebuild from its (archived) image.
    expect((await runOperation(stack, id, 'stop')).instance.status).toBe('stopped');
    const rebuilt = await runOperation(stack, id, 'rebuild', {});
    expect(rebuilt.task.status).toBe('succeeded');
    // …but not a rebuild onto another archived image.
    await patch(`/v1/admin/images/${images['rocky-9']}`, { archived: true });
    const otherImage = await stack.api.request('POST', `/v1/instances/${id}/rebuild`, { ...asCustomer(), body: { imageId: images['rocky-9'] } });
    expect(otherImage.status).toBe(422);
    expect(otherImage.body.error.code).toBe('ARCHIVED');

    for (const url of [`/v1/admin/plans/${plans.small}`, `/v1/admin/images/${images['debian-12']}`, `/v1/admin/images/${images['rocky-9']}`]) {
      expect((await patch(url, { archived: false })).body.data.archivedAt).toBeNull();
    }
    expect((await tryCreate({ hostname: 'new-2' })).status).toBe(202);

    const audited = await stack.api.db.auditEvent.findMany({ where: { action: 'plan.updated' } });
    expect(audited.map((a) => a.details)).toEqual([
      { planId: plans.small, changed: ['archived'], before: { archived: false }, after: { archived: true } },
      { planId: plans.small, changed: ['archived'], before: { archived: true }, after: { archived: false } },
    ]);
  });

  it('archives a location (or its whole connection) out of the customer list and new creates', async () => {
    const { locationId, connectionId } = stack.seed;
    await patch(`/v1/admin/locations/${locationId}`, { archived: true });
    expect((await stack.api.request('GET', '/v1/locations', asCustomer())).body.data).toEqual([]);
    expect((await tryCreate({ hostname: 'nowhere-1' })).body.error).toMatchObject({ code: 'ARCHIVED', details: { fields: { locationId: 'archived' } } });
    await patch(`/v1/admin/locations/${locationId}`, { archived: false });

    await patch(`/v1/admin/connections/${connectionId}`, { archived: true });
    expect((await stack.api.request('GET', '/v1/locations', asCustomer())).body.data).toEqual([]);
    expect((await tryCreate({ hostname: 'nowhere-2' })).body.error.code).toBe('ARCHIVED');
    expect((await stack.api.request('GET', '/v1/admin/connections?archived=true', admin())).body.data.map((c: { id: string }) => c.id)).toEqual([connectionId]);
    await patch(`/v1/admin/connections/${connectionId}`, { archived: false });
    expect((await stack.api.request('GET', '/v1/locations', asCustomer())).body.data).toHaveLength(1);
  });

  it("keeps a plan's sizes while servers use it, and changes them once none does", async () => {
    const inUse = await patch(`/v1/admin/plans/${stack.seed.plans.small}`, { vcpus: 2 });
    expect(inUse.status).toBe(409);
    expect(inUse.body.error).toMatchObject({ code: 'CONFLICT', details: { fields: { vcpus: 'in use' }, instances: expect.any(Number) } });
    expect((await patch(`/v1/admin/plans/${stack.seed.plans.small}`, { defaultUsername: 'ops' })).body.data.defaultUsername).toBe('ops');
    await patch(`/v1/admin/plans/${stack.seed.plans.small}`, { defaultUsername: null });

    const unused = await stack.api.request('POST', '/v1/admin/plans', { ...admin(), body: { name: 'tiny', vcpus: 1, memoryMiB: 512, diskGiB: 5 } });
    const resized = await patch(`/v1/admin/plans/${unused.body.data.id}`, { vcpus: 2, memoryMiB: 768 });
    expect(resized.body.data).toMatchObject({ name: 'tiny', vcpus: 2, memoryMiB: 768, diskGiB: 5 });
    expect((await patch('/v1/admin/plans/plan_missing', { vcpus: 2 })).status).toBe(404);
  });

  it("sets a node's capacity through the API, refusing less than its servers hold, and drains nodes of new placements", async () => {
    const { connectionId } = stack.seed;
    const id = await runningServer(stack, { hostname: 'drain-1' });
    const { node } = await stack.api.db.instance.findUniqueOrThrow({ where: { id } });
    const nodeUrl = (name: string) => `/v1/admin/connections/${connectionId}/nodes/${name}`;

    const tooSmall = await patch(nodeUrl(node as string), { memoryMiB: 128 });
    expect(tooSmall.status).toBe(409);
    expect(tooSmall.body.error).toMatchObject({ code: 'CONFLICT', details: { fields: { memoryMiB: expect.stringContaining('held by servers') }, requested: { memoryMiB: 128 } } });
    expect(tooSmall.body.error.details.held.memoryMiB).toBeGreaterThanOrEqual(1024);

    const grown = await patch(nodeUrl(node as string), { vcpus: 48 });
    expect(grown.body.data).toMatchObject({ name: node, vcpus: 48, enabled: true, draining: false });
    expect((await stack.api.db.auditEvent.findFirstOrThrow({ where: { action: 'node.updated' }, orderBy: { id: 'desc' } })).details).toMatchObject({
      node,
      changed: ['vcpus'],
      before: { vcpus: 32 },
      after: { vcpus: 48 },
    });

    // pve1 and pve2 drain: new servers go to pve3; the one already on a draining node keeps working.
    for (const name of ['pve1', 'pve2']) expect((await patch(nodeUrl(name), { draining: true })).body.data.draining).toBe(true);
    const placed = await runningServer(stack, { hostname: 'drain-2' });
    expect((await stack.api.db.instance.findUniqueOrThrow({ where: { id: placed } })).node).toBe('pve3');
    expect((await runOperation(stack, id, 'stop')).instance.status).toBe('stopped');

    await patch(nodeUrl('pve3'), { draining: true });
    const full = await tryCreate({ hostname: 'drain-3' });
    expect(full.status).toBe(503);
    expect(full.body.error.code).toBe('CAPACITY_UNAVAILABLE');
    for (const name of ['pve1', 'pve2', 'pve3']) await patch(nodeUrl(name), { draining: false });
    expect((await patch(nodeUrl('pve9'), { vcpus: 4 })).status).toBe(404);
  });

  it("changes an IP pool's network only while it has handed out no address", async () => {
    const location = (await stack.api.request('GET', '/v1/admin/locations', admin())).body.data[0];
    const v4 = location.ipPools.find((pool: { family: number }) => pool.family === 4);
    const used = await patch(`/v1/admin/ip-pools/${v4.id}`, { cidr: '198.51.101.0/24', gateway: '198.51.101.1' });
    expect(used.status).toBe(409);
    expect(used.body.error).toMatchObject({ code: 'CONFLICT', details: { fields: { cidr: 'addresses were handed out' } } });
    expect((await patch(`/v1/admin/ip-pools/${v4.id}`, { dns: ['9.9.9.9'] })).body.data.dns).toEqual(['9.9.9.9']);

    const fresh = await stack.api.request('POST', '/v1/admin/ip-pools', { ...admin(), body: { cidr: '203.0.113.0/24', gateway: '203.0.113.1', bridge: 'vmbr0', dns: [], family: 4 } });
    const moved = await patch(`/v1/admin/ip-pools/${fresh.body.data.id}`, { cidr: '203.0.114.0/24', gateway: '203.0.114.1' });
    expect(moved.body.data).toMatchObject({ cidr: '203.0.114.0/24', gateway: '203.0.114.1' });
    const outside = await patch(`/v1/admin/ip-pools/${fresh.body.data.id}`, { gateway: '192.0.2.1' });
    expect(outside.status).toBe(400);
    expect(outside.body.error.details.fields).toHaveProperty('gateway');
    const overlapping = await patch(`/v1/admin/ip-pools/${fresh.body.data.id}`, { cidr: '198.51.100.128/25', gateway: '198.51.100.129' });
    expect(overlapping.status).toBe(409);
    const added = await patch(`/v1/admin/locations/${location.id}`, { addIpPools: [fresh.body.data.id] });
    expect(added.body.data.ipPools.map((pool: { cidr: string }) => pool.cidr)).toContain('203.0.114.0/24');
    expect((await patch(`/v1/admin/locations/${location.id}`, { addIpPools: ['pool_missing'] })).body.error.details.fields).toEqual({ 'addIpPools.0': 'no such IP pool' });
  });

  it("rotates a connection's token after Proxmox accepted it; the worker's client follows and provisions keep working", async () => {
    const { connectionId } = stack.seed;
    const url = `/v1/admin/connections/${connectionId}`;
    const stored = async () => (await stack.api.db.proxmoxConnection.findUniqueOrThrow({ where: { id: connectionId } })).tokenSecretCipher;
    const cipherBefore = await stored();

    const refused = await patch(url, { tokenId: ROTATED_TOKEN.tokenId, tokenSecret: 'not-the-secret' });
    expect(refused.status).toBe(400);
    expect(refused.body.error.details.fields).toEqual({ tokenSecret: 'refused by Proxmox VE' });
    expect(await stored()).toBe(cipherBefore);

    const rotated = await patch(url, ROTATED_TOKEN);
    expect(rotated.status).toBe(200);
    expect(rotated.body.data).toMatchObject({ tokenId: ROTATED_TOKEN.tokenId, hasTokenSecret: true, clusterName: 'pvecp-sim' });
    expect(rotated.text).not.toContain(ROTATED_TOKEN.tokenSecret);
    const audit = await stack.api.db.auditEvent.findFirstOrThrow({ where: { action: 'connection.updated' }, orderBy: { id: 'desc' } });
    expect(audit.details).toMatchObject({ changed: ['tokenId', 'tokenSecret'] });
    expect(JSON.stringify(audit.details)).not.toContain(ROTATED_TOKEN.tokenSecret);

    const cloneUsers = async () => (await stack.sim.state()).tasks.filter((t: any) => t.type === 'qmclone').map((t: any) => t.user);
    const clonesBefore = (await cloneUsers()).length;
    await runningServer(stack, { hostname: 'rotated-1' });
    expect((await cloneUsers()).slice(clonesBefore)).toEqual([ROTATED_TOKEN.tokenId]);
  });

  it('refuses new settings that reach another cluster unless told to switch (force)', async () => {
    const other = await createSimulator({ clusterName: 'other-cluster', extraTokens: [`${ROTATED_TOKEN.tokenId}=${ROTATED_TOKEN.tokenSecret}`] }).listen(0, '127.0.0.1');
    try {
      const res = await patch(`/v1/admin/connections/${stack.seed.connectionId}`, { url: other.url });
      expect(res.status).toBe(409);
      expect(res.body.error).toMatchObject({ code: 'CONFLICT', details: { recordedClusterName: 'pvecp-sim', clusterName: 'other-cluster' } });
      expect((await stack.api.db.proxmoxConnection.findUniqueOrThrow({ where: { id: stack.seed.connectionId } })).url).toBe(stack.sim.url);

      // Told to switch, it records the new cluster's name (and switches back the same way).
      const switched = await patch(`/v1/admin/connections/${stack.seed.connectionId}`, { url: other.url, force: true });
      expect(switched.body.data).toMatchObject({ url: other.url, clusterName: 'other-cluster' });
      const audit = await stack.api.db.auditEvent.findFirstOrThrow({ where: { action: 'connection.updated' }, orderBy: { id: 'desc' } });
      expect(audit.details).toMatchObject({ changed: ['url'], clusterName: { before: 'pvecp-sim', after: 'other-cluster' } });
      const back = await patch(`/v1/admin/connections/${stack.seed.connectionId}`, { url: stack.sim.url, force: true });
      expect(back.body.data).toMatchObject({ url: stack.sim.url, clusterName: 'pvecp-sim' });
    } finally {
      await other.close();
    }
  });

  it('refuses userData where the connection has no snippets storage, before reserving anything', async () => {
    const before = await instanceCount();
    const refused = await tryCreate({ hostname: 'ud-0', userData: '#cloud-config\npackages: [nginx]\n' });
    expect(refused.status).toBe(422);
    expect(refused.body.error).toMatchObject({ code: 'USER_DATA_UNSUPPORTED', details: { fields: { userData: 'not supported in this location' } } });
    const notYaml = await tryCreate({ hostname: 'ud-0', userData: '- just\n- a list\n' });
    expect(notYaml.status).toBe(400);
    expect(notYaml.body.error.details.fields.userData).toMatch(/mapping/);
    expect(await instanceCount()).toBe(before);

    const url = `/v1/admin/connections/${stack.seed.connectionId}`;
    const ssh = await patch(url, { snippets: { storage: 'cephfs-snippets', ssh: { user: 'root', privateKey: '-----BEGIN OPENSSH PRIVATE KEY-----\nx\n-----END OPENSSH PRIVATE KEY-----', directory: '/var/lib/vz/snippets' } } });
    expect(ssh.status).toBe(422);
    expect(ssh.body.error.code).toBe('UNSUPPORTED');
    const missing = await patch(url, { snippets: { storage: 'cephfs-snippets', directory: path.join(snippetsDir, 'absent') } });
    expect(missing.body.error.details.fields).toEqual({ 'snippets.directory': 'not a writable directory on the control plane' });
    // The cluster is asked too: the storage must exist on the connection's nodes and take snippets.
    const notSnippets = await patch(url, { snippets: { storage: 'local-lvm', directory: snippetsDir } });
    expect(notSnippets.body.error.details.fields).toEqual({ 'snippets.storage': 'storage local-lvm does not take content type snippets' });
    const unknown = await patch(url, { snippets: { storage: 'nfs-snippets', directory: snippetsDir } });
    expect(unknown.body.error.details.fields).toEqual({ 'snippets.storage': 'no storage nfs-snippets on pve1, pve2, pve3' });
    expect((await stack.api.db.proxmoxConnection.findUniqueOrThrow({ where: { id: stack.seed.connectionId } })).snippetsStorage).toBeNull();
  });

  it('hands the merged user data to the guest through a snippet, keeps the identity ours, and removes the file with the guest', async () => {
    const set = await patch(`/v1/admin/connections/${stack.seed.connectionId}`, { snippets: { storage: 'cephfs-snippets', directory: snippetsDir } });
    expect(set.body.data.snippets).toEqual({ storage: 'cephfs-snippets', directory: snippetsDir });

    const userData = '#cloud-config\nhostname: evil\npackages: [nginx]\nusers:\n  - name: debian\n    passwd: hacked\n  - name: backup\nruncmd:\n  - echo hi\n';
    const id = await runningServer(stack, { hostname: 'ud-1', userData });
    const guest = await guestOf(stack, id);
    expect(guest?.config.cicustom).toBe(`user=cephfs-snippets:snippets/pvecp-${id}.yaml`);
    expect(existsSync(path.join(snippetsDir, `pvecp-${id}.yaml`))).toBe(true);

    const seen = parseYaml(guest?.userData ?? '');
    expect(guest?.userData?.startsWith('#cloud-config\n')).toBe(true);
    expect(seen).toMatchObject({ hostname: 'ud-1', preserve_hostname: false, packages: ['nginx'], runcmd: ['echo hi'], ssh_pwauth: true });
    expect(seen.users.map((u: { name: string }) => u.name)).toEqual(['debian', 'backup']);
    const ours = seen.users[0];
    const reveal = await stack.api.request('POST', `/v1/instances/${id}/credentials/reveal`, asCustomer());
    const salt = (ours.passwd as string).split('$')[2] as string;
    expect(ours.passwd).toBe(sha512Crypt(reveal.body.data.password, salt));
    expect(guest?.userData).not.toContain(reveal.body.data.password);

    // A rebuild needs the snippets storage as much as the create did…
    const connectionUrl = `/v1/admin/connections/${stack.seed.connectionId}`;
    await patch(connectionUrl, { snippets: null });
    const noSnippets = await stack.api.request('POST', `/v1/instances/${id}/rebuild`, { ...asCustomer(), body: {} });
    expect(noSnippets.status).toBe(422);
    expect(noSnippets.body.error.code).toBe('USER_DATA_UNSUPPORTED');
    await patch(connectionUrl, { snippets: { storage: 'cephfs-snippets', directory: snippetsDir } });
    // …and writes the file again for the new credential.
    expect((await runOperation(stack, id, 'rebuild', {})).task.status).toBe('succeeded');
    const rebuilt = parseYaml((await guestOf(stack, id))?.userData ?? '');
    expect(rebuilt.hostname).toBe('ud-1');
    expect(rebuilt.users[0].passwd).not.toBe(ours.passwd);

    // The cluster reads the snippet at every start: without it the guest does not start.
    await runOperation(stack, id, 'stop');
    rmSync(path.join(snippetsDir, `pvecp-${id}.yaml`));
    const start = await runOperation(stack, id, 'start');
    expect(start.task.status).toBe('failed');
    expect(JSON.stringify(start.task.steps)).not.toContain('snippets');

    const deleted = await runOperation(stack, id, 'delete');
    expect(deleted.instance.status).toBe('deleted');
    expect(existsSync(path.join(snippetsDir, `pvecp-${id}.yaml`))).toBe(false);
  });

  it('removes the snippet when a provision with userData rolls back', async () => {
    await stack.sim.fault({ op: 'start', mode: 'task_fail', message: 'start failed: QEMU exited with code 1' });
    const created = await tryCreate({ hostname: 'ud-2', userData: '#cloud-config\npackages: [htop]\n' });
    const failed = await stack.waitForStatus(created.body.data.id, ['failed', 'running', 'rollback_failed']);
    expect(failed.status).toBe('failed');
    expect(readdirSync(snippetsDir).filter((name) => name.includes(created.body.data.id))).toEqual([]);
  });

  it("housekeeping removes snippets of servers that are gone, and leaves those it does not know", async () => {
    const { db } = stack.api;
    const gone = await db.instance.findFirstOrThrow({ where: { hostname: 'ud-1', status: 'deleted' } });
    const live = await db.instance.findFirstOrThrow({ where: { status: 'running' } });
    const files = [`pvecp-${gone.id}.yaml`, `pvecp-${live.id}.yaml`, 'pvecp-inst_someoneelses.yaml', 'notes.yaml'];
    for (const name of files) writeFileSync(path.join(snippetsDir, name), '#cloud-config\n');
    expect(await sweepSnippets(db)).toBe(1);
    expect(readdirSync(snippetsDir).sort()).toEqual(files.slice(1).sort());
    for (const name of files.slice(1)) rmSync(path.join(snippetsDir, name));
  });

  it('is refused by the cluster when cicustom names a snippet that does not exist, as Proxmox refuses it', async () => {
    const res = await fetch(`${stack.sim.url}/api2/json/nodes/pve1/qemu/9000/config`, {
      method: 'PUT',
      headers: { authorization: `PVEAPIToken=${DEFAULT_SIM_TOKEN}`, 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ cicustom: 'user=cephfs-snippets:snippets/missing.yaml' }).toString(),
    });
    expect(res.status).toBe(500);
    expect(await res.text()).toContain("volume 'cephfs-snippets:snippets/missing.yaml' does not exist");
  });
});
