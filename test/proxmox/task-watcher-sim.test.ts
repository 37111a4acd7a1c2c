import { describe, expect, it } from 'vitest';
import { ProxmoxTaskError, type ProxmoxTaskResult } from '../../src/proxmox';
import { useSim } from '../simulator/support';

const h = useSim();

const LIST = 'GET /nodes/{node}/tasks';
const STATUS = 'GET /nodes/{node}/tasks/{upid}/status';

/** Status reads per UPID since the last reset of the simulator's records. */
function statusReadsByUpid(): Map<string, number> {
  const reads = new Map<string, number>();
  for (const r of h.sim.requests.filter((x) => `${x.method} ${x.template}` === STATUS)) {
    const upid = decodeURIComponent(r.path.split('/')[4] as string);
    reads.set(upid, (reads.get(upid) ?? 0) + 1);
  }
  return reads;
}

/** Guests 200…(200 + count - 1), cloned and waited for at the simulator's 5 ms task time. */
async function cloneGuests(count: number): Promise<number[]> {
  const vmids = Array.from({ length: count }, (_, i) => 200 + i);
  await Promise.all(vmids.map(async (vmid) => h.wait(await h.client.guests.clone('pve1', 9000, { newid: vmid, name: `g${vmid}` }))));
  return vmids;
}

describe('the node task watcher against the simulator', () => {
  it('settles 20 concurrent tasks of varied lengths on one node with their own exit status, reading each task status once', async () => {
    const guests = await cloneGuests(15);
    const running = guests.at(-1) as number;
    await h.wait(await h.client.guests.start('pve1', running));
    await h.control('POST', '/options', { taskMsByType: { qmclone: 600, qmstart: 300, qmconfig: 50, resize: 150 } });
    h.sim.faults.add({ op: 'resize', mode: 'task_warnings', warnings: 2, count: 1 });
    h.sim.requests.length = 0;
    h.sim.calls.clear();

    const started: { label: string; upid: string }[] = [];
    for (const vmid of guests.slice(0, 5)) started.push({ label: 'OK', upid: (await h.client.guestConfig.set('pve1', vmid, { cores: 2 })) as string });
    for (const [i, vmid] of guests.slice(5, 10).entries()) {
      started.push({ label: i === 0 ? 'WARNINGS: 2' : 'OK', upid: (await h.client.guestConfig.resizeDisk('pve1', vmid, 'scsi0', 40)) as string });
    }
    for (const vmid of guests.slice(10, 15)) {
      started.push({ label: vmid === running ? `VM ${running} already running` : 'OK', upid: await h.client.guests.start('pve1', vmid) });
    }
    for (const vmid of [215, 216, 217, 218, 219]) started.push({ label: 'OK', upid: await h.client.guests.clone('pve1', 9000, { newid: vmid, name: `n${vmid}` }) });

    const outcomes = await Promise.all(
      started.map(({ upid }) => h.client.tasks.wait(upid, { pollIntervalMs: 500 }).catch((e: unknown) => e as ProxmoxTaskError)),
    );

    expect(outcomes.map((o) => (o as ProxmoxTaskResult | ProxmoxTaskError).exitstatus)).toEqual(started.map((s) => s.label));
    expect(outcomes.filter((o) => o instanceof ProxmoxTaskError)).toEqual([expect.objectContaining({ upid: started[14]?.upid, isAlreadyRunning: true })]);
    // one authoritative read per task, when the node's list stopped showing it running
    expect([...statusReadsByUpid().entries()].sort()).toEqual(started.map((s) => [s.upid, 1]).sort());
    expect(h.sim.calls.get(LIST)).toBeGreaterThan(0);
  });

  it('lets a status read that never answers hold up only its own task, which is still told it is watched', async () => {
    const [configured, startedA, startedB] = await cloneGuests(3);
    await h.control('POST', '/options', { taskMsByType: { qmconfig: 20, qmstart: 400 } });
    // The first status read to come is the config task's (it ends first): it is never answered.
    h.sim.faults.add({ op: 'task', mode: 'timeout' });
    const upids = [
      (await h.client.guestConfig.set('pve1', configured as number, { cores: 2 })) as string,
      await h.client.guests.start('pve1', startedA as number),
      await h.client.guests.start('pve1', startedB as number),
    ];
    const settledAt = new Map<string, number>();
    const polledAt = new Map<string, number[]>(upids.map((u) => [u, []]));
    const outcomes = await Promise.all(
      upids.map((upid) =>
        h.client
          .tasks.wait(upid, { pollIntervalMs: 500, timeoutMs: 8_000, readTimeoutMs: 1_500, onPoll: () => polledAt.get(upid)?.push(Date.now()) })
          .finally(() => settledAt.set(upid, Date.now())),
      ),
    );

    expect(outcomes.map((o) => o.exitstatus)).toEqual(['OK', 'OK', 'OK']);
    expect(h.sim.faults.list()).toEqual([]);
    const [held, ...others] = upids as [string, string, string];
    // Both starts end while the config task's read is held, and its wait is settled only after that read is given up.
    const othersDone = Math.max(...others.map((u) => settledAt.get(u) as number));
    expect(othersDone).toBeLessThan(settledAt.get(held) as number);
    // Meanwhile its wait went on being told it is watched (what heartbeats its activity).
    expect(polledAt.get(held)?.filter((t) => t > othersDone).length).toBeGreaterThan(1);
  });

  it('gives up a task list read that never answers and tells every wait it is still watched', async () => {
    await h.control('POST', '/options', { taskMsByType: { qmclone: 1_500 } });
    const upids = [
      await h.client.guests.clone('pve1', 9000, { newid: 230, name: 'slow-a' }),
      await h.client.guests.clone('pve1', 9000, { newid: 231, name: 'slow-b' }),
    ];
    h.sim.faults.add({ op: 'any', call: LIST, mode: 'timeout', count: 3 });
    const polledAt = new Map<string, number[]>(upids.map((u) => [u, [Date.now()]]));
    const outcomes = await Promise.all(
      upids.map((upid) =>
        h.client.tasks.wait(upid, { pollIntervalMs: 500, readTimeoutMs: 200, onPoll: () => polledAt.get(upid)?.push(Date.now()) }),
      ),
    );

    expect(outcomes.map((o) => o.exitstatus)).toEqual(['OK', 'OK']);
    expect(h.sim.faults.list()).toEqual([]);
    for (const times of polledAt.values()) {
      const longestGap = Math.max(...times.slice(1).map((t, i) => t - (times[i] as number)));
      // Three held list reads in a row, each given up after its 200 ms: never as long as one client request timeout (2 s).
      expect(longestGap).toBeLessThan(1_500);
    }
  });

  it('falls back to reading each task on its own when Proxmox refuses the task list', async () => {
    h.sim.faults.add({ op: 'any', call: LIST, mode: 'http500', message: 'Permission check failed (/nodes/pve1, Sys.Audit)', count: 100 });
    await h.control('POST', '/options', { taskMsByType: { qmclone: 200 } });
    const upid = await h.client.guests.clone('pve1', 9000, { newid: 220, name: 'refused' });
    expect(await h.client.tasks.wait(upid, { pollIntervalMs: 500 })).toMatchObject({ exitstatus: 'OK' });
    expect(h.sim.calls.get(LIST)).toBe(1);
    expect(statusReadsByUpid().get(upid)).toBeGreaterThan(1);
  });
});
