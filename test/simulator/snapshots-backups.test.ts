/**
 * Snapshots, backups and restores behave in the simulator as they do on Proxmox VE: tasks with
 * locks, storage capability, one vzdump per node, archives on a storage, protected archives,
 * the `OK` answer on a wrong node, and restores that rebuild the guest from its archive.
 */
import { describe, expect, it } from 'vitest';
import { ProxmoxError, ProxmoxTaskError } from '../../src/proxmox';
import { demoCluster } from '../../src/simulator';
import { useSim } from './support';

const STORAGES = [
  ...demoCluster().storages,
  { storage: 'thick', type: 'lvm' },
  { storage: 'nfs-images', type: 'nfs', shared: true },
  { storage: 'zfs', type: 'zfspool' },
];
/** Guest tasks long enough to see the lock they hold; the rest quick. */
const h = useSim({ cluster: { storages: STORAGES }, taskMsByType: { qmsnapshot: 150, qmrollback: 150, qmdelsnapshot: 150, qmrestore: 150 } });
/** Backups long enough to see the second one wait for the node's lock. */
const slow = useSim({ taskMs: 5, taskMsByType: { vzdump: 300 } });

const rejected = async (p: Promise<unknown>): Promise<ProxmoxError> => {
  const e = await p.then(() => undefined, (err: unknown) => err);
  expect(e).toBeInstanceOf(ProxmoxError);
  return e as ProxmoxError;
};

async function guest(sim: typeof h, vmid: number, node = 'pve1', template = 9000): Promise<void> {
  await sim.wait(await sim.client.guests.clone(node, template, { newid: vmid, name: `vm-${vmid}` }));
}

const writeFile = (sim: typeof h, vmid: number, path: string, content: string) => sim.control('PUT', `/guests/${vmid}/files`, { path, content });
const files = (sim: typeof h, vmid: number) => sim.sim.state.guests.get(vmid)?.files;

describe('snapshots', () => {
  it('takes a snapshot as a qmsnapshot task holding the lock `snapshot`, and lists it with `current`', async () => {
    await guest(h, 101);
    await writeFile(h, 101, '/etc/motd', 'before');
    const upid = await h.client.snapshots.create('pve1', 101, { name: 'before-upgrade', description: 'safe point' });
    expect(upid).toContain(':qmsnapshot:101:');
    expect(h.sim.state.guests.get(101)?.config.lock).toBe('snapshot');
    await h.wait(upid);
    expect(h.sim.state.guests.get(101)?.config.lock).toBeUndefined();
    expect(await h.client.snapshots.list('pve1', 101)).toEqual([expect.objectContaining({ name: 'before-upgrade', description: 'safe point', snaptime: expect.any(Number) })]);
    const raw = await h.api('GET', '/nodes/pve1/qemu/101/snapshot');
    expect(raw.body.data).toContainEqual(expect.objectContaining({ name: 'current', parent: 'before-upgrade', running: 0, digest: expect.any(String) }));
  });

  it('rolls back config and disk contents; children of a deleted snapshot move up to its parent', async () => {
    await guest(h, 102);
    await writeFile(h, 102, '/data', 'v1');
    await h.wait(await h.client.snapshots.create('pve1', 102, { name: 'one' }));
    await writeFile(h, 102, '/data', 'v2');
    await h.client.guestConfig.setSync('pve1', 102, { memory: 4096 });
    await h.wait(await h.client.snapshots.create('pve1', 102, { name: 'two' }));
    await writeFile(h, 102, '/data', 'v3');

    const rollback = await h.client.snapshots.rollback('pve1', 102, 'one');
    expect(h.sim.state.guests.get(102)?.config.lock).toBe('rollback');
    await h.wait(rollback);
    expect(files(h, 102)).toEqual({ '/data': 'v1' });
    expect(h.sim.state.guests.get(102)?.config.memory).not.toBe(4096);

    const del = await h.client.snapshots.delete('pve1', 102, 'one');
    expect(h.sim.state.guests.get(102)?.config.lock).toBe('snapshot-delete');
    await h.wait(del);
    expect(await h.client.snapshots.list('pve1', 102)).toEqual([expect.not.objectContaining({ parent: expect.anything() })]);
    expect((await h.client.snapshots.list('pve1', 102)).map((s) => s.name)).toEqual(['two']);
  });

  it('a rollback stops a running guest, and resumes it only when the snapshot holds RAM', async () => {
    await guest(h, 103);
    await h.wait(await h.client.guests.start('pve1', 103));
    await h.wait(await h.client.snapshots.create('pve1', 103, { name: 'disk-only' }));
    await h.wait(await h.client.snapshots.create('pve1', 103, { name: 'with-ram', vmstate: true }));
    await h.wait(await h.client.snapshots.rollback('pve1', 103, 'disk-only'));
    expect(h.sim.state.guests.get(103)?.status).toBe('stopped');
    await h.wait(await h.client.snapshots.rollback('pve1', 103, 'with-ram'));
    expect(h.sim.state.guests.get(103)?.status).toBe('running');
  });

  it("keeps a running guest's RAM on a state volume its config names, listed on the storage until the snapshot goes", async () => {
    await guest(h, 110);
    await h.client.guestConfig.setSync('pve1', 110, { memory: 2048 });
    await h.wait(await h.client.guests.start('pve1', 110));
    await h.wait(await h.client.snapshots.create('pve1', 110, { name: 'with-ram', vmstate: true }));
    await h.wait(await h.client.snapshots.create('pve1', 110, { name: 'disk-only' }));

    const config = (await h.api('GET', '/nodes/pve1/qemu/110/snapshot/with-ram/config')).body.data as Record<string, unknown>;
    expect(config).toMatchObject({
      vmstate: 'local-lvm:vm-110-state-with-ram',
      runningmachine: 'pc-i440fx-9.2+pve1',
      runningcpu: 'qemu64,+aes,enforce,+kvm_pv_eoi,+kvm_pv_unhalt,+pni,+popcnt,+sse4.1,+sse4.2,+ssse3',
      'running-nets-host-mtu': 'net0=0',
    });
    expect((await h.api('GET', '/nodes/pve1/qemu/110/snapshot/disk-only/config')).body.data).not.toHaveProperty('vmstate');
    const listed = (await h.api('GET', '/nodes/pve1/qemu/110/snapshot')).body.data as { name: string; vmstate?: number }[];
    expect(listed.filter((s) => s.name !== 'current').map((s) => [s.name, s.vmstate])).toEqual([['with-ram', 1], ['disk-only', 0]]);
    const stateVolume = { volid: 'local-lvm:vm-110-state-with-ram', vmid: 110, size: (2 * 2048 + 500) * 1024 ** 2, format: 'raw' };
    expect((await h.api('GET', '/nodes/pve1/storage/local-lvm/content', { vmid: '110' })).body.data).toContainEqual(expect.objectContaining(stateVolume));

    await h.wait(await h.client.snapshots.delete('pve1', 110, 'with-ram'));
    expect((await h.api('GET', '/nodes/pve1/storage/local-lvm/content', { vmid: '110' })).body.data).not.toContainEqual(expect.objectContaining({ volid: stateVolume.volid }));
  });

  it('refuses reserved, taken and missing names, a locked guest, and storages that cannot snapshot', async () => {
    await guest(h, 104);
    // qemu-server refuses `current` as written and `pending` in any case, in these words
    for (const [name, refused] of [['current', 'current'], ['pending', 'pending'], ['Pending', 'pending']]) {
      const answer = await h.api('POST', '/nodes/pve1/qemu/104/snapshot', { snapname: name as string });
      expect([answer.status, answer.statusText], name).toEqual([500, `unable to use snapshot name '${refused}' (reserved name)`]);
    }
    await h.wait(await h.client.snapshots.create('pve1', 104, { name: 'Current' }));
    expect((await rejected(h.client.snapshots.create('pve1', 104, { name: '1abc' }))).status).toBe(400);
    await h.wait(await h.client.snapshots.create('pve1', 104, { name: 'taken' }));
    expect((await rejected(h.client.snapshots.create('pve1', 104, { name: 'taken' }))).message).toContain("snapshot name 'taken' already used");
    expect((await rejected(h.client.snapshots.rollback('pve1', 104, 'nope'))).message).toContain("snapshot 'nope' does not exist");
    h.sim.state.guests.get(104)!.config.lock = 'backup';
    expect((await rejected(h.client.snapshots.create('pve1', 104, { name: 'locked' }))).message).toBe('VM 104 is locked (backup)');

    for (const [vmid, disk, verdict] of [
      [105, 'thick:vm-105-disk-0,size=4G', 'refused'],
      [106, 'nfs-images:106/vm-106-disk-0.raw,size=4G', 'refused'],
      [107, 'nfs-images:107/vm-107-disk-0.qcow2,size=4G', 'taken'],
      [108, 'zfs:vm-108-disk-0,size=4G', 'taken'],
    ] as const) {
      await guest(h, vmid);
      h.sim.state.guests.get(vmid)!.config.scsi0 = disk;
      const answer = h.client.snapshots.create('pve1', vmid, { name: 'probe' });
      if (verdict === 'refused') expect((await rejected(answer)).message, disk).toBe('snapshot feature is not available');
      else await h.wait(await answer);
    }
  });

  it('applies faults to each snapshot call', async () => {
    await guest(h, 109);
    await h.control('POST', '/faults', { op: 'snapshot', mode: 'task_fail', message: 'snapshot failed' });
    await expect(h.wait(await h.client.snapshots.create('pve1', 109, { name: 'aa' }))).rejects.toBeInstanceOf(ProxmoxTaskError);
    expect(await h.client.snapshots.list('pve1', 109)).toEqual([]);
    await h.wait(await h.client.snapshots.create('pve1', 109, { name: 'bb' }));
    await h.control('POST', '/faults', { op: 'rollback', mode: 'http500', message: 'proxy error' });
    expect((await rejected(h.client.snapshots.rollback('pve1', 109, 'bb'))).message).toBe('proxy error');
    await h.control('POST', '/faults', { op: 'snapshot_delete', mode: 'http500' });
    await rejected(h.client.snapshots.delete('pve1', 109, 'bb'));
  });
});

describe('backups', () => {
  it('writes an archive named in the task log, listed on the storage with a size from the disk, notes and protection', async () => {
    await guest(h, 111);
    await writeFile(h, 111, '/srv/site', 'hello');
    const upid = await h.client.backups.create('pve1', 111, { storage: 'local', mode: 'snapshot', compress: 'zstd', notesTemplate: 'nightly {{guestname}} ({{vmid}})', protected: true });
    expect(upid).toContain(':vzdump:111:');
    await h.wait(upid);
    const [archive, ...more] = await h.client.backups.list('pve1', 'local', 111);
    expect(more).toEqual([]);
    expect(archive).toMatchObject({
      volid: expect.stringMatching(/^local:backup\/vzdump-qemu-111-\d{4}_\d\d_\d\d-\d\d_\d\d_\d\d\.vma\.zst$/),
      format: 'vma.zst',
      notes: 'nightly vm-111 (111)',
      protected: 1,
      vmid: 111,
      subtype: 'qemu',
      ctime: expect.any(Number),
    });
    // 4 GiB of disk compress to a tenth, plus what the files hold
    expect(archive?.size).toBe(Math.round((4 * 1024 ** 3 + 5) / 10));
    expect((await h.client.tasks.log(upid)).join('\n')).toContain(`creating vzdump archive '/var/lib/vz/dump/${archive!.volid.split('/')[1]}'`);
    expect(await h.client.backups.list('pve1', 'local', 999)).toEqual([]);
  });

  it('answers OK without a task on another node, and refuses a storage that takes no backups', async () => {
    await guest(h, 112);
    const wrongNode = await h.api('POST', '/nodes/pve2/vzdump', { vmid: '112', storage: 'local' });
    expect(wrongNode.body.data).toBe('OK');
    expect(h.sim.state.tasks.all().filter((t) => t.type === 'vzdump')).toEqual([]);
    expect((await rejected(h.client.backups.create('pve2', 112, { storage: 'local' }))).message).toContain('is not on node');
    expect((await rejected(h.client.backups.create('pve1', 112, { storage: 'local-lvm' }))).message).toBe("storage 'local-lvm' does not support backups");
  });

  it('refuses to delete a protected archive; unprotected, the archive goes by an imgdel task', async () => {
    await guest(h, 113);
    await h.wait(await h.client.backups.create('pve1', 113, { storage: 'local', protected: true }));
    const [archive] = await h.client.backups.list('pve1', 'local', 113);
    expect((await rejected(h.client.backups.delete('pve1', archive!.volid))).message).toContain('protected');
    await h.client.backups.update('pve1', archive!.volid, { protected: false, notes: 'kept for a week' });
    expect((await h.client.backups.list('pve1', 'local', 113))[0]).toMatchObject({ notes: 'kept for a week' });
    const del = await h.client.backups.delete('pve1', archive!.volid);
    expect(del).toContain(':imgdel:');
    await h.wait(del);
    expect(await h.client.backups.list('pve1', 'local', 113)).toEqual([]);
  });

  it('routes an archive named with a literal slash as Proxmox does, and names its imgdel task `<vmid>@<storage>`', async () => {
    await guest(h, 120);
    await h.wait(await h.client.backups.create('pve1', 120, { storage: 'local' }));
    const [archive] = await h.client.backups.list('pve1', 'local', 120);
    const volid = archive!.volid;
    expect(volid).toMatch(/^local:backup\/vzdump-qemu-120-/);
    // the web UI and go-proxmox put the volid in the path as it is
    const info = await h.api('GET', `/nodes/pve1/storage/local/content/${volid}`);
    expect([info.status, info.body.data]).toEqual([200, expect.objectContaining({ format: 'vma', protected: 0 })]);
    // the volume's name without its storage, escaped or not
    for (const volume of [volid.slice('local:'.length), encodeURIComponent(volid)]) {
      expect((await h.api('GET', `/nodes/pve1/storage/local/content/${volume}`)).status, volume).toBe(200);
    }
    expect((await h.api('PUT', `/nodes/pve1/storage/local/content/${volid}`, { notes: 'before the upgrade' })).status).toBe(200);
    const elsewhere = await h.api('DELETE', `/nodes/pve1/storage/local-lvm/content/${volid}`);
    expect([elsewhere.status, elsewhere.body.errors]).toEqual([400, { volume: 'storage ID mismatch (local != local-lvm)' }]);

    const del = await h.api('DELETE', `/nodes/pve1/storage/local/content/${volid}`);
    expect(del.status).toBe(200);
    const upid = del.body.data as string;
    expect(upid.split(':').slice(5, 7)).toEqual(['imgdel', '120@local']);
    await h.wait(upid);
    expect(await h.client.tasks.log(upid)).toContain(`Removed volume '${volid}'`);
    expect(await h.client.backups.list('pve1', 'local', 120)).toEqual([]);
  });

  it('restores over a stopped guest (force), rebuilding its config and disks from the archive', async () => {
    await guest(h, 114);
    await writeFile(h, 114, '/data', 'precious');
    const mac = String(h.sim.state.guests.get(114)?.config.net0);
    await h.wait(await h.client.backups.create('pve1', 114, { storage: 'local' }));
    const [archive] = await h.client.backups.list('pve1', 'local', 114);
    await h.control('DELETE', '/guests/114/files');
    await h.client.guestConfig.setSync('pve1', 114, { memory: 8192 });
    expect((await rejected(h.client.backups.restore('pve1', 114, { archive: archive!.volid }))).message).toContain('already exists');

    await h.wait(await h.client.guests.start('pve1', 114));
    expect((await rejected(h.client.backups.restore('pve1', 114, { archive: archive!.volid, force: true }))).message).toContain('VM is running');
    await h.wait(await h.client.guests.stop('pve1', 114));

    const upid = await h.client.backups.restore('pve1', 114, { archive: archive!.volid, force: true, storage: 'local-lvm' });
    expect(upid).toContain(':qmrestore:114:');
    expect(h.sim.state.guests.get(114)?.config.lock).toBe('create');
    await h.wait(upid);
    const restored = h.sim.state.guests.get(114)!;
    expect(restored.config).toMatchObject({ scsi0: expect.stringMatching(/^local-lvm:vm-114-disk-0,.*size=4G/), net0: mac });
    expect(restored.config.memory).not.toBe(8192);
    expect(restored.config.lock).toBeUndefined();
    expect(restored.files).toEqual({ '/data': 'precious' });
  });

  it('restores into a new VMID with new MACs when unique, and removes a new guest whose restore failed', async () => {
    await guest(h, 115);
    await h.wait(await h.client.backups.create('pve1', 115, { storage: 'local' }));
    const [archive] = await h.client.backups.list('pve1', 'local', 115);
    await h.wait(await h.client.backups.restore('pve1', 116, { archive: archive!.volid, unique: true, start: true }));
    const copy = h.sim.state.guests.get(116)!;
    expect(copy).toMatchObject({ node: 'pve1', status: 'running' });
    expect(copy.config.net0).not.toBe(h.sim.state.guests.get(115)?.config.net0);
    expect(copy.config.scsi0).toMatch(/^local-lvm:vm-116-disk-0/);

    await h.control('POST', '/faults', { op: 'restore', mode: 'task_fail', message: 'unable to restore VM 117 - no space left' });
    await expect(h.wait(await h.client.backups.restore('pve1', 117, { archive: archive!.volid }))).rejects.toBeInstanceOf(ProxmoxTaskError);
    expect(h.sim.state.guests.has(117)).toBe(false);
  });

  it('faults apply to vzdump and volume deletes', async () => {
    await guest(h, 118);
    await h.control('POST', '/faults', { op: 'backup', mode: 'task_fail', message: 'job errors' });
    await expect(h.wait(await h.client.backups.create('pve1', 118, { storage: 'local' }))).rejects.toBeInstanceOf(ProxmoxTaskError);
    expect(await h.client.backups.list('pve1', 'local', 118)).toEqual([]);
    expect(h.sim.state.guests.get(118)?.config.lock).toBeUndefined();
    await h.wait(await h.client.backups.create('pve1', 118, { storage: 'local' }));
    const [archive] = await h.client.backups.list('pve1', 'local', 118);
    await h.control('POST', '/faults', { op: 'volume_delete', mode: 'http500', message: 'storage busy' });
    expect((await rejected(h.client.backups.delete('pve1', archive!.volid))).message).toBe('storage busy');
  });
});

describe('one vzdump per node', () => {
  it('a second backup on the node waits for the global lock, while another node backs up at once', async () => {
    await guest(slow, 121);
    await guest(slow, 122);
    await guest(slow, 123, 'pve2', 9010);
    const first = await slow.client.backups.create('pve1', 121, { storage: 'local' });
    const second = await slow.client.backups.create('pve1', 122, { storage: 'local' });
    const elsewhere = await slow.client.backups.create('pve2', 123, { storage: 'local' });
    const guests = slow.sim.state.guests;
    expect([guests.get(121)?.config.lock, guests.get(122)?.config.lock, guests.get(123)?.config.lock]).toEqual(['backup', undefined, 'backup']);
    expect((await slow.client.tasks.log(second)).join('\n')).toContain('trying to get global lock - waiting...');
    await slow.wait(first);
    expect(guests.get(122)?.config.lock).toBe('backup');
    await slow.wait(second);
    await slow.wait(elsewhere);
    const ran = (upid: string) => slow.sim.state.tasks.get(upid)!;
    expect(ran(second).endedAtMs! - ran(first).endedAtMs!).toBeGreaterThanOrEqual(250);
  });

  it('a backup that waits longer than lockwait fails with the lock timeout', async () => {
    await guest(slow, 124);
    await guest(slow, 125);
    const holder = await slow.client.backups.create('pve1', 124, { storage: 'local' });
    await slow.control('POST', '/faults', { op: 'backup', mode: 'hang' });
    const stuck = await slow.client.backups.create('pve1', 125, { storage: 'local' });
    await slow.wait(holder);
    const waiting = await slow.client.backups.create('pve1', 124, { storage: 'local', lockwait: 0 });
    const failure = await slow.wait(waiting).then(() => undefined, (e: unknown) => e);
    expect(failure).toBeInstanceOf(ProxmoxTaskError);
    expect((failure as ProxmoxTaskError).exitstatus).toBe("can't acquire lock '/var/run/vzdump.lock' - got timeout");
    expect(slow.sim.state.tasks.get(stuck)?.status).toBe('running');
  });
});
