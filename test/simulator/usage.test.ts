/**
 * A guest's usage as an outside client reads it: `netin`/`netout` counters that count from the
 * start of its QEMU process, at the rate a test sets and no faster than its NICs' `rate` allows,
 * and `rrddata` in the layout of each Proxmox VE release, kept per VMID beyond the guest's life.
 *
 * The simulator's clock is frozen (only `Date` is faked) and moved by the tests, so counters and
 * points read exactly.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { PVE_VERSIONS, type PveVersion } from '../../src/simulator';
import { useSim, type SimHarness } from './support';

/** A point, a status or a resource entry: numbers by name (a point's measured values may be absent). */
type Point = Record<string, number> & { time: number; netin: number; netout: number; uptime: number; pid: number; cpu: number; maxmem: number };

/** Midnight UTC after the real now: every step boundary lines up with it. */
const START = Math.ceil(Date.now() / 86_400_000) * 86_400_000;
let now = START;
const at = (ms: number) => {
  now = ms;
  vi.setSystemTime(ms);
};
const pass = (seconds: number) => at(now + seconds * 1000);

function frozenClock(): void {
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ['Date'] });
    at(START);
  });
  afterEach(() => {
    vi.useRealTimers();
  });
}

function readers(h: SimHarness) {
  const ok = async (method: string, path: string, params?: Record<string, string>) => {
    const answer = await h.api(method, path, params);
    expect(answer.status, `${method} ${path}: ${answer.statusText}`).toBe(200);
    return answer.body.data;
  };
  return {
    ok,
    status: async (vmid: number, node = 'pve1') => (await ok('GET', `/nodes/${node}/qemu/${vmid}/status/current`)) as Point,
    listed: async (vmid: number) => ((await ok('GET', '/cluster/resources', { type: 'vm' })) as Point[]).find((r) => r.vmid === vmid) as Point,
    usage: async (vmid: number, timeframe: string, cf = 'AVERAGE', node = 'pve1') => (await ok('GET', `/nodes/${node}/qemu/${vmid}/rrddata`, { timeframe, cf })) as Point[],
    running: async (vmid: number, node = 'pve1', template = 9000) => {
      await h.wait(await h.client.guests.clone(node, template, { newid: vmid, name: `vm-${vmid}` }));
      await h.wait(await h.client.guests.start(node, vmid));
    },
    traffic: (vmid: number, inBytesPerSecond: number, outBytesPerSecond: number) => h.control('POST', `/guests/${vmid}/traffic`, { inBytesPerSecond, outBytesPerSecond }),
  };
}

describe('traffic counters', () => {
  const h = useSim();
  const { ok, status, listed, usage, running, traffic } = readers(h);
  frozenClock();

  it('grow at the rate a test sets, alike in status/current and /cluster/resources, and rrddata shows that rate', async () => {
    await running(170);
    await traffic(170, 2_000, 500);
    pass(150);
    expect(await status(170)).toMatchObject({ netin: 300_000, netout: 75_000, uptime: 150 });
    expect(await listed(170)).toMatchObject({ netin: 300_000, netout: 75_000 });
    await traffic(170, 8_000, 0);
    pass(30);
    expect(await status(170)).toMatchObject({ netin: 540_000, netout: 75_000 });

    // the minutes measured at 2,000/500: both consolidations, as the counters grew
    for (const cf of ['AVERAGE', 'MAX']) {
      const points = await usage(170, 'hour', cf);
      expect(points.find((p) => p.time === START / 1000 + 60)).toMatchObject({ netin: 2_000, netout: 500 });
      expect(points.find((p) => p.time === START / 1000 + 120)).toMatchObject({ netin: 2_000, netout: 500 });
    }
  });

  it("follow the day by default, and rrddata's rate times its step is what the counters grew by", async () => {
    await running(171);
    pass(3_600);
    const before = (await status(171)).netin;
    expect(before).toBeGreaterThan(0.4 * 1_536 * 3_600);
    expect(before).toBeLessThan(1.6 * 1_536 * 3_600);
    pass(60);
    const after = await status(171);
    const point = (await usage(171, 'hour')).at(-1)!;
    expect(point.time).toBe(now / 1000);
    expect(Math.abs(point.netin! * 60 - (after.netin! - before))).toBeLessThanOrEqual(1);
    await h.control('DELETE', '/guests/171/traffic');
    expect((await h.control<{ guests: { vmid: number; traffic: unknown }[] }>('GET', '/state')).guests.find((g) => g.vmid === 171)?.traffic).toBeNull();
  });

  it('are zero while stopped and count from zero under each new QEMU process: start, reboot, live migration, restore', async () => {
    await running(172);
    await traffic(172, 1_000, 1_000);
    pass(100);
    expect((await status(172)).netin).toBe(100_000);

    // a config change that leaves the NICs alone keeps counting
    await h.client.guestConfig.setSync('pve1', 172, { description: 'still counting' });
    pass(10);
    expect((await status(172)).netin).toBe(110_000);

    const pidBefore = (await status(172)).pid;
    await h.wait(await h.client.guests.reboot('pve1', 172));
    const rebooted = await status(172);
    expect([rebooted.netin, rebooted.uptime]).toEqual([0, 0]);
    expect(rebooted.pid).not.toBe(pidBefore);
    pass(20);
    expect((await status(172)).netin).toBe(20_000);

    await h.wait(await h.client.guests.stop('pve1', 172));
    expect(await status(172)).toMatchObject({ netin: 0, netout: 0 });
    pass(20);
    expect(await listed(172)).toMatchObject({ netin: 0, netout: 0 });
    await h.wait(await h.client.guests.start('pve1', 172));
    pass(5);
    expect((await status(172)).netin).toBe(5_000);

    await h.wait(await h.client.guests.migrate('pve1', 172, { target: 'pve2', online: true, withLocalDisks: true }));
    expect(await status(172, 'pve2')).toMatchObject({ netin: 0, uptime: 0 });
    pass(7);
    expect((await status(172, 'pve2')).netin).toBe(7_000);

    await h.wait(await h.client.backups.create('pve2', 172, { storage: 'local' }));
    await h.wait(await h.client.guests.stop('pve2', 172));
    const [archive] = await h.client.backups.list('pve2', 'local', 172);
    await h.wait(await h.client.backups.restore('pve2', 172, { archive: archive!.volid, force: true, start: true }));
    expect((await status(172, 'pve2')).netin).toBe(0);
    pass(3);
    expect((await status(172, 'pve2')).netin).toBe(3_000);
  });

  it("are held to a NIC's rate (megabytes per second), which a config write changes at once", async () => {
    await running(173);
    await traffic(173, 10 * 1024 ** 2, 2 * 1024 ** 2);
    const net0 = String(((await ok('GET', '/nodes/pve1/qemu/173/config')) as Record<string, unknown>).net0);
    await h.client.guestConfig.setSync('pve1', 173, { net0: `${net0},rate=0.5` });
    pass(10);
    expect(await status(173)).toMatchObject({ netin: 10 * 524_288, netout: 10 * 524_288 });

    // the cap lifted: the whole demand flows again
    await h.client.guestConfig.setSync('pve1', 173, { net0 });
    pass(10);
    expect(await status(173)).toMatchObject({ netin: 10 * 524_288 + 10 * 10 * 1024 ** 2, netout: 10 * 524_288 + 10 * 2 * 1024 ** 2 });
    pass(40);
    expect((await usage(173, 'hour')).at(-1)).toMatchObject({ time: START / 1000 + 60, netin: (10 * 524_288 + 50 * 10 * 1024 ** 2) / 60 });

    // two NICs share the demand, each held to its own cap
    await h.client.guestConfig.setSync('pve1', 173, { net0: `${net0},rate=1`, net1: 'virtio,bridge=vmbr0' });
    const counted = (await status(173)).netin;
    pass(10);
    expect((await status(173)).netin - counted).toBe(10 * (1024 ** 2 + 5 * 1024 ** 2));
  });

  it('no NIC, no traffic; the control API refuses what is not a rate, and a guest that does not exist', async () => {
    await running(174);
    await h.client.guestConfig.setSync('pve1', 174, { delete: 'net0' });
    await traffic(174, 1_000, 1_000);
    pass(10);
    expect((await status(174)).netin).toBe(0);
    const refused = await fetch(`${h.server.url}/_sim/guests/174/traffic`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ inBytesPerSecond: -1, outBytesPerSecond: 0 }) });
    expect(refused.status).toBe(400);
    const missing = await fetch(`${h.server.url}/_sim/guests/999/traffic`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ inBytesPerSecond: 1, outBytesPerSecond: 1 }) });
    expect(missing.status).toBe(404);
  });
});

describe('usage history per VMID', () => {
  const h = useSim();
  const { ok, usage, running, traffic } = readers(h);
  frozenClock();

  it("outlives its guest: a new guest on the reused VMID serves the old one's points until an operator removes the file", async () => {
    await running(180);
    await traffic(180, 3_000, 1_000);
    pass(600);
    await h.wait(await h.client.guests.stop('pve1', 180));
    await h.wait(await h.client.guests.delete('pve1', 180));
    pass(300);

    // the VMID's database still answers, from any node
    const afterDestroy = await usage(180, 'hour', 'AVERAGE', 'pve2');
    const measured = afterDestroy.filter((p) => p.netin !== undefined);
    expect(measured).toHaveLength(10);
    expect(measured.every((p) => p.netin === 3_000 && p.netout === 1_000 && p.maxmem === 1024 ** 3)).toBe(true);
    // no guest since: the newest step is empty and left off
    expect(afterDestroy).toHaveLength(59);

    await h.wait(await h.client.guests.clone('pve2', 9010, { newid: 180, name: 'someone-else' }));
    pass(120);
    const reused = await usage(180, 'hour', 'AVERAGE', 'pve2');
    expect(reused.filter((p) => p.netin === 3_000)).toHaveLength(10);
    expect(reused.at(-1)).toEqual({ time: now / 1000, maxcpu: 1, maxmem: 1024 ** 3, maxdisk: 4 * 1024 ** 3, disk: 0 });

    expect(await h.control('DELETE', '/rrd/180')).toEqual({ dropped: 180 });
    pass(60);
    const fresh = await usage(180, 'hour', 'AVERAGE', 'pve2');
    expect(fresh.filter((p) => p.netin !== undefined)).toEqual([]);
    expect(fresh.filter((p) => p.maxmem !== undefined).map((p) => p.time)).toEqual([now / 1000]);
  });

  it('checks the time frame against the schema', async () => {
    const wrong = await h.api('GET', '/nodes/pve1/qemu/9000/rrddata', { timeframe: 'minute' });
    expect(wrong.status).toBe(400);
    expect(wrong.body.errors).toMatchObject({ timeframe: expect.stringContaining('enumeration') });
  });

  it('is an RRD error for a VMID that never had a guest', async () => {
    const answer = await h.api('GET', '/nodes/pve1/qemu/4242/rrddata', { timeframe: 'hour' });
    expect([answer.status, answer.statusText]).toEqual([
      500,
      "RRD error: rrdcached@unix:/var/run/rrdcached.sock: rrd_fetch_r failed: opening '/var/lib/rrdcached/db/pve-vm-9.0/4242': No such file or directory",
    ]);
    expect((await fetch(`${h.server.url}/_sim/rrd/4242`, { method: 'DELETE' })).status).toBe(404);
    await ok('GET', '/version');
  });
});

/** The layout of PVE::RRD per release: [timeframe, step seconds, points]. */
const LAYOUTS: Record<PveVersion, [string, number, number][]> = {
  '8.4.5': [
    ['hour', 60, 70],
    ['day', 1_800, 70],
    ['week', 10_800, 70],
    ['month', 43_200, 70],
    ['year', 604_800, 70],
  ],
  '9.2.3': [
    ['hour', 60, 60],
    ['day', 60, 1_440],
    ['week', 1_800, 336],
    ['month', 1_800, 1_440],
    ['year', 21_600, 1_440],
  ],
};

describe.each(PVE_VERSIONS)('rrddata of a %s simulator', (version) => {
  const h = useSim({ pveVersion: version });
  const { usage, running } = readers(h);
  frozenClock();
  const nine = version.startsWith('9.');

  it('has the points and steps of each time frame, MAX the highest minute of each step', async () => {
    await running(190);
    await h.control('PUT', '/guests/190/uptime', { seconds: 370 * 86_400 });
    const upSince = START / 1000 - 370 * 86_400;
    pass(90);
    for (const [timeframe, step, count] of LAYOUTS[version]) {
      const average = await usage(190, timeframe);
      const max = await usage(190, timeframe, 'MAX');
      const newest = Math.floor(now / 1000 / step) * step;
      expect(average.map((p) => p.time), timeframe).toEqual(Array.from({ length: count }, (_, i) => newest - (count - 1 - i) * step));
      expect(max.map((p) => p.time)).toEqual(average.map((p) => p.time));
      for (const [i, point] of average.entries()) {
        // steps from before the guest's year and more began hold nothing (8.x's year reaches back 490 days)
        if (point.time - step < upSince) continue;
        expect(Object.keys(point).sort(), timeframe).toEqual(
          [
            'time', 'maxcpu', 'cpu', 'maxmem', 'mem', 'maxdisk', 'disk', 'netin', 'netout', 'diskread', 'diskwrite',
            ...(nine ? ['memhost', 'pressurecpusome', 'pressurecpufull', 'pressureiosome', 'pressureiofull', 'pressurememorysome', 'pressurememoryfull'] : []),
          ].sort(),
        );
        for (const field of ['cpu', 'mem', 'netin', 'netout', 'diskread', 'diskwrite']) {
          if (step === 60) expect(max[i]![field], `${timeframe} ${field}`).toBe(point[field]);
          else expect(max[i]![field], `${timeframe} ${field}`).toBeGreaterThanOrEqual(point[field]!);
        }
      }
    }
  });

  it('knows the size of a stopped guest but not its usage, and nothing of a step it mostly did not exist in', async () => {
    await running(191);
    await h.control('PUT', '/guests/191/uptime', { seconds: 3_600 });
    await h.wait(await h.client.guests.stop('pve1', 191));
    pass(300);
    const points = await usage(191, 'hour');
    expect(points).toHaveLength(nine ? 60 : 70);
    const stopped = points.slice(-5);
    for (const point of stopped) expect(point).toEqual({ time: point.time, maxcpu: 1, maxmem: 1024 ** 3, maxdisk: 4 * 1024 ** 3, disk: 0 });
    const ran = points.slice(0, -5).filter((p) => p.time > START / 1000 - 3_600);
    expect(ran.every((p) => p.cpu > 0 && p.netin > 0)).toBe(true);
    expect(points.filter((p) => p.time <= START / 1000 - 3_600).every((p) => Object.keys(p).length === 1)).toBe(true);
  });
});
