/**
 * A console's WebSocket as a client holds it, with no test framework in it: the bench's console
 * phase opens its sessions with it as the tests do.
 */
import WebSocket, { type RawData } from 'ws';
import { ByteReader } from '../../src/net/vnc';

export interface ConsoleConnection {
  ws: WebSocket;
  /** Everything received so far, one character a byte (latin1): an offset into it counts bytes. */
  text(): string;
  reader: ByteReader;
  closed: Promise<{ code: number; reason: string }>;
}

/**
 * Opens a console's websocketUrl; rejects when the connection fails or, with `handshakeTimeout`,
 * takes longer (ms). With `origin` it names a page's origin in `Origin`, as a browser does; `headers`
 * go with the upgrade (a proxy's X-Forwarded-For).
 */
export function connectConsole(url: string, options: { handshakeTimeout?: number; origin?: string; headers?: Record<string, string> } = {}): Promise<ConsoleConnection> {
  const ws = new WebSocket(url, options);
  const reader = new ByteReader();
  let text = '';
  ws.on('message', (data: RawData) => {
    const buf = Buffer.isBuffer(data) ? data : Buffer.from(data as ArrayBuffer);
    text += buf.toString('latin1');
    reader.push(buf);
  });
  const closed = new Promise<{ code: number; reason: string }>((resolve) => ws.on('close', (code, reason) => resolve({ code, reason: reason.toString() })));
  return new Promise((resolve, reject) => {
    ws.once('open', () => resolve({ ws, reader, text: () => text, closed }));
    ws.once('error', reject);
  });
}
