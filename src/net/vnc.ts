/**
 * Pieces of RFB 3.8 (RFC 6143) both ends of our console relay need: the version line, the
 * security types, and VNC authentication (DES over a 16-byte challenge).
 */
import { DES } from 'des.js';

export const RFB_VERSION = 'RFB 003.008\n';
export const SECURITY_NONE = 1;
export const SECURITY_VNC_AUTH = 2;

/** Each key byte's bits reversed: the VNC quirk of its DES key (RFC 6143 7.2.2 errata). */
function vncKey(password: string): number[] {
  const key = Buffer.alloc(8);
  Buffer.from(password, 'latin1').copy(key, 0, 0, 8);
  return [...key].map((b) => {
    let r = 0;
    for (let i = 0; i < 8; i++) r |= ((b >> i) & 1) << (7 - i);
    return r;
  });
}

/** The answer to a VNC authentication challenge: the challenge DES-encrypted with the password (first 8 characters). */
export function vncAuthResponse(password: string, challenge: Uint8Array): Buffer {
  return Buffer.from(DES.create({ type: 'encrypt', key: vncKey(password) }).update(challenge));
}

/** Reads exactly `n` bytes at a time from a stream of chunks (RFB has no framing of its own). */
export class ByteReader {
  private buffered: Buffer = Buffer.alloc(0);
  private waiting: { n: number; resolve: (b: Buffer) => void } | undefined;

  push(chunk: Buffer): void {
    this.buffered = this.buffered.length === 0 ? chunk : Buffer.concat([this.buffered, chunk]);
    this.settle();
  }

  /** Bytes received but not read yet. */
  rest(): Buffer {
    const out = this.buffered;
    this.buffered = Buffer.alloc(0);
    return out;
  }

  read(n: number): Promise<Buffer> {
    return new Promise((resolve) => {
      this.waiting = { n, resolve };
      this.settle();
    });
  }

  private settle(): void {
    const w = this.waiting;
    if (!w || this.buffered.length < w.n) return;
    this.waiting = undefined;
    const out = this.buffered.subarray(0, w.n);
    this.buffered = this.buffered.subarray(w.n);
    w.resolve(Buffer.from(out));
  }
}
