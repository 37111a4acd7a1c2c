import { beforeAll, describe, expect, it } from 'vitest';
import { MINIMAL_ROLE_PRIVILEGES, missingPrivileges, privilegesByPath } from '../../src/domain/proxmox-privileges';
import { createSimulator } from '../../src/simulator/server';
import { demoCluster } from '../../src/simulator/spec';
import { useTestApiWithCustomer } from '../support/api';
import { freePort } from '../support/ports';

const { api, admin } = useTestApiWithCustomer();

const TOKEN = { tokenId: 'controlplane@pve!provisioner', tokenSecret: 'b1f0c5a9-e6d3-4c51-9d2e-7d4c4a0e3b8f' };

/** A Proxmox VE cluster to connect to: a simulator with this name, accepting the token above. */
async function cluster(clusterName: string): Promise<string> {
  const listening = await createSimulator({ clusterName, extraTokens: [`${TOKEN.tokenId}=${TOKEN.tokenSecret}`] }).listen(0, '127.0.0.1');
  closers.push(listening.close);
  return listening.url;
}
const closers: (() => Promise<void>)[] = [];

let labA: string;
let labAAgain: string;
let labB: string;
beforeAll(async () => {
  // Two URLs of one cluster (two of its nodes' API endpoints), and another cluster.
  [labA, labAAgain, labB] = await Promise.all([cluster('lab-a'), cluster('lab-a'), cluster('lab-b')]);
  return async () => {
    for (const close of closers) await close();
  };
});

const connect = (name: string, url: string, vmidRange: { start: number; end: number }, overrides: Record<string, unknown> = {}) =>
  api.request('POST', '/v1/admin/connections', {
    ...admin,
    body: { name, url, plaintextLab: true, ...TOKEN, vmidRange, nodes: [{ name: 'pve1', vcpus: 8, memoryMiB: 16384, diskGiB: 500 }], ...overrides },
  });

describe('a connection knows which cluster it reaches', () => {
  it("records the cluster's name, read from Proxmox VE before anything is saved", async () => {
    const res = await connect('lab-a-main', labA, { start: 1000, end: 1999 });
    expect(res.status).toBe(201);
    expect(res.body.data.clusterName).toBe('lab-a');
  });

  it('refuses a second connection to the same cluster whose VMID range overlaps, naming the one it collides with', async () => {
    const first = (await api.db.proxmoxConnection.findFirstOrThrow({ where: { name: 'lab-a-main' } })).id;
    const res = await connect('lab-a-other-url', labAAgain, { start: 1500, end: 2500 });
    expect(res.status).toBe(409);
    expect(res.body.error).toMatchObject({ code: 'CONNECTION_OVERLAP', details: { connectionId: first, vmidRange: { start: 1000, end: 1999 } } });
    expect(await api.db.proxmoxConnection.count({ where: { name: 'lab-a-other-url' } })).toBe(0);
  });

  it('accepts the same cluster with a disjoint range, and another cluster with an overlapping one', async () => {
    expect((await connect('lab-a-second-range', labAAgain, { start: 2000, end: 2999 })).status).toBe(201);
    expect((await connect('lab-b', labB, { start: 1000, end: 1999 })).status).toBe(201);
  });

  it('reads the name of a connection made before names were kept, and still refuses the overlap', async () => {
    await api.db.proxmoxConnection.updateMany({ where: { name: 'lab-b' }, data: { clusterName: null } });
    const res = await connect('lab-b-again', labB, { start: 1900, end: 1950 });
    expect(res.status).toBe(409);
    expect(res.body.error.code).toBe('CONNECTION_OVERLAP');
    expect((await api.db.proxmoxConnection.findFirstOrThrow({ where: { name: 'lab-b' } })).clusterName).toBe('lab-b');
  });

  it('refuses a token Proxmox VE rejects, and answers 503 when Proxmox VE cannot be reached; nothing is saved', async () => {
    const refused = await connect('bad-token', labA, { start: 5000, end: 5999 }, { tokenSecret: 'not-the-secret' });
    expect(refused.status).toBe(400);
    expect(refused.body.error).toMatchObject({ code: 'INVALID_INPUT', details: { fields: { tokenSecret: expect.any(String) } } });
    expect(refused.text).not.toContain('not-the-secret');

    const unreachable = await connect('nobody-home', `http://127.0.0.1:${await freePort()}`, { start: 5000, end: 5999 });
    expect(unreachable.status).toBe(503);
    expect(unreachable.body.error.code).toBe('PROVIDER_UNAVAILABLE');
    expect(await api.db.proxmoxConnection.count({ where: { name: { in: ['bad-token', 'nobody-home'] } } })).toBe(0);
  });
});

describe("a connection's token must hold the minimal role", () => {
  const LIMITED = { tokenId: 'limited@pve!cp', tokenSecret: 'limited-token-secret' };
  const FULL = { tokenId: 'limited@pve!full', tokenSecret: 'full-token-secret' };
  const UNGRANTED = { tokenId: 'limited@pve!ungranted', tokenSecret: 'ungranted-token-secret' };
  let url: string;
  beforeAll(async () => {
    // Tokens privilege separated: LIMITED lacks VM.Config.Memory; none holds anything on the storage
    // `slow-disks`; UNGRANTED has no ACL entry, so it holds nothing, not even Sys.Audit on `/`.
    const listening = await createSimulator({
      clusterName: 'lab-limited',
      cluster: { storages: [...demoCluster().storages, { storage: 'slow-disks' }] },
      access: {
        tokens: [
          { tokenid: LIMITED.tokenId, secret: LIMITED.tokenSecret, privsep: true },
          { tokenid: FULL.tokenId, secret: FULL.tokenSecret, privsep: true },
          { tokenid: UNGRANTED.tokenId, secret: UNGRANTED.tokenSecret, privsep: true },
        ],
        roles: [
          { roleid: 'Almost', privs: MINIMAL_ROLE_PRIVILEGES.filter((p) => p !== 'VM.Config.Memory') },
          { roleid: 'Minimal', privs: [...MINIMAL_ROLE_PRIVILEGES] },
          { roleid: 'Nothing', privs: [] },
        ],
        acl: [
          { path: '/', ugid: 'limited@pve', roleid: 'Minimal' },
          { path: '/storage/slow-disks', ugid: 'limited@pve', roleid: 'Nothing' },
          { path: '/', ugid: LIMITED.tokenId, roleid: 'Almost' },
          { path: '/', ugid: FULL.tokenId, roleid: 'Minimal' },
        ],
      },
    }).listen(0, '127.0.0.1');
    url = listening.url;
    return listening.close;
  });

  it('refuses a connection whose token lacks a privilege with 422 CONNECTION_PRIVILEGES_MISSING, naming privilege and path; nothing is saved', async () => {
    const res = await connect('limited', url, { start: 7000, end: 7099 }, LIMITED);
    expect(res.status).toBe(422);
    expect(res.body.error).toMatchObject({ code: 'CONNECTION_PRIVILEGES_MISSING', details: { missing: [{ privilege: 'VM.Config.Memory', path: '/vms' }] } });
    expect(await api.db.proxmoxConnection.count({ where: { name: 'limited' } })).toBe(0);
  });

  it('refuses a change of token, or of storage, the token cannot work with; the connection stays as it was', async () => {
    const created = await connect('limited-later', url, { start: 7100, end: 7199 }, FULL);
    expect(created.status).toBe(201);
    const id = created.body.data.id as string;
    const patchToken = await api.request('PATCH', `/v1/admin/connections/${id}`, { ...admin, body: LIMITED });
    expect(patchToken.status).toBe(422);
    expect(patchToken.body.error).toMatchObject({ code: 'CONNECTION_PRIVILEGES_MISSING', details: { missing: [{ privilege: 'VM.Config.Memory', path: '/vms' }] } });
    const patchStorage = await api.request('PATCH', `/v1/admin/connections/${id}`, { ...admin, body: { storage: 'slow-disks' } });
    expect(patchStorage.status).toBe(422);
    expect(patchStorage.body.error.details.missing).toEqual([
      { privilege: 'Datastore.AllocateSpace', path: '/storage/slow-disks' },
      { privilege: 'Datastore.Audit', path: '/storage/slow-disks' },
    ]);
    expect(await api.db.proxmoxConnection.findUniqueOrThrow({ where: { id } })).toMatchObject({ tokenId: FULL.tokenId, storage: 'local-lvm' });
  });

  // Proxmox VE answers its identification read (GET /cluster/status) 403 "Permission check failed (/, Sys.Audit)".
  const everythingMissing = missingPrivileges(privilegesByPath({ storage: 'local-lvm' }, () => new Set()));

  it('refuses a token without any ACL entry with 422 CONNECTION_PRIVILEGES_MISSING naming all it lacks, not as an unreachable cluster', async () => {
    const res = await connect('ungranted', url, { start: 7200, end: 7299 }, UNGRANTED);
    expect(res.status).toBe(422);
    expect(res.body.error.code).toBe('CONNECTION_PRIVILEGES_MISSING');
    expect(res.body.error.details.missing).toEqual(everythingMissing);
    expect(res.body.error.details.missing).toContainEqual({ privilege: 'Sys.Audit', path: '/' });
    expect(res.text).not.toContain(UNGRANTED.tokenSecret);
    expect(await api.db.proxmoxConnection.count({ where: { name: 'ungranted' } })).toBe(0);
  });

  it('refuses a change to such a token the same way; the connection keeps its token', async () => {
    const created = await connect('ungranted-later', url, { start: 7300, end: 7399 }, FULL);
    expect(created.status).toBe(201);
    const id = created.body.data.id as string;
    const res = await api.request('PATCH', `/v1/admin/connections/${id}`, { ...admin, body: UNGRANTED });
    expect(res.status).toBe(422);
    expect(res.body.error.code).toBe('CONNECTION_PRIVILEGES_MISSING');
    expect(res.body.error.details.missing).toEqual(everythingMissing);
    expect(await api.db.proxmoxConnection.findUniqueOrThrow({ where: { id } })).toMatchObject({ tokenId: FULL.tokenId });
  });
});
