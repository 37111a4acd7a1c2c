import { describe, expect, it } from 'vitest';
import {
  ProxmoxClient,
  ProxmoxError,
  ProxmoxTaskError,
  ProxmoxTaskTimeoutError,
  encodeParams,
  encodeSshKeys,
  parseUpid,
} from '../../src/proxmox';
import { SIM_SECRET, SIM_TOKEN_ID, startSim, useSim } from '../simulator/support';

const h = useSim();

async function checkedTask(upid: string | null, type: string, id: string, node = 'pve1') {
  expect(upid).not.toBeNull();
  const u = parseUpid(upid as string);
  expect(u).toMatchObject({ node, type, id, user: SIM_TOKEN_ID });
  return h.wait(upid as string);
}

describe('ProxmoxClient against the simulator: a guest lifecycle', () => {
  it('clones, configures (POST and PUT), resizes, starts, reads status, stops and destroys, each step a checked UPID', async () => {
    const { client } = h;
    expect(await client.cluster.isVmidFree(120)).toBe(true);

    await checkedTask(await client.guests.clone('pve1', 9000, { newid: 120, name: 'web-120', full: true }), 'qmclone', '9000');
    expect(await client.cluster.isVmidFree(120)).toBe(false);

    const before = await client.guestConfig.get('pve1', 120);
    expect(before.name).toBe('web-120');
    expect(typeof before.digest).toBe('string');
    expect(before.template).toBeUndefined();

    const cfgUpid = await client.guestConfig.set('pve1', 120, {
      sockets: 1,
      cores: 2,
      memory: 2048,
      cpu: 'x86-64-v2-AES',
      net0: 'virtio,bridge=vmbr0,tag=42',
      digest: String(before.digest),
    });
    await checkedTask(cfgUpid, 'qmconfig', '120');

    await client.guestConfig.setSync('pve1', 120, {
      tags: 'cp;customer-7',
      ciuser: 'debian',
      cipassword: 'S3cret-pass',
      sshkeys: 'ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIB user@example\n',
      ipconfig0: 'ip=192.0.2.10/24,gw=192.0.2.1',
      nameserver: '192.0.2.53',
      agent: '1',
      onboot: true,
      boot: 'order=scsi0',
    });

    await checkedTask(await client.guestConfig.resizeDisk('pve1', 120, 'scsi0', 20), 'resize', '120');

    const cfg = await client.guestConfig.get('pve1', 120);
    expect(cfg.cores).toBe(2);
    expect(cfg.memory).toBe('2048');
    expect(cfg.onboot).toBe(1);
    expect(cfg.cipassword).toBe('**********');
    expect(String(cfg.net0)).toMatch(/^virtio=BC:24:11:[0-9A-F]{2}:[0-9A-F]{2}:[0-9A-F]{2},bridge=vmbr0,tag=42$/);
    expect(String(cfg.scsi0)).toContain('size=20G');
    expect(cfg.sshkeys).toBe(encodeSshKeys('ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIB user@example\n'));
    expect(cfg.tags).toBe('cp;customer-7');

    await checkedTask(await client.guests.start('pve1', 120), 'qmstart', '120');
    const st = await client.guests.status('pve1', 120);
    expect(st).toMatchObject({ status: 'running', qmpstatus: 'running', agent: 1, name: 'web-120' });
    await client.guests.pingAgent('pve1', 120);

    await checkedTask(await client.guests.stop('pve1', 120), 'qmstop', '120');
    expect((await client.guests.status('pve1', 120)).status).toBe('stopped');

    await checkedTask(await client.guests.delete('pve1', 120), 'qmdestroy', '120');
    const resources = await client.guests.list();
    expect(resources.some((r) => r.vmid === 120)).toBe(false);
    expect(await client.cluster.isVmidFree(120)).toBe(true);
  });

  it('shuts down, reboots and migrates a guest', async () => {
    const { client } = h;
    await h.wait(await client.guests.clone('pve1', 9000, { newid: 130, name: 'mig', full: true }));
    await h.wait(await client.guests.start('pve1', 130));
    await checkedTask(await client.guests.reboot('pve1', 130), 'qmreboot', '130');
    await checkedTask(await client.guests.shutdown('pve1', 130, { timeoutSeconds: 30, forceStop: true }), 'qmshutdown', '130');
    await checkedTask(await client.guests.migrate('pve1', 130, { target: 'pve2' }), 'qmigrate', '130');
    const r = (await client.guests.list()).find((x) => x.vmid === 130);
    expect(r?.node).toBe('pve2');
  });

  it('lists tasks with filters and reads node information', async () => {
    const { client } = h;
    // Long enough that the task is surely still active when listed, however loaded the machine.
    await h.control('POST', '/options', { taskMs: 2000 });
    const upid = await client.guests.clone('pve1', 9000, { newid: 140, name: 'list-me' });
    const active = await client.tasks.list('pve1', { source: 'active', typefilter: 'qmclone', vmid: 9000 });
    await h.control('POST', '/options', { taskMs: 5 });
    expect(active.map((t) => t.upid)).toContain(upid);
    await h.wait(upid);
    const archive = await client.tasks.list('pve1', { typefilter: 'qmclone' });
    expect(archive.find((t) => t.upid === upid)).toMatchObject({ status: 'OK', type: 'qmclone', id: '9000' });
    expect(await client.tasks.list('pve1', { typefilter: 'qmstart' })).toEqual([]);

    const nodes = await client.cluster.nodes();
    expect(nodes.map((n) => n.node).sort()).toEqual(['pve1', 'pve2', 'pve3']);
    const ns = await client.cluster.nodeStatus('pve1');
    expect(ns.cpuinfo.flags).toContain('avx2');
    expect(ns.loadavg?.every((x) => typeof x === 'string')).toBe(true);
  });
});

describe('task waiter', () => {
  it('treats "OK" as success with no warnings', async () => {
    const r = await h.wait(await h.client.guests.clone('pve1', 9000, { newid: 150, name: 'ok' }));
    expect(r).toMatchObject({ exitstatus: 'OK', warnings: 0 });
  });

  it('treats "WARNINGS: 2" as success and surfaces the count', async () => {
    h.sim.faults.add({ op: 'destroy', mode: 'task_warnings', warnings: 2 });
    await h.wait(await h.client.guests.clone('pve1', 9000, { newid: 151, name: 'warn' }));
    expect(await h.client.storage.images('pve1', 'local-lvm', 151)).toEqual([
      expect.objectContaining({ volid: 'local-lvm:vm-151-disk-0', vmid: 151 }),
    ]);
    const r = await h.wait(await h.client.guests.delete('pve1', 151));
    expect(r).toMatchObject({ exitstatus: 'WARNINGS: 2', warnings: 2 });
    // Proxmox only warns when a disk could not be removed: the volume is still on the storage
    expect((await h.client.storage.images('pve1', 'local-lvm', 151)).map((v) => v.volid)).toEqual(['local-lvm:vm-151-disk-0']);
    expect(await h.client.storage.images('pve1', 'local-lvm', 152)).toEqual([]);
  });

  it('throws ProxmoxTaskError with the exit text for an error exit', async () => {
    await h.wait(await h.client.guests.clone('pve1', 9000, { newid: 152, name: 'twice' }));
    await h.wait(await h.client.guests.start('pve1', 152));
    const upid = await h.client.guests.start('pve1', 152);
    const err = await h.wait(upid).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ProxmoxTaskError);
    expect(err).toMatchObject({ upid, exitstatus: 'VM 152 already running', isAlreadyRunning: true });
  });

  it('tolerates a brief "no such task" right after creation', async () => {
    const h2 = await startSim({ hiddenTaskPolls: 2 });
    try {
      const upid = await h2.client.guests.clone('pve1', 9000, { newid: 153, name: 'hidden' });
      const first = await h2.client.tasks.status(upid).catch((e: unknown) => e);
      expect(first).toBeInstanceOf(ProxmoxError);
      expect((first as ProxmoxError).status).toBe(400);
      expect((first as ProxmoxError).isNoSuchTask).toBe(true);
      expect(await h2.wait(upid)).toMatchObject({ exitstatus: 'OK' });
    } finally {
      await h2.close();
    }
  });

  it('gives up on "no such task" once its grace window has passed', async () => {
    const h2 = await startSim({ hiddenTaskPolls: 50 });
    try {
      const upid = await h2.client.guests.clone('pve1', 9000, { newid: 154, name: 'gone' });
      const err = await h2.client.tasks.wait(upid, { pollIntervalMs: 1, noSuchTaskGraceMs: 10 }).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(ProxmoxError);
      expect((err as ProxmoxError).isNoSuchTask).toBe(true);
    } finally {
      await h2.close();
    }
  });

  it('times out on a task that never finishes, reporting it as still running', async () => {
    h.sim.faults.add({ op: 'clone', mode: 'hang' });
    const upid = await h.client.guests.clone('pve1', 9000, { newid: 155, name: 'hang' });
    const polls: string[] = [];
    const err = await h.client
      .tasks.wait(upid, { pollIntervalMs: 5, timeoutMs: 400, onPoll: (s) => polls.push(s.status) })
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ProxmoxTaskTimeoutError);
    expect(err).toMatchObject({ upid, lastStatus: 'running' });
    expect(polls.length).toBeGreaterThan(1);
  });

  it('stops waiting when aborted', async () => {
    h.sim.faults.add({ op: 'clone', mode: 'hang' });
    const upid = await h.client.guests.clone('pve1', 9000, { newid: 156, name: 'abort' });
    const ac = new AbortController();
    setTimeout(() => ac.abort(new Error('shutting down')), 30);
    const err = await h.client.tasks.wait(upid, { signal: ac.signal, pollIntervalMs: 5 }).catch((e: unknown) => e);
    expect(err).toEqual(new Error('shutting down'));
  });
});

describe('mutating calls are never resent', () => {
  it('a clone whose answer times out is sent once and reported as outcome unknown', async () => {
    const h2 = await startSim({}, { timeoutMs: 150 });
    try {
      h2.sim.faults.add({ op: 'clone', mode: 'timeout' });
      const err = await h2.client.guests.clone('pve1', 9000, { newid: 160, name: 'slow' }).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(ProxmoxError);
      expect(err).toMatchObject({ kind: 'timeout', outcomeUnknown: true, isTransient: true, method: 'POST', path: '/nodes/{node}/qemu/{vmid}/clone' });
      const state = await h2.control<{ calls: Record<string, number> }>('GET', '/state');
      expect(state.calls['POST /nodes/{node}/qemu/{vmid}/clone']).toBe(1);
    } finally {
      await h2.close();
    }
  });

  it('a clone whose connection drops after acceptance is sent once; the clone did happen', async () => {
    h.sim.faults.add({ op: 'clone', mode: 'drop_after_accept' });
    const err = await h.client.guests.clone('pve1', 9000, { newid: 161, name: 'dropped' }).catch((e: unknown) => e);
    expect(err).toMatchObject({ kind: 'network', outcomeUnknown: true });
    const state = await h.control<{ calls: Record<string, number>; guests: { vmid: number }[] }>('GET', '/state');
    expect(state.calls['POST /nodes/{node}/qemu/{vmid}/clone']).toBe(1);
    expect(state.guests.some((g) => g.vmid === 161)).toBe(true);
    // provider truth shows the clone task, found without its UPID
    const tasks = await h.client.tasks.list('pve1', { source: 'all', typefilter: 'qmclone', vmid: 9000 });
    expect(tasks).toHaveLength(1);
  });

  it('a 500 on a POST is not retried, while a GET is retried on a transient failure', async () => {
    h.sim.faults.add({ op: 'start', mode: 'http500', message: 'got no worker upid - start worker failed' });
    await h.wait(await h.client.guests.clone('pve1', 9000, { newid: 162, name: 'r' }));
    const err = await h.client.guests.start('pve1', 162).catch((e: unknown) => e);
    expect(err).toMatchObject({ status: 500, isTransient: true, outcomeUnknown: false, definitive: true });
    expect(h.sim.calls.get('POST /nodes/{node}/qemu/{vmid}/status/start')).toBe(1);

    h.sim.faults.add({ op: 'status', mode: 'http500', message: 'got timeout' });
    const st = await h.client.guests.status('pve1', 162);
    expect(st.status).toBe('stopped');
    expect(h.sim.calls.get('GET /nodes/{node}/qemu/{vmid}/status/current')).toBe(2);
  });
});

describe('secrets', () => {
  it('never puts the token secret in an error message or its fields', async () => {
    const bad = new ProxmoxClient({ baseUrl: h.server.url, tokenId: SIM_TOKEN_ID, tokenSecret: 'wrong-secret-value', plaintextLab: true, timeoutMs: 1000 });
    const err = await bad.guests.list().catch((e: unknown) => e);
    bad.close();
    expect(err).toBeInstanceOf(ProxmoxError);
    expect((err as ProxmoxError).status).toBe(401);
    expect((err as ProxmoxError).isUnauthorized).toBe(true);
    const dump = JSON.stringify({ ...(err as object), message: (err as Error).message, stack: (err as Error).stack });
    expect(dump).not.toContain('wrong-secret-value');

    h.sim.faults.add({ op: 'clone', mode: 'http500', message: `echo ${SIM_SECRET}` });
    const err2 = await h.client.guests.clone('pve1', 9000, { newid: 170, name: 's' }).catch((e: unknown) => e);
    expect((err2 as Error).message).not.toContain(SIM_SECRET);
    expect((err2 as Error).message).toContain('***');
  });

  it('fails fast on a refused connection, as a definitive network error', async () => {
    const c = new ProxmoxClient({ baseUrl: 'http://127.0.0.1:1', tokenId: SIM_TOKEN_ID, tokenSecret: SIM_SECRET, plaintextLab: true, getRetries: 0 });
    const err = await c.guests.start('pve1', 100).catch((e: unknown) => e);
    c.close();
    expect(err).toMatchObject({ kind: 'network', code: 'ECONNREFUSED', outcomeUnknown: false, isTransient: true });
    expect(String((err as Error).message)).not.toContain(SIM_SECRET);
  });
});

describe('encoding', () => {
  it('form-encodes with %20, booleans as 1/0, and double-encodes sshkeys', () => {
    expect(encodeParams({ a: 'x y', b: true, c: false, d: 3, e: undefined })).toBe('a=x%20y&b=1&c=0&d=3');
    const keys = 'ssh-ed25519 AAAA user@host\nssh-rsa BBBB other@host';
    expect(encodeSshKeys(keys)).toBe('ssh-ed25519%20AAAA%20user%40host%0Assh-rsa%20BBBB%20other%40host');
    expect(encodeParams({ sshkeys: encodeSshKeys(keys) })).toContain('sshkeys=ssh-ed25519%2520AAAA%2520user%2540host%250A');
  });

  it('validates its inputs before sending anything', async () => {
    await expect(h.client.guests.start('bad node!', 100)).rejects.toThrow(TypeError);
    await expect(h.client.guests.start('pve1', 5)).rejects.toThrow(TypeError);
    await expect(h.client.guestConfig.resizeDisk('pve1', 100, 'scsi0', 1.5)).rejects.toThrow(TypeError);
    expect(() => new ProxmoxClient({ baseUrl: 'https://x', tokenId: 'nope', tokenSecret: 's' })).toThrow(/USER@REALM!TOKENID/);
  });
});
