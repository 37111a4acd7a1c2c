/**
 * Consoles as an outside client sees them in the task list: qemu-server runs both the VNC and
 * the serial console's listener as a `vncproxy` worker.
 */
import { describe, expect, it } from 'vitest';
import { useSim } from './support';

const h = useSim();

describe('console tasks', () => {
  it('a serial console (termproxy) runs as a vncproxy task about its guest, as its VNC console does', async () => {
    await h.wait(await h.client.guests.clone('pve1', 9000, { newid: 130, name: 'tty-1' }));
    await h.wait(await h.client.guests.start('pve1', 130));
    const serial = await h.api('POST', '/nodes/pve1/qemu/130/termproxy', { serial: 'serial0' });
    const vnc = await h.api('POST', '/nodes/pve1/qemu/130/vncproxy', { websocket: '1' });
    const upids = [serial, vnc].map((answer) => (answer.body.data as { upid: string }).upid);
    for (const upid of upids) expect(upid.split(':').slice(5, 7)).toEqual(['vncproxy', '130']);

    const listed = await h.api('GET', '/nodes/pve1/tasks', { source: 'active', typefilter: 'vncproxy', vmid: '130' });
    expect((listed.body.data as { upid: string; type: string }[]).map((t) => [t.upid, t.type])).toEqual(expect.arrayContaining(upids.map((upid) => [upid, 'vncproxy'])));
    expect((await h.api('GET', '/nodes/pve1/tasks', { source: 'active', typefilter: 'termproxy' })).body.data).toEqual([]);
  });
});
