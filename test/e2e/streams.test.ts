import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApi, type TestApi } from '../support/api';
import { openEventStream, type EventStream } from '../support/processes';
import { FAST_ENV, startStack, type Stack } from '../support/stack';

const STREAM_ENV = { EVENT_STREAMS_PER_TOKEN: '2', EVENT_STREAM_HEARTBEAT_SECONDS: '1' };
const closeEvent = (text: string) => /event: close\ndata: (.*)\n\n/.exec(text)?.[1];

/**
 * Event streams are held open by API replicas for as long as a task runs: they are limited per
 * token across replicas, end after a maximum duration, keep quiet connections alive, and always
 * say why they end.
 */
describe('event streams', () => {
  let stack: Stack;
  /** A second API replica on the same database. */
  let replica: TestApi;
  /** A replica whose streams last one second. */
  let shortLived: TestApi;
  const open: EventStream[] = [];
  beforeAll(async () => {
    stack = await startStack({ worker: false, env: STREAM_ENV });
    replica = await startTestApi({ database: stack.api.database, env: { ...FAST_ENV, ...STREAM_ENV } });
    shortLived = await startTestApi({ database: stack.api.database, env: { ...FAST_ENV, ...STREAM_ENV, EVENT_STREAM_MAX_SECONDS: '2' } });
  });
  afterAll(async () => {
    for (const stream of open) await stream.cancel();
    await shortLived?.close();
    await replica?.close();
    await stack?.close();
  });

  const follow = async (api: TestApi, id: string, token = stack.customer.token, headers: Record<string, string> = {}) => {
    const stream = await openEventStream(`${api.baseUrl}/v1/instances/${id}/events`, token, headers);
    open.push(stream);
    return stream;
  };
  /** A server whose provision waits for a worker that is not there yet: its stream stays open. */
  const provisioning = async (hostname: string) => (await stack.create({ hostname })).body.data.id as string;

  it('allows EVENT_STREAMS_PER_TOKEN streams per token across replicas; the next is 429 with Retry-After until one closes', async () => {
    const id = await provisioning('watched');
    const first = await follow(stack.api, id);
    const second = await follow(replica, id);
    expect([first.status, second.status]).toEqual([200, 200]);
    expect(first.headers.get('cache-control')).toContain('no-store');

    const third = await stack.api.request('GET', `/v1/instances/${id}/events`, { token: stack.customer.token });
    expect(third.status).toBe(429);
    expect(third.body.error.code).toBe('RATE_LIMITED');
    expect(Number(third.headers.get('retry-after'))).toBeGreaterThan(0);
    // Counted per token: another token (the admin's) is not affected.
    const admins = await follow(replica, id, stack.api.adminToken);
    expect(admins.status).toBe(200);

    await second.cancel();
    await expect.poll(() => stack.api.db.eventStreamLease.count(), { timeout: 10_000 }).toBe(2);
    const again = await follow(stack.api, id);
    expect(again.status).toBe(200);
    await Promise.all([first.cancel(), again.cancel(), admins.cancel()]);
  });

  it('sends ": ping" comments, ends after EVENT_STREAM_MAX_SECONDS with reason max_duration, and resumes after Last-Event-ID', async () => {
    const id = await provisioning('long-watch');
    const stream = await follow(shortLived, id);
    await stream.ended;
    const text = stream.text();
    expect(text).toContain(': ping\n\n');
    expect(JSON.parse(closeEvent(text)!)).toEqual({ reason: 'max_duration' });
    const ids = [...text.matchAll(/^id: (\d+)$/gm)].map((m) => m[1]!);
    expect(ids.length).toBeGreaterThan(0);

    const resumed = await follow(stack.api, id, stack.customer.token, { 'last-event-id': ids[ids.length - 1]! });
    await resumed.until((t) => t.includes(': ping'));
    expect(resumed.text()).not.toMatch(/^id: /m);
    await resumed.cancel();
  });

  it('ends with the task (reason task_ended and its status), and says so when the server parks for an operator (reason parked)', async () => {
    await stack.startWorker();
    const done = await provisioning('followed');
    const ended = await follow(stack.api, done);
    await ended.ended;
    expect(JSON.parse(closeEvent(ended.text())!)).toEqual({ reason: 'task_ended', status: 'succeeded' });
    // The earlier tests' provisions run now too: the fault below is for the next one alone.
    await expect.poll(() => stack.api.db.instance.count({ where: { status: { in: ['pending', 'scheduling', 'provisioning'] } } }), { timeout: 60_000 }).toBe(0);

    await stack.sim.fault({ op: 'start', mode: 'task_fail' });
    await stack.sim.fault({ op: 'destroy', mode: 'http500', count: 10_000, message: 'cfs-lock timeout' });
    const parks = await provisioning('parks');
    const parked = await follow(stack.api, parks);
    await parked.ended;
    expect(JSON.parse(closeEvent(parked.text())!)).toEqual({ reason: 'parked', instanceStatus: 'rollback_failed' });
    await stack.sim.clearFaults();
  });
});
