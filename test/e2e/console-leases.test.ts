import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { consoleSlotsHeld } from '../../src/db/console-sessions';
import { runHousekeeping } from '../../src/db/housekeeping';
import { consoleOffer } from '../support/console-client';
import { connectConsole } from '../support/console-socket';
import { runningServer } from '../support/lifecycle';
import { spawnAppProcess, type AppProcess } from '../support/processes';
import { startStack, type Stack } from '../support/stack';

const LEASE_SECONDS = 3;

/**
 * A console's slot is held only while an API process relays it: a process that dies with consoles
 * open (killed, crashed, its host lost) frees their slots within one lease, and the reconciler's
 * housekeeping closes them on record.
 */
describe('console slots when the relaying API process dies', () => {
  let stack: Stack;
  let api: AppProcess | undefined;
  beforeAll(async () => {
    stack = await startStack({ env: { CONSOLE_LEASE_SECONDS: String(LEASE_SECONDS), CONSOLE_SESSIONS_PER_USER: '1' } });
  });
  afterAll(async () => {
    await api?.kill();
    await stack?.close();
  });

  it('a console held by a process killed with SIGKILL stops counting within one lease and is closed as relay_lost', async () => {
    const id = await runningServer(stack, { hostname: 'lease-kill' });
    api = spawnAppProcess('server', stack.api.config, { PORT: '0', LOG_LEVEL: 'info' });
    const { port } = (await api.logLine('API listening')) as { port: number };
    const offer = await consoleOffer(stack, id, 'serial');
    expect(offer.status).toBe(201);
    const url = new URL(offer.body.data.websocketUrl);
    url.host = `127.0.0.1:${port}`;
    const relayed = await connectConsole(url.toString());
    await expect.poll(() => relayed.text(), { timeout: 10_000 }).toContain('lease-kill login: ');

    // While the process lives, its lease is renewed past its first term: the one slot stays taken.
    await new Promise((resolve) => setTimeout(resolve, LEASE_SECONDS * 1000 + 500));
    expect(await consoleSlotsHeld(stack.api.db, { userId: stack.customer.userId })).toBe(1);
    expect((await consoleOffer(stack, id, 'serial')).body.error?.code).toBe('CONSOLE_LIMIT');

        await api.kill();
    await relayed.closed;
    await expect.poll(() => consoleSlotsHeld(stack.api.db, { userId: stack.customer.userId }), { timeout: LEASE_SECONDS * 1000 + 2_000, interval: 100 }).toBe(0);
    const next = await consoleOffer(stack, id, 'serial');
    expect(next.status).toBe(201);

    const result = await runHousekeeping(stack.api.db, new Date(), 24);
    expect(result.consolesLost).toBe(1);
    const lost = await stack.api.db.consoleSession.findMany({ where: { instanceId: id, closeReason: 'relay_lost' } });
    expect(lost).toHaveLength(1);
    expect(lost[0]!.endedAt!.getTime()).toBeLessThanOrEqual(Date.now());
    const closed = await stack.api.db.auditEvent.findMany({ where: { instanceId: id, action: 'console.closed' } });
    expect(closed.map((e) => (e.details as { reason: string }).reason)).toEqual(['relay_lost']);
    // Housekeeping again finds nothing more to close.
    expect((await runHousekeeping(stack.api.db, new Date(), 24)).consolesLost).toBe(0);
  });
});
