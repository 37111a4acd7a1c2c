/**
 * A hostile client's tools, with no test framework in them (the soak bench uses them too): raw
 * HTTP upgrade requests written byte by byte, and WebSocket frames built by hand, legal or not.
 */
import net from 'node:net';
import { randomBytes } from 'node:crypto';

export const WS_KEY = 'dGhlIHNhbXBsZSBub25jZQ==';

/** An upgrade request for `target`, with the WebSocket headers unless `headers` replaces them. */
export function upgradeRequest(target: string, options: { method?: string; headers?: string[] } = {}): string {
  const headers = options.headers ?? ['Connection: Upgrade', 'Upgrade: websocket', 'Sec-WebSocket-Version: 13', `Sec-WebSocket-Key: ${WS_KEY}`];
  return [`${options.method ?? 'GET'} ${target} HTTP/1.1`, 'Host: x', ...headers, '', ''].join('\r\n');
}

export interface FrameSpec {
  fin?: boolean;
  rsv?: number;
  opcode: number;
  payload?: Buffer;
  /** false sends the payload unmasked, as only a server may. */
  masked?: boolean;
  /** A declared length other than the payload's (a lie, or a huge one). */
  declaredLength?: bigint;
}

/** One WebSocket frame as RFC 6455 §5.2 lays it out, with whatever header values the spec asks for. */
export function frame(spec: FrameSpec): Buffer {
  const payload = spec.payload ?? Buffer.alloc(0);
  const masked = spec.masked ?? true;
  const length = spec.declaredLength ?? BigInt(payload.length);
  const head: number[] = [((spec.fin ?? true) ? 0x80 : 0) | ((spec.rsv ?? 0) << 4) | spec.opcode];
  const maskBit = masked ? 0x80 : 0;
  let extended = Buffer.alloc(0);
  if (length < 126n) head.push(maskBit | Number(length));
  else if (length < 65536n) {
    head.push(maskBit | 126);
    extended = Buffer.alloc(2);
    extended.writeUInt16BE(Number(length));
  } else {
    head.push(maskBit | 127);
    extended = Buffer.alloc(8);
    extended.writeBigUInt64BE(length);
  }
  if (!masked) return Buffer.concat([Buffer.from(head), extended, payload]);
  const mask = randomBytes(4);
  const body = Buffer.from(payload.map((byte, i) => byte ^ (mask[i % 4] as number)));
  return Buffer.concat([Buffer.from(head), extended, mask, body]);
}

export const closePayload = (code: number, reason = ''): Buffer => {
  const b = Buffer.alloc(2);
  b.writeUInt16BE(code);
  return Buffer.concat([b, Buffer.from(reason)]);
};

/** Every malformed frame RFC 6455 tells a server to fail the connection for, with the close code it must answer. */
export const MALFORMED_FRAMES: { name: string; bytes: () => Buffer; closeCode: number }[] = [
  { name: 'an unmasked client frame', bytes: () => frame({ opcode: 0x2, payload: Buffer.from('hi'), masked: false }), closeCode: 1002 },
  { name: 'RSV1 set without an extension', bytes: () => frame({ opcode: 0x2, rsv: 4, payload: Buffer.from('x') }), closeCode: 1002 },
  { name: 'RSV2 and RSV3 set', bytes: () => frame({ opcode: 0x1, rsv: 3, payload: Buffer.from('x') }), closeCode: 1002 },
  { name: 'an unknown data opcode', bytes: () => frame({ opcode: 0x3, payload: Buffer.from('x') }), closeCode: 1002 },
  { name: 'an unknown control opcode', bytes: () => frame({ opcode: 0xb }), closeCode: 1002 },
  { name: 'a fragmented ping', bytes: () => frame({ opcode: 0x9, fin: false, payload: Buffer.from('p') }), closeCode: 1002 },
  { name: 'a control frame over 125 bytes', bytes: () => frame({ opcode: 0x9, payload: Buffer.alloc(126, 1) }), closeCode: 1002 },
  { name: 'a continuation with nothing to continue', bytes: () => frame({ opcode: 0x0, payload: Buffer.from('x') }), closeCode: 1002 },
  { name: 'a new data frame inside a fragmented message', bytes: () => Buffer.concat([frame({ opcode: 0x2, fin: false, payload: Buffer.from('a') }), frame({ opcode: 0x2, payload: Buffer.from('b') })]), closeCode: 1002 },
  { name: 'invalid UTF-8 in a text frame', bytes: () => frame({ opcode: 0x1, payload: Buffer.from([0xc3, 0x28, 0xff]) }), closeCode: 1007 },
  { name: 'close code 1005 sent on the wire', bytes: () => frame({ opcode: 0x8, payload: closePayload(1005) }), closeCode: 1002 },
  { name: 'close code 999', bytes: () => frame({ opcode: 0x8, payload: closePayload(999) }), closeCode: 1002 },
  { name: 'a close frame with a one-byte body', bytes: () => frame({ opcode: 0x8, payload: Buffer.from([3]) }), closeCode: 1002 },
  { name: 'invalid UTF-8 in a close reason', bytes: () => frame({ opcode: 0x8, payload: Buffer.concat([closePayload(1000), Buffer.from([0xff])]) }), closeCode: 1007 },
  { name: 'a frame over the 64 KiB limit', bytes: () => frame({ opcode: 0x2, payload: Buffer.alloc(64 * 1024 + 1, 7) }), closeCode: 1009 },
  { name: 'a declared length of 2^53', bytes: () => frame({ opcode: 0x2, declaredLength: 2n ** 53n, payload: Buffer.alloc(16) }), closeCode: 1009 },
  { name: 'a declared length of 2^63 (the top bit set)', bytes: () => frame({ opcode: 0x2, declaredLength: 2n ** 63n, payload: Buffer.alloc(16) }), closeCode: 1009 },
];

export interface RawAnswer {
  /** The status line and headers of the HTTP answer, if any came. */
  head: string;
  /** The close code of the server's close frame, if one came. */
  closeCode?: number;
  /** Everything after the HTTP head. */
  rest: Buffer;
}

const CRLFCRLF = Buffer.from('\r\n\r\n');

/** The server's frames after a 101: the code of its close frame, if it sent one. */
export function closeCodeIn(bytes: Buffer): number | undefined {
  let at = 0;
  while (at + 2 <= bytes.length) {
    const opcode = (bytes[at] as number) & 0x0f;
    let length = (bytes[at + 1] as number) & 0x7f;
    let offset = at + 2;
    if (length === 126) {
      if (offset + 2 > bytes.length) return undefined;
      length = bytes.readUInt16BE(offset);
      offset += 2;
    } else if (length === 127) {
      if (offset + 8 > bytes.length) return undefined;
      length = Number(bytes.readBigUInt64BE(offset));
      offset += 8;
    }
    if (opcode === 0x8) return length >= 2 && offset + 2 <= bytes.length ? bytes.readUInt16BE(offset) : 1005;
    at = offset + length;
  }
  return undefined;
}

/**
 * Connects, writes `request`, then (after a 101) each of `frames`, and reads until the server
 * closes the connection or `timeoutMs` passes. `cut` resets the connection right after writing.
 */
export function rawExchange(port: number, request: string | Buffer, frames: Buffer[] = [], options: { timeoutMs?: number; cut?: boolean } = {}): Promise<RawAnswer> {
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1');
    let received = Buffer.alloc(0);
    let sentFrames = false;
    const finish = () => {
      clearTimeout(timer);
      socket.destroy();
      const end = received.indexOf(CRLFCRLF);
      const head = end < 0 ? received.toString('latin1') : received.subarray(0, end).toString('latin1');
      const rest = end < 0 ? Buffer.alloc(0) : received.subarray(end + 4);
      resolve({ head, rest, closeCode: head.startsWith('HTTP/1.1 101') ? closeCodeIn(rest) : undefined });
    };
    const timer = setTimeout(finish, options.timeoutMs ?? 5_000);
    socket.on('error', finish);
    socket.on('close', finish);
    socket.on('data', (chunk: Buffer) => {
      received = Buffer.concat([received, chunk]);
      if (!sentFrames && received.includes(CRLFCRLF) && received.toString('latin1').startsWith('HTTP/1.1 101')) {
        sentFrames = true;
        for (const f of frames) socket.write(f);
        if (options.cut) socket.resetAndDestroy();
      }
    });
    socket.write(request);
    if (options.cut && frames.length === 0) socket.resetAndDestroy();
  });
}
