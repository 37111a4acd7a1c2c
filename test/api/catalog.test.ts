import { beforeAll, describe, expect, it } from 'vitest';
import { DEMO_IMAGES, DEMO_PLANS, DEMO_TEMPLATE_VMIDS } from '../../src/db/seed';
import { createSimulator } from '../../src/simulator/server';
import { startTestApi, type TestApi, type TestResponse, useTestApiWithCustomer } from '../support/api';

const { api, admin, customer } = useTestApiWithCustomer();
/** Every response this file receives, to prove no secret ever appears in one. */
const seen: string[] = [];

const TOKEN_SECRET = '7d4c4a0e-3b8f-4c51-9d2e-b1f0c5a9e6d3';

async function call(method: string, path: string, options: Parameters<TestApi['request']>[2] = {}): Promise<TestResponse> {
  const res = await api.request(method, path, options);
  seen.push(res.text);
  return res;
}

/** The Proxmox VE a new connection must reach before it is saved: a simulator accepting this file's token. */
let proxmoxUrl = '';
beforeAll(async () => {
  const listening = await createSimulator({ extraTokens: [`controlplane@pve!provisioner=${TOKEN_SECRET}`] }).listen(0, '127.0.0.1');
  proxmoxUrl = listening.url;
  return listening.close;
});

const connectionBody = (overrides: Record<string, unknown> = {}) => ({
  name: 'cluster-a',
  url: `${proxmoxUrl}/`,
  plaintextLab: true,
  tokenId: 'controlplane@pve!provisioner',
  tokenSecret: TOKEN_SECRET,
  vmidRange: { start: 1000, end: 8999 },
  nodes: [
    { name: 'node1', vcpus: 32, memoryMiB: 65536, diskGiB: 1000 },
    { name: 'node2', vcpus: 16, memoryMiB: 32768, diskGiB: 500 },
  ],
  ...overrides,
});

describe('connections', () => {
  let connectionId: string;

  it('stores the token secret encrypted and never returns it', async () => {
    const res = await call('POST', '/v1/admin/connections', { ...admin, body: connectionBody() });
    expect(res.status).toBe(201);
    const data = res.body.data;
    connectionId = data.id;
    expect(data).toMatchObject({
      name: 'cluster-a',
      url: proxmoxUrl,
      tokenId: 'controlplane@pve!provisioner',
      hasTokenSecret: true,
      clusterName: 'pvecp-sim',
      vmidRange: { start: 1000, end: 8999 },
      storage: 'local-lvm',
      insecureTls: false,
      caCert: null,
    });
    expect(data.id).toMatch(/^conn_/);
    expect(data.nodes.map((n: { name: string }) => n.name)).toEqual(['node1', 'node2']);
    expect(data).not.toHaveProperty('tokenSecret');
    expect(data).not.toHaveProperty('tokenSecretCipher');

    const row = await api.db.proxmoxConnection.findUniqueOrThrow({ where: { id: connectionId } });
    expect(row.tokenSecretCipher).not.toContain(TOKEN_SECRET);
    expect(api.deps.secrets.open(row.tokenSecretCipher, connectionId)).toBe(TOKEN_SECRET);
    // Bound to its connection: the ciphertext does not open under another id.
    expect(() => api.deps.secrets.open(row.tokenSecretCipher, 'conn_other')).toThrow();

    const list = await call('GET', '/v1/admin/connections', admin);
    expect(list.body.data).toHaveLength(1);
    // The save's answer alone carries `warnings` (the cluster firewall switch read after the save).
    const { warnings: _warnings, ...saved } = data;
    expect(list.body.data[0]).toEqual(saved);
  });

  it('answers 409 CONFLICT for a duplicate name', async () => {
    // A range of its own, so only the name collides.
    const res = await call('POST', '/v1/admin/connections', { ...admin, body: connectionBody({ vmidRange: { start: 20_000, end: 20_999 } }) });
    expect(res.status).toBe(409);
    expect(res.body.error).toMatchObject({ code: 'CONFLICT', details: { fields: { name: 'already in use' } } });
  });

  it('validates the token id, URL, VMID range, nodes and unknown fields', async () => {
    const res = await call('POST', '/v1/admin/connections', {
      ...admin,
      body: connectionBody({
        name: 'cluster-b',
        url: 'ftp://pve.example.net',
        tokenId: 'root@pam',
        vmidRange: { start: 5000, end: 4000 },
        nodes: [
          { name: 'n1', vcpus: 1, memoryMiB: 1024, diskGiB: 10 },
          { name: 'n1', vcpus: 1, memoryMiB: 1024, diskGiB: 10 },
        ],
        password: 'x',
      }),
    });
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('INVALID_INPUT');
    expect(res.body.error.details.fields).toMatchObject({ password: 'unknown field' });
    const again = await call('POST', '/v1/admin/connections', {
      ...admin,
      body: connectionBody({ name: 'cluster-b', url: 'ftp://pve.example.net', tokenId: 'root@pam', vmidRange: { start: 5000, end: 4000 }, nodes: [{ name: 'n1', vcpus: 1, memoryMiB: 1024, diskGiB: 10 }, { name: 'n1', vcpus: 1, memoryMiB: 1024, diskGiB: 10 }] }),
    });
    expect(Object.keys(again.body.error.details.fields).sort()).toEqual(['nodes.1.name', 'tokenId', 'url', 'vmidRange.end']);

    const credsInUrl = await call('POST', '/v1/admin/connections', { ...admin, body: connectionBody({ name: 'cluster-c', url: 'https://root:pw@pve.example.net:8006' }) });
    expect(credsInUrl.body.error.details.fields).toHaveProperty('url');
    const noNodes = await call('POST', '/v1/admin/connections', { ...admin, body: connectionBody({ name: 'cluster-c', nodes: [] }) });
    expect(noNodes.body.error.details.fields).toHaveProperty('nodes');
  });
});

describe('IP pools', () => {
  it('creates IPv4 and IPv6 pools in canonical form', async () => {
    const v4 = await call('POST', '/v1/admin/ip-pools', { ...admin, body: { cidr: '203.0.113.0/24', gateway: '203.0.113.1', bridge: 'vmbr0', vlan: 100, dns: ['1.1.1.1'], family: 4 } });
    expect(v4.status).toBe(201);
    expect(v4.body.data).toMatchObject({ cidr: '203.0.113.0/24', family: 4, gateway: '203.0.113.1', bridge: 'vmbr0', vlan: 100, dns: ['1.1.1.1'], locationId: null });
    expect(v4.body.data.id).toMatch(/^pool_/);

    const v6 = await call('POST', '/v1/admin/ip-pools', { ...admin, body: { cidr: '2001:DB8:0:0AB0::/64', gateway: '2001:db8:0:ab0:0:0:0:1', bridge: 'vmbr1', dns: ['2620:fe::fe'], family: 6 } });
    expect(v6.status).toBe(201);
    expect(v6.body.data).toMatchObject({ cidr: '2001:db8:0:ab0::/64', gateway: '2001:db8:0:ab0::1', vlan: null, family: 6 });
  });

  it('rejects a gateway outside the network, a family mismatch, host bits and bad values', async () => {
    const cases: [Record<string, unknown>, string][] = [
      [{ cidr: '192.0.2.0/24', gateway: '192.0.3.1', bridge: 'vmbr0', dns: [], family: 4 }, 'gateway'],
      [{ cidr: '192.0.2.0/24', gateway: '192.0.2.0', bridge: 'vmbr0', dns: [], family: 4 }, 'gateway'],
      [{ cidr: '192.0.2.0/24', gateway: '192.0.2.255', bridge: 'vmbr0', dns: [], family: 4 }, 'gateway'],
      [{ cidr: '192.0.2.0/24', gateway: '2001:db8::1', bridge: 'vmbr0', dns: [], family: 4 }, 'gateway'],
      [{ cidr: '192.0.2.0/24', gateway: '192.0.2.1', bridge: 'vmbr0', dns: [], family: 6 }, 'family'],
      [{ cidr: '192.0.2.7/24', gateway: '192.0.2.1', bridge: 'vmbr0', dns: [], family: 4 }, 'cidr'],
      [{ cidr: '192.0.2.0/33', gateway: '192.0.2.1', bridge: 'vmbr0', dns: [], family: 4 }, 'cidr'],
      [{ cidr: 'not-a-cidr', gateway: '192.0.2.1', bridge: 'vmbr0', dns: [], family: 4 }, 'cidr'],
      [{ cidr: '192.0.2.0/24', gateway: '192.0.2.1', bridge: 'vmbr0; rm -rf', dns: [], family: 4 }, 'bridge'],
      [{ cidr: '192.0.2.0/24', gateway: '192.0.2.1', bridge: 'vmbr0', vlan: 4095, dns: [], family: 4 }, 'vlan'],
      [{ cidr: '192.0.2.0/24', gateway: '192.0.2.1', bridge: 'vmbr0', dns: ['dns.example'], family: 4 }, 'dns.0'],
      [{ cidr: '192.0.2.0/24', gateway: '192.0.2.1', bridge: 'vmbr0', dns: [], family: 5 }, 'family'],
      [{ cidr: '2001:db8::/64', gateway: '2001:db9::1', bridge: 'vmbr0', dns: [], family: 6 }, 'gateway'],
    ];
    for (const [body, field] of cases) {
      const res = await call('POST', '/v1/admin/ip-pools', { ...admin, body });
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.error.details.fields, JSON.stringify(body)).toHaveProperty([field]);
    }
  });

  it('answers 409 CONFLICT for the same or an overlapping network', async () => {
    const same = await call('POST', '/v1/admin/ip-pools', { ...admin, body: { cidr: '203.0.113.0/24', gateway: '203.0.113.1', bridge: 'vmbr0', dns: [], family: 4 } });
    expect(same.status).toBe(409);
    const inside = await call('POST', '/v1/admin/ip-pools', { ...admin, body: { cidr: '203.0.113.128/25', gateway: '203.0.113.129', bridge: 'vmbr0', dns: [], family: 4 } });
    expect(inside.status).toBe(409);
    const around = await call('POST', '/v1/admin/ip-pools', { ...admin, body: { cidr: '203.0.112.0/23', gateway: '203.0.112.1', bridge: 'vmbr0', dns: [], family: 4 } });
    expect(around.status).toBe(409);
    expect(around.body.error.details.fields).toEqual({ cidr: 'overlaps an existing pool' });
  });
});

describe('locations', () => {
  let connectionId: string;
  let v4PoolId: string;
  let v6PoolId: string;

  beforeAll(async () => {
    connectionId = (await call('GET', '/v1/admin/connections', admin)).body.data[0].id;
    const pools = (await call('GET', '/v1/admin/ip-pools', admin)).body.data as { id: string; family: number }[];
    v4PoolId = pools.find((p) => p.family === 4)?.id ?? '';
    v6PoolId = pools.find((p) => p.family === 6)?.id ?? '';
  });

  it('answers 400 naming the field for a missing connection or pool, and requires an IPv4 pool', async () => {
    const missing = await call('POST', '/v1/admin/locations', { ...admin, body: { name: 'fra1', connectionId: 'conn_missing', ipPools: [v4PoolId, 'pool_missing'] } });
    expect(missing.status).toBe(400);
    expect(missing.body.error.details.fields).toEqual({ connectionId: 'no such connection', 'ipPools.1': 'no such IP pool' });

    const v6only = await call('POST', '/v1/admin/locations', { ...admin, body: { name: 'fra1', connectionId, ipPools: [v6PoolId] } });
    expect(v6only.status).toBe(400);
    expect(v6only.body.error.details.fields).toHaveProperty('ipPools');
  });

  it('creates a location holding its pools, once', async () => {
    const res = await call('POST', '/v1/admin/locations', { ...admin, body: { name: 'fra1', connectionId, ipPools: [v6PoolId, v4PoolId] } });
    expect(res.status).toBe(201);
    expect(res.body.data).toMatchObject({ name: 'fra1', connectionId });
    expect(res.body.data.id).toMatch(/^loc_/);
    expect(res.body.data.ipPools.map((p: { id: string; locationId: string }) => [p.id, p.locationId])).toEqual([
      [v4PoolId, res.body.data.id],
      [v6PoolId, res.body.data.id],
    ]);

    const dupName = await call('POST', '/v1/admin/locations', { ...admin, body: { name: 'fra1', connectionId, ipPools: [v4PoolId] } });
    expect(dupName.status).toBe(409);

    const poolTaken = await call('POST', '/v1/admin/locations', { ...admin, body: { name: 'fra2', connectionId, ipPools: [v4PoolId] } });
    expect(poolTaken.status).toBe(409);
    expect(poolTaken.body.error.details.fields).toEqual({ 'ipPools.0': 'already in another location' });
    expect(await api.db.location.count({ where: { name: 'fra2' } })).toBe(0);
  });
});

describe('plans and images', () => {
  it('creates and lists plans; duplicate names are 409', async () => {
    const res = await call('POST', '/v1/admin/plans', { ...admin, body: { name: 'standard-2', vcpus: 2, memoryMiB: 4096, diskGiB: 50, defaultUsername: 'cloud' } });
    expect(res.status).toBe(201);
    expect(res.body.data).toMatchObject({ name: 'standard-2', vcpus: 2, memoryMiB: 4096, diskGiB: 50, defaultUsername: 'cloud' });
    expect(res.body.data.id).toMatch(/^plan_/);
    const dup = await call('POST', '/v1/admin/plans', { ...admin, body: { name: 'standard-2', vcpus: 1, memoryMiB: 1024, diskGiB: 10 } });
    expect(dup.status).toBe(409);
    const bad = await call('POST', '/v1/admin/plans', { ...admin, body: { name: 'bad name!', vcpus: 0, memoryMiB: 1024, diskGiB: 10, defaultUsername: 'Root User', gpu: true } });
    expect(bad.status).toBe(400);
    expect(Object.keys(bad.body.error.details.fields).sort()).toEqual(['defaultUsername', 'gpu', 'name', 'vcpus']);
  });

  it('creates an image with templates on known nodes only', async () => {
    const connectionId = (await call('GET', '/v1/admin/connections', admin)).body.data[0].id;
    const image = {
      name: 'debian-12',
      os: 'debian',
      version: '12',
      loginMethods: ['password', 'ssh'],
      defaultUsername: 'debian',
      rootAllowed: false,
      templates: [
        { connectionId, node: 'node1', templateVmid: 9000 },
        { connectionId, node: 'node2', templateVmid: 9010 },
      ],
    };
    const unknownNode = await call('POST', '/v1/admin/images', { ...admin, body: { ...image, templates: [{ connectionId, node: 'node9', templateVmid: 9000 }, { connectionId: 'conn_missing', node: 'node1', templateVmid: 9000 }] } });
    expect(unknownNode.status).toBe(400);
    expect(unknownNode.body.error.details.fields).toEqual({ 'templates.0.node': 'no such node on this connection', 'templates.1.connectionId': 'no such connection' });

    const root = await call('POST', '/v1/admin/images', { ...admin, body: { ...image, defaultUsername: 'root' } });
    expect(root.body.error.details.fields).toEqual({ defaultUsername: 'root requires rootAllowed' });
    const twice = await call('POST', '/v1/admin/images', { ...admin, body: { ...image, loginMethods: ['ssh', 'ssh'], templates: [image.templates[0], image.templates[0]] } });
    expect(Object.keys(twice.body.error.details.fields).sort()).toEqual(['loginMethods', 'templates.1.node']);
    const badMethod = await call('POST', '/v1/admin/images', { ...admin, body: { ...image, loginMethods: ['telnet'] } });
    expect(badMethod.body.error.details.fields).toHaveProperty(['loginMethods.0']);

    const created = await call('POST', '/v1/admin/images', { ...admin, body: image });
    expect(created.status).toBe(201);
    expect(created.body.data).toMatchObject({ name: 'debian-12', loginMethods: ['password', 'ssh'], rootAllowed: false });
    expect(created.body.data.templates.map((t: { node: string; templateVmid: number }) => [t.node, t.templateVmid])).toEqual([
      ['node1', 9000],
      ['node2', 9010],
    ]);
    expect((await call('POST', '/v1/admin/images', { ...admin, body: image })).status).toBe(409);
  });
});

describe('customer catalog', () => {
  it('shows plans, images and locations without provider coordinates', async () => {
    const plans = await call('GET', '/v1/plans', { token: customer.token });
    const images = await call('GET', '/v1/images', { token: customer.token });
    const locations = await call('GET', '/v1/locations', { token: customer.token });
    for (const res of [plans, images, locations]) expect(res.status).toBe(200);

    expect(plans.body.data).toEqual([
      {
        id: expect.stringMatching(/^plan_/),
        name: 'standard-2',
        vcpus: 2,
        memoryMiB: 4096,
        diskGiB: 50,
        snapshotLimit: 0,
        backupLimit: 0,
        // unmetered by default
        trafficAllowanceGiB: null,
        trafficCounted: 'out',
        trafficOverage: 'none',
        throttleMbps: null,
        billingPeriod: 'calendar_month',
      },
    ]);
    expect(images.body.data).toEqual([
      { id: expect.stringMatching(/^img_/), name: 'debian-12', os: 'debian', version: '12', loginMethods: ['password', 'ssh'], defaultUsername: 'debian', rootAllowed: false },
    ]);
    expect(locations.body.data).toEqual([{ id: expect.stringMatching(/^loc_/), name: 'fra1', ipv4: true, ipv6: true, snapshots: true, backups: false }]);

    const connection = (await call('GET', '/v1/admin/connections', admin)).body.data[0];
    const text = [plans.text, images.text, locations.text].join('\n');
    for (const coordinate of [connection.id, connection.url, 'pve.example.net', 'node1', 'node2', '9000', '9010', 'vmbr', 'local-lvm', 'templates', 'connectionId', '203.0.113', 'vlan']) {
      expect(text, coordinate).not.toContain(coordinate);
    }
  });

  it('is readable by admins too and pages like every list', async () => {
    const res = await call('GET', '/v1/plans?limit=1', admin);
    expect(res.status).toBe(200);
    expect(res.body.data).toHaveLength(1);
    expect(res.body.meta).toEqual({});
  });
});

describe('demo seed', () => {
  it('seeds once into an empty catalog only', async () => {
    const fresh = await startTestApi();
    try {
      const result = await fresh.seedDemo({ proxmoxUrl: 'http://127.0.0.1:8006', tokenId: 'root@pam!sim', tokenSecret: 'sim-secret-value' });
      expect(result.seeded).toBe(true);
      if (!result.seeded) return;
      expect(Object.keys(result.plans).sort()).toEqual(['large', 'medium', 'small']);
      expect(Object.keys(result.images).sort()).toEqual(DEMO_IMAGES.map((i) => i.name).sort());

      // The demo customer's token works and sees the demo catalog.
      const images = await fresh.request('GET', '/v1/images', { token: result.customerToken });
      expect(images.status).toBe(200);
      const byName = Object.fromEntries((images.body.data as { name: string; loginMethods: string[] }[]).map((i) => [i.name, i.loginMethods]));
      expect(byName).toMatchObject({ 'debian-12': ['password', 'ssh'], 'debian-12-ssh-only': ['ssh'], 'appliance-no-login': [] });
      const plans = await fresh.request('GET', '/v1/plans', { token: result.customerToken });
      expect(plans.body.data).toHaveLength(DEMO_PLANS.length);
      const locations = await fresh.request('GET', '/v1/locations', { token: result.customerToken });
      expect(locations.body.data).toEqual([{ id: result.locationId, name: 'demo', ipv4: true, ipv6: true, snapshots: true, backups: true }]);

      const connection = (await fresh.request('GET', '/v1/admin/connections', { token: fresh.adminToken })).body.data[0];
      expect(connection).toMatchObject({ id: result.connectionId, url: 'http://127.0.0.1:8006', tokenId: 'root@pam!sim', vmidRange: { start: 1000, end: 8999 }, storage: 'local-lvm' });
      expect(connection.nodes.map((n: { name: string }) => n.name)).toEqual(['pve1', 'pve2', 'pve3']);
      const debian = (await fresh.request('GET', '/v1/admin/images', { token: fresh.adminToken })).body.data.find((i: { name: string }) => i.name === 'debian-12');
      expect(debian.templates.map((t: { node: string; templateVmid: number }) => [t.node, t.templateVmid])).toEqual(
        Object.entries(DEMO_TEMPLATE_VMIDS['debian-12']),
      );
      const tenant = (await fresh.request('GET', `/v1/admin/tenants/${result.tenantId}`, { token: fresh.adminToken })).body.data;
      expect(tenant).toMatchObject({ name: 'demo', quota: { instances: 20, vcpus: 40, memoryMiB: 65536, diskGiB: 400 } });

      expect(await fresh.seedDemo()).toEqual({ seeded: false });
      expect(await fresh.db.plan.count()).toBe(DEMO_PLANS.length);
    } finally {
      await fresh.close();
    }
  });

  it('does nothing when a catalog exists', async () => {
    expect(await api.seedDemo()).toEqual({ seeded: false });
  });
});

describe('secrets', () => {
  it('never returned the Proxmox token secret in any response', () => {
    expect(seen.length).toBeGreaterThan(20);
    for (const text of seen) expect(text).not.toContain(TOKEN_SECRET);
  });
});
