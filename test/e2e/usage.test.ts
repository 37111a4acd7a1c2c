/**
 * A server's usage graphs: read from Proxmox VE's rrddata through the customer API, without a
 * provider coordinate in sight, shared between the viewers of a few seconds (one Proxmox read
 * however many ask at once), null while the server was not running, and a clear 503 when Proxmox
 * cannot be read.
 */
import { describe, expect, it } from 'vitest';
import { ProxmoxClient } from '../../src/proxmox';
import { parseToken } from '../../src/simulator/server';
import { LEAST_PRIVILEGE_SIM_TOKEN } from '../../src/simulator/spec';
import { callCount, guestOf, operate, runningServer, serverUpFor, suiteStack, taskEnd } from '../support/lifecycle';

const RRDDATA = 'GET /nodes/{node}/qemu/{vmid}/rrddata';
const { tokenId, secret } = parseToken(LEAST_PRIVILEGE_SIM_TOKEN);
/** The simulator's token as an operator working outside this service would use it. */
const simToken = { tokenId, tokenSecret: secret };

describe('usage graphs', () => {
  const stack = suiteStack();
  const usage = (id: string, timeframe?: string, token = stack.customer.token) =>
    stack.api.request('GET', `/v1/instances/${id}/metrics${timeframe ? `?timeframe=${timeframe}` : ''}`, { token });

  it("answers a running server's hour, day and week; a page full of viewers costs one Proxmox read per time frame", async () => {
    const id = await runningServer(stack, { hostname: 'graphs-1' });
    await serverUpFor(stack, id, 3 * 86_400);
    const before = await callCount(stack, RRDDATA);
    const viewers = await Promise.all(Array.from({ length: 20 }, () => usage(id)));
    expect(viewers.map((answer) => answer.status)).toEqual(Array(20).fill(200));
    expect(await callCount(stack, RRDDATA)).toBe(before + 1);
    expect(new Set(viewers.map((answer) => JSON.stringify(answer.body))).size).toBe(1);

    const hour = viewers[0]!.body.data;
    expect(hour).toMatchObject({ timeframe: 'hour', stepSeconds: 60 });
    // Proxmox VE 9 keeps the hour in 60 points
    expect(hour.points).toHaveLength(60);
    for (const point of hour.points) {
      expect(point.cpu).toBeGreaterThan(0);
      expect(point.cpu).toBeLessThanOrEqual(1);
      expect(point.memoryBytes).toBeLessThan(point.memoryTotalBytes);
      expect(point.memoryTotalBytes).toBe(1024 ** 3);
      for (const rate of ['netInBytesPerSecond', 'netOutBytesPerSecond', 'diskReadBytesPerSecond', 'diskWriteBytesPerSecond']) expect(point[rate]).toBeGreaterThan(0);
    }
    expect(Date.parse(hour.points[1].time) - Date.parse(hour.points[0].time)).toBe(60_000);
    // Nothing of Proxmox: no node, VMID or provider field names.
    expect(JSON.stringify(viewers[0]!.body)).not.toMatch(/pve\d|vmid|"node|"maxmem"|"netin"/i);

    const [day, week] = await Promise.all([usage(id, 'day'), usage(id, 'week')]);
    expect([day.body.data.stepSeconds, week.body.data.stepSeconds]).toEqual([60, 1_800]);
    expect([day.body.data.points.length, week.body.data.points.length]).toEqual([1_440, 336]);
    expect(await callCount(stack, RRDDATA)).toBe(before + 3);
    // Up for three days: the whole day is measured, the week only since the start.
    expect(day.body.data.points.every((point: { cpu: number | null }) => point.cpu !== null)).toBe(true);
    expect(week.body.data.points.filter((point: { cpu: number | null }) => point.cpu === null).length).toBeGreaterThan(40);
  });

  it('shows nothing measured for a stopped server, nothing at all for one without a guest, and another tenant’s is not found', async () => {
    const id = await runningServer(stack, { hostname: 'graphs-2' });
    expect((await taskEnd(stack, (await operate(stack, id, 'stop')).body.meta.taskId)).status).toBe('succeeded');
    const stopped = await usage(id, 'week');
    expect(stopped.status).toBe(200);
    // a week in half hours, the newest (with nothing measured in it) left off
    expect(stopped.body.data).toMatchObject({ stepSeconds: 1_800, points: expect.any(Array) });
    expect(stopped.body.data.points).toHaveLength(335);
    expect(stopped.body.data.points.every((point: Record<string, unknown>) => Object.entries(point).every(([key, value]) => key === 'time' || value === null))).toBe(true);

    const other = await stack.api.createCustomer();
    expect((await usage(id, 'hour', other.token)).status).toBe(404);
    expect((await usage('ins_nothing', 'hour')).status).toBe(404);
  });

  it("shows a server on a reused VMID nothing of the VMID's earlier server, which Proxmox still keeps", async () => {
    const first = await runningServer(stack, { hostname: 'graphs-earlier' });
    await serverUpFor(stack, first, 3 * 86_400);
    const { vmid, node } = (await guestOf(stack, first))!;
    expect((await taskEnd(stack, (await operate(stack, first, 'delete')).body.meta.taskId)).status).toBe('succeeded');

    // No cooldown in tests: the next server takes the VMID at once.
    const second = await runningServer(stack, { hostname: 'graphs-later' });
    expect((await guestOf(stack, second))!.vmid).toBe(vmid);
    const createdAt = Date.parse((await stack.api.db.instance.findUniqueOrThrow({ where: { id: second } })).createdAt.toISOString());
    const outside = new ProxmoxClient({ baseUrl: stack.sim.url, ...simToken, plaintextLab: true });
    try {
      for (const timeframe of ['hour', 'day', 'week'] as const) {
        // Proxmox's own answer still holds the earlier server's usage on this VMID...
        const kept = await outside.guests.usage(node, vmid, timeframe);
        expect(kept.filter((point) => point.cpu !== undefined && point.time * 1000 < createdAt).length, timeframe).toBeGreaterThan(0);
        // ...and the later server is shown none of it: every point that averages a moment before it was created is blank.
        const shown = (await usage(second, timeframe)).body.data;
        expect(shown.points.length, timeframe).toBe(kept.length);
        const before = shown.points.filter((point: { time: string }) => Date.parse(point.time) - shown.stepSeconds * 1000 < createdAt);
        expect(before.length, timeframe).toBeGreaterThan(0);
        for (const point of before) expect(Object.entries(point).filter(([key, value]) => key !== 'time' && value !== null), `${timeframe} ${point.time}`).toEqual([]);
      }
    } finally {
      outside.close();
    }
  });

  it('refuses an unknown time frame with the field named', async () => {
    const id = await runningServer(stack, { hostname: 'graphs-3' });
    const answer = await usage(id, 'month');
    expect(answer.status).toBe(400);
    expect(answer.body.error).toMatchObject({ code: 'INVALID_INPUT', details: { fields: { timeframe: expect.any(String) } } });
  });

  it('answers 503 PROVIDER_UNAVAILABLE without Proxmox’s words when the read fails, and reads again on the next request', async () => {
    const id = await runningServer(stack, { hostname: 'graphs-4' });
    await stack.sim.fault({ op: 'any', call: RRDDATA, mode: 'http500', count: 10, message: 'rrd cache daemon on pve1 is gone' });
    const failed = await usage(id, 'day');
    expect(failed.status).toBe(503);
    expect(failed.body.error.code).toBe('PROVIDER_UNAVAILABLE');
    expect(JSON.stringify(failed.body)).not.toMatch(/rrd|pve1/);
    await stack.sim.clearFaults();
    const again = await usage(id, 'day');
    expect(again.status).toBe(200);
    // a day a minute apart; the newest minute is left off while the new server has not lived half of it
    expect(again.body.data.stepSeconds).toBe(60);
    expect(again.body.data.points.length).toBeGreaterThanOrEqual(1_439);
  });
});
