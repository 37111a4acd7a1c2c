/**
 * A guest made from a disk image as Proxmox VE makes it: `POST /nodes/{node}/qemu` with
 * `scsi0=<storage>:0,import-from=<storage>:import/<file>` is a `qmcreate` task whose new disk takes
 * the image's virtual size (the qcow2 header's, a raw file's length), refused or failed as
 * qemu-server and qemu-img refuse what is not an image; `import-from` on a config write; and
 * `POST …/template` making it a template. Every answer is valid against both releases' schemas.
 */
import { describe, expect, it } from 'vitest';
import { parseUpid } from '../../src/proxmox/upid';
import { DEFAULT_IMAGE, demoCluster, qcow2Image } from '../../src/simulator';
import { useSim } from './support';

const GiB = 1024 ** 3;
const h = useSim({
  cluster: { storages: [...demoCluster().storages, { storage: 'dir-images', type: 'dir', content: 'images,import', path: '/srv/images' }] },
  taskMsByType: { qmcreate: 400, qmtemplate: 400 },
});

/** A file on a storage, as someone copied it there (on `node` for a local storage). */
async function placeFile(storage: string, volume: string, body: Buffer, node?: string): Promise<void> {
  await h.control('PUT', `/storages/${storage}/volumes`, { volume, contentBase64: body.toString('base64'), ...(node ? { node } : {}) });
}
const cloudImage = () => qcow2Image(DEFAULT_IMAGE.virtualSize);

/** The parameters the image pipeline creates a guest with. */
const pipelineParams = (vmid: number, source: string, target = 'local-lvm') => ({
  vmid: String(vmid),
  name: `image-${vmid}`,
  memory: '2048',
  cores: '2',
  scsi0: `${target}:0,import-from=${source},discard=on,iothread=1`,
  ide2: 'local-lvm:cloudinit',
  serial0: 'socket',
  agent: 'enabled=1',
  boot: 'order=scsi0',
  net0: 'virtio,bridge=vmbr0',
  scsihw: 'virtio-scsi-single',
  tags: 'pvecp;image',
  description: 'made from a cloud image',
});

async function create(node: string, params: Record<string, string>): Promise<string> {
  const r = await h.call('POST', `/nodes/${node}/qemu`, params);
  expect(r.status, r.statusText).toBe(200);
  return String(r.body.data);
}

type Entry = Record<string, unknown>;
const config = async (node: string, vmid: number) => (await h.call('GET', `/nodes/${node}/qemu/${vmid}/config`)).body.data as Entry;

describe('a guest from a disk image', () => {
  it('is a qmcreate task; the guest is locked `create` meanwhile; its disk takes the qcow2 image’s virtual size', async () => {
    await placeFile('local', 'import/debian-12.qcow2', cloudImage(), 'pve1');
    const upid = await create('pve1', pipelineParams(200, 'local:import/debian-12.qcow2'));
    expect(parseUpid(upid)).toMatchObject({ node: 'pve1', type: 'qmcreate', id: '200' });
    expect(await config('pve1', 200)).toEqual({ lock: 'create', digest: expect.any(String) });
    expect((await h.call('GET', '/cluster/resources', { type: 'vm' })).body.data).toContainEqual(expect.objectContaining({ vmid: 200, lock: 'create' }));
    const { exitstatus, log } = await h.taskEnd(upid);
    expect(exitstatus).toBe('OK');
    // drives in the order of their keys, as create_disks walks them
    expect(log).toEqual([
      "ide2: successfully created disk 'local-lvm:vm-200-cloudinit,media=cdrom'",
      'create full clone of drive (local:import/debian-12.qcow2)',
      'transferred 0.0 B of 2.0 GiB (0.00%)',
      'transferred 2.0 GiB of 2.0 GiB (100.00%)',
      "scsi0: successfully created disk 'local-lvm:vm-200-disk-0,discard=on,iothread=1,size=2G'",
      'TASK OK',
    ]);
    expect(await config('pve1', 200)).toEqual({
      name: 'image-200',
      memory: '2048',
      cores: 2,
      scsi0: 'local-lvm:vm-200-disk-0,discard=on,iothread=1,size=2G',
      ide2: 'local-lvm:vm-200-cloudinit,media=cdrom',
      serial0: 'socket',
      agent: 'enabled=1',
      boot: 'order=scsi0',
      net0: expect.stringMatching(/^virtio=BC:24:11:[0-9A-F:]{8},bridge=vmbr0$/),
      scsihw: 'virtio-scsi-single',
      tags: 'image;pvecp',
      description: 'made from a cloud image',
      smbios1: expect.stringMatching(/^uuid=[0-9a-f-]{36}$/),
      vmgenid: expect.stringMatching(/^[0-9a-f-]{36}$/),
      digest: expect.any(String),
    });
    const disks = (await h.call('GET', '/nodes/pve1/storage/local-lvm/content', { vmid: '200' })).body.data as Entry[];
    expect(disks).toEqual([expect.objectContaining({ volid: 'local-lvm:vm-200-disk-0', size: DEFAULT_IMAGE.virtualSize })]);
  });

  it('a raw image gives its length; a file-based storage keeps the image’s format', async () => {
    await placeFile('shared-nfs', 'import/small.raw', Buffer.alloc(3 * 1024 * 1024));
    await placeFile('shared-nfs', 'import/cloud.qcow2', cloudImage());
    await h.taskEnd(await create('pve2', { vmid: '201', scsi0: 'local-lvm:0,import-from=shared-nfs:import/small.raw' }));
    expect((await config('pve2', 201)).scsi0).toBe('local-lvm:vm-201-disk-0,size=3M');
    await h.taskEnd(await create('pve3', { vmid: '202', scsi0: 'dir-images:0,import-from=shared-nfs:import/cloud.qcow2' }));
    expect((await config('pve3', 202)).scsi0).toBe('dir-images:202/vm-202-disk-0.qcow2,size=2G');
    // without a boot order asked for, the first disk, CD-ROM and NIC (get_default_bootdevices)
    expect((await config('pve3', 202)).boot).toBe('order=scsi0');
  });

  it('an image on a local storage is on its node only: elsewhere the task fails and the guest goes', async () => {
    await placeFile('local', 'import/debian-12.qcow2', cloudImage(), 'pve1');
    const upid = await create('pve2', pipelineParams(203, 'local:import/debian-12.qcow2'));
    expect((await h.taskEnd(upid)).exitstatus).toBe("unable to create VM 203 - failed to stat '/var/lib/vz/import/debian-12.qcow2'");
    expect(h.sim.state.guests.has(203)).toBe(false);
  });

  it('a file that is not an image fails the task as qemu-img does, leaving neither guest nor disk', async () => {
    await placeFile('local', 'import/notes.qcow2', Buffer.from('a text file, not a disk image\n'), 'pve1');
    const { exitstatus, log } = await h.taskEnd(await create('pve1', pipelineParams(204, 'local:import/notes.qcow2')));
    expect(exitstatus).toBe("unable to create VM 204 - qemu-img: Could not open '/var/lib/vz/import/notes.qcow2': Image is not in qcow2 format");
    expect(log).toContain("command '/usr/bin/qemu-img info --output=json /var/lib/vz/import/notes.qcow2 -f qcow2' failed: exit code 1");
    expect(h.sim.state.guests.has(204)).toBe(false);
    expect((await h.call('GET', '/nodes/pve1/storage/local-lvm/content', { vmid: '204' })).body.data).toEqual([]);
  });

  it('refuses before any task: an ISO image as a source, import-from without `:0`, a volume to import used as a disk, a storage without disks, a VMID in use', async () => {
    await placeFile('shared-nfs', 'iso/rescue.iso', Buffer.alloc(4096));
    await placeFile('shared-nfs', 'import/cloud.qcow2', cloudImage());
    const refused = async (params: Record<string, string>) => {
      const r = await h.call('POST', '/nodes/pve1/qemu', { vmid: '205', ...params });
      return [r.status, r.body.errors ?? r.statusText];
    };
    expect(await refused({ scsi0: 'local-lvm:0,import-from=shared-nfs:iso/rescue.iso' })).toEqual([400, { scsi0: "shared-nfs:iso/rescue.iso has wrong type 'iso' - needs to be 'images' or 'import'" }]);
    expect(await refused({ scsi0: 'local-lvm:8,import-from=shared-nfs:import/cloud.qcow2' })).toEqual([400, { scsi0: "'import-from' requires special syntax - use <storage ID>:0,import-from=<source>" }]);
    expect(await refused({ scsi0: 'shared-nfs:import/cloud.qcow2' })).toEqual([400, { scsi0: "content type needs to be 'images' or 'iso'" }]);
    expect(await refused({ scsi0: 'local:0,import-from=shared-nfs:import/cloud.qcow2' })).toEqual([400, { storage: "storage 'local' does not support vm images" }]);
    expect(await refused({ scsi0: 'local-lvm:0,import-from=nowhere:import/cloud.qcow2' })).toEqual([500, "storage 'nowhere' does not exist"]);
    const taken = await h.call('POST', '/nodes/pve1/qemu', { vmid: '9010', name: 'x' });
    expect([taken.status, taken.statusText]).toEqual([500, "unable to create VM 9010 - VM 9010 already exists on node 'pve2'"]);
    expect(h.sim.state.tasks.all().filter((t) => t.type === 'qmcreate')).toEqual([]);
  });

  it('imports on a config write as well: the new disk takes the image’s size', async () => {
    await placeFile('shared-nfs', 'import/cloud.qcow2', cloudImage());
    await h.wait(await h.client.guests.clone('pve1', 9000, { newid: 206, name: 'with-data' }));
    const r = await h.call('POST', '/nodes/pve1/qemu/206/config', { scsi1: 'local-lvm:0,import-from=shared-nfs:import/cloud.qcow2' });
    const { exitstatus, log } = await h.taskEnd(String(r.body.data));
    expect(exitstatus).toBe('OK');
    expect(log).toContain("scsi1: successfully created disk 'local-lvm:vm-206-disk-1,size=2G'");
    expect((await config('pve1', 206)).scsi1).toBe('local-lvm:vm-206-disk-1,size=2G');
  });
});

describe('template', () => {
  it('is a qmtemplate task: the guest carries `template: 1`, its disk becomes a base volume, and linked clones come from it', async () => {
    await placeFile('shared-nfs', 'import/cloud.qcow2', cloudImage());
    await h.taskEnd(await create('pve1', pipelineParams(210, 'shared-nfs:import/cloud.qcow2')));
    const r = await h.call('POST', '/nodes/pve1/qemu/210/template');
    expect(parseUpid(String(r.body.data))).toMatchObject({ type: 'qmtemplate', id: '210' });
    const busy = await h.call('PUT', '/nodes/pve1/qemu/210/config', { name: 'x' });
    expect(busy.statusText).toBe("can't lock file '/var/lock/qemu-server/lock-210.conf' - got timeout");
    expect((await h.taskEnd(String(r.body.data))).exitstatus).toBe('OK');
    expect(await config('pve1', 210)).toMatchObject({ template: 1, scsi0: 'local-lvm:base-210-disk-0,discard=on,iothread=1,size=2G', ide2: 'local-lvm:vm-210-cloudinit,media=cdrom' });
    expect((await h.call('GET', '/cluster/resources', { type: 'vm' })).body.data).toContainEqual(expect.objectContaining({ vmid: 210, template: 1 }));
    await h.wait(await h.client.guests.clone('pve1', 210, { newid: 211, name: 'from-image', full: false }));
    expect((await config('pve1', 211)).scsi0).toBe('local-lvm:base-210-disk-0/vm-211-disk-0,discard=on,iothread=1,size=2G');
  });

  it('is refused for a running guest, a template, a guest with snapshots', async () => {
    await h.wait(await h.client.guests.clone('pve1', 9000, { newid: 212, name: 'running' }));
    await h.wait(await h.client.guests.start('pve1', 212));
    const running = await h.call('POST', '/nodes/pve1/qemu/212/template');
    expect([running.status, running.statusText]).toEqual([500, "you can't convert a VM to template if VM is running"]);
    expect((await h.call('POST', '/nodes/pve1/qemu/9000/template')).statusText).toBe("you can't convert a template to a template");
    await h.wait(await h.client.guests.stop('pve1', 212));
    await h.taskEnd(String((await h.call('POST', '/nodes/pve1/qemu/212/snapshot', { snapname: 'before' })).body.data));
    expect((await h.call('POST', '/nodes/pve1/qemu/212/template')).statusText).toBe('unable to create template, because VM contains snapshots');
  });
});

describe('privileges', () => {
  const USER = 'builder@pve';
  const TOKEN = `${USER}!images`;
  const auth = `PVEAPIToken=${TOKEN}=builder-secret`;
  const grant = (path: string, roleid: string) => [{ path, ugid: USER, roleid }, { path, ugid: TOKEN, roleid }];
  const p = useSim({
    access: {
      tokens: [{ tokenid: TOKEN, secret: 'builder-secret', privsep: true }],
      roles: [
        { roleid: 'Builder', privs: ['VM.Allocate', 'VM.Audit', 'VM.Config.CPU', 'VM.Config.Memory', 'VM.Config.Disk', 'VM.Config.Network', 'VM.Config.Options'] },
        { roleid: 'HWType', privs: ['VM.Config.HWType'] },
        { roleid: 'Space', privs: ['Datastore.AllocateSpace'] },
        { roleid: 'Read', privs: ['Datastore.Audit'] },
        { roleid: 'SDN', privs: ['SDN.Use'] },
      ],
      acl: [...grant('/vms/300', 'Builder'), ...grant('/vms/301', 'Builder'), ...grant('/vms/301', 'HWType'), ...grant('/storage/local-lvm', 'Space'), ...grant('/sdn/zones', 'SDN')],
    },
  });

  it('a create needs VM.Allocate (else the bare 403), room on the disk’s storage, read access to the image, and each key’s privilege', async () => {
    await p.control('PUT', '/storages/shared-nfs/volumes', { volume: 'import/cloud.qcow2', contentBase64: qcow2Image(GiB).toString('base64') });
    const attempt = async (vmid: number, extra: Record<string, string> = {}) => {
      const r = await p.call('POST', '/nodes/pve1/qemu', { vmid: String(vmid), scsi0: 'local-lvm:0,import-from=shared-nfs:import/cloud.qcow2', net0: 'virtio,bridge=vmbr0', ...extra }, auth);
      return [r.status, r.statusText];
    };
    expect(await attempt(302)).toEqual([403, 'Permission check failed']);
    expect(await attempt(300)).toEqual([403, 'Permission check failed (/storage/shared-nfs, Datastore.AllocateSpace|Datastore.Audit)']);
    await p.control('POST', '/reset');
    expect(await attempt(300, { scsi0: 'local-lvm:4' })).toEqual([200, 'OK']);
    expect(await attempt(301, { scsi0: 'dir-less:4' })).toEqual([403, 'Permission check failed (/storage/dir-less, Datastore.AllocateSpace)']);
    expect(await attempt(300, { vmid: '300', scsi0: 'local-lvm:4', serial0: 'socket' })).toEqual([403, 'Permission check failed (/vms/300, VM.Config.HWType)']);
  });

  it('a config write of serialN: socket needs VM.Config.HWType, even when the guest has that socket already', async () => {
    await p.wait(await p.client.guests.clone('pve1', 9000, { newid: 300, name: 'vm-300' }));
    await p.wait(await p.client.guests.clone('pve1', 9000, { newid: 301, name: 'vm-301' }));
    await p.client.guestConfig.setSync('pve1', 301, { serial0: 'socket' });
    const write = async (vmid: number, params: Record<string, string>) => {
      const r = await p.call('PUT', `/nodes/pve1/qemu/${vmid}/config`, params, auth);
      return [r.status, r.statusText];
    };
    expect(await write(300, { serial0: 'socket' })).toEqual([403, 'Permission check failed (/vms/300, VM.Config.HWType)']);
    expect(await write(300, { delete: 'serial0' })).toEqual([403, 'Permission check failed (/vms/300, VM.Config.HWType)']);
    expect(await write(301, { serial0: 'socket' })).toEqual([200, 'OK']);
  });

  it('making a template needs VM.Allocate on the guest', async () => {
    const denied = await p.call('POST', '/nodes/pve1/qemu/9000/template', {}, auth);
    expect([denied.status, denied.statusText]).toEqual([403, 'Permission check failed (/vms/9000, VM.Allocate)']);
  });
});

describe('faults', () => {
  it('a create fault: the task fails and the guest goes, or the guest keeps its `create` lock', async () => {
    await placeFile('shared-nfs', 'import/cloud.qcow2', cloudImage());
    await h.control('POST', '/faults', { op: 'create', mode: 'task_fail', message: 'unable to create VM 220 - got timeout' });
    expect((await h.taskEnd(await create('pve1', pipelineParams(220, 'shared-nfs:import/cloud.qcow2')))).exitstatus).toBe('unable to create VM 220 - got timeout');
    expect(h.sim.state.guests.has(220)).toBe(false);
    await h.control('POST', '/faults', { op: 'create', mode: 'lock' });
    await h.taskEnd(await create('pve1', pipelineParams(221, 'shared-nfs:import/cloud.qcow2')));
    expect((await config('pve1', 221)).lock).toBe('create');
    // a restore is not a create: its own fault does not touch creates
    await h.control('POST', '/faults', { op: 'restore', mode: 'http500' });
    expect((await h.taskEnd(await create('pve1', pipelineParams(222, 'shared-nfs:import/cloud.qcow2')))).exitstatus).toBe('OK');
  });

  it('a template fault: the task fails and the guest stays what it was', async () => {
    await h.wait(await h.client.guests.clone('pve1', 9000, { newid: 223, name: 'almost' }));
    await h.control('POST', '/faults', { op: 'template', mode: 'task_fail', message: 'storage busy' });
    expect((await h.taskEnd(String((await h.call('POST', '/nodes/pve1/qemu/223/template')).body.data))).exitstatus).toBe('storage busy');
    expect((await config('pve1', 223)).template).toBeUndefined();
  });
});
