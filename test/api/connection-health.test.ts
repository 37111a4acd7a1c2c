import { beforeAll, describe, expect, it } from 'vitest';
import { MINIMAL_ROLE_PRIVILEGES } from '../../src/domain/proxmox-privileges';
import { HEALTH_TIMEOUT_MS } from '../../src/services/catalog/connection-health';
import { createSimulator, type Simulator } from '../../src/simulator/server';
import { useTestApiWithCustomer } from '../support/api';

const { api, admin, customer } = useTestApiWithCustomer();

const OPERATOR = { tokenId: 'pvecp@pve!controlplane', tokenSecret: 'operator-token-secret' };
let nextVmid = 1000;

/** A cluster whose privilege-separated token, and its user, hold exactly the minimal role on `/`. */
async function cluster(): Promise<{ simulator: Simulator; url: string; close: () => Promise<void> }> {
  const simulator = createSimulator({
    clusterName: `lab-${nextVmid}`,
    access: {
      tokens: [{ tokenid: OPERATOR.tokenId, secret: OPERATOR.tokenSecret, privsep: true }],
      roles: [{ roleid: 'Minimal', privs: [...MINIMAL_ROLE_PRIVILEGES] }],
      acl: [
        { path: '/', ugid: 'pvecp@pve', roleid: 'Minimal' },
        { path: '/', ugid: OPERATOR.tokenId, roleid: 'Minimal' },
      ],
    },
  });
  const listening = await simulator.listen(0, '127.0.0.1');
  return { simulator, url: listening.url, close: listening.close };
}

/** A connection saved through the API (Proxmox VE checked it then). */
async function connectionTo(url: string): Promise<string> {
  const vmidRange = { start: nextVmid, end: nextVmid + 99 };
  nextVmid += 100;
  const res = await api.request('POST', '/v1/admin/connections', {
    ...admin,
    body: { name: `lab-${vmidRange.start}`, url, plaintextLab: true, ...OPERATOR, vmidRange, nodes: [{ name: 'pve1', vcpus: 8, memoryMiB: 16384, diskGiB: 500 }] },
  });
  expect(res.status).toBe(201);
  return res.body.data.id as string;
}

const read = (id: string) => api.client(admin.token).GET('/v1/admin/connections/{id}', { params: { path: { id } } });

describe('GET /v1/admin/connections/{id}: a connection and its health, read live from Proxmox VE', () => {
  let healthy: Awaited<ReturnType<typeof cluster>>;
  beforeAll(async () => {
    healthy = await cluster();
    return healthy.close;
  });

  it('answers the connection as the list shows it, with its health: reachable, and the minimal role held on every path it works on', async () => {
    const id = await connectionTo(healthy.url);
    const { data, response } = await read(id);
    expect(response.status).toBe(200);
    const { health, ...connection } = data!.data;

    const listed = await api.request('GET', '/v1/admin/connections', admin);
    expect(connection).toEqual(listed.body.data.find((item: { id: string }) => item.id === id));

    expect(health).toMatchObject({ reachable: true, error: null });
    expect(Date.parse(health.checkedAt)).toBeGreaterThan(Date.now() - 60_000);
    expect(health.privileges?.map((entry) => entry.path)).toEqual(['/', '/vms', '/storage/local-lvm', '/sdn/zones/localnetwork']);
    for (const entry of health.privileges ?? []) expect(entry.missing).toEqual([]);
    expect(health.privileges?.[0]?.held).toEqual(['Sys.Audit']);
    expect(health.privileges?.[2]?.held).toEqual(['Datastore.AllocateSpace', 'Datastore.Audit']);
  });

  it("names each privilege the token lost after the connection was saved, on its path; without Sys.Audit the firewall switch is null, with Proxmox VE's reason", async () => {
    const { simulator, url, close } = await cluster();
    try {
      const id = await connectionTo(url);
      // Someone narrows the token's user in Proxmox VE: its privilege-separated token holds only what both hold.
      const narrowed = MINIMAL_ROLE_PRIVILEGES.filter((p) => p !== 'Sys.Audit' && p !== 'VM.Migrate');
      await fetch(`${url}/_sim/users`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ userid: 'pvecp@pve', password: 'not-used-here', path: '/', privs: narrowed }),
      });

      const { health } = (await read(id)).data!.data;
      expect(health).toMatchObject({ reachable: true, error: null, clusterFirewall: null });
      expect(health.privileges?.find((entry) => entry.path === '/')).toEqual({ path: '/', held: [], missing: ['Sys.Audit'] });
      expect(health.privileges?.find((entry) => entry.path === '/vms')?.missing).toEqual(['VM.Migrate']);
      expect(health.unavailable.clusterFirewall).toMatch(/^GET \/cluster\/firewall\/options answered \d{3}: /);
      expect(simulator.calls.get('GET /version')).toBeGreaterThan(0);
    } finally {
      await close();
    }
  });

  it('reads the cluster firewall switch: off, then on once the operator turns it on', async () => {
    const { url, close } = await cluster();
    try {
      const id = await connectionTo(url);
      expect((await read(id)).data!.data.health).toMatchObject({ reachable: true, clusterFirewall: { enabled: false }, unavailable: {} });
      const put = await fetch(`${url}/api2/json/cluster/firewall/options`, {
        method: 'PUT',
        headers: { authorization: 'PVEAPIToken=root@pam!controlplane=sim-secret-change-me', 'content-type': 'application/x-www-form-urlencoded' },
        body: 'enable=1',
      });
      expect(put.status).toBe(200);
      expect((await read(id)).data!.data.health.clusterFirewall).toEqual({ enabled: true });
    } finally {
      await close();
    }
  });

  it('saves a connection to a cluster whose firewall is off with a warning saying so; once it is on, a save warns of nothing', async () => {
    const { url, close } = await cluster();
    try {
      const vmidRange = { start: nextVmid, end: nextVmid + 99 };
      nextVmid += 100;
      const created = await api.request('POST', '/v1/admin/connections', {
        ...admin,
        body: { name: `lab-${vmidRange.start}`, url, plaintextLab: true, ...OPERATOR, vmidRange, nodes: [{ name: 'pve1', vcpus: 8, memoryMiB: 16384, diskGiB: 500 }] },
      });
      expect(created.status).toBe(201);
      expect(created.body.data.warnings).toEqual([{ code: 'CLUSTER_FIREWALL_OFF', message: expect.stringContaining("The cluster's firewall is off") }]);
      const id = created.body.data.id as string;
      const listed = await api.request('GET', '/v1/admin/connections', admin);
      expect(listed.body.data.find((item: { id: string }) => item.id === id)).not.toHaveProperty('warnings');

      const put = await fetch(`${url}/api2/json/cluster/firewall/options`, {
        method: 'PUT',
        headers: { authorization: 'PVEAPIToken=root@pam!controlplane=sim-secret-change-me', 'content-type': 'application/x-www-form-urlencoded' },
        body: 'enable=1',
      });
      expect(put.status).toBe(200);
      const renamed = await api.request('PATCH', `/v1/admin/connections/${id}`, { ...admin, body: { name: `lab-${vmidRange.start}-on` } });
      expect(renamed.status).toBe(200);
      expect(renamed.body.data.warnings).toEqual([]);
    } finally {
      await close();
    }
  });

  it('answers 200 with reachable: false and PROVIDER_UNAVAILABLE when Proxmox VE does not answer in time, within its short timeout', async () => {
    const { simulator, url, close } = await cluster();
    try {
      const id = await connectionTo(url);
      // Every read hangs, as a cluster behind a dead link would.
      simulator.faults.add({ op: 'any', mode: 'timeout', count: 100 });
      const started = Date.now();
      const { data, response } = await read(id);
      const waited = Date.now() - started;
      expect(response.status).toBe(200);
      const { health } = data!.data;
      expect(health).toMatchObject({ reachable: false, error: { code: 'PROVIDER_UNAVAILABLE' }, privileges: null, clusterFirewall: null });
      expect(health.unavailable).toEqual({ privileges: expect.any(String), clusterFirewall: expect.any(String) });
      expect(waited).toBeGreaterThanOrEqual(HEALTH_TIMEOUT_MS);
      expect(waited).toBeLessThan(2 * HEALTH_TIMEOUT_MS);
    } finally {
      await close();
    }
  });

  it('answers 200 with reachable: false when nothing listens at the URL any more', async () => {
    const { url, close } = await cluster();
    const id = await connectionTo(url);
    await close();
    const { data, response } = await read(id);
    expect(response.status).toBe(200);
    expect(data!.data.health).toMatchObject({ reachable: false, error: { code: 'PROVIDER_UNAVAILABLE', message: expect.stringContaining('GET /version') }, privileges: null });
  });

  it('tells a token Proxmox VE refuses (TOKEN_REFUSED) from a token secret no key opens (TOKEN_SECRET_UNREADABLE); the secret is never shown', async () => {
    const refusedId = await connectionTo(healthy.url);
    // The token was deleted in Proxmox VE and made again with a new secret.
    await api.db.proxmoxConnection.update({ where: { id: refusedId }, data: { tokenSecretCipher: api.deps.secrets.seal('a-secret-proxmox-never-issued', refusedId) } });
    const refused = await read(refusedId);
    expect(refused.response.status).toBe(200);
    expect(refused.data!.data.health).toMatchObject({ reachable: false, error: { code: 'TOKEN_REFUSED' }, privileges: null, clusterFirewall: null });
    expect(JSON.stringify(refused.data)).not.toContain('a-secret-proxmox-never-issued');

    const unreadableId = await connectionTo(healthy.url);
    // Sealed for another connection: its associated data does not match, as with a key that left the ring.
    await api.db.proxmoxConnection.update({ where: { id: unreadableId }, data: { tokenSecretCipher: api.deps.secrets.seal(OPERATOR.tokenSecret, refusedId) } });
    const unreadable = await read(unreadableId);
    expect(unreadable.response.status).toBe(200);
    expect(unreadable.data!.data.health).toMatchObject({ reachable: false, error: { code: 'TOKEN_SECRET_UNREADABLE' }, privileges: null, clusterFirewall: null });
    expect(JSON.stringify(unreadable.data)).not.toContain(OPERATOR.tokenSecret);
  });

  it('is for administrators: a customer is refused 403 FORBIDDEN; an unknown connection is 404', async () => {
    const id = await connectionTo(healthy.url);
    const asCustomer = await api.request('GET', `/v1/admin/connections/${id}`, { token: customer.token });
    expect(asCustomer.status).toBe(403);
    expect(asCustomer.body.error.code).toBe('FORBIDDEN');
    expect(asCustomer.text).not.toContain(healthy.url);

    const unknown = await api.request('GET', '/v1/admin/connections/conn_does_not_exist', admin);
    expect(unknown.status).toBe(404);
    expect(unknown.body.error.code).toBe('NOT_FOUND');
  });
});
