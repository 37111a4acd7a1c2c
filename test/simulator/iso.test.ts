/**
 * ISO images in a guest's CD-ROM drive, and its boot order, as Proxmox VE handles them: a drive
 * `<storage>:iso/<file>,media=cdrom` (`cdrom` an alias of `ide2`) of a volume the guest's own node
 * has; a boot order qemu-server parses and checks; on a running guest a CD-ROM change at once but
 * a boot order pending (in GET …/config and …/pending) until the next start or API reboot; and a
 * screen showing what the guest booted from. Every answer is valid against both releases' schemas.
 */
import { WebSocket, type RawData } from 'ws';
import { describe, expect, it } from 'vitest';
import { ByteReader, RFB_VERSION, SECURITY_VNC_AUTH, vncAuthResponse } from '../../src/net/vnc';
import { isoImage } from '../../src/simulator';
import { drawScreen, SCREEN_HEIGHT, SCREEN_WIDTH } from '../../src/simulator/console-screen';
import { AUTH, useSim } from './support';

const h = useSim();

const ISO = isoImage('RESCUE');
/** An ISO image on a storage: shared by every node, or on one node's local storage. */
async function placeIso(storage: string, name: string, node?: string): Promise<void> {
  await h.control('PUT', `/storages/${storage}/volumes`, { volume: `iso/${name}`, contentBase64: ISO.toString('base64'), ...(node ? { node } : {}) });
}

async function guest(vmid: number, node = 'pve1', template = 9000): Promise<void> {
  await h.wait(await h.client.guests.clone(node, template, { newid: vmid, name: `vm-${vmid}` }));
}

type Entry = Record<string, unknown>;
const config = async (vmid: number, node = 'pve1', current = false) => (await h.call('GET', `/nodes/${node}/qemu/${vmid}/config`, current ? { current: '1' } : {})).body.data as Entry;
const pending = async (vmid: number, node = 'pve1') => (await h.call('GET', `/nodes/${node}/qemu/${vmid}/pending`)).body.data as Entry[];
const put = (vmid: number, params: Record<string, string>, node = 'pve1') => h.call('PUT', `/nodes/${node}/qemu/${vmid}/config`, params);
const task = async (path: string, params: Record<string, string> = {}) => h.taskEnd(String((await h.call('POST', path, params)).body.data));

describe('ISO images in CD-ROM drives', () => {
  it('mounts an ISO image: the drive records its size, joins the boot order; `cdrom` is ide2 with media=cdrom; `none` ejects', async () => {
    await placeIso('shared-nfs', 'rescue.iso');
    await guest(101);
    expect((await put(101, { ide0: 'shared-nfs:iso/rescue.iso,media=cdrom' })).status).toBe(200);
    expect(await config(101)).toMatchObject({ ide0: 'shared-nfs:iso/rescue.iso,media=cdrom,size=40K', boot: 'order=scsi0;ide0' });
    expect((await put(101, { cdrom: 'shared-nfs:iso/rescue.iso' })).status).toBe(200);
    expect(await config(101)).toMatchObject({ ide2: 'shared-nfs:iso/rescue.iso,media=cdrom,size=40K', boot: 'order=scsi0;ide0;ide2' });
    expect((await put(101, { ide0: 'none,media=cdrom' })).status).toBe(200);
    expect((await config(101)).ide0).toBe('none,media=cdrom');
    const bare = await put(101, { ide0: 'shared-nfs:iso/rescue.iso' });
    expect([bare.status, bare.body.errors]).toEqual([400, { ide0: "explicit 'media=cdrom' is required for iso images" }]);
  });

  it('an ISO image on another node’s local storage does not exist for the guest’s node, and is refused so', async () => {
    await placeIso('local', 'rescue.iso', 'pve1');
    await guest(102, 'pve2', 9010);
    const refused = await put(102, { ide0: 'local:iso/rescue.iso,media=cdrom' }, 'pve2');
    expect([refused.status, refused.statusText]).toEqual([500, 'volume local:iso/rescue.iso does not exist']);
    const asTask = await h.call('POST', '/nodes/pve2/qemu/102/config', { ide0: 'local:iso/rescue.iso,media=cdrom' });
    expect((await h.taskEnd(String(asTask.body.data))).exitstatus).toBe('volume local:iso/rescue.iso does not exist');
    expect((await config(102, 'pve2')).ide0).toBeUndefined();
    await guest(103);
    expect((await put(103, { ide0: 'local:iso/rescue.iso,media=cdrom' })).status).toBe(200);
  });

  it('parses a boot order as qemu-server does: known device names, devices the guest has; the legacy letters too', async () => {
    await guest(104);
    const unknown = await put(104, { boot: 'order=scsi0;floppy0' });
    expect([unknown.status, unknown.body.errors]).toEqual([400, { boot: "invalid format - order: invalid boot device 'floppy0'" }]);
    const missing = await put(104, { boot: 'order=ide3;scsi0' });
    expect([missing.status, missing.statusText]).toEqual([500, "invalid bootorder: device 'ide3' does not exist'"]);
    expect((await put(104, { boot: 'order=net0;scsi0' })).status).toBe(200);
    expect((await put(104, { boot: 'dc' })).status).toBe(200);
    expect((await config(104)).boot).toBe('dc');
  });
});

describe('changes to a running guest', () => {
  it('a CD-ROM applies at once, a boot order waits for the next start: pending in GET …/config and …/pending, the order in effect with `current`', async () => {
    await placeIso('shared-nfs', 'rescue.iso');
    await guest(110);
    await h.wait(await h.client.guests.start('pve1', 110));
    expect((await put(110, { ide0: 'shared-nfs:iso/rescue.iso,media=cdrom', boot: 'order=ide0;scsi0' })).status).toBe(200);
    expect(await config(110, 'pve1', true)).toMatchObject({ ide0: 'shared-nfs:iso/rescue.iso,media=cdrom,size=40K', boot: 'order=scsi0' });
    expect((await config(110)).boot).toBe('order=ide0;scsi0');
    expect(await pending(110)).toContainEqual({ key: 'boot', value: 'order=scsi0', pending: 'order=ide0;scsi0' });
    expect(await pending(110)).toContainEqual({ key: 'ide0', value: 'shared-nfs:iso/rescue.iso,media=cdrom,size=40K' });
    expect((await h.control<{ guests: Entry[] }>('GET', '/state')).guests.find((g) => g.vmid === 110)).toMatchObject({ pending: { boot: 'order=ide0;scsi0' } });
    expect(await task('/nodes/pve1/qemu/110/status/reboot')).toMatchObject({ exitstatus: 'OK' });
    expect((await config(110, 'pve1', true)).boot).toBe('order=ide0;scsi0');
    expect((await pending(110)).filter((e) => 'pending' in e || 'delete' in e)).toEqual([]);
  });

  it('a drive that cannot be unplugged is removed at the next start; a stop keeps what is pending', async () => {
    await placeIso('shared-nfs', 'rescue.iso');
    await guest(111);
    await put(111, { ide0: 'shared-nfs:iso/rescue.iso,media=cdrom', boot: 'order=ide0;scsi0' });
    await h.wait(await h.client.guests.start('pve1', 111));
    expect((await put(111, { delete: 'ide0' })).status).toBe(200);
    expect(await pending(111)).toContainEqual({ key: 'ide0', value: 'shared-nfs:iso/rescue.iso,media=cdrom,size=40K', delete: 1 });
    expect(await pending(111)).toContainEqual({ key: 'boot', value: 'order=ide0;scsi0', pending: 'order=scsi0' });
    expect((await config(111)).ide0).toBeUndefined();
    await h.wait(await h.client.guests.stop('pve1', 111));
    expect((await config(111, 'pve1', true)).ide0).toBeDefined();
    await h.wait(await h.client.guests.start('pve1', 111));
    expect(await config(111, 'pve1', true)).toMatchObject({ boot: 'order=scsi0' });
    expect((await config(111, 'pve1', true)).ide0).toBeUndefined();
  });

  it('a change while the guest is stopped takes effect at once, with what was pending', async () => {
    await guest(112);
    await h.wait(await h.client.guests.start('pve1', 112));
    await put(112, { boot: 'order=net0;scsi0' });
    await h.wait(await h.client.guests.stop('pve1', 112));
    expect((await put(112, { description: 'stopped' })).status).toBe(200);
    expect(await config(112, 'pve1', true)).toMatchObject({ boot: 'order=net0;scsi0', description: 'stopped' });
  });
});

/** The pixels of a guest's screen through vncproxy and vncwebsocket, as a VNC viewer reads them. */
async function screenPixels(node: string, vmid: number): Promise<Buffer> {
  const offer = (await h.call('POST', `/nodes/${node}/qemu/${vmid}/vncproxy`, { websocket: '1', 'generate-password': '1' })).body.data as { port: number; ticket: string; password: string };
  const url = `${h.server.url.replace(/^http/, 'ws')}/api2/json/nodes/${node}/qemu/${vmid}/vncwebsocket?port=${offer.port}&vncticket=${encodeURIComponent(offer.ticket)}`;
  const ws = new WebSocket(url, { headers: { Authorization: AUTH } });
  const reader = new ByteReader();
  ws.on('message', (data: RawData) => reader.push(Buffer.isBuffer(data) ? data : Buffer.from(data as ArrayBuffer)));
  await new Promise((resolve, reject) => ws.once('open', resolve).once('error', reject));
  try {
    await reader.read(12);
    ws.send(Buffer.from(RFB_VERSION));
    await reader.read(2);
    ws.send(Buffer.from([SECURITY_VNC_AUTH]));
    ws.send(vncAuthResponse(offer.password, await reader.read(16)));
    expect((await reader.read(4)).readUInt32BE(0)).toBe(0);
    ws.send(Buffer.from([1]));
    const init = await reader.read(24);
    await reader.read(init.readUInt32BE(20));
    const request = Buffer.alloc(10);
    request[0] = 3;
    request.writeUInt16BE(SCREEN_WIDTH, 6);
    request.writeUInt16BE(SCREEN_HEIGHT, 8);
    ws.send(request);
    await reader.read(16);
    return await reader.read(SCREEN_WIDTH * SCREEN_HEIGHT * 4);
  } finally {
    ws.close();
  }
}

/** What the screen looks like with these lines, in the server's default pixel format (32 bits, red at bit 16, little-endian). */
function expectedPixels(lines: string[]): Buffer {
  const rgb = drawScreen(lines);
  const out = Buffer.alloc(SCREEN_WIDTH * SCREEN_HEIGHT * 4);
  for (let i = 0; i < SCREEN_WIDTH * SCREEN_HEIGHT; i++) out.writeUInt32LE((((rgb[i * 3] as number) << 16) | ((rgb[i * 3 + 1] as number) << 8) | (rgb[i * 3 + 2] as number)) >>> 0, i * 4);
  return out;
}

describe('the screen', () => {
  it('shows “booted from <iso>” once the guest boots with its CD-ROM first, and its system again once the disk is first', async () => {
    await placeIso('shared-nfs', 'rescue.iso');
    await guest(120);
    await h.wait(await h.client.guests.start('pve1', 120));
    const system = expectedPixels(['vm-120', '', 'Debian GNU/Linux 12 ttyS0', '', 'vm-120 login: _']);
    expect((await screenPixels('pve1', 120)).equals(system)).toBe(true);
    await put(120, { ide0: 'shared-nfs:iso/rescue.iso,media=cdrom', boot: 'order=ide0;scsi0' });
    // mounted, but the running guest has not booted from it
    expect((await screenPixels('pve1', 120)).equals(system)).toBe(true);
    await task('/nodes/pve1/qemu/120/status/reboot');
    expect((await screenPixels('pve1', 120)).equals(expectedPixels(['vm-120', '', 'booted from rescue.iso', '', 'boot: _']))).toBe(true);
    expect((await h.control<{ guests: Entry[] }>('GET', '/state')).guests.find((g) => g.vmid === 120)).toMatchObject({ bootedFrom: 'rescue.iso' });
    // an empty drive first: the firmware goes on to the disk
    await put(120, { ide0: 'none,media=cdrom' });
    await task('/nodes/pve1/qemu/120/status/reboot');
    expect((await screenPixels('pve1', 120)).equals(system)).toBe(true);
  });
});

describe('privileges', () => {
  const USER = 'rescue@pve';
  const TOKEN = `${USER}!iso`;
  const auth = `PVEAPIToken=${TOKEN}=iso-secret`;
  const grant = (path: string, roleid: string) => [{ path, ugid: USER, roleid }, { path, ugid: TOKEN, roleid }];
  const p = useSim({
    access: {
      tokens: [{ tokenid: TOKEN, secret: 'iso-secret', privsep: true }],
      roles: [
        { roleid: 'Guest', privs: ['VM.Audit', 'VM.Config.Disk', 'VM.PowerMgmt'] },
        { roleid: 'CDROM', privs: ['VM.Config.CDROM'] },
        { roleid: 'Read', privs: ['Datastore.Audit'] },
      ],
      acl: [...grant('/vms', 'Guest'), ...grant('/vms/131', 'CDROM'), ...grant('/storage/shared-nfs', 'Read')],
    },
  });

  it('mounting needs VM.Config.CDROM on the guest and read access to the ISO image’s storage; the boot order VM.Config.Disk', async () => {
    await p.control('PUT', '/storages/shared-nfs/volumes', { volume: 'iso/rescue.iso', contentBase64: ISO.toString('base64') });
    await p.control('PUT', '/storages/local/volumes', { volume: 'iso/rescue.iso', node: 'pve1', contentBase64: ISO.toString('base64') });
    for (const vmid of [130, 131]) await p.wait(await p.client.guests.clone('pve1', 9000, { newid: vmid, name: `vm-${vmid}` }));
    const mount = async (vmid: number, volume: string) => {
      const r = await p.call('PUT', `/nodes/pve1/qemu/${vmid}/config`, { ide0: `${volume},media=cdrom` }, auth);
      return [r.status, r.statusText];
    };
    expect(await mount(130, 'shared-nfs:iso/rescue.iso')).toEqual([403, 'Permission check failed (/vms/130, VM.Config.CDROM)']);
    expect(await mount(131, 'local:iso/rescue.iso')).toEqual([403, 'Permission check failed (/storage/local, Datastore.AllocateSpace|Datastore.Audit)']);
    expect(await mount(131, 'shared-nfs:iso/rescue.iso')).toEqual([200, 'OK']);
    // the cloud-init drive on ide2 is no plain CD-ROM: replacing it needs VM.Config.Cloudinit too
    const overCloudinit = await p.call('PUT', '/nodes/pve1/qemu/131/config', { cdrom: 'shared-nfs:iso/rescue.iso' }, auth);
    expect(overCloudinit.statusText).toBe('Permission check failed (/vms/131, VM.Config.Cloudinit)');
    expect((await p.call('PUT', '/nodes/pve1/qemu/130/config', { boot: 'order=net0;scsi0' }, auth)).status).toBe(200);
  });
});

describe('faults', () => {
  it('a config fault on a mount: the task fails and the drive stays empty', async () => {
    await placeIso('shared-nfs', 'rescue.iso');
    await guest(140);
    await h.control('POST', '/faults', { op: 'config', mode: 'task_fail', message: 'got timeout' });
    expect(await task('/nodes/pve1/qemu/140/config', { ide0: 'shared-nfs:iso/rescue.iso,media=cdrom' })).toMatchObject({ exitstatus: 'got timeout' });
    expect((await config(140)).ide0).toBeUndefined();
  });

  it('a reboot refused by a fault leaves the boot order pending', async () => {
    await guest(141);
    await h.wait(await h.client.guests.start('pve1', 141));
    await put(141, { boot: 'order=net0;scsi0' });
    await h.control('POST', '/faults', { op: 'reboot', mode: 'http500', message: 'proxy error' });
    expect((await h.call('POST', '/nodes/pve1/qemu/141/status/reboot')).statusText).toBe('proxy error');
    expect(await pending(141)).toContainEqual({ key: 'boot', value: 'order=scsi0', pending: 'order=net0;scsi0' });
  });
});
