/**
 * The simulator's packet oracle (`POST /_sim/firewall/packet`) decides as pve-firewall's compiled
 * chains do: nothing acts without the cluster switch and the NIC's `firewall=1`; a guest with
 * `ipfilter` and `macfilter` cannot send with a neighbour's IPv4, IPv6 or MAC address (nor claim
 * its IPv4 address in ARP) while its own pass; inbound traffic meets the rules in order, then
 * `policy_in`. The firewall is configured here only through the Proxmox API, as a client would.
 */
import { describe, expect, it } from 'vitest';
import { PVE_VERSIONS, type PveVersion } from '../../src/simulator';
import { startSim, useSim, type SimHarness } from './support';

const h = useSim();

interface Server {
  vmid: number;
  mac: string;
  ipv4: string;
  ipv6: string;
}

interface Verdict {
  verdict: string;
  because: string;
  detail: string;
}

async function ok(sim: SimHarness, method: string, path: string, params: Record<string, string> = {}): Promise<unknown> {
  const answer = await sim.api(method, path, params);
  expect(answer.status, `${method} ${path}: ${answer.text}`).toBe(200);
  return answer.body.data;
}

const fw = (vmid: number) => `/nodes/pve1/qemu/${vmid}/firewall`;

/**
 * A server as the control plane builds one: a clone whose net0 carries `firewall=1`, its
 * firewall on with ipfilter (and macfilter by default), `ipfilter-net0` holding its addresses.
 */
async function server(sim: SimHarness, vmid: number, ipv4: string, ipv6: string, options: Record<string, string> = {}): Promise<Server> {
  await sim.wait((await sim.api('POST', '/nodes/pve1/qemu/9000/clone', { newid: String(vmid), name: `srv-${vmid}` })).body.data as string);
  const config = (await ok(sim, 'GET', `/nodes/pve1/qemu/${vmid}/config`)) as { net0: string };
  await ok(sim, 'PUT', `/nodes/pve1/qemu/${vmid}/config`, { net0: `${config.net0},firewall=1` });
  await ok(sim, 'PUT', `${fw(vmid)}/options`, { enable: '1', ipfilter: '1', ...options });
  await ok(sim, 'POST', `${fw(vmid)}/ipset`, { name: 'ipfilter-net0' });
  await ok(sim, 'POST', `${fw(vmid)}/ipset/ipfilter-net0`, { cidr: `${ipv4}/32` });
  await ok(sim, 'POST', `${fw(vmid)}/ipset/ipfilter-net0`, { cidr: `${ipv6}/128` });
  const mac = /=([0-9A-F:]{17})/.exec(config.net0)?.[1] as string;
  return { vmid, mac, ipv4, ipv6 };
}

async function packet(sim: SimHarness, body: Record<string, unknown>): Promise<Verdict> {
  const res = await fetch(`${sim.server.url}/_sim/firewall/packet`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) });
  expect(res.status, JSON.stringify(body)).toBe(200);
  return (await res.json()) as Verdict;
}

const clusterFirewall = (sim: SimHarness, enable: '0' | '1') => ok(sim, 'PUT', '/cluster/firewall/options', { enable });

/** Two neighbours on the same bridge, the cluster firewall on. */
async function neighbours(sim: SimHarness): Promise<[Server, Server]> {
  await clusterFirewall(sim, '1');
  return [await server(sim, 101, '192.0.2.11', '2001:db8::11'), await server(sim, 102, '192.0.2.12', '2001:db8::12')];
}

const WEB = { dest: '203.0.113.80', protocol: 'tcp', dport: 443 };

describe('anti-spoofing', () => {
  it("drops a server sending with its neighbour's IPv4 or IPv6 address, and passes its own", async () => {
    const [a, b] = await neighbours(h);
    expect(await packet(h, { vmid: a.vmid, direction: 'out', source: a.ipv4, ...WEB })).toMatchObject({ verdict: 'ACCEPT', because: 'policy_out' });
    expect(await packet(h, { vmid: a.vmid, direction: 'out', source: b.ipv4, ...WEB })).toEqual({
      verdict: 'DROP', because: 'ipfilter-net0', detail: `source ${b.ipv4} is not in ipfilter-net0`,
    });
    const v6 = { dest: '2001:db8:ffff::80', protocol: 'tcp', dport: 443 };
    expect(await packet(h, { vmid: a.vmid, direction: 'out', source: a.ipv6, ...v6 })).toMatchObject({ verdict: 'ACCEPT' });
    expect(await packet(h, { vmid: a.vmid, direction: 'out', source: b.ipv6, ...v6 })).toMatchObject({ verdict: 'DROP', because: 'ipfilter-net0' });
  });

  it("passes the link-local address Proxmox derives from the server's MAC, and drops any other link-local address", async () => {
    const [a, b] = await neighbours(h);
    const linkLocal = (mac: string) => {
      const [o0, o1, o2, o3, o4, o5] = mac.toLowerCase().split(':') as string[];
      return `fe80::${(parseInt(o0 as string, 16) ^ 2).toString(16).padStart(2, '0')}${o1}:${o2}ff:fe${o3}:${o4}${o5}`;
    };
    const v6 = { dest: 'fe80::1', protocol: 'udp', dport: 5353 };
    expect(await packet(h, { vmid: a.vmid, direction: 'out', source: linkLocal(a.mac), ...v6 })).toMatchObject({ verdict: 'ACCEPT' });
    expect(await packet(h, { vmid: a.vmid, direction: 'out', source: linkLocal(b.mac), ...v6 })).toMatchObject({ verdict: 'DROP', because: 'ipfilter-net0' });
  });

  it("drops a server sending with its neighbour's MAC, even from its own address", async () => {
    const [a, b] = await neighbours(h);
    expect(await packet(h, { vmid: a.vmid, direction: 'out', source: a.ipv4, sourceMac: b.mac, ...WEB })).toEqual({
      verdict: 'DROP', because: 'options.macfilter', detail: `source MAC ${b.mac} is not net0's ${a.mac}`,
    });
    expect(await packet(h, { vmid: a.vmid, direction: 'out', source: a.ipv4, sourceMac: a.mac.toLowerCase(), ...WEB })).toMatchObject({ verdict: 'ACCEPT' });
  });

  it("drops ARP claiming the neighbour's IPv4 address or sent with its MAC; the server's own ARP passes", async () => {
    const [a, b] = await neighbours(h);
    expect(await packet(h, { vmid: a.vmid, direction: 'out', kind: 'arp', source: a.ipv4 })).toMatchObject({ verdict: 'ACCEPT', because: 'ebtables' });
    expect(await packet(h, { vmid: a.vmid, direction: 'out', kind: 'arp', source: b.ipv4 })).toMatchObject({ verdict: 'DROP', because: 'ipfilter-net0' });
    expect(await packet(h, { vmid: a.vmid, direction: 'out', kind: 'arp', source: a.ipv4, sourceMac: b.mac })).toMatchObject({ verdict: 'DROP', because: 'options.macfilter' });
  });

  it('with ipfilter on and no ipfilter-net0, passes only the link-local address; DHCP gets through before any address is known', async () => {
    await clusterFirewall(h, '1');
    const a = await server(h, 101, '192.0.2.11', '2001:db8::11');
    await ok(h, 'DELETE', `${fw(101)}/ipset/ipfilter-net0`, { force: '1' });
    expect(await packet(h, { vmid: a.vmid, direction: 'out', source: a.ipv4, ...WEB })).toMatchObject({ verdict: 'DROP', because: 'ipfilter-net0' });
    const discover = { vmid: a.vmid, direction: 'out', source: '0.0.0.0', dest: '255.255.255.255', protocol: 'udp', sport: 68, dport: 67 };
    expect(await packet(h, discover)).toMatchObject({ verdict: 'ACCEPT', because: 'options.dhcp' });
    await ok(h, 'PUT', `${fw(101)}/options`, { dhcp: '0' });
    expect(await packet(h, discover)).toMatchObject({ verdict: 'DROP', because: 'ipfilter-net0' });
  });

  it('an ipfilter-net0 ipset filters even with ipfilter off; with neither, any source passes', async () => {
    await clusterFirewall(h, '1');
    const a = await server(h, 101, '192.0.2.11', '2001:db8::11', { ipfilter: '0' });
    expect(await packet(h, { vmid: a.vmid, direction: 'out', source: '192.0.2.99', ...WEB })).toMatchObject({ verdict: 'DROP', because: 'ipfilter-net0' });
    await ok(h, 'DELETE', `${fw(101)}/ipset/ipfilter-net0`, { force: '1' });
    expect(await packet(h, { vmid: a.vmid, direction: 'out', source: '192.0.2.99', ...WEB })).toMatchObject({ verdict: 'ACCEPT', because: 'policy_out' });
  });
});

describe('nothing acts unless every switch is on', () => {
  it('passes everything while the cluster firewall is off', async () => {
    const [a, b] = await neighbours(h);
    await clusterFirewall(h, '0');
    expect(await packet(h, { vmid: a.vmid, direction: 'out', source: b.ipv4, sourceMac: b.mac, ...WEB })).toEqual({
      verdict: 'ACCEPT', because: 'cluster.enable', detail: 'the cluster firewall is off: no rule is compiled',
    });
    expect(await packet(h, { vmid: a.vmid, direction: 'in', source: '198.51.100.9', dest: a.ipv4, protocol: 'tcp', dport: 25 })).toMatchObject({ verdict: 'ACCEPT', because: 'cluster.enable' });
  });

  it("passes everything on a NIC without firewall=1, and while the server's own firewall is off", async () => {
    const [a, b] = await neighbours(h);
    const config = (await ok(h, 'GET', '/nodes/pve1/qemu/101/config')) as { net0: string };
    await ok(h, 'PUT', '/nodes/pve1/qemu/101/config', { net0: config.net0.replace(',firewall=1', '') });
    expect(await packet(h, { vmid: a.vmid, direction: 'out', source: b.ipv4, ...WEB })).toMatchObject({ verdict: 'ACCEPT', because: 'net0.firewall' });
    await ok(h, 'PUT', '/nodes/pve1/qemu/101/config', { net0: `${config.net0.replace(',firewall=1', '')},firewall=1` });
    await ok(h, 'PUT', `${fw(101)}/options`, { enable: '0' });
    expect(await packet(h, { vmid: a.vmid, direction: 'out', source: b.ipv4, ...WEB })).toMatchObject({ verdict: 'ACCEPT', because: 'options.enable' });
  });
});

describe('inbound rules', () => {
  const inbound = (a: Server, extra: Record<string, unknown>) => packet(h, { vmid: a.vmid, direction: 'in', source: '198.51.100.9', dest: a.ipv4, protocol: 'tcp', ...extra });

  it('a rule opening tcp/443 lets 443 in under policy_in DROP, and nothing else', async () => {
    const [a] = await neighbours(h);
    expect(await inbound(a, { dport: 443 })).toEqual({ verdict: 'DROP', because: 'policy_in', detail: 'policy_in DROP' });
    await ok(h, 'POST', `${fw(101)}/rules`, { type: 'in', action: 'ACCEPT', proto: 'tcp', dport: '443' });
    expect(await inbound(a, { dport: 443 })).toMatchObject({ verdict: 'DROP', because: 'policy_in' });
    await ok(h, 'PUT', `${fw(101)}/rules/0`, { enable: '1' });
    expect(await inbound(a, { dport: 443 })).toEqual({ verdict: 'ACCEPT', because: 'rule 0', detail: 'IN ACCEPT -p tcp -dport 443' });
    expect(await inbound(a, { dport: 80 })).toMatchObject({ verdict: 'DROP', because: 'policy_in' });
    expect(await inbound(a, { protocol: 'udp', dport: 443 })).toMatchObject({ verdict: 'DROP', because: 'policy_in' });
  });

  it('meets the rules in order: the first that matches decides', async () => {
    const [a] = await neighbours(h);
    await ok(h, 'POST', `${fw(101)}/rules`, { type: 'in', action: 'ACCEPT', proto: 'tcp', dport: '22', enable: '1' });
    await ok(h, 'POST', `${fw(101)}/rules`, { type: 'in', action: 'DROP', proto: 'tcp', dport: '22', source: '198.51.100.0/24', enable: '1' });
    expect(await inbound(a, { dport: 22 })).toMatchObject({ verdict: 'DROP', because: 'rule 0' });
    expect(await inbound(a, { dport: 22, source: '203.0.113.5' })).toMatchObject({ verdict: 'ACCEPT', because: 'rule 1' });
    await ok(h, 'PUT', `${fw(101)}/rules/0`, { moveto: '2' });
    expect(await inbound(a, { dport: 22 })).toMatchObject({ verdict: 'ACCEPT', because: 'rule 0' });
  });

  it('matches port ranges and lists, service names, source ipsets and aliases, and macros', async () => {
    const [a] = await neighbours(h);
    await ok(h, 'POST', `${fw(101)}/aliases`, { name: 'office', cidr: '198.51.100.0/24' });
    await ok(h, 'POST', `${fw(101)}/ipset`, { name: 'partners' });
    await ok(h, 'POST', `${fw(101)}/ipset/partners`, { cidr: '203.0.113.0/24' });
    await ok(h, 'POST', `${fw(101)}/ipset/partners`, { cidr: '203.0.113.66', nomatch: '1' });
    await ok(h, 'POST', `${fw(101)}/rules`, { type: 'in', action: 'ACCEPT', proto: 'tcp', dport: 'http,8000:8100', enable: '1' });
    await ok(h, 'POST', `${fw(101)}/rules`, { type: 'in', action: 'ACCEPT', proto: 'tcp', dport: '5432', source: '+partners', enable: '1' });
    await ok(h, 'POST', `${fw(101)}/rules`, { type: 'in', action: 'ACCEPT', macro: 'SSH', source: 'office', enable: '1' });
    expect(await inbound(a, { dport: 80 })).toMatchObject({ verdict: 'ACCEPT', because: 'rule 2' });
    expect(await inbound(a, { dport: 8050 })).toMatchObject({ verdict: 'ACCEPT', because: 'rule 2' });
    expect(await inbound(a, { dport: 8101 })).toMatchObject({ verdict: 'DROP', because: 'policy_in' });
    expect(await inbound(a, { dport: 5432, source: '203.0.113.7' })).toMatchObject({ verdict: 'ACCEPT', because: 'rule 1' });
    expect(await inbound(a, { dport: 5432, source: '203.0.113.66' })).toMatchObject({ verdict: 'DROP', because: 'policy_in' });
    expect(await inbound(a, { dport: 22 })).toEqual({ verdict: 'ACCEPT', because: 'rule 0', detail: 'IN SSH(ACCEPT) -source office' });
    expect(await inbound(a, { dport: 22, source: '203.0.113.7' })).toMatchObject({ verdict: 'DROP', because: 'policy_in' });
  });

  it('under policy_in REJECT rejects TCP but drops ICMP, and accepts the critical ICMP types', async () => {
    const [a] = await neighbours(h);
    await ok(h, 'PUT', `${fw(101)}/options`, { policy_in: 'REJECT' });
    expect(await inbound(a, { dport: 25 })).toEqual({ verdict: 'REJECT', because: 'policy_in', detail: 'policy_in REJECT' });
    expect(await inbound(a, { protocol: 'icmp', icmpType: 'echo-request' })).toMatchObject({ verdict: 'DROP', because: 'policy_in' });
    expect(await inbound(a, { protocol: 'icmp', icmpType: 'fragmentation-needed' })).toMatchObject({ verdict: 'ACCEPT', because: 'policy_in' });
  });

  it('drops a broadcast source before anything else looks at it (PVEFW-smurfs)', async () => {
    const [a] = await neighbours(h);
    await ok(h, 'PUT', `${fw(101)}/options`, { policy_in: 'ACCEPT' });
    expect(await inbound(a, { source: '224.0.0.5', dport: 80 })).toMatchObject({ verdict: 'DROP', because: 'smurfs' });
    expect(await inbound(a, { dport: 80 })).toMatchObject({ verdict: 'ACCEPT', because: 'policy_in' });
  });
});

describe.each(PVE_VERSIONS)('neighbour discovery on PVE %s', (version: PveVersion) => {
  it('passes unless ndp is 0, whatever default the schema documents', async () => {
    const sim = await startSim({ pveVersion: version });
    try {
      await clusterFirewall(sim, '1');
      const a = await server(sim, 101, '192.0.2.11', '2001:db8::11');
      const solicitation = { vmid: 101, direction: 'in', source: '2001:db8::1', dest: a.ipv6, protocol: 'icmpv6', icmpType: 'neighbor-solicitation' };
      expect(await ok(sim, 'GET', `${fw(101)}/options`)).not.toHaveProperty('ndp');
      expect(await packet(sim, solicitation)).toMatchObject({ verdict: 'ACCEPT', because: 'options.ndp' });
      await ok(sim, 'PUT', `${fw(101)}/options`, { ndp: '0' });
      expect(await packet(sim, solicitation)).toMatchObject({ verdict: 'DROP', because: 'policy_in' });
    } finally {
      await sim.close();
    }
  });
});

describe('the oracle endpoint', () => {
  it('answers 404 for a guest that does not exist and 400 for a packet it cannot judge', async () => {
    const post = (body: unknown) => fetch(`${h.server.url}/_sim/firewall/packet`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) });
    expect((await post({ vmid: 4242, direction: 'in', source: '192.0.2.1', dest: '192.0.2.2' })).status).toBe(404);
    expect((await post({ vmid: 9000, iface: 'net7', direction: 'in', source: '192.0.2.1', dest: '192.0.2.2' })).status).toBe(400);
    expect((await post({ vmid: 9000, direction: 'in', source: '192.0.2.1', dest: '2001:db8::1' })).status).toBe(400);
    expect((await post({ vmid: 9000, direction: 'out', kind: 'arp', source: '2001:db8::1' })).status).toBe(400);
    expect((await post({ vmid: 9000, direction: 'sideways', source: '192.0.2.1', dest: '192.0.2.2' })).status).toBe(400);
  });
});
