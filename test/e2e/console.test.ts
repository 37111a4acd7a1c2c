/**
 * Guest consoles end to end: a one-time ticket from POST /v1/instances/{id}/console, redeemed
 * once over the API's WebSocket, which speaks plain RFB (security None) or the serial framing
 * while the API authenticates to Proxmox VE itself; every way a console ends, with its reason.
 */
import { describe, expect, it } from 'vitest';
import { CONSOLE_CLOSE_CODES } from '../../src/domain/guest-console';
import { secretBoxOf } from '../../src/security/secrets';
import { consoleOffer, requestFrame, rfbHandshake } from '../support/console-client';
import { connectConsole, type ConsoleConnection } from '../support/console-socket';
import { guestOf, runOperation, runningServer, suiteStack } from '../support/lifecycle';
import type { Stack } from '../support/stack';

async function openConsole(stack: Stack, id: string, type: 'vnc' | 'serial'): Promise<ConsoleConnection> {
  const offer = await consoleOffer(stack, id, type);
  expect(offer.status).toBe(201);
  return connectConsole(offer.body.data.websocketUrl);
}

async function serialPrompt(c: ConsoleConnection, hostname: string): Promise<void> {
  await expect.poll(() => c.text(), { timeout: 10_000 }).toContain(`${hostname} login: `);
}

const closedWith = async (c: ConsoleConnection, reason: keyof typeof CONSOLE_CLOSE_CODES) => {
  expect(await c.closed).toEqual({ code: CONSOLE_CLOSE_CODES[reason], reason });
};

describe('guest consoles', () => {
  const stack = suiteStack({ env: { CONSOLE_WATCH_SECONDS: '1' } });

  it('the screen through the proxy: RFB 3.8 with security None, the guest named after the server, a drawn screen; audited', async () => {
    const id = await runningServer(stack, { hostname: 'con-vnc' });
    const offer = await consoleOffer(stack, id, 'vnc');
    expect(offer.status).toBe(201);
    const { url, websocketUrl, expiresAt } = offer.body.data;
    expect(url).toMatch(new RegExp(`/console/vnc\\?instance=${id}#ticket=[A-Za-z0-9_-]{43}$`));
    expect(websocketUrl).toMatch(/^ws:\/\/.+\/v1\/console\/socket\?ticket=[A-Za-z0-9_-]{43}$/);
    expect(new Date(expiresAt).getTime() - Date.now()).toBeLessThanOrEqual(30_000);
    const guest = (await guestOf(stack, id))!;
    expect(JSON.stringify(offer.body)).not.toMatch(new RegExp(`pve\\d|PVEVNC|${guest.vmid}|5900`));

    const c = await connectConsole(websocketUrl);
    const init = await rfbHandshake(c);
    expect(init).toEqual({ width: 640, height: 400, name: 'con-vnc' });
    const pixels = await requestFrame(c, init.width, init.height);
    const distinct = new Set<number>();
    for (let i = 0; i < pixels.length; i += 4) distinct.add(pixels.readUInt32LE(i));
    expect(distinct.size).toBeGreaterThan(1);
    const key = Buffer.alloc(8);
    key[0] = 4;
    key[1] = 1;
    key.writeUInt32BE(0x61, 4);
    c.ws.send(key);
    await expect.poll(async () => (await stack.sim.state()).consoles.find((s) => s.vmid === guest.vmid)?.keys ?? []).toContain(0x61);
    c.ws.close();
    await c.closed;

    await expect.poll(async () => (await stack.api.db.auditEvent.findMany({ where: { instanceId: id, action: { startsWith: 'console.' } }, orderBy: { id: 'asc' } })).map((e) => [e.action, e.details])).toEqual([
      ['console.opened', { type: 'vnc' }],
      ['console.closed', { type: 'vnc', seconds: expect.any(Number), reason: 'client_closed' }],
    ]);
    const [session] = await stack.api.db.consoleSession.findMany({ where: { instanceId: id } });
    expect(session).toMatchObject({ userId: stack.customer.userId, type: 'vnc', closeReason: 'client_closed', redeemedAt: expect.any(Date), endedAt: expect.any(Date) });
    expect(session!.ticketHash).not.toContain(new URL(websocketUrl).searchParams.get('ticket'));
  });

  it('a ticket works once, and not after it expired', async () => {
    const id = await runningServer(stack, { hostname: 'con-once' });
    const offer = await consoleOffer(stack, id, 'serial');
    const url = offer.body.data.websocketUrl;
    const first = await connectConsole(url);
    await serialPrompt(first, 'con-once');
    await closedWith(await connectConsole(url), 'ticket_invalid');
    first.ws.close();

    const late = await consoleOffer(stack, id, 'serial');
    await stack.api.db.consoleSession.updateMany({ where: { instanceId: id, redeemedAt: null }, data: { expiresAt: new Date(Date.now() - 1000) } });
    await closedWith(await connectConsole(late.body.data.websocketUrl), 'ticket_invalid');
    await closedWith(await connectConsole(offer.body.data.websocketUrl.replace(/ticket=.*/, 'ticket=made-up')), 'ticket_invalid');
  });

  it('the serial line: login prompt, echo, resize frames reaching Proxmox', async () => {
    const id = await runningServer(stack, { hostname: 'con-tty' });
    const c = await openConsole(stack, id, 'serial');
    await serialPrompt(c, 'con-tty');
    c.ws.send(Buffer.from('root'));
    await expect.poll(() => c.text()).toContain('con-tty login: root');
    c.ws.send(JSON.stringify({ type: 'resize', cols: 132, rows: 43 }));
    const vmid = (await guestOf(stack, id))!.vmid;
    await expect.poll(async () => (await stack.sim.state()).consoles.find((s) => s.vmid === vmid)).toMatchObject({ typed: 'root', resizes: [{ cols: 132, rows: 43 }] });
    expect(c.text()).not.toMatch(/PVEVNC|OK/);
    c.ws.close();
  });

  it('refusals: another tenant, a stopped server, an image without a screen, the per-user cap', async () => {
    const id = await runningServer(stack, { hostname: 'con-refuse' });
    const other = await stack.api.createCustomer();
    expect((await consoleOffer(stack, id, 'vnc', other.token)).body.error.code).toBe('NOT_FOUND');

    const headless = await runningServer(stack, { hostname: 'con-headless', imageId: stack.seed.images['ubuntu-24.04'] });
    const refused = await consoleOffer(stack, headless, 'vnc');
    expect(refused.status).toBe(422);
    expect(refused.body.error).toMatchObject({ code: 'CONSOLE_TYPE_UNAVAILABLE', details: { available: 'serial' } });
    const serial = await openConsole(stack, headless, 'serial');
    await serialPrompt(serial, 'con-headless');
    serial.ws.close();
    await serial.closed;

    const offers = [];
    for (let i = 0; i < stack.api.config.CONSOLE_SESSIONS_PER_USER; i++) offers.push(await consoleOffer(stack, id, 'serial'));
    expect(offers.map((o) => o.status)).toEqual(offers.map(() => 201));
    const capped = await consoleOffer(stack, id, 'serial');
    expect(capped.status).toBe(429);
    expect(capped.body.error.code).toBe('CONSOLE_LIMIT');
    await stack.api.db.consoleSession.updateMany({ where: { userId: stack.customer.userId, redeemedAt: null }, data: { expiresAt: new Date() } });

    await runOperation(stack, id, 'stop');
    const stopped = await consoleOffer(stack, id, 'vnc');
    expect(stopped.status).toBe(409);
    expect(stopped.body.error.code).toBe('INSTANCE_NOT_RUNNING');
  });

  it('a console ends with its reason when the server stops, is migrated, rebuilt or deleted', async () => {
    const id = await runningServer(stack, { hostname: 'con-ends' });
    let c = await openConsole(stack, id, 'serial');
    await serialPrompt(c, 'con-ends');
    await runOperation(stack, id, 'stop');
    await closedWith(c, 'instance_stopped');
    await runOperation(stack, id, 'start');

    c = await openConsole(stack, id, 'vnc');
    await rfbHandshake(c);
    const node = (await guestOf(stack, id))!.node;
    await runOperation(stack, id, 'migrate', { node: node === 'pve1' ? 'pve2' : 'pve1' });
    await closedWith(c, 'instance_migrated');

    c = await openConsole(stack, id, 'serial');
    await serialPrompt(c, 'con-ends');
    await runOperation(stack, id, 'rebuild', { imageId: stack.seed.images['debian-12'] });
    await closedWith(c, 'instance_rebuilt');

    c = await openConsole(stack, id, 'serial');
    await serialPrompt(c, 'con-ends');
    await runOperation(stack, id, 'delete');
    await closedWith(c, 'instance_deleted');
  });

  it('Proxmox faults end a console as console_unavailable: listener timed out, dropped socket, expired ticket', async () => {
    const id = await runningServer(stack, { hostname: 'con-faults' });
    for (const mode of ['connection_timeout', 'drop_socket', 'ticket_expired']) {
      await stack.sim.fault({ op: 'console', mode });
      const c = await openConsole(stack, id, 'serial');
      await closedWith(c, 'console_unavailable');
    }
  });

  it('idle timeout, maximum duration and API shutdown close with their reasons', async () => {
    const id = await runningServer(stack, { hostname: 'con-limits' });
    const config = stack.api.config as { CONSOLE_IDLE_SECONDS: number; CONSOLE_MAX_SECONDS: number };
    const { CONSOLE_IDLE_SECONDS: idle, CONSOLE_MAX_SECONDS: max } = config;
    try {
      config.CONSOLE_IDLE_SECONDS = 1;
      let c = await openConsole(stack, id, 'serial');
      await closedWith(c, 'idle_timeout');
      config.CONSOLE_IDLE_SECONDS = idle;
      config.CONSOLE_MAX_SECONDS = 1;
      c = await openConsole(stack, id, 'serial');
      await closedWith(c, 'max_duration');
    } finally {
      config.CONSOLE_IDLE_SECONDS = idle;
      config.CONSOLE_MAX_SECONDS = max;
    }
    const c = await openConsole(stack, id, 'vnc');
    await rfbHandshake(c);
    await stack.api.consoles.close();
    await closedWith(c, 'shutting_down');
    expect(stack.api.consoles.open).toBe(0);
  });
});

describe('serial consoles on a cluster before Proxmox VE 9 (token-owned termproxy tickets refused)', () => {
  const stack = suiteStack({ simulator: { pveVersion: '8.4.5' } });
  const CONSOLE_PASSWORD = 'only-VM.Console-4-serial';
  const connectionUrl = () => `/v1/admin/connections/${stack.seed.connectionId}`;
  const setConsoleUser = (consoleUser: { username: string; password: string } | null) => stack.api.request('PATCH', connectionUrl(), { token: stack.api.adminToken, body: { consoleUser } });

  it('without a console user a serial console is refused with 422 CONSOLE_UNSUPPORTED; the screen works', async () => {
    const id = await runningServer(stack, { hostname: 'old-none' });
    const refused = await consoleOffer(stack, id, 'serial');
    expect(refused.status).toBe(422);
    expect(refused.body.error).toMatchObject({ code: 'CONSOLE_UNSUPPORTED', details: { available: 'vnc' } });
    const screen = await openConsole(stack, id, 'vnc');
    await rfbHandshake(screen);
    screen.ws.close();
    await screen.closed;
  });

  it('with a console user (only VM.Console) the serial line works, logged in as that user; its password is never shown', async () => {
    await stack.sim.addUser({ userid: 'console@pve', password: CONSOLE_PASSWORD });
    const saved = await setConsoleUser({ username: 'console@pve', password: CONSOLE_PASSWORD });
    expect(saved.status).toBe(200);
    expect(saved.body.data.consoleUser).toEqual({ username: 'console@pve' });
    const id = await runningServer(stack, { hostname: 'old-tty' });
    const c = await openConsole(stack, id, 'serial');
    await serialPrompt(c, 'old-tty');
    c.ws.send(Buffer.from('root'));
    await expect.poll(() => c.text()).toContain('old-tty login: root');
    c.ws.close();
    await c.closed;

    const state = await stack.sim.state();
    // the serial console's listener is the newest vncproxy task (qemu-server names both consoles' tasks so)
    const consoleTasks = state.tasks.filter((t) => t.type === 'vncproxy');
    expect(consoleTasks.at(-1)?.user).toBe('console@pve');
    const row = await stack.api.db.proxmoxConnection.findUniqueOrThrow({ where: { id: stack.seed.connectionId } });
    expect(row.consoleUserPasswordCipher).not.toContain(CONSOLE_PASSWORD);
    expect(secretBoxOf(stack.api.config).open(row.consoleUserPasswordCipher!, row.id)).toBe(CONSOLE_PASSWORD);
    const listed = await stack.api.request('GET', '/v1/admin/connections', { token: stack.api.adminToken });
    const audits = (await stack.api.db.auditEvent.findMany({ where: { action: 'connection.updated' } })).map((a) => a.details);
    expect(JSON.stringify([saved.body, listed.body, audits])).not.toContain(CONSOLE_PASSWORD);
  });

  it('a console user Proxmox refuses ends the serial console as console_unavailable; removing it brings CONSOLE_UNSUPPORTED back', async () => {
    expect((await setConsoleUser({ username: 'console@pve', password: 'not-the-password' })).status).toBe(200);
    const id = await runningServer(stack, { hostname: 'old-wrong' });
    const c = await openConsole(stack, id, 'serial');
    await closedWith(c, 'console_unavailable');
    expect(c.text()).not.toContain('not-the-password');

    const removed = await setConsoleUser(null);
    expect(removed.body.data.consoleUser).toBeNull();
    expect((await stack.api.db.proxmoxConnection.findUniqueOrThrow({ where: { id: stack.seed.connectionId } })).consoleUserPasswordCipher).toBeNull();
    expect((await consoleOffer(stack, id, 'serial')).body.error.code).toBe('CONSOLE_UNSUPPORTED');
  });
});
