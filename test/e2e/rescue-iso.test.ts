/**
 * ISOs and rescue mode end to end: an ISO mounted, the CD-ROM put first and the server rebooted
 * shows the ISO on its screen, an eject and a reboot bring its disk back; rescue mode boots the
 * location's rescue ISO with a one-time password and leaves it again; ISOs of another tenant,
 * another node or not ready are refused with nothing changed; a server in rescue refuses what
 * would replace its disk; a worker killed mid-rescue leaves the server fully in rescue. The
 * operator's library downloads each ISO through Proxmox into every location's ISO storage (once
 * when shared, per node when local), with its state per location and node, refresh and delete.
 */
import crypto from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_ISO, isoImage, startImageServer, type ImageServer } from '../../src/simulator';
import { demoCluster } from '../../src/simulator/spec';
import { ProxmoxClient } from '../../src/proxmox';
import { newId } from '../../src/security/ids';
import { parseToken } from '../../src/simulator/server';
import { LEAST_PRIVILEGE_SIM_TOKEN } from '../../src/simulator/spec';
import { crashWorkerWhilePolling, guestOf, operate, readInstance, runningServer, setTaskMs, suiteStack, taskEnd } from '../support/lifecycle';
import type { WorkerProcess } from '../support/stack';

const snippets = mkdtempSync(path.join(tmpdir(), 'pvecp-rescue-snippets-'));
let images: ImageServer;
beforeAll(async () => {
  images = await startImageServer();
});
afterAll(async () => {
  rmSync(snippets, { recursive: true, force: true });
  await images?.close();
});

type Guest = { bootedFrom?: string; config: Record<string, string | number>; status: string };
const steps = (task: { steps: { step: string; status: string }[] }) => task.steps.map((s) => `${s.step}: ${s.status}`);

describe('ISOs and rescue mode', () => {
  const stack = suiteStack({
    worker: false,
    // A worker killed mid-reboot is replaced by a new process, slow to start on a loaded machine: budgets of a few seconds would run out first.
    env: { STAGE_TIMEOUT_SCALE: '0.3' },
    simulator: { cluster: { storages: [...demoCluster().storages, { storage: 'cephfs-snippets', type: 'cephfs', shared: true, content: 'snippets', snippetsDir: snippets }] } },
  });
  let worker: WorkerProcess;
  const customer = () => ({ token: stack.customer.token });

  /** An ISO file on a simulated storage (on one node for a local storage), as a finished download leaves it. */
  async function placeFile(storage: string, fileName: string, node?: string): Promise<void> {
    const res = await fetch(`${stack.sim.url}/_sim/storages/${storage}/volumes`, {
      method: 'PUT',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ volume: `iso/${fileName}`, contentBase64: isoImage(fileName.slice(0, 8).toUpperCase()).toString('base64'), ...(node ? { node } : {}) }),
    });
    expect(res.ok).toBe(true);
  }

  /** An ISO of the library with one copy in the demo location, its file placed when ready. */
  async function libraryIso(o: { name: string; tenantId?: string | null; rescue?: boolean; node?: string | null; state?: 'ready' | 'importing' }): Promise<{ id: string; fileName: string }> {
    const id = newId('iso');
    const fileName = `${id}.iso`;
    const storage = o.node ? 'local' : 'shared-nfs';
    await stack.api.db.iso.create({
      data: {
        id,
        name: o.name,
        url: `https://images.example/${o.name}.iso`,
        checksum: 'a'.repeat(64),
        checksumAlgorithm: 'sha256',
        tenantId: o.tenantId ?? null,
        rescue: o.rescue ?? false,
        fileName,
        copies: { create: { id: newId('isoc'), locationId: stack.seed.locationId, storage, node: o.node ?? null, state: o.state ?? 'ready' } },
      },
    });
    if ((o.state ?? 'ready') === 'ready') await placeFile(storage, fileName, o.node ?? undefined);
    return { id, fileName };
  }

  const guest = async (id: string) => (await guestOf(stack, id)) as unknown as Guest;
  const run = async (id: string, operation: string, body?: unknown) => {
    const res = await operate(stack, id, operation, body);
    expect(res.status, JSON.stringify(res.body)).toBe(202);
    return taskEnd(stack, res.body.meta.taskId, 60_000);
  };
  const eject = async (id: string) => {
    const res = await stack.api.request('DELETE', `/v1/instances/${id}/iso`, customer());
    expect(res.status).toBe(202);
    return taskEnd(stack, res.body.meta.taskId, 60_000);
  };

  let rescueIso: { id: string; fileName: string };
  beforeAll(async () => {
    worker = stack.spawnWorkerProcess();
    await stack.api.db.location.update({ where: { id: stack.seed.locationId }, data: { isoStorage: 'shared-nfs', isoStorageShared: true } });
    await stack.api.db.proxmoxConnection.update({ where: { id: stack.seed.connectionId }, data: { snippetsStorage: 'cephfs-snippets', snippetsDirectory: snippets } });
    rescueIso = await libraryIso({ name: 'rescue-2026', rescue: true });
  });
  afterAll(async () => {
    await worker.kill();
  });

  it('mount, CD-ROM first, reboot: the screen shows the ISO; eject and reboot: the disk boots again', { timeout: 180_000 }, async () => {
    const installer = await libraryIso({ name: 'alpine-3.21' });
    const id = await runningServer(stack, { hostname: 'iso-1' }, 90_000);

    const listed = await stack.api.request('GET', `/v1/isos?instanceId=${id}`, customer());
    expect(listed.body.data).toEqual([{ id: installer.id, name: 'alpine-3.21', locations: [{ id: stack.seed.locationId, name: expect.any(String) }] }]);

    const mounted = await run(id, 'iso', { isoId: installer.id });
    expect(mounted).toMatchObject({ type: 'ISO_MOUNT', status: 'succeeded' });
    expect(steps(mounted)).toContain('iso_mount > mounting the ISO: success');
    expect((await guest(id)).config.ide0).toMatch(new RegExp(`^shared-nfs:iso/${installer.fileName},media=cdrom`));
    expect(await readInstance(stack, id)).toMatchObject({ status: 'running', iso: { id: installer.id, name: 'alpine-3.21' }, bootFirst: 'disk' });

    await run(id, 'boot-order', { first: 'cdrom' });
    // Pending until the next boot: the running guest still shows its system.
    expect((await guest(id)).bootedFrom).toBeUndefined();
    await run(id, 'reboot');
    expect((await guest(id)).bootedFrom).toBe(installer.fileName);
    expect(await readInstance(stack, id)).toMatchObject({ status: 'running', bootFirst: 'cdrom' });

    await eject(id);
    await run(id, 'reboot');
    expect((await guest(id)).bootedFrom).toBeUndefined();
    expect((await readInstance(stack, id)).iso).toBeNull();
    const events = await stack.api.db.instanceEvent.findMany({ where: { instanceId: id }, orderBy: { seq: 'asc' } });
    expect(events.map((e) => e.type)).toEqual(expect.arrayContaining(['instance.boot_changing', 'instance.boot_changed']));
    const audit = await stack.api.db.auditEvent.findMany({ where: { instanceId: id }, select: { action: true } });
    expect(audit.map((a) => a.action)).toEqual(expect.arrayContaining(['instance.iso_mount', 'instance.iso_mount.succeeded', 'instance.iso_eject.succeeded', 'instance.boot_order.succeeded']));
  });

  it('refuses an ISO of another tenant, of another node, not ready, or unknown, with nothing changed', { timeout: 120_000 }, async () => {
    const id = await runningServer(stack, { hostname: 'iso-2' }, 90_000);
    const node = (await guestOf(stack, id))!.node;
    const other = await stack.api.createCustomer();
    const theirs = await libraryIso({ name: 'their-own', tenantId: other.tenantId });
    const elsewhere = await libraryIso({ name: 'on-another-node', node: node === 'pve1' ? 'pve2' : 'pve1' });
    const downloading = await libraryIso({ name: 'downloading', state: 'importing' });
    const before = await readInstance(stack, id);
    const configBefore = (await guest(id)).config;
    const tasksBefore = await stack.api.db.task.count({ where: { instanceId: id } });

    for (const isoId of [theirs.id, elsewhere.id, downloading.id, 'iso_nosuch', rescueIso.id]) {
      const refused = await operate(stack, id, 'iso', { isoId });
      expect(refused.status, isoId).toBe(422);
      expect(refused.body.error).toMatchObject({ code: 'ISO_NOT_AVAILABLE', details: { fields: { isoId: 'not ready here' } } });
    }
    const list = await stack.api.request('GET', `/v1/isos?instanceId=${id}`, customer());
    expect(list.body.data.map((i: { name: string }) => i.name)).not.toEqual(expect.arrayContaining(['their-own']));
    expect((await stack.api.request('GET', `/v1/isos?instanceId=${id}`, { token: other.token })).status).toBe(404);
    expect(await readInstance(stack, id)).toEqual(before);
    expect((await guest(id)).config).toEqual(configBefore);
    expect(await stack.api.db.task.count({ where: { instanceId: id } })).toBe(tasksBefore);
    expect((await operate(stack, id, 'boot-order', { first: 'cdrom' })).body.error).toMatchObject({ code: 'INVALID_STATE' });
  });

  it('rescue: boots the rescue ISO with a one-time password, keeps power operations, refuses a rebuild; leaving boots the disk', { timeout: 180_000 }, async () => {
    const id = await runningServer(stack, { hostname: 'rescue-1' }, 90_000);
    const entered = await run(id, 'rescue');
    expect(entered).toMatchObject({ type: 'RESCUE_ENTER', status: 'succeeded' });
    expect(steps(entered)).toEqual(expect.arrayContaining(['rescue_enter > mounting the rescue system: success', 'reboot > restarting the server: success']));
    expect(await readInstance(stack, id)).toMatchObject({ status: 'rescue', iso: { id: rescueIso.id }, bootFirst: 'cdrom', rescue: { since: expect.any(String) } });
    expect((await guest(id)).bootedFrom).toBe(rescueIso.fileName);

    const reveal = () => stack.api.request('POST', `/v1/instances/${id}/rescue/reveal`, customer());
    const revealed = await reveal();
    expect(revealed.status).toBe(200);
    expect(revealed.body.data).toMatchObject({ username: 'root', password: expect.stringMatching(/^.{16,}$/) });
    expect((await reveal()).body.error.code).toBe('CREDENTIAL_ALREADY_REVEALED');
    // the rescue system gets it through the cloud-init drive, the server's own settings untouched
    expect(String((await guest(id)).config.cicustom)).toMatch(/^user=cephfs-snippets:snippets\/pvecp-rescue-inst_/);

    for (const [operation, body] of [['rebuild', {}], ['resize', { planId: Object.values(stack.seed.plans)[0] }], ['iso', { isoId: rescueIso.id }], ['rescue', {}]] as const) {
      const refused = await operate(stack, id, operation, body);
      expect([operation, refused.status, refused.body.error.code]).toEqual([operation, 409, 'IN_RESCUE']);
    }
    await run(id, 'reboot');
    expect((await readInstance(stack, id)).status).toBe('rescue');
    await run(id, 'stop');
    expect((await readInstance(stack, id)).status).toBe('stopped');
    expect((await operate(stack, id, 'rebuild', {})).body.error.code).toBe('IN_RESCUE');
    await run(id, 'start');
    expect((await readInstance(stack, id)).status).toBe('rescue');
    expect((await guest(id)).bootedFrom).toBe(rescueIso.fileName);

    const left = await stack.api.request('DELETE', `/v1/instances/${id}/rescue`, customer());
    expect(left.status).toBe(202);
    expect(await taskEnd(stack, left.body.meta.taskId, 60_000)).toMatchObject({ type: 'RESCUE_LEAVE', status: 'succeeded' });
    expect(await readInstance(stack, id)).toMatchObject({ status: 'running', iso: null, bootFirst: 'disk', rescue: null });
    expect((await guest(id)).bootedFrom).toBeUndefined();
    expect((await guest(id)).config.cicustom).toBeUndefined();
    expect((await reveal()).status).toBe(409);
    const events = await stack.api.db.instanceEvent.findMany({ where: { instanceId: id }, orderBy: { seq: 'asc' } });
    expect(events.map((e) => e.type)).toEqual(expect.arrayContaining(['instance.rescue_entering', 'instance.rescue_entered', 'instance.rescue_leaving', 'instance.rescue_left']));
  });

  it('a worker killed while the rescue reboot runs: the server ends fully in rescue, rebooted once', { timeout: 180_000 }, async () => {
    const id = await runningServer(stack, { hostname: 'rescue-crash' }, 90_000);
    await setTaskMs(stack, 2500);
    try {
      const entered = await operate(stack, id, 'rescue');
      expect(entered.status).toBe(202);
      worker = await crashWorkerWhilePolling(stack, worker, entered.body.meta.taskId, 'reboot');
      const ended = await taskEnd(stack, entered.body.meta.taskId, 90_000);
      expect(ended).toMatchObject({ status: 'succeeded' });
    } finally {
      await setTaskMs(stack, 20);
    }
    expect(await readInstance(stack, id)).toMatchObject({ status: 'rescue', iso: { id: rescueIso.id }, bootFirst: 'cdrom' });
    expect((await guest(id)).bootedFrom).toBe(rescueIso.fileName);
    const vmid = (await guestOf(stack, id))!.vmid;
    const reboots = (await stack.sim.state()).tasks.filter((t) => t.upid.includes(`:qmreboot:${vmid}:`));
    expect(reboots).toHaveLength(1);
  });

  it('records an ISO ejected and a boot order changed outside this service', { timeout: 120_000 }, async () => {
    const installer = await libraryIso({ name: 'drifting' });
    const id = await runningServer(stack, { hostname: 'iso-drift' }, 90_000);
    await run(id, 'iso', { isoId: installer.id });
    await run(id, 'boot-order', { first: 'cdrom' });
    const { node, vmid } = (await guestOf(stack, id))!;
    const { tokenId, secret } = parseToken(LEAST_PRIVILEGE_SIM_TOKEN);
    const outside = new ProxmoxClient({ baseUrl: stack.sim.url, tokenId, tokenSecret: secret, plaintextLab: true });
    try {
      await outside.guestConfig.set(node, vmid, { ide0: 'none,media=cdrom', boot: 'order=scsi0' });
    } finally {
      outside.close();
    }
    expect((await stack.api.request('POST', `/v1/admin/instances/${id}/reconcile`, { token: stack.api.adminToken })).status).toBe(200);
    await expect.poll(async () => (await readInstance(stack, id)).iso, { timeout: 30_000, interval: 200 }).toBeNull();
    expect(await readInstance(stack, id)).toMatchObject({ status: 'running', bootFirst: 'disk' });
    const audit = await stack.api.db.auditEvent.findFirst({ where: { instanceId: id, action: 'instance.changed_outside' } });
    expect(audit?.details).toMatchObject({ bootFirst: 'disk', drive: 'none' });
    expect((await stack.api.db.instanceEvent.findMany({ where: { instanceId: id, type: 'instance.changed_outside' } })).length).toBe(1);
  });

  describe('the operator\'s ISO library', () => {
    const admin = () => ({ token: stack.api.adminToken });
    type Copy = { location: { id: string }; storage: string; node: string | null; state: string; failure: string | null };
    const sha256 = (body: Buffer) => crypto.createHash('sha256').update(body).digest('hex');
    const addIso = (name: string, o: Record<string, unknown> = {}) =>
      stack.api.request('POST', '/v1/admin/isos', {
        ...admin(),
        body: { name, url: images.urlOf(DEFAULT_ISO.path), checksum: sha256(images.bodyOf(DEFAULT_ISO.path) as Buffer), checksumAlgorithm: 'sha256', ...o },
      });
    /** Polls the ISO until none of its copies is importing (or deleting). */
    async function settled(id: string, timeoutMs = 90_000): Promise<{ copies: Copy[] }> {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const iso = (await stack.api.request('GET', `/v1/admin/isos/${id}`, admin())).body.data as { copies: Copy[] };
        if (!iso.copies.some((c) => c.state === 'importing' || c.state === 'deleting') || Date.now() > deadline) return iso;
        await new Promise((resolve) => setTimeout(resolve, 200));
      }
    }
    const isoFiles = async () => ((await (await fetch(`${stack.sim.url}/_sim/state`)).json()) as { files: { volid: string }[] }).files.map((f) => f.volid);

    it('downloads an ISO into the shared ISO storage once; a wrong checksum fails with its cause; a customer mounts the ready one', { timeout: 180_000 }, async () => {
      const added = await addIso('debian-13-netinst');
      expect(added.status).toBe(201);
      expect(added.body.data).toMatchObject({ name: 'debian-13-netinst', tenantId: null, rescue: false, copies: [{ location: { id: stack.seed.locationId }, storage: 'shared-nfs', node: null, state: 'importing' }] });
      const bad = await addIso('tampered', { checksum: 'b'.repeat(64) });
      expect((await settled(added.body.data.id)).copies).toEqual([expect.objectContaining({ state: 'ready', failure: null })]);
      expect((await settled(bad.body.data.id)).copies).toEqual([expect.objectContaining({ state: 'failed', failure: expect.stringMatching(/^DOWNLOAD_CHECKSUM_MISMATCH/) })]);

      const id = await runningServer(stack, { hostname: 'iso-lib-1' }, 90_000);
      const offered = (await stack.api.request('GET', `/v1/isos?instanceId=${id}`, customer())).body.data.map((i: { name: string }) => i.name);
      expect(offered).toContain('debian-13-netinst');
      expect(offered).not.toContain('tampered');
      expect((await run(id, 'iso', { isoId: added.body.data.id })).status).toBe('succeeded');
      expect((await guest(id)).config.ide0).toMatch(new RegExp(`^shared-nfs:iso/${added.body.data.id}\\.iso,`));

      // mounted: not deleted from under the server; ejected: deleted with its file
      expect((await stack.api.request('DELETE', `/v1/admin/isos/${added.body.data.id}`, admin())).status).toBe(409);
      await eject(id);
      expect((await stack.api.request('DELETE', `/v1/admin/isos/${added.body.data.id}`, admin())).status).toBe(200);
      expect((await settled(added.body.data.id)).copies).toEqual([]);
      expect(await isoFiles()).not.toContain(`shared-nfs:iso/${added.body.data.id}.iso`);
      expect((await operate(stack, id, 'iso', { isoId: added.body.data.id })).body.error.code).toBe('ISO_NOT_AVAILABLE');
    });

    it('on a local ISO storage: one copy per node, each with its own state; refresh adds the copies of a location that got an ISO storage since', { timeout: 180_000 }, async () => {
      await stack.api.db.location.update({ where: { id: stack.seed.locationId }, data: { isoStorage: null } });
      const added = await addIso('private-installer', { tenantId: stack.customer.tenantId });
      expect(added.body.data.copies).toEqual([]);
      await stack.api.request('PATCH', `/v1/admin/locations/${stack.seed.locationId}`, { ...admin(), body: { isoStorage: 'local', isoStorageShared: false } });
      try {
        const refreshed = await stack.api.request('POST', `/v1/admin/isos/${added.body.data.id}/refresh`, admin());
        expect(refreshed.status).toBe(200);
        const { copies } = await settled(added.body.data.id);
        const nodes = (await stack.api.db.node.findMany({ where: { connectionId: stack.seed.connectionId, enabled: true }, orderBy: { name: 'asc' } })).map((n) => n.name);
        expect(copies.map((c) => [c.storage, c.node, c.state])).toEqual(nodes.map((node) => ['local', node, 'ready']));
        const other = await stack.api.createCustomer();
        expect((await stack.api.request('GET', '/v1/isos', { token: other.token })).body.data.map((i: { id: string }) => i.id)).not.toContain(added.body.data.id);
        expect((await stack.api.request('GET', '/v1/isos', customer())).body.data.map((i: { id: string }) => i.id)).toContain(added.body.data.id);
      } finally {
        await stack.api.db.location.update({ where: { id: stack.seed.locationId }, data: { isoStorage: 'shared-nfs', isoStorageShared: true } });
      }
    });
  });
});
