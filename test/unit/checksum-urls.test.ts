/**
 * An image's checksum list: which line names the image's file (GNU and BSD forms, in the image's
 * algorithm), and the fetch the control plane makes of it: private addresses refused unless
 * allowed (an address in the URL and a name that resolves to one alike), redirections followed
 * under the same guard, a list too large refused.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checksumFromList, imageFileName } from '../../src/domain/image-sources';
import { refreshEvery, refreshIntervalSeconds } from '../../src/domain/image-refresh';
import { readChecksumFile } from '../../src/services/catalog/checksum-urls';
import { startImageServer, type ImageServer } from '../../src/simulator';

const A = 'a'.repeat(64);
const B = 'B'.repeat(64);
const LONG = 'c'.repeat(128);

describe('a checksum list', () => {
  const list = [`${A}  debian-12-generic-amd64.qcow2`, `${B} *noble-server-cloudimg-amd64.img`, `SHA256 (Rocky-9-GenericCloud.qcow2) = ${A}`, `${LONG}  big.raw`, `${A}  ./dotted.qcow2`, ''].join('\n');

  it('gives the checksum of the named file in either form, lower-cased', () => {
    expect(checksumFromList(list, 'debian-12-generic-amd64.qcow2', 'sha256')).toBe(A);
    expect(checksumFromList(list, 'noble-server-cloudimg-amd64.img', 'sha256')).toBe(B.toLowerCase());
    expect(checksumFromList(list, 'Rocky-9-GenericCloud.qcow2', 'sha256')).toBe(A);
    expect(checksumFromList(list, 'dotted.qcow2', 'sha256')).toBe(A);
    expect(checksumFromList(list.replace(/\n/g, '\r\n'), 'big.raw', 'sha512')).toBe(LONG);
  });

  it('lists nothing for another file, or for a line of the other algorithm', () => {
    expect(checksumFromList(list, 'debian-12.qcow2', 'sha256')).toBeNull();
    expect(checksumFromList(list, 'big.raw', 'sha256')).toBeNull();
    expect(checksumFromList(list, 'debian-12-generic-amd64.qcow2', 'sha512')).toBeNull();
  });

  it('names an image by the last segment of its URL path, unescaped', () => {
    expect(imageFileName('https://mirror.example/a/b/noble%2Bserver.img?x=1')).toBe('noble+server.img');
    expect(imageFileName('https://mirror.example/a/100%.img')).toBe('100%.img');
  });
});

describe('a refresh schedule', () => {
  it('takes hours up to 720 and days up to 30, and shows them back', () => {
    expect([refreshIntervalSeconds('6h'), refreshIntervalSeconds('720h'), refreshIntervalSeconds('30d')]).toEqual([6 * 3600, 720 * 3600, 30 * 86_400]);
    expect(['0h', '721h', '31d', '1w', '024h', ''].map(refreshIntervalSeconds)).toEqual([undefined, undefined, undefined, undefined, undefined, undefined]);
    expect([24 * 3600, 36 * 3600, 7 * 86_400].map(refreshEvery)).toEqual(['24h', '36h', '7d']);
  });
});

describe('reading a checksum list', () => {
  let images: ImageServer;
  beforeAll(async () => {
    images = await startImageServer();
  });
  afterAll(async () => {
    await images?.close();
  });
  const open = { allowHttp: true, allowPrivate: true };
  const guarded = { allowHttp: true, allowPrivate: false };

  it('reads the list, redirections followed', async () => {
    images.serve('/moved/SHA256SUMS', { status: 302, location: '/images/SHA256SUMS' });
    expect(await readChecksumFile(images.urlOf('/moved/SHA256SUMS'), open)).toMatch(/^[0-9a-f]{64} {2}demo-cloud\.qcow2\n$/);
  });

  it('refuses a loopback address, and a name resolving to one, unless private addresses are allowed', async () => {
    await expect(readChecksumFile(images.urlOf('/images/SHA256SUMS'), guarded)).rejects.toMatchObject({ code: 'IMAGE_CHECKSUM_URL_REFUSED' });
    await expect(readChecksumFile(images.urlOf('/images/SHA256SUMS').replace('127.0.0.1', 'localhost'), guarded)).rejects.toMatchObject({ code: 'IMAGE_CHECKSUM_URL_REFUSED' });
  });

  it('refuses a list larger than a megabyte, and an answer other than 200', async () => {
    images.serve('/huge/SHA256SUMS', { body: Buffer.alloc(1024 * 1024 + 1, 'a') });
    await expect(readChecksumFile(images.urlOf('/huge/SHA256SUMS'), open)).rejects.toMatchObject({ code: 'IMAGE_CHECKSUM_URL_UNREACHABLE', message: 'The checksum file could not be read: larger than 1048576 bytes.' });
    await expect(readChecksumFile(images.urlOf('/nothing/SHA256SUMS'), open)).rejects.toMatchObject({ code: 'IMAGE_CHECKSUM_URL_UNREACHABLE', message: 'The checksum file could not be read: the server answered 404.' });
  });
});
