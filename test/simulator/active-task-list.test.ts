/**
 * `GET /nodes/{node}/tasks?source=active` answers the node's active-task file as Proxmox keeps
 * it: running tasks, and tasks that ended a moment ago with their status and end time.
 */
import { describe, expect, it } from 'vitest';
import { listedRunning } from '../../src/proxmox';
import { useSim } from './support';

const h = useSim({ activeTaskListEnded: 3 });

const active = (query: Record<string, string> = {}) => h.api('GET', '/nodes/pve1/tasks', { source: 'active', ...query });

describe('the active task list', () => {
  it('lists a running task as RUNNING without an end time', async () => {
    await h.control('POST', '/faults', { op: 'clone', mode: 'hang' });
    const upid = await h.client.guests.clone('pve1', 9000, { newid: 500, name: 'x' });
    const r = await active({ typefilter: 'qmclone' });
    expect(r.status).toBe(200);
    const [entry] = r.body.data as Record<string, unknown>[];
    expect(entry).toMatchObject({ upid, status: 'RUNNING' });
    expect(entry).not.toHaveProperty('endtime');
    expect(listedRunning(entry as never)).toBe(true);
  });

  it('keeps listing tasks that ended, failed or not, with their exit status and end time', async () => {
    await h.control('POST', '/faults', { op: 'clone', mode: 'task_fail', message: 'clone failed: out of space' });
    const failed = await h.client.guests.clone('pve1', 9000, { newid: 501, name: 'x' });
    await h.wait(failed).catch(() => undefined);
    const ok = await h.client.guests.clone('pve1', 9000, { newid: 502, name: 'y' });
    await h.wait(ok);
    const entries = (await active({ typefilter: 'qmclone', vmid: '9000' })).body.data as Record<string, unknown>[];
    expect(entries.map((e) => [e.upid, e.status])).toEqual([
      [ok, 'OK'],
      [failed, 'clone failed: out of space'],
    ]);
    for (const e of entries) {
      expect(e.endtime).toEqual(expect.any(Number));
      expect(listedRunning(e as never)).toBe(false);
    }
  });

  it('drops ended tasks once newer ones push them out of the active file; the archive keeps them', async () => {
    const first = await h.client.guests.clone('pve1', 9000, { newid: 503, name: 'x' });
    await h.wait(first);
    for (const cores of [2, 3, 4]) {
      const upid = await h.client.guestConfig.set('pve1', 503, { cores });
      if (upid) await h.wait(upid);
    }
    const upids = ((await active()).body.data as { upid: string }[]).map((e) => e.upid);
    expect(upids).toHaveLength(3);
    expect(upids).not.toContain(first);
    const archive = (await h.api('GET', '/nodes/pve1/tasks', { source: 'archive' })).body.data as { upid: string }[];
    expect(archive.map((e) => e.upid)).toContain(first);
  });
});
