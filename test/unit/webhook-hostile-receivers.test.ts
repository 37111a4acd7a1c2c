import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { postWebhook } from '../../src/webhooks/delivery';

/**
 * A webhook receiver is a stranger's server: whatever bytes it answers with, an attempt ends with
 * an outcome within its deadline, never an exception or a process-ending `error` event.
 */
const ANSWERS: { name: string; reply: (socket: net.Socket) => void; status: number | null }[] = [
  { name: 'bytes that are not HTTP', reply: (s) => s.end('SSH-2.0-OpenSSH_9.2\r\n'), status: null },
  { name: 'a status line with a three-letter status', reply: (s) => s.end('HTTP/1.1 abc Nope\r\n\r\n'), status: null },
  { name: 'a 101 Switching Protocols nobody asked for', reply: (s) => s.write('HTTP/1.1 101 Switching Protocols\r\nConnection: Upgrade\r\nUpgrade: websocket\r\n\r\n\x81\x02hi'), status: null },
  { name: 'a connection reset before any answer', reply: (s) => s.resetAndDestroy(), status: null },
  { name: 'a reset in the middle of the headers', reply: (s) => { s.write('HTTP/1.1 200 OK\r\nContent-Le'); setTimeout(() => s.resetAndDestroy(), 20); }, status: null },
  { name: 'a chunked body with a broken chunk size', reply: (s) => s.end('HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\nhello\r\n0\r\n\r\n'), status: null },
  { name: 'a Content-Length longer than the body', reply: (s) => s.end('HTTP/1.1 200 OK\r\nContent-Length: 100\r\n\r\nshort'), status: null },
  { name: 'two Content-Length headers that disagree', reply: (s) => s.end('HTTP/1.1 200 OK\r\nContent-Length: 1\r\nContent-Length: 2\r\n\r\nab'), status: null },
  { name: 'headers past the size limit', reply: (s) => s.end(`HTTP/1.1 200 OK\r\nX-Big: ${'a'.repeat(100_000)}\r\n\r\n`), status: null },
  { name: 'a 100 Continue followed by a 204', reply: (s) => s.end('HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 204 No Content\r\n\r\n'), status: 204 },
];

describe('webhook attempts against hostile receivers', () => {
  let server: net.Server;
  let port: number;
  let next: (socket: net.Socket) => void = () => undefined;
  beforeAll(async () => {
    server = net.createServer((socket) => {
      socket.on('error', () => undefined);
      socket.once('data', () => next(socket));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as net.AddressInfo).port;
  });
  afterAll(async () => {
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });

  for (const answer of ANSWERS) {
    it(`${answer.name}: an outcome, never an exception`, async () => {
      next = answer.reply;
      const outcome = await postWebhook(`http://127.0.0.1:${port}/hook`, '{"a":1}', {}, { allowHttp: true, allowPrivate: true }, 2_000);
      expect(outcome.status).toBe(answer.status);
      if (answer.status === null) expect(outcome.error).toEqual(expect.any(String));
    });
  }
});
