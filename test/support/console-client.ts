/**
 * A console client as a panel's own code would be one: asks for a ticket, connects to the
 * websocketUrl (console-socket), speaks RFB 3.8 (security None) or the serial framing.
 */
import { expect } from 'vitest';
import { RFB_VERSION, SECURITY_NONE } from '../../src/net/vnc';
import type { ConsoleConnection } from './console-socket';
import type { Stack } from './stack';

export async function consoleOffer(stack: Stack, id: string, type: 'vnc' | 'serial', token = stack.customer.token) {
  return stack.api.request('POST', `/v1/instances/${id}/console`, { token, body: { type } });
}

/** The RFB handshake a VNC viewer makes: version, security None, ClientInit; answers the ServerInit. */
export async function rfbHandshake(c: ConsoleConnection): Promise<{ width: number; height: number; name: string }> {
  expect((await c.reader.read(12)).toString()).toBe(RFB_VERSION);
  c.ws.send(Buffer.from(RFB_VERSION));
  const types = await c.reader.read(2);
  expect([...types]).toEqual([1, SECURITY_NONE]);
  c.ws.send(Buffer.from([SECURITY_NONE]));
  expect((await c.reader.read(4)).readUInt32BE(0)).toBe(0);
  c.ws.send(Buffer.from([1]));
  const init = await c.reader.read(24);
  const name = (await c.reader.read(init.readUInt32BE(20))).toString();
  return { width: init.readUInt16BE(0), height: init.readUInt16BE(2), name };
}

/** A full framebuffer update request; answers the pixels of the one raw rectangle that comes back. */
export async function requestFrame(c: ConsoleConnection, width: number, height: number): Promise<Buffer> {
  const req = Buffer.alloc(10);
  req[0] = 3;
  req.writeUInt16BE(width, 6);
  req.writeUInt16BE(height, 8);
  c.ws.send(req);
  const head = await c.reader.read(16);
  expect(head[0]).toBe(0);
  expect(head.readUInt16BE(2)).toBe(1);
  return c.reader.read(head.readUInt16BE(8) * head.readUInt16BE(10) * 4);
}
