/**
 * A small HTTP server of disk and ISO images, for the simulator's `download-url` to fetch from in
 * tests and in a local demo: a qcow2 image made on the spot (valid: `qemu-img check` finds nothing
 * to fix), a small ISO 9660 image, and `SHA256SUMS`/`SHA512SUMS` files beside them, as a
 * distribution's image mirror serves them. More files, redirections, errors, slow and stalling
 * answers are added with `serve`.
 */
import crypto from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';

const GiB = 1024 ** 3;

/** What one path answers: a file (throttled or stalling on request), or a bare status (a redirection, an error). */
export type Served =
  | {
      body: Buffer;
      contentType?: string;
      contentDisposition?: string;
      /** Sends the body at this rate (bytes per second). */
      bytesPerSecond?: number;
      /** Sends the headers and this many bytes of the body, then nothing more (a server that hangs). */
      stallAfterBytes?: number;
    }
  | { status: number; location?: string }
  /** Accepts the connection and never answers. */
  | { silent: true };

export interface ImageServer {
  /** `http://127.0.0.1:<port>` */
  url: string;
  /** The URL of a path it serves. */
  urlOf: (path: string) => string;
  /** Serves `path` from now on (replacing what it served there). */
  serve: (path: string, served: Served) => void;
  /** The body served at a path. */
  bodyOf: (path: string) => Buffer | undefined;
  close: () => Promise<void>;
}

const CLUSTER_BITS = 16;
const CLUSTER = 1 << CLUSTER_BITS;

/**
 * An empty qcow2 (version 3) image of `virtualSize` bytes laid out as `qemu-img create -f qcow2`
 * lays it out: the header in cluster 0, the refcount table in cluster 1, its one refcount block in
 * cluster 2, the L1 table in cluster 3; every used cluster counted once. With `backingFile` its
 * header names one (what Proxmox refuses in an untrusted image).
 */
export function qcow2Image(virtualSize: number, o: { backingFile?: string } = {}): Buffer {
  const l2Entries = CLUSTER / 8;
  const l1Size = Math.max(1, Math.ceil(virtualSize / (CLUSTER * l2Entries)));
  const image = Buffer.alloc(3 * CLUSTER + l1Size * 8);
  image.writeUInt32BE(0x514649fb, 0); // "QFI\xfb"
  image.writeUInt32BE(3, 4);
  image.writeUInt32BE(CLUSTER_BITS, 20);
  image.writeBigUInt64BE(BigInt(virtualSize), 24);
  image.writeUInt32BE(l1Size, 36);
  image.writeBigUInt64BE(BigInt(3 * CLUSTER), 40); // L1 table
  image.writeBigUInt64BE(BigInt(CLUSTER), 48); // refcount table
  image.writeUInt32BE(1, 56); // refcount table clusters
  image.writeUInt32BE(4, 96); // refcount order: 16-bit refcounts
  image.writeUInt32BE(104, 100); // header length; header extensions end right after (type 0)
  if (o.backingFile) {
    const name = Buffer.from(o.backingFile);
    image.writeBigUInt64BE(512n, 8);
    image.writeUInt32BE(name.length, 16);
    name.copy(image, 512);
  }
  image.writeBigUInt64BE(BigInt(2 * CLUSTER), CLUSTER); // refcount table -> block
  for (let cluster = 0; cluster < 4; cluster++) image.writeUInt16BE(1, 2 * CLUSTER + cluster * 2);
  return image;
}

/** A small ISO 9660 image: a primary volume descriptor (`CD001`) at sector 16, the set terminator after it. */
export function isoImage(label: string): Buffer {
  const sector = 2048;
  const image = Buffer.alloc(20 * sector);
  const pvd = 16 * sector;
  image[pvd] = 1;
  image.write('CD001', pvd + 1, 'latin1');
  image[pvd + 6] = 1;
  image.write(label.toUpperCase().padEnd(32).slice(0, 32), pvd + 40, 'latin1');
  image[17 * sector] = 255;
  image.write('CD001', 17 * sector + 1, 'latin1');
  image[17 * sector + 6] = 1;
  return image;
}

/** A `SHA256SUMS`-style file: `<hex>  <name>` a line. */
export function checksumsFile(algorithm: 'sha256' | 'sha512', files: Record<string, Buffer>): string {
  return Object.entries(files)
    .map(([name, body]) => `${crypto.createHash(algorithm).update(body).digest('hex')}  ${name}\n`)
    .join('');
}

/** The images every image server starts with: a 2 GiB cloud image and a rescue ISO, each with their checksum files. */
export const DEFAULT_IMAGE = { path: '/images/demo-cloud.qcow2', virtualSize: 2 * GiB } as const;
export const DEFAULT_ISO = { path: '/iso/rescue.iso', label: 'RESCUE' } as const;

function defaultFiles(): Map<string, Served> {
  const image = qcow2Image(DEFAULT_IMAGE.virtualSize);
  const iso = isoImage(DEFAULT_ISO.label);
  const imageName = DEFAULT_IMAGE.path.slice(DEFAULT_IMAGE.path.lastIndexOf('/') + 1);
  const isoName = DEFAULT_ISO.path.slice(DEFAULT_ISO.path.lastIndexOf('/') + 1);
  const text = (body: string): Served => ({ body: Buffer.from(body), contentType: 'text/plain' });
  return new Map<string, Served>([
    [DEFAULT_IMAGE.path, { body: image, contentType: 'application/octet-stream' }],
    ['/images/SHA256SUMS', text(checksumsFile('sha256', { [imageName]: image }))],
    ['/images/SHA512SUMS', text(checksumsFile('sha512', { [imageName]: image }))],
    [DEFAULT_ISO.path, { body: iso, contentType: 'application/x-iso9660-image' }],
    ['/iso/SHA256SUMS', text(checksumsFile('sha256', { [isoName]: iso }))],
  ]);
}

const CHUNK = 64 * 1024;

/** Writes a body at `bytesPerSecond` (or at once), stopping after `stallAfterBytes` if set. */
function sendBody(res: http.ServerResponse, body: Buffer, o: { bytesPerSecond?: number; stallAfterBytes?: number }): void {
  const limit = o.stallAfterBytes ?? body.length;
  if (!o.bytesPerSecond) {
    res.write(body.subarray(0, limit));
    if (limit >= body.length) res.end();
    return;
  }
  const rate = o.bytesPerSecond;
  let sent = 0;
  const next = () => {
    if (res.destroyed) return;
    const size = Math.min(CHUNK, limit - sent);
    if (size > 0) res.write(body.subarray(sent, sent + size));
    sent += size;
    if (sent >= body.length) res.end();
    else if (sent < limit) setTimeout(next, (size / rate) * 1000);
  };
  next();
}

/** Starts an image server on 127.0.0.1 (a free port unless `port` is given). */
export function startImageServer(o: { port?: number; host?: string } = {}): Promise<ImageServer> {
  const files = defaultFiles();
  const open = new Set<http.ServerResponse>();
  const server = http.createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://images.invalid').pathname;
    const served = files.get(path);
    open.add(res);
    res.on('close', () => open.delete(res));
    if (!served) {
      res.writeHead(404, 'Not Found', { 'Content-Type': 'text/plain' }).end('Not Found\n');
      return;
    }
    if ('silent' in served) return;
    if ('status' in served) {
      res.writeHead(served.status, served.location ? { Location: served.location } : {}).end();
      return;
    }
    res.writeHead(200, 'OK', {
      'Content-Type': served.contentType ?? 'application/octet-stream',
      'Content-Length': served.body.length,
      ...(served.contentDisposition ? { 'Content-Disposition': served.contentDisposition } : {}),
    });
    if (req.method === 'HEAD') res.end();
    else sendBody(res, served.body, served);
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(o.port ?? 0, o.host ?? '127.0.0.1', () => {
      const { port } = server.address() as AddressInfo;
      const url = `http://${o.host ?? '127.0.0.1'}:${port}`;
      resolve({
        url,
        urlOf: (path) => `${url}${path}`,
        serve: (path, served) => void files.set(path, served),
        bodyOf: (path) => {
          const served = files.get(path);
          return served && 'body' in served ? served.body : undefined;
        },
        close: () =>
          new Promise<void>((done) => {
            for (const res of open) res.destroy();
            server.close(() => done());
            server.closeAllConnections();
          }),
      });
    });
  });
}
