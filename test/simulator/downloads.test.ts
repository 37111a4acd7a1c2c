/**
 * Files from a URL as Proxmox VE downloads them: `download-url` is a `download` task that fetches
 * the URL (from a real HTTP server), logs as wget does, verifies the checksum and the content,
 * and writes the file into the storage's `import` or `iso` content (once per node on a local
 * storage, once on a shared one); every way it fails is Proxmox's, and leaves no file behind.
 * `query-url-metadata` reads a URL's name, size and type. Every answer is valid against both
 * releases' schemas.
 */
import crypto from 'node:crypto';
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseUpid } from '../../src/proxmox/upid';
import { DEFAULT_IMAGE, DEFAULT_ISO, demoCluster, qcow2Image, startImageServer, type ImageServer } from '../../src/simulator';
import { useSim } from './support';

const h = useSim({
  cluster: {
    storages: [
      ...demoCluster().storages,
      { storage: 'isos-only', type: 'dir', content: 'iso', path: '/srv/isos' },
      { storage: 'tiny', type: 'dir', content: 'import', totalGiB: 1 / 1024 },
      { storage: 'pve1-only', type: 'dir', content: 'import', nodes: ['pve1'] },
    ],
  },
});

let images: ImageServer;
beforeAll(async () => {
  images = await startImageServer();
});
afterAll(async () => {
  await images.close();
});

const sha256 = (body: Buffer) => crypto.createHash('sha256').update(body).digest('hex');
const image = () => images.bodyOf(DEFAULT_IMAGE.path) as Buffer;

/** Starts a download; answers its UPID. */
async function download(node: string, storage: string, params: Record<string, string>): Promise<string> {
  const r = await h.call('POST', `/nodes/${node}/storage/${storage}/download-url`, params);
  expect(r.status, r.statusText).toBe(200);
  return String(r.body.data);
}

type Entry = Record<string, unknown>;
const content = async (node: string, storage: string, kind: string) => {
  const r = await h.call('GET', `/nodes/${node}/storage/${storage}/content`, { content: kind });
  expect(r.status, r.statusText).toBe(200);
  return r.body.data as Entry[];
};

const imageParams = (filename: string, extra: Record<string, string> = {}) => ({
  url: images.urlOf(DEFAULT_IMAGE.path),
  content: 'import',
  filename,
  'checksum-algorithm': 'sha256',
  checksum: sha256(image()),
  ...extra,
});

describe('download-url', () => {
  it('downloads an image into a local storage of that node: a download task logged as wget logs, the checksum verified, the file listed', async () => {
    const upid = await download('pve1', 'local', imageParams('debian-12.qcow2'));
    expect(parseUpid(upid)).toMatchObject({ node: 'pve1', type: 'download', id: 'debian-12.qcow2', user: 'root@pam!controlplane' });
    const { exitstatus, log } = await h.taskEnd(upid);
    expect(exitstatus).toBe('OK');
    const tmp = `/var/lib/vz/import/debian-12.qcow2.tmp_dwnl.${parseUpid(upid).pid}`;
    const size = image().length;
    expect(log).toEqual([
      `downloading ${images.urlOf(DEFAULT_IMAGE.path)} to /var/lib/vz/import/debian-12.qcow2`,
      expect.stringMatching(new RegExp(`^--\\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d:\\d\\d--  ${images.urlOf(DEFAULT_IMAGE.path)}$`)),
      `Connecting to 127.0.0.1:${new URL(images.url).port}... connected.`,
      'HTTP request sent, awaiting response... 200 OK',
      `Length: ${size} (192K) [application/octet-stream]`,
      `Saving to: '${tmp}'`,
      expect.stringMatching(/^ {5}0K {36}100% +[\d.]+[ KMG]=[\d.]+s$/),
      expect.stringMatching(new RegExp(`^\\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d:\\d\\d \\([\\d.]+ [KMG]?B/s\\) - '${tmp}' saved \\[${size}/${size}\\]$`)),
      'calculating checksum...OK, checksum verified',
      `download of '${images.urlOf(DEFAULT_IMAGE.path)}' to '/var/lib/vz/import/debian-12.qcow2' finished`,
      'TASK OK',
    ]);
    expect(await content('pve1', 'local', 'import')).toEqual([{ volid: 'local:import/debian-12.qcow2', content: 'import', format: 'qcow2', size, ctime: expect.any(Number) }]);
    // a local storage: the other nodes have their own, without it
    expect(await content('pve2', 'local', 'import')).toEqual([]);
    // the file takes room on that node's storage only
    const local = async (node: string) => ((await h.call('GET', `/nodes/${node}/storage`)).body.data as Entry[]).find((s) => s.storage === 'local');
    expect((await local('pve1'))?.used).toBe(size);
    expect((await local('pve2'))?.used).toBe(0);
  });

  it('downloads once into a shared storage, which every node lists', async () => {
    expect(await h.taskEnd(await download('pve2', 'shared-nfs', imageParams('debian-12.qcow2')))).toMatchObject({ exitstatus: 'OK' });
    for (const node of ['pve1', 'pve2', 'pve3']) expect((await content(node, 'shared-nfs', 'import')).map((e) => e.volid)).toEqual(['shared-nfs:import/debian-12.qcow2']);
    const again = await h.taskEnd(await download('pve3', 'shared-nfs', imageParams('debian-12.qcow2')));
    expect(again.exitstatus).toBe('OK');
    expect(again.log).toContain('calculating checksum of existing file...OK, got correct file already, no need to download');
    expect(h.sim.state.storageFiles).toHaveLength(1);
  });

  it('downloads an ISO image into the iso content, its file name normalized', async () => {
    const upid = await download('pve1', 'isos-only', { url: images.urlOf(DEFAULT_ISO.path), content: 'iso', filename: 'Rescue System 1.0.iso' });
    expect(await h.taskEnd(upid)).toMatchObject({ exitstatus: 'OK', log: expect.arrayContaining(["download of '" + images.urlOf(DEFAULT_ISO.path) + "' to '/srv/isos/template/iso/Rescue_System_1.0.iso' finished"]) });
    expect(await content('pve1', 'isos-only', 'iso')).toEqual([{ volid: 'isos-only:iso/Rescue_System_1.0.iso', content: 'iso', format: 'iso', size: images.bodyOf(DEFAULT_ISO.path)?.length, ctime: expect.any(Number) }]);
    // an ISO image belongs to no guest
    expect(await h.call('GET', '/nodes/pve1/storage/isos-only/content', { vmid: '101' })).toMatchObject({ status: 200, body: { data: [] } });
  });

  it('logs a row of progress for every 32 MiB, with how far it got, as wget --progress=dot:giga does', async () => {
    images.serve('/images/big.raw', { body: Buffer.alloc(70 * 1024 * 1024), contentType: 'application/octet-stream' });
    const { exitstatus, log } = await h.taskEnd(await download('pve1', 'local', { url: images.urlOf('/images/big.raw'), content: 'import', filename: 'big.raw' }));
    expect(exitstatus).toBe('OK');
    const rows = log.filter((line) => /^ *\d+K /.test(line));
    expect(rows).toEqual([
      expect.stringMatching(/^ {5}0K( \.{8}){4} 45% +[\d.]+[ KMG] \d+s$/),
      expect.stringMatching(/^ 32768K( \.{8}){4} 91% +[\d.]+[ KMG] \d+s$/),
      expect.stringMatching(/^ 65536K \.{6} {2}( {9}){3}100% +[\d.]+[ KMG]=[\d.]+s$/),
    ]);
    expect(log).toContain(`Length: ${70 * 1024 * 1024} (70M) [application/octet-stream]`);
  });

  it('a checksum that does not match fails the task with Proxmox’s words and leaves no file', async () => {
    const wrong = 'ab'.repeat(32);
    const upid = await download('pve1', 'local', imageParams('debian-12.qcow2', { checksum: wrong }));
    const { exitstatus, log } = await h.taskEnd(upid);
    expect(exitstatus).toBe(`checksum mismatch: got '${sha256(image())}' != expect '${wrong}'`);
    expect(log.slice(-2)).toEqual(['calculating checksum...', `TASK ERROR: ${exitstatus}`]);
    expect(await content('pve1', 'local', 'import')).toEqual([]);
    expect((await h.control<{ downloads: unknown[] }>('GET', '/state')).downloads).toEqual([]);
  });

  it('verifies with the algorithm asked for, in any letter case', async () => {
    const sha512 = crypto.createHash('sha512').update(image()).digest('hex').toUpperCase();
    expect(await h.taskEnd(await download('pve1', 'local', imageParams('a.qcow2', { 'checksum-algorithm': 'sha512', checksum: sha512 })))).toMatchObject({ exitstatus: 'OK' });
  });

  it('a checksum and its algorithm need each other', async () => {
    const r = await h.call('POST', '/nodes/pve1/storage/local/download-url', { url: images.urlOf(DEFAULT_IMAGE.path), content: 'import', filename: 'a.qcow2', checksum: sha256(image()) });
    expect([r.status, r.body.errors]).toEqual([400, { 'checksum-algorithm': "missing property required by 'checksum'" }]);
  });

  it('a file already there is refused without a checksum, and refused with one that does not match it', async () => {
    await h.taskEnd(await download('pve1', 'local', imageParams('a.qcow2')));
    const { checksum: _checksum, 'checksum-algorithm': _algorithm, ...unchecked } = imageParams('a.qcow2');
    expect((await h.taskEnd(await download('pve1', 'local', unchecked))).exitstatus).toBe("refusing to override existing file '/var/lib/vz/import/a.qcow2'");
    const other = 'cd'.repeat(32);
    expect((await h.taskEnd(await download('pve1', 'local', imageParams('a.qcow2', { checksum: other })))).exitstatus).toBe(`checksum mismatch: got '${sha256(image())}' != expect '${other}', aborting`);
  });

  it('refuses file names of the wrong kind, storages without the content type or without files, and a storage of other nodes', async () => {
    const refused = async (node: string, storage: string, params: Record<string, string>) => {
      const r = await h.call('POST', `/nodes/${node}/storage/${storage}/download-url`, { url: images.urlOf(DEFAULT_IMAGE.path), ...params });
      return [r.status, r.body.errors ?? r.statusText];
    };
    expect(await refused('pve1', 'local', { content: 'iso', filename: 'x.qcow2' })).toEqual([400, { filename: 'wrong file extension' }]);
    expect(await refused('pve1', 'local', { content: 'import', filename: 'x.iso' })).toEqual([400, { filename: 'invalid filename or wrong extension' }]);
    expect(await refused('pve1', 'local', { content: 'import', filename: 'x.QCOW2' })).toEqual([400, { filename: 'invalid filename or wrong extension' }]);
    expect(await refused('pve1', 'local', { content: 'vztmpl', filename: 'x.tar.gz', compression: 'xz' })).toEqual([400, { compression: "value 'xz' does not have a value in the enumeration 'gz, lzo, zst, bz2'" }]);
    expect(await refused('pve1', 'isos-only', { content: 'import', filename: 'x.qcow2' })).toEqual([500, "storage 'isos-only' is not configured for content-type 'import'"]);
    expect(await refused('pve1', 'local-lvm', { content: 'import', filename: 'x.qcow2' })).toEqual([500, "can't upload to storage type 'lvmthin', not a file based storage!"]);
    expect(await refused('pve2', 'pve1-only', { content: 'import', filename: 'x.qcow2' })).toEqual([500, "storage 'pve1-only' is not available on node 'pve2'"]);
    expect(await refused('pve1', 'local', { content: 'import', filename: 'x.qcow2', url: 'ftp://images.example/x.qcow2' })).toEqual([400, { url: 'value does not match the regex pattern' }]);
    expect(h.sim.state.tasks.all().filter((t) => t.type === 'download')).toEqual([]);
  });

  it('an HTTP error fails the task as wget’s exit code, its ERROR line in the log', async () => {
    const { exitstatus, log } = await h.taskEnd(await download('pve1', 'local', { url: images.urlOf('/images/missing.qcow2'), content: 'import', filename: 'm.qcow2' }));
    expect(exitstatus).toBe('download failed: exit code 8');
    expect(log).toContain('HTTP request sent, awaiting response... 404 Not Found');
    expect(log).toContainEqual(expect.stringMatching(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d ERROR 404: Not Found\.$/));
    expect(await content('pve1', 'local', 'import')).toEqual([]);
  });

  it('follows a redirection', async () => {
    images.serve('/latest/cloud.qcow2', { status: 302, location: DEFAULT_IMAGE.path });
    const { exitstatus, log } = await h.taskEnd(await download('pve1', 'local', imageParams('latest.qcow2', { url: images.urlOf('/latest/cloud.qcow2') })));
    expect(exitstatus).toBe('OK');
    expect(log).toContain('HTTP request sent, awaiting response... 302 Found');
    expect(log).toContain(`Location: ${images.urlOf(DEFAULT_IMAGE.path)} [following]`);
  });

  it('a name that does not resolve fails with wget’s last line', async () => {
    const { exitstatus, log } = await h.taskEnd(await download('pve1', 'local', { url: 'http://images.invalid/cloud.qcow2', content: 'import', filename: 'c.qcow2' }));
    expect(exitstatus).toBe("download failed: wget: unable to resolve host address 'images.invalid'");
    expect(log).toContainEqual(expect.stringMatching(/^Resolving images\.invalid \(images\.invalid\)\.\.\. failed: (Name or service not known|Temporary failure in name resolution)\.$/));
  });

  it('a refused connection fails at once', async () => {
    const port = await closedPort();
    const { exitstatus } = await h.taskEnd(await download('pve1', 'local', { url: `http://127.0.0.1:${port}/x.qcow2`, content: 'import', filename: 'c.qcow2' }));
    expect(exitstatus).toBe(`download failed: Connecting to 127.0.0.1:${port}... failed: Connection refused.`);
  });

  it('a server that stops sending times out, the bytes so far in the log, and nothing is left', async () => {
    await h.control('POST', '/options', { urlTimeoutMs: 300 });
    images.serve('/stalls.qcow2', { body: image(), stallAfterBytes: 65_536 });
    images.serve('/silent.qcow2', { silent: true });
    try {
      const stalled = await h.taskEnd(await download('pve1', 'local', { url: images.urlOf('/stalls.qcow2'), content: 'import', filename: 's.qcow2' }));
      expect(stalled.exitstatus).toBe('download failed: exit code 4');
      expect(stalled.log).toContainEqual(expect.stringMatching(new RegExp(`Read error at byte 65536/${image().length} \\(Connection timed out\\)\\. Giving up\\.$`)));
      const silent = await h.taskEnd(await download('pve1', 'local', { url: images.urlOf('/silent.qcow2'), content: 'import', filename: 's.qcow2' }));
      expect(silent.exitstatus).toBe('download failed: exit code 4');
      expect(silent.log).toContain('HTTP request sent, awaiting response... Read error (Connection timed out) in headers.');
      expect(await content('pve1', 'local', 'import')).toEqual([]);
    } finally {
      await h.control('POST', '/options', { urlTimeoutMs: null });
    }
  });

  it('a full storage fails the write as wget reports it; the space the partial file took is free again', async () => {
    images.serve('/images/2m.raw', { body: Buffer.alloc(2 * 1024 * 1024) });
    const upid = await download('pve1', 'tiny', { url: images.urlOf('/images/2m.raw'), content: 'import', filename: 'two.raw' });
    const { exitstatus } = await h.taskEnd(upid);
    expect(exitstatus).toBe(`download failed: Cannot write to '/mnt/tiny/import/two.raw.tmp_dwnl.${parseUpid(upid).pid}' (No space left on device).`);
    const tiny = ((await h.call('GET', '/nodes/pve1/storage')).body.data as Entry[]).find((s) => s.storage === 'tiny');
    expect(tiny).toMatchObject({ used: 0, total: 1024 * 1024 });
  });

  it('a file that is not the image its name says, or an image with a backing file, fails the check qemu-img makes', async () => {
    images.serve('/notes.qcow2', { body: Buffer.from('not a disk image\n') });
    images.serve('/layered.qcow2', { body: qcow2Image(1024 ** 3, { backingFile: 'base.qcow2' }) });
    const notImage = await download('pve1', 'local', { url: images.urlOf('/notes.qcow2'), content: 'import', filename: 'notes.qcow2' });
    const tmp = `/var/lib/vz/import/notes.qcow2.tmp_dwnl.${parseUpid(notImage).pid}`;
    const end = await h.taskEnd(notImage);
    expect(end.exitstatus).toBe(`failed to verify file: qemu-img: Could not open '${tmp}': Image is not in qcow2 format`);
    expect(end.log).toContain(`command '/usr/bin/qemu-img info --output=json ${tmp} -f qcow2' failed: exit code 1`);
    const layered = await download('pve1', 'local', { url: images.urlOf('/layered.qcow2'), content: 'import', filename: 'layered.qcow2' });
    expect((await h.taskEnd(layered)).exitstatus).toBe(`failed to verify file: backing file not allowed for untrusted image '/var/lib/vz/import/layered.qcow2.tmp_dwnl.${parseUpid(layered).pid}'!`);
    const ova = await download('pve1', 'local', { url: images.urlOf('/notes.qcow2'), content: 'import', filename: 'appliance.ova' });
    expect((await h.taskEnd(ova)).exitstatus).toBe(`failed to verify file: command 'tar -t -f /var/lib/vz/import/appliance.ova.tmp_dwnl.${parseUpid(ova).pid}' failed: exit code 2`);
    // an ISO image may be anything but an image with a backing file
    const iso = await download('pve1', 'local', { url: images.urlOf('/layered.qcow2'), content: 'iso', filename: 'layered.iso' });
    expect((await h.taskEnd(iso)).exitstatus).toMatch(/^failed to verify file: backing file not allowed for untrusted image/);
    expect(h.sim.state.storageFiles).toEqual([]);
  });

  it('an import volume reads as its virtual size, and deletes by an imgdel task like other content', async () => {
    await h.taskEnd(await download('pve1', 'local', imageParams('debian-12.qcow2')));
    const volume = `/nodes/pve1/storage/local/content/${encodeURIComponent('local:import/debian-12.qcow2')}`;
    const info = await h.call('GET', volume);
    expect(info.body.data).toEqual({ path: '/var/lib/vz/import/debian-12.qcow2', size: DEFAULT_IMAGE.virtualSize, used: image().length, format: 'qcow2' });
    const del = await h.call('DELETE', volume);
    expect(parseUpid(String(del.body.data))).toMatchObject({ type: 'imgdel', id: 'local' });
    expect(await h.taskEnd(String(del.body.data))).toMatchObject({ exitstatus: 'OK', log: ["Removed volume 'local:import/debian-12.qcow2'", 'TASK OK'] });
    expect(await content('pve1', 'local', 'import')).toEqual([]);
    const gone = await h.call('DELETE', volume);
    expect([gone.status, gone.statusText]).toEqual([500, "volume 'local:import/debian-12.qcow2' does not exist"]);
  });

  it('an operator who stops a download ends it; its temporary file goes', async () => {
    images.serve('/slow.raw', { body: Buffer.alloc(4 * 1024 * 1024), bytesPerSecond: 256 * 1024 });
    const upid = await download('pve1', 'local', { url: images.urlOf('/slow.raw'), content: 'import', filename: 'slow.raw' });
    await expect.poll(async () => (await h.control<{ downloads: { bytes: number }[] }>('GET', '/state')).downloads[0]?.bytes ?? 0).toBeGreaterThan(0);
    await h.control('POST', `/tasks/${encodeURIComponent(upid)}/end`, { exitstatus: 'interrupted by signal' });
    expect((await h.taskEnd(upid)).exitstatus).toBe('interrupted by signal');
    expect((await h.control<{ downloads: unknown[] }>('GET', '/state')).downloads).toEqual([]);
    expect(await content('pve1', 'local', 'import')).toEqual([]);
  });
});

describe('query-url-metadata', () => {
  it('answers the file name, size and type of a URL', async () => {
    const r = await h.call('GET', '/nodes/pve1/query-url-metadata', { url: images.urlOf(DEFAULT_IMAGE.path) });
    expect(r.body.data).toEqual({ filename: 'demo-cloud.qcow2', size: image().length, mimetype: 'application/octet-stream' });
    images.serve('/download', { body: Buffer.from('x'), contentType: 'text/plain; charset=utf-8', contentDisposition: 'attachment; filename="named.iso"' });
    expect((await h.call('GET', '/nodes/pve2/query-url-metadata', { url: `${images.urlOf('/download')}?id=7` })).body.data).toEqual({ filename: 'named.iso', size: 1, mimetype: 'text/plain' });
  });

  it('refuses what does not answer 200, what cannot be reached and what does not answer in time, in LWP’s words', async () => {
    const missing = await h.call('GET', '/nodes/pve1/query-url-metadata', { url: images.urlOf('/nope.qcow2') });
    expect([missing.status, missing.statusText]).toEqual([500, "invalid server response: '404 Not Found'"]);
    const unknown = await h.call('GET', '/nodes/pve1/query-url-metadata', { url: 'http://images.invalid/x.qcow2' });
    expect(unknown.statusText).toBe("invalid server response: '500 Can't connect to images.invalid:80 (Name or service not known)'");
    const port = await closedPort();
    const refused = await h.call('GET', '/nodes/pve1/query-url-metadata', { url: `http://127.0.0.1:${port}/x` });
    expect(refused.statusText).toBe(`invalid server response: '500 Can't connect to 127.0.0.1:${port} (Connection refused)'`);
    images.serve('/silent', { silent: true });
    await h.control('POST', '/options', { urlTimeoutMs: 200 });
    try {
      expect((await h.call('GET', '/nodes/pve1/query-url-metadata', { url: images.urlOf('/silent') })).statusText).toBe("invalid server response: '500 read timeout'");
    } finally {
      await h.control('POST', '/options', { urlTimeoutMs: null });
    }
  });
});

describe('privileges', () => {
  const USER = 'images@pve';
  const TOKEN = `${USER}!fetch`;
  const auth = `PVEAPIToken=${TOKEN}=fetch-secret`;
  const roles = [
    { roleid: 'Templates', privs: ['Datastore.AllocateTemplate', 'Datastore.Audit'] },
    { roleid: 'Network', privs: ['Sys.AccessNetwork'] },
    { roleid: 'SysAuditModify', privs: ['Sys.Audit', 'Sys.Modify'] },
    { roleid: 'SysAudit', privs: ['Sys.Audit'] },
  ];
  const grant = (path: string, roleid: string) => [{ path, ugid: USER, roleid }, { path, ugid: TOKEN, roleid }];
  const p = useSim({ access: { tokens: [{ tokenid: TOKEN, secret: 'fetch-secret', privsep: true }], roles, acl: [...grant('/storage/local', 'Templates'), ...grant('/nodes/pve1', 'Network'), ...grant('/', 'SysAudit')] } });

  it('download-url needs Datastore.AllocateTemplate on the storage, and Sys.AccessNetwork on the node or Sys.Audit with Sys.Modify on /', async () => {
    const params = { url: images.urlOf(DEFAULT_IMAGE.path), content: 'import', filename: 'p.qcow2' };
    const onNode = await p.call('POST', '/nodes/pve1/storage/local/download-url', params, auth);
    expect(onNode.status).toBe(200);
    expect((await p.taskEnd(String(onNode.body.data), auth)).exitstatus).toBe('OK');
    const elsewhere = await p.call('POST', '/nodes/pve2/storage/local/download-url', params, auth);
    expect([elsewhere.status, elsewhere.statusText]).toEqual([403, 'Permission check failed']);
    const otherStorage = await p.call('POST', '/nodes/pve1/storage/shared-nfs/download-url', params, auth);
    expect(otherStorage.statusText).toBe('Permission check failed (/storage/shared-nfs, Datastore.AllocateTemplate)');
    const metadata = await p.call('GET', '/nodes/pve2/query-url-metadata', { url: params.url }, auth);
    expect([metadata.status, metadata.statusText]).toEqual([403, 'Permission check failed']);
    expect((await p.call('GET', '/nodes/pve1/query-url-metadata', { url: params.url }, auth)).status).toBe(200);
  });

  it('deleting a downloaded file needs Datastore.Allocate on its storage', async () => {
    await p.taskEnd(String((await p.call('POST', '/nodes/pve1/storage/local/download-url', { url: images.urlOf(DEFAULT_IMAGE.path), content: 'import', filename: 'd.qcow2' })).body.data));
    const denied = await p.call('DELETE', `/nodes/pve1/storage/local/content/${encodeURIComponent('local:import/d.qcow2')}`, {}, auth);
    expect([denied.status, denied.statusText]).toEqual([403, 'Permission check failed (/storage/local, Datastore.Allocate)']);
    expect(p.sim.state.storageFiles).toHaveLength(1);
  });
});

describe('faults', () => {
  it('a download fault: the task fails with the message, hangs, or the call is refused; nothing is written', async () => {
    await h.control('POST', '/faults', { op: 'download', mode: 'task_fail', message: 'download failed: exit code 4' });
    expect((await h.taskEnd(await download('pve1', 'local', imageParams('f.qcow2')))).exitstatus).toBe('download failed: exit code 4');
    await h.control('POST', '/faults', { op: 'download', mode: 'hang' });
    const hung = await download('pve1', 'local', imageParams('f.qcow2'));
    await new Promise((r) => setTimeout(r, 50));
    expect(h.sim.state.tasks.get(hung)?.status).toBe('running');
    await h.control('POST', '/faults', { op: 'download', mode: 'http500', message: 'proxy error' });
    const refused = await h.call('POST', '/nodes/pve1/storage/local/download-url', imageParams('f.qcow2'));
    expect([refused.status, refused.statusText]).toEqual([500, 'proxy error']);
    expect(h.sim.state.storageFiles).toEqual([]);
  });

  it('a download whose task status read fails with the task fault stops there', async () => {
    images.serve('/slow2.raw', { body: Buffer.alloc(4 * 1024 * 1024), bytesPerSecond: 256 * 1024 });
    const upid = await download('pve1', 'local', { url: images.urlOf('/slow2.raw'), content: 'import', filename: 'slow.raw' });
    await h.control('POST', '/faults', { op: 'task', mode: 'task_fail', message: 'worker died' });
    expect((await h.taskEnd(upid)).exitstatus).toBe('worker died');
    expect((await h.control<{ downloads: unknown[] }>('GET', '/state')).downloads).toEqual([]);
    expect(h.sim.state.storageFiles).toEqual([]);
  });

  it('a url_metadata fault refuses the query', async () => {
    await h.control('POST', '/faults', { op: 'url_metadata', mode: 'http500', message: 'proxy error' });
    expect((await h.call('GET', '/nodes/pve1/query-url-metadata', { url: images.urlOf(DEFAULT_IMAGE.path) })).statusText).toBe('proxy error');
  });
});

/** A local port nothing listens on. */
async function closedPort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as net.AddressInfo;
  await new Promise((r) => server.close(r));
  return port;
}
