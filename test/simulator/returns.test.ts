/**
 * Every GET the simulator serves answers `data` that is valid against the official schema's
 * `returns`, for both supported Proxmox VE releases, so that independent clients (go-proxmox,
 * the Terraform providers) decode it as they decode a real cluster's answers.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ProxmoxTaskError } from '../../src/proxmox';
import { DEFAULT_IMAGE, DEFAULT_ISO, IMPLEMENTED_CALLS, PVE_VERSIONS, demoCluster, loadSchema, startImageServer, type ImageServer, type MethodSchema, type PveSchema, type PveVersion } from '../../src/simulator';
import { parseFwConf } from '../../src/simulator/firewall-parse';
import { startSim, type SimHarness } from './support';

/** Every GET in the simulator's route table: a new one cannot escape this test. */
const GET_TEMPLATES = IMPLEMENTED_CALLS.filter((call) => call.startsWith('GET ')).map((call) => call.slice('GET '.length));

/** What a route cannot be called without: it is called with that instead of with no query at all (the image server's URL once it runs). */
const REQUIRED_QUERY: Record<string, Record<string, string>> = {
  '/nodes/{node}/qemu/{vmid}/rrddata': { timeframe: 'hour' },
};
let images: ImageServer;
beforeAll(async () => {
  images = await startImageServer();
  REQUIRED_QUERY['/nodes/{node}/query-url-metadata'] = { url: images.urlOf(DEFAULT_IMAGE.path) };
});
afterAll(async () => {
  await images.close();
});

/** Query variants that change the shape of an answer; every route is also called without any (or with just its REQUIRED_QUERY). */
const QUERY_VARIANTS: Record<string, Record<string, string>[]> = {
  '/cluster/resources': [{ type: 'vm' }, { type: 'node' }, { type: 'storage' }],
  '/cluster/nextid': [{ vmid: '4242' }],
  '/pools': [{ poolid: 'customers' }, { poolid: 'customers', type: 'qemu' }],
  '/access/permissions': [{ path: '/vms/101' }, { userid: 'root@pam' }],
  '/nodes/{node}/tasks': [{ source: 'all' }, { errors: '1' }, { source: 'active' }],
  '/nodes/{node}/storage/{storage}/content': [{ vmid: '101' }, { content: 'backup' }, { content: 'images' }, { content: 'import' }, { content: 'iso' }],
  '/nodes/{node}/qemu/{vmid}/config': [{ current: '1' }],
  '/nodes/{node}/qemu/{vmid}/rrddata': [{ timeframe: 'day' }, { timeframe: 'week', cf: 'MAX' }],
  '/nodes/{node}/qemu/{vmid}/firewall/refs': [{ type: 'alias' }, { type: 'ipset' }],
};

/** Demo cluster plus a fourth node that is offline: it shows in the cluster-wide lists. */
const CLUSTER = {
  nodes: [...demoCluster().nodes, { name: 'pve4', status: 'offline' as const, cpus: 8, memoryGiB: 32, cpuFlags: [] }],
};

/** A few guests in different states: running in a pool with tags, stopped, locked, and tasks that failed or warned. */
async function populate(h: SimHarness): Promise<void> {
  await h.wait(await h.client.guests.clone('pve1', 9000, { newid: 101, name: 'web-1', pool: 'customers' }));
  await h.client.guestConfig.setSync('pve1', 101, { tags: 'pvecp;web', cores: 2, memory: 2048, agent: 'enabled=1', onboot: true });
  await h.wait(await h.client.guests.start('pve1', 101));
  await h.wait(await h.client.guests.clone('pve2', 9010, { newid: 102, name: 'db-1' }));
  await h.wait(await h.client.guests.clone('pve1', 9001, { newid: 103, name: 'locked-1' }));
  await h.control('POST', '/faults', { op: 'config', mode: 'lock', message: 'backup' });
  await h.client.guestConfig.setSync('pve1', 103, { description: 'held by a backup' });
  await h.control('POST', '/faults', { op: 'start', mode: 'task_fail', message: 'start failed: QEMU exited with code 1' });
  await expect(h.wait(await h.client.guests.start('pve2', 102))).rejects.toBeInstanceOf(ProxmoxTaskError);
  await h.wait(await h.client.guests.clone('pve3', 9020, { newid: 104, name: 'gone-1' }));
  await h.control('POST', '/faults', { op: 'destroy', mode: 'task_warnings' });
  await h.wait(await h.client.guests.delete('pve3', 104));
  await h.wait(await h.client.snapshots.create('pve1', 101, { name: 'before-upgrade', description: 'safe point', vmstate: true }));
  await h.wait(await h.client.snapshots.create('pve1', 101, { name: 'after-upgrade' }));
  await h.wait(await h.client.backups.create('pve1', 101, { storage: 'local', compress: 'zstd', notesTemplate: '{{guestname}}', protected: true }));
  await h.wait(await h.client.backups.create('pve2', 102, { storage: 'local' }));
  // files from a URL on a local and a shared storage, a guest imported from one, an ISO mounted and a boot order pending on a running guest
  const download = async (node: string, storage: string, content: string, filename: string, path: string) =>
    h.wait(String((await h.api('POST', `/nodes/${node}/storage/${storage}/download-url`, { url: images.urlOf(path), content, filename })).body.data));
  await download('pve1', 'local', 'import', 'cloud.qcow2', DEFAULT_IMAGE.path);
  await download('pve1', 'shared-nfs', 'import', 'cloud.qcow2', DEFAULT_IMAGE.path);
  await download('pve1', 'shared-nfs', 'iso', 'rescue.iso', DEFAULT_ISO.path);
  const created = await h.api('POST', '/nodes/pve1/qemu', { vmid: '105', name: 'imported-1', scsi0: 'local-lvm:0,import-from=local:import/cloud.qcow2', ide2: 'local-lvm:cloudinit', net0: 'virtio,bridge=vmbr0' });
  await h.wait(String(created.body.data));
  await h.wait(String((await h.api('POST', '/nodes/pve1/qemu/105/template')).body.data));
  await h.client.guestConfig.setSync('pve1', 101, { ide0: 'shared-nfs:iso/rescue.iso,media=cdrom', boot: 'order=ide0;scsi0' });
  await populateFirewall(h);
}

/** A guest's firewall with something of each kind, a rule and an ipset entry naming what is gone among them; the cluster's switch on. */
async function populateFirewall(h: SimHarness): Promise<void> {
  const fw = '/nodes/pve1/qemu/101/firewall';
  const calls: [string, string, Record<string, string>][] = [
    ['PUT', '/cluster/firewall/options', { enable: '1', policy_in: 'DROP', log_ratelimit: 'enable=1,rate=1/second' }],
    ['PUT', `${fw}/options`, { enable: '1', ipfilter: '1', ndp: '1', policy_in: 'DROP', log_level_in: 'info' }],
    ['POST', `${fw}/aliases`, { name: 'office', cidr: '198.51.100.0/24', comment: 'HQ' }],
    ['POST', `${fw}/aliases`, { name: 'gone', cidr: '2001:db8::/64' }],
    ['POST', `${fw}/ipset`, { name: 'ipfilter-net0', comment: 'own addresses' }],
    ['POST', `${fw}/ipset/ipfilter-net0`, { cidr: '192.0.2.11' }],
    ['POST', `${fw}/ipset/ipfilter-net0`, { cidr: '2001:db8::11/128', comment: 'v6' }],
    ['POST', `${fw}/ipset/ipfilter-net0`, { cidr: '192.0.2.0/24', nomatch: '1' }],
    ['POST', `${fw}/ipset/ipfilter-net0`, { cidr: 'gone' }],
    ['POST', `${fw}/ipset`, { name: 'web' }],
    ['POST', `${fw}/rules`, { type: 'in', action: 'ACCEPT', proto: 'tcp', dport: '443', enable: '1', comment: 'web' }],
    ['POST', `${fw}/rules`, { type: 'in', action: 'ACCEPT', macro: 'SSH', source: 'office', log: 'info' }],
    ['POST', `${fw}/rules`, { type: 'in', action: 'ACCEPT', source: '+web', iface: 'net0' }],
    ['POST', `${fw}/rules`, { type: 'out', action: 'REJECT', proto: 'icmp', 'icmp-type': 'echo-request', enable: '1' }],
    ['DELETE', `${fw}/ipset/web`, {}],
    ['DELETE', `${fw}/aliases/gone`, {}],
  ];
  for (const [method, path, params] of calls) expect((await h.api(method, path, params)).status, `${method} ${path}`).toBe(200);
}

/** Concrete paths for a template, one per value of each placeholder in the simulated cluster. */
function expand(h: SimHarness, template: string): string[] {
  const onlineNodes = [...h.sim.state.nodes.values()].filter((n) => n.status === 'online').map((n) => n.name);
  const fill = (name: string, values: (bound: Record<string, string>) => string[], bound: Record<string, string>[]) =>
    bound.flatMap((b) => values(b).map((v) => ({ ...b, [name]: v })));
  let bindings: Record<string, string>[] = [{}];
  for (const [, name] of template.matchAll(/\{([^}]+)\}/g)) {
    switch (name) {
      case 'node':
        bindings = fill(name, () => onlineNodes, bindings);
        break;
      case 'vmid':
        bindings = fill(name, (b) => [...h.sim.state.guests.values()].filter((g) => g.node === b.node).map((g) => String(g.vmid)), bindings);
        break;
      case 'storage':
        bindings = fill(name, () => [...h.sim.state.storages.keys()], bindings);
        break;
      case 'snapname':
        bindings = fill(name, (b) => [...(h.sim.state.guests.get(Number(b.vmid))?.snapshots.keys() ?? [])], bindings);
        break;
      case 'volume':
        bindings = fill(
          name,
          (b) => [
            ...h.sim.state.backupVolumes.filter((v) => v.node === b.node && v.storage === b.storage).map((v) => v.volid),
            ...h.sim.state.storageFiles.filter((f) => f.storage === b.storage && (f.node === undefined || f.node === b.node)).map((f) => `${f.storage}:${f.content}/${f.name}`),
          ],
          bindings,
        );
        break;
      case 'pos':
        bindings = fill(name, (b) => firewallOf(h, b.vmid).rules.map((_, pos) => String(pos)), bindings);
        break;
      case 'name':
        bindings = fill(name, (b) => [...(template.includes('/aliases/') ? firewallOf(h, b.vmid).aliases : firewallOf(h, b.vmid).ipsets).keys()], bindings);
        break;
      case 'cidr':
        bindings = fill(name, (b) => (firewallOf(h, b.vmid).ipsets.get(b.name as string) ?? []).map((e) => e.cidr), bindings);
        break;
      case 'upid':
        bindings = fill(name, (b) => h.sim.state.tasks.all().filter((t) => t.node === b.node && t.user === h.sim.tokenId).map((t) => t.upid), bindings);
        break;
      default:
        throw new Error(`no values for {${name}} in ${template}: teach expand() where they come from`);
    }
  }
  return bindings.map((b) => template.replace(/\{([^}]+)\}/g, (_, name: string) => encodeURIComponent(b[name] as string)));
}

/** A guest's firewall file as the simulator holds it. */
const firewallOf = (h: SimHarness, vmid: string | undefined) => parseFwConf(h.sim.state.firewallFiles.get(`${vmid}.fw`) ?? '', 'vm');

interface Answer {
  call: string;
  status: number;
  data: unknown;
}

async function answersOf(h: SimHarness): Promise<Answer[]> {
  const answers: Answer[] = [];
  for (const template of GET_TEMPLATES) {
    for (const path of expand(h, template)) {
      for (const query of [REQUIRED_QUERY[template] ?? {}, ...(QUERY_VARIANTS[template] ?? [])]) {
        const r = await h.api('GET', path, query);
        const qs = new URLSearchParams(query).toString();
        answers.push({ call: `GET ${path}${qs ? `?${qs}` : ''}`, status: r.status, data: r.body.data });
      }
    }
  }
  return answers;
}

describe.each(PVE_VERSIONS)('every GET of a %s simulator', (version: PveVersion) => {
  let h: SimHarness;
  let schema: PveSchema;
  let answers: Answer[];

  beforeAll(async () => {
    h = await startSim({ pveVersion: version, cluster: CLUSTER });
    schema = loadSchema(version);
    await populate(h);
    h.sim.calls.clear();
    answers = await answersOf(h);
  });
  afterAll(async () => {
    await h.close();
  });

  it('is called by this test at least once, and answers 200', () => {
    const called = new Set([...h.sim.calls.keys()]);
    for (const template of GET_TEMPLATES) expect(called, template).toContain(`GET ${template}`);
    expect(answers.filter((a) => a.status !== 200).map((a) => `${a.call}: ${a.status}`)).toEqual([]);
  });

  it(`answers data valid against the PVE ${version} schema's returns`, () => {
    const invalid: Record<string, Record<string, string>> = {};
    for (const a of answers) {
      const method = schema.match('GET', a.call.slice('GET '.length).split('?')[0] as string)?.method;
      expect(method, a.call).toBeDefined();
      const errors = schema.validateReturns(method!, a.data);
      if (errors) invalid[a.call] = errors;
    }
    expect(invalid).toEqual({});
  });
});

describe('the returns check', () => {
  const schema = loadSchema('9.2.3');
  const method = (path: string): MethodSchema => {
    const m = schema.match('GET', path)?.method;
    if (!m) throw new Error(`no GET ${path} in the schema`);
    return m;
  };
  const guest = { vmid: 101, status: 'running', name: 'web-1', maxmem: 1073741824, cpus: 1 };

  it('accepts what Proxmox answers', () => {
    expect(schema.validateReturns(method('/nodes/pve1/qemu'), [guest, { vmid: 102, status: 'stopped', template: 1 }])).toBeUndefined();
  });

  it('rejects JSON booleans, fractional integers, numbers as strings, values outside the enumeration and missing members', () => {
    expect(
      schema.validateReturns(method('/nodes/pve1/qemu'), [
        { ...guest, template: true },
        { ...guest, maxmem: 1.5 },
        { ...guest, cpus: '1' },
        { ...guest, status: 'paused' },
        { status: 'running' },
        { ...guest, vmid: 99 },
      ]),
    ).toEqual({
      'data[0].template': "type check ('boolean') failed - got true",
      'data[1].maxmem': "type check ('integer') failed - got 1.5",
      'data[2].cpus': 'type check (\'number\') failed - got "1"',
      'data[3].status': "value 'paused' does not have a value in the enumeration 'stopped, running'",
      'data[4].vmid': 'property is missing and it is not optional',
      'data[5].vmid': 'value must have a minimum value of 100',
    });
    expect(schema.validateReturns(method('/cluster/status'), { name: 'x' })).toEqual({ data: 'type check (\'array\') failed - got {"name":"x"}' });
  });

  it('rejects members the schema does not declare, unless it allows additional properties', () => {
    expect(schema.validateReturns(method('/nodes/pve1/qemu'), [{ ...guest, colour: 'blue' }])).toEqual({
      'data[0].colour': 'property is not defined in schema and the schema does not allow additional properties',
    });
    const status = { 'boot-info': { mode: 'efi' }, cpu: 0, cpuinfo: { cores: 1, cpus: 2, model: 'x', sockets: 1 }, loadavg: ['0.1'], pveversion: 'pve-manager/9.2.3/x' };
    const nodeStatus = {
      ...status,
      'current-kernel': { machine: 'x86_64', release: '6.8', sysname: 'Linux', version: '#1' },
      memory: { available: 1, free: 1, total: 2, used: 1 },
      rootfs: { avail: 1, free: 1, total: 2, used: 1 },
    };
    // the node status declares additionalProperties: its top level may carry more
    expect(schema.validateReturns(method('/nodes/pve1/status'), { ...nodeStatus, ksm: { shared: 0 } })).toBeUndefined();
    expect(schema.validateReturns(method('/nodes/pve1/status'), { ...nodeStatus, memory: { ...nodeStatus.memory, colour: 1 } })).toEqual({
      'data.memory.colour': 'property is not defined in schema and the schema does not allow additional properties',
    });
    // a map the schema leaves free-form
    expect(schema.validateReturns(method('/access/permissions'), { '/': { 'VM.Audit': 1 } })).toBeUndefined();
  });

  it("accepts only the deviations real Proxmox has from its own schema: nextid's string, a task's token, the host CPU flags", () => {
    expect(schema.validateReturns(method('/cluster/nextid'), '101')).toBeUndefined();
    expect(schema.validateReturns(method('/cluster/nextid'), 'abc')).toEqual({ data: "type check ('integer') failed - got 'abc'" });
    expect(schema.validateReturns(method('/nodes/pve1/qemu'), [{ ...guest, vmid: '101' }])).toEqual({
      'data[0].vmid': 'type check (\'integer\') failed - got "101"',
    });
  });
});
