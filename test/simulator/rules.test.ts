/**
 * The simulator enforces the rules a real Proxmox VE cluster enforces on our calls.
 */
import { describe, expect, it } from 'vitest';
import { ProxmoxError, ProxmoxTaskError, parseUpid } from '../../src/proxmox';
import { startSim, useSim } from './support';

const h = useSim();
/** Tasks long enough to observe a guest while its task runs. */
const slow = useSim({ taskMs: 400 });

const rejection = async (p: Promise<unknown>): Promise<ProxmoxError> => {
  const e = await p.then(
    () => undefined,
    (err: unknown) => err,
  );
  expect(e).toBeInstanceOf(ProxmoxError);
  return e as ProxmoxError;
};

const taskFailure = async (p: Promise<unknown>): Promise<ProxmoxTaskError> => {
  const e = await p.then(
    () => undefined,
    (err: unknown) => err,
  );
  expect(e).toBeInstanceOf(ProxmoxTaskError);
  return e as ProxmoxTaskError;
};

async function cloneReady(newid: number, node = 'pve1', template = 9000) {
  await h.wait(await h.client.guests.clone(node, template, { newid, name: `vm-${newid}` }));
}

describe('demo cluster', () => {
  it('has three online nodes, local-lvm, a local and a shared storage for backups, ISO images and images to import, a VLAN-aware vmbr0 and cloud-init templates on every node', async () => {
    const nodes = await h.client.cluster.nodes();
    expect(nodes.map((n) => [n.node, n.status])).toEqual([
      ['pve1', 'online'],
      ['pve2', 'online'],
      ['pve3', 'online'],
    ]);
    const templates = (await h.client.guests.list()).filter((r) => r.template === 1);
    expect(templates.map((t) => `${t.node}:${t.vmid}:${t.name}`)).toEqual([
      'pve1:9000:debian-12',
      'pve1:9001:ubuntu-24.04',
      'pve1:9002:rocky-9',
      'pve2:9010:debian-12',
      'pve2:9011:ubuntu-24.04',
      'pve2:9012:rocky-9',
      'pve3:9020:debian-12',
      'pve3:9021:ubuntu-24.04',
      'pve3:9022:rocky-9',
    ]);
    const cfg = await h.client.guestConfig.get('pve1', 9000);
    expect(cfg).toMatchObject({ template: 1, scsi0: expect.stringMatching(/^local-lvm:.*size=4G/), ide2: expect.stringContaining('cloudinit') });
    const storage = await h.api('GET', '/nodes/pve1/storage');
    expect(storage.body.data).toEqual([
      expect.objectContaining({ storage: 'local-lvm', shared: 0, active: 1 }),
      expect.objectContaining({ storage: 'local', type: 'dir', shared: 0, content: 'backup,import,iso,vztmpl' }),
      expect.objectContaining({ storage: 'shared-nfs', type: 'nfs', shared: 1, content: 'backup,import,iso' }),
    ]);
    const net = await h.api('GET', '/nodes/pve1/network');
    expect(net.body.data).toEqual([expect.objectContaining({ iface: 'vmbr0', bridge_vlan_aware: 1 })]);
  });
});

describe('clone', () => {
  it('answers a qmclone UPID whose id is the SOURCE vmid; the new guest is locked "clone" until the task ends', async () => {
    const upid = await slow.client.guests.clone('pve1', 9001, { newid: 300, name: 'app-1' });
    expect(parseUpid(upid)).toMatchObject({ node: 'pve1', type: 'qmclone', id: '9001', user: 'root@pam!controlplane' });
    const during = (await slow.client.guests.list()).find((r) => r.vmid === 300);
    expect(during).toMatchObject({ lock: 'clone', status: 'stopped', name: 'app-1' });
    await slow.wait(upid);
    const after = (await slow.client.guests.list()).find((r) => r.vmid === 300);
    expect(after?.lock).toBeUndefined();
    expect(after?.template).toBeUndefined();
    const cfg = await slow.client.guestConfig.get('pve1', 300);
    expect(cfg).toMatchObject({ name: 'app-1', ostype: 'l26', ide2: 'local-lvm:vm-300-cloudinit,media=cdrom' });
    expect(String(cfg.scsi0)).toMatch(/vm-300-disk-0.*size=4G/);
  });

  it('onto an existing VMID fails before any task with "config file already exists"', async () => {
    const e = await rejection(h.client.guests.clone('pve1', 9000, { newid: 9001, name: 'x' }));
    expect(e.status).toBe(500);
    expect(e.message).toBe('unable to create VM 9001: config file already exists');
    expect(e.isAlreadyExists).toBe(true);
    const { tasks } = await h.control<{ tasks: { type: string }[] }>('GET', '/state');
    expect(tasks.filter((t) => t.type === 'qmclone')).toHaveLength(0);
  });

  it('a linked clone needs a template; a full clone of a normal VM is allowed', async () => {
    await cloneReady(301);
    const e = await rejection(h.client.guests.clone('pve1', 301, { newid: 302, name: 'linked', full: false }));
    expect(e.message).toMatch(/linked clone/i);
    await h.wait(await h.client.guests.clone('pve1', 301, { newid: 303, name: 'full-copy', full: true }));
  });

  it('from a missing source, or a source on another node, fails "does not exist"', async () => {
    const e = await rejection(h.client.guests.clone('pve2', 9000, { newid: 304, name: 'x' }));
    expect(e.message).toBe("Configuration file 'nodes/pve2/qemu-server/9000.conf' does not exist");
    expect(e.isNotFound).toBe(true);
  });

  it('to another node is refused while the template is on local storage', async () => {
    const e = await rejection(h.client.guests.clone('pve1', 9000, { newid: 305, name: 'x', target: 'pve2' }));
    expect(e.message).toMatch(/local storage/);
  });

  it('a second mutating call on the guest being cloned fails "VM N is locked (clone)"', async () => {
    await slow.client.guests.clone('pve1', 9000, { newid: 306, name: 'busy' });
    const e = await rejection(slow.client.guestConfig.setSync('pve1', 306, { cores: 2 }));
    expect(e).toMatchObject({ status: 500, message: 'VM 306 is locked (clone)', isLocked: true, lockKind: 'clone' });
  });
});

describe('config', () => {
  it('POST answers a qmconfig UPID and applies when the task ends; PUT answers null and applies at once', async () => {
    await cloneReady(310);
    const post = await h.api('POST', '/nodes/pve1/qemu/310/config', { cores: '4' });
    expect(parseUpid(post.body.data as string).type).toBe('qmconfig');
    await h.wait(post.body.data as string);
    const put = await h.api('PUT', '/nodes/pve1/qemu/310/config', { memory: '4096' });
    expect(put.status).toBe(200);
    expect(put.body).toEqual({ data: null });
    expect(await h.client.guestConfig.get('pve1', 310)).toMatchObject({ cores: 4, memory: '4096' });
  });

  it('POST with background_delay answers null when the task finished in time', async () => {
    await cloneReady(311);
    const r = await h.api('POST', '/nodes/pve1/qemu/311/config', { cores: '2', background_delay: '5' });
    expect(r.body).toEqual({ data: null });
  });

  it('a stale digest is refused (optimistic concurrency)', async () => {
    await cloneReady(312);
    const { digest } = await h.client.guestConfig.get('pve1', 312);
    await h.client.guestConfig.setSync('pve1', 312, { cores: 2 });
    const e = await rejection(h.client.guestConfig.setSync('pve1', 312, { cores: 3, digest: String(digest) }));
    expect(e.message).toMatch(/detected modified configuration/);
  });

  it('generates a MAC for a NIC without one, hides cipassword, deletes keys, checks the bridge', async () => {
    await cloneReady(313);
    await h.client.guestConfig.setSync('pve1', 313, { net1: 'virtio,bridge=vmbr0', cipassword: 'hunter2', delete: 'serial0,vga' });
    const cfg = await h.client.guestConfig.get('pve1', 313);
    expect(cfg.net1).toMatch(/^virtio=BC:24:11:[0-9A-F]{2}:[0-9A-F]{2}:[0-9A-F]{2},bridge=vmbr0$/);
    expect(cfg.cipassword).toBe('**********');
    expect(cfg.serial0).toBeUndefined();
    const e = await rejection(h.client.guestConfig.setSync('pve1', 313, { net0: 'virtio,bridge=vmbr9' }));
    expect(e.message).toBe("bridge 'vmbr9' does not exist");
  });

  it('keeps an explicit MAC and allocates a new disk from STORAGE:SIZE', async () => {
    await cloneReady(314);
    await h.client.guestConfig.setSync('pve1', 314, { net0: 'virtio=bc:24:11:aa:bb:cc,bridge=vmbr0,tag=7', scsi1: 'local-lvm:8' });
    const cfg = await h.client.guestConfig.get('pve1', 314);
    expect(cfg.net0).toBe('virtio=BC:24:11:AA:BB:CC,bridge=vmbr0,tag=7');
    expect(cfg.scsi1).toBe('local-lvm:vm-314-disk-1,size=8G');
  });
});

describe('resize', () => {
  it('answers a resize UPID and grows to an absolute size; the same size again is a no-op', async () => {
    await cloneReady(320);
    const upid = await h.client.guestConfig.resizeDisk('pve1', 320, 'scsi0', 12);
    expect(parseUpid(upid as string)).toMatchObject({ type: 'resize', id: '320' });
    await h.wait(upid as string);
    await h.wait((await h.client.guestConfig.resizeDisk('pve1', 320, 'scsi0', 12)) as string);
    expect(String((await h.client.guestConfig.get('pve1', 320)).scsi0)).toContain('size=12G');
  });

  it('shrinking fails "shrinking disks is not supported" (in the task, as in PVE 8+)', async () => {
    await cloneReady(321);
    const e = await taskFailure(h.wait((await h.client.guestConfig.resizeDisk('pve1', 321, 'scsi0', 2)) as string));
    expect(e.exitstatus).toBe('shrinking disks is not supported');
  });
});

describe('power', () => {
  it('start of a running VM: the task fails "VM N already running"', async () => {
    await cloneReady(330);
    await h.wait(await h.client.guests.start('pve1', 330));
    const e = await taskFailure(h.wait(await h.client.guests.start('pve1', 330)));
    expect(e.exitstatus).toBe('VM 330 already running');
    expect(e.isAlreadyRunning).toBe(true);
  });

  it('stop of a stopped VM is a no-op OK task', async () => {
    await cloneReady(331);
    expect(await h.wait(await h.client.guests.stop('pve1', 331))).toMatchObject({ exitstatus: 'OK' });
  });

  it('a template cannot be started', async () => {
    const e = await rejection(h.client.guests.start('pve1', 9000));
    expect(e.message).toMatch(/template/);
  });

  it('while a task holds the guest, other mutating calls fail with a lock timeout', async () => {
    await slow.wait(await slow.client.guests.clone('pve1', 9000, { newid: 332, name: 'held' }));
    await slow.client.guests.start('pve1', 332);
    const e = await rejection(slow.client.guests.stop('pve1', 332));
    expect(e.isLockTimeout).toBe(true);
    expect(e.message).toBe("can't lock file '/var/lock/qemu-server/lock-332.conf' - got timeout");
  });

  it('accounts memory and CPU of running guests on the node', async () => {
    await cloneReady(333);
    await h.client.guestConfig.setSync('pve1', 333, { memory: 8192, cores: 4 });
    const before = await h.client.cluster.nodeStatus('pve1');
    await h.wait(await h.client.guests.start('pve1', 333));
    const after = await h.client.cluster.nodeStatus('pve1');
    expect(after.memory.used - before.memory.used).toBe(8192 * 1024 * 1024);
    const r = (await h.client.guests.list()).find((x) => x.vmid === 333);
    expect(r).toMatchObject({ maxmem: 8192 * 1024 * 1024, maxcpu: 4, status: 'running' });
  });
});

describe('destroy', () => {
  it('of a running VM fails "VM N is running - destroy failed"', async () => {
    await cloneReady(340);
    await h.wait(await h.client.guests.start('pve1', 340));
    const e = await rejection(h.client.guests.delete('pve1', 340));
    expect(e.message).toBe('VM 340 is running - destroy failed');
  });

  it('removes the guest when its qmdestroy task ends', async () => {
    await cloneReady(341);
    const upid = await h.client.guests.delete('pve1', 341);
    expect(parseUpid(upid).type).toBe('qmdestroy');
    await h.wait(upid);
    const e = await rejection(h.client.guests.status('pve1', 341));
    expect(e.isNotFound).toBe(true);
  });
});

describe('missing guests', () => {
  it('operations on a missing VM, or naming the wrong node, fail "Configuration file ... does not exist"', async () => {
    for (const p of [h.client.guests.start('pve1', 999), h.client.guests.status('pve1', 999), h.client.guests.delete('pve1', 999), h.client.guestConfig.get('pve2', 9000)]) {
      const e = await rejection(p);
      expect(e.status).toBe(500);
      expect(e.message).toMatch(/^Configuration file 'nodes\/pve[12]\/qemu-server\/(999|9000)\.conf' does not exist$/);
      expect(e.isNotFound).toBe(true);
    }
  });
});

describe('agent ping', () => {
  it('fails unless the guest runs with the agent enabled', async () => {
    await cloneReady(350);
    expect((await rejection(h.client.guests.pingAgent('pve1', 350))).message).toBe('VM 350 is not running');
    await h.client.guestConfig.setSync('pve1', 350, { agent: 0 });
    await h.wait(await h.client.guests.start('pve1', 350));
    expect((await rejection(h.client.guests.pingAgent('pve1', 350))).message).toBe('No QEMU guest agent configured');
    await h.client.guestConfig.setSync('pve1', 350, { agent: 'enabled=1' });
    await h.client.guests.pingAgent('pve1', 350);
  });

  it('answers "QEMU guest agent is not running" until the guest has been up for agentReadyMs', async () => {
    const h2 = await startSim({ agentReadyMs: 10_000 });
    try {
      await h2.wait(await h2.client.guests.clone('pve1', 9000, { newid: 351, name: 'slow-boot' }));
      await h2.wait(await h2.client.guests.start('pve1', 351));
      const e = await rejection(h2.client.guests.pingAgent('pve1', 351));
      expect(e.message).toBe('QEMU guest agent is not running');
    } finally {
      await h2.close();
    }
  });
});

describe('migrate', () => {
  it('moves a stopped guest offline with lock "migrate" during the task', async () => {
    await slow.wait(await slow.client.guests.clone('pve1', 9000, { newid: 360, name: 'mover' }));
    const upid = await slow.client.guests.migrate('pve1', 360, { target: 'pve3' });
    expect((await slow.client.guests.status('pve1', 360)).lock).toBe('migrate');
    await slow.wait(upid);
    expect((await slow.client.guests.status('pve3', 360)).lock).toBeUndefined();
  });

  it('a running guest needs online=1 (and with-local-disks for local storage)', async () => {
    await cloneReady(361);
    await h.wait(await h.client.guests.start('pve1', 361));
    expect((await rejection(h.client.guests.migrate('pve1', 361, { target: 'pve2' }))).message).toBe("can't migrate running VM without --online");
    expect((await rejection(h.client.guests.migrate('pve1', 361, { target: 'pve2', online: true }))).message).toMatch(/with-local-disks/);
    await h.wait(await h.client.guests.migrate('pve1', 361, { target: 'pve2', online: true, withLocalDisks: true }));
    expect((await h.client.guests.status('pve2', 361)).status).toBe('running');
  });

  it('refuses the local node and unknown nodes', async () => {
    await cloneReady(362);
    expect((await rejection(h.client.guests.migrate('pve1', 362, { target: 'pve1' }))).message).toBe('target is local node.');
    expect((await rejection(h.client.guests.migrate('pve1', 362, { target: 'pve9' }))).message).toBe("no such cluster node 'pve9'");
  });
});

describe('tasks visibility', () => {
  it('a token sees only the tasks it started', async () => {
    const other = 'ops@pve!audit=other-secret';
    const h2 = await startSim({ extraTokens: [other] });
    try {
      const upid = await h2.client.guests.clone('pve1', 9000, { newid: 370, name: 'mine' });
      await h2.wait(upid);
      const mine = await h2.api('GET', '/nodes/pve1/tasks', { source: 'all' });
      expect((mine.body.data as { upid: string }[]).map((t) => t.upid)).toEqual([upid]);
      const theirs = await h2.api('GET', '/nodes/pve1/tasks', { source: 'all' }, `PVEAPIToken=${other}`);
      expect(theirs.body.data).toEqual([]);
      const status = await h2.api('GET', `/nodes/pve1/tasks/${encodeURIComponent(upid)}/status`, {}, `PVEAPIToken=${other}`);
      expect(status.status).toBe(400);
    } finally {
      await h2.close();
    }
  });
});
