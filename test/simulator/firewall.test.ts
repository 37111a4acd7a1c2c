/**
 * A guest's firewall API in the simulator answers as pve-firewall's does (API2/Firewall/{VM,Rules,
 * IPSet,Aliases,Cluster}.pm): options, rules by position, ipsets and their entries, aliases and
 * the cluster's options, each read back as Proxmox reads its `.fw` file, writes refused on a stale
 * `digest`, every call checked for the privileges its schema names. The file lives with the guest:
 * a clone copies it, a backup carries it, a destroy removes it.
 */
import { describe, expect, it } from 'vitest';
import { demoAccess, LEAST_PRIVILEGE_SIM_TOKEN, type AccessSpec } from '../../src/simulator';
import { useSim, type SimHarness } from './support';

const AUDITOR = 'audit@pve!ro';
const STRANGER = 'stranger@pve!none';
/** The demo's tokens, plus one that may only audit guests and one that holds nothing. */
const ACCESS: AccessSpec = (() => {
  const demo = demoAccess();
  const both = (token: string, roleid: string) => [
    { path: '/vms', ugid: token.slice(0, token.indexOf('!')), roleid },
    { path: '/vms', ugid: token, roleid },
  ];
  return {
    tokens: [...demo.tokens, { tokenid: AUDITOR, secret: 'ro-secret', privsep: true }, { tokenid: STRANGER, secret: 'no-secret', privsep: true }],
    roles: [...demo.roles, { roleid: 'Auditor', privs: ['VM.Audit'] }, { roleid: 'Console', privs: ['VM.Console'] }],
    acl: [...demo.acl, ...both(AUDITOR, 'Auditor'), ...both(STRANGER, 'Console')],
  };
})();
const LEAST = `PVEAPIToken=${LEAST_PRIVILEGE_SIM_TOKEN}`;

const h = useSim({ access: ACCESS });

const FW = '/nodes/pve1/qemu/101/firewall';
const STALE = 'detected modified configuration - file changed by other user? Try again.';

async function guest(sim: SimHarness, vmid: number, template = 9000): Promise<void> {
  const made = await sim.api('POST', `/nodes/pve1/qemu/${template}/clone`, { newid: String(vmid), name: `vm-${vmid}` });
  await sim.wait(made.body.data as string);
}

/** A call that must succeed; its data. */
async function ok(method: string, path: string, params: Record<string, string> = {}): Promise<unknown> {
  const answer = await h.api(method, path, params);
  expect(answer.status, `${method} ${path}: ${answer.text}`).toBe(200);
  return answer.body.data;
}

/** A call that must fail: its status, status line and parameter errors. */
async function refused(method: string, path: string, params: Record<string, string> = {}) {
  const answer = await h.api(method, path, params);
  return { status: answer.status, message: answer.statusText, errors: answer.body.errors };
}

const invalid = (param: string, message: string) => ({ status: 400, message: 'Parameter verification failed.', errors: { [param]: message } });
const failed = (message: string) => ({ status: 500, message, errors: undefined });

describe("a guest's firewall options", () => {
  it('start empty: the options answer only the digest of nothing, the lists are empty', async () => {
    await guest(h, 101);
    expect(await ok('GET', FW)).toEqual([{ name: 'rules' }, { name: 'aliases' }, { name: 'ipset' }, { name: 'refs' }, { name: 'options' }]);
    expect(await ok('GET', `${FW}/options`)).toEqual({ digest: 'da39a3ee5e6b4b0d3255bfef95601890afd80709' });
    for (const list of ['rules', 'ipset', 'aliases', 'refs']) expect(await ok('GET', `${FW}/${list}`)).toEqual([]);
  });

  it('answer what was set, booleans as integers, without filling in defaults; `delete` removes one', async () => {
    await guest(h, 101);
    await ok('PUT', `${FW}/options`, { enable: '1', ipfilter: '1', macfilter: '0', policy_in: 'DROP', log_level_in: 'info' });
    const set = (await ok('GET', `${FW}/options`)) as Record<string, unknown>;
    expect(set).toEqual({ enable: 1, ipfilter: 1, macfilter: 0, policy_in: 'DROP', log_level_in: 'info', digest: expect.stringMatching(/^[0-9a-f]{40}$/) });
    await ok('PUT', `${FW}/options`, { delete: 'macfilter,log_level_in', policy_out: 'REJECT', digest: set.digest as string });
    expect(await ok('GET', `${FW}/options`)).toEqual({ enable: 1, ipfilter: 1, policy_in: 'DROP', policy_out: 'REJECT', digest: expect.any(String) });
    expect(h.sim.state.firewallFiles.get('101.fw')).toBe('[OPTIONS]\n\nenable: 1\nipfilter: 1\npolicy_in: DROP\npolicy_out: REJECT\n\n');
  });

  it('refuse a stale digest and an option that does not exist, changing nothing', async () => {
    await guest(h, 101);
    const { digest } = (await ok('GET', `${FW}/options`)) as { digest: string };
    await ok('PUT', `${FW}/options`, { enable: '1' });
    expect(await refused('PUT', `${FW}/options`, { enable: '0', digest })).toEqual(failed(STALE));
    expect(await refused('PUT', `${FW}/options`, { delete: 'colour' })).toEqual(invalid('delete', "no such option 'colour'"));
    expect(await refused('PUT', `${FW}/options`, { policy_in: 'drop' })).toEqual(
      invalid('policy_in', "value 'drop' does not have a value in the enumeration 'ACCEPT, REJECT, DROP'"),
    );
    expect(await ok('GET', `${FW}/options`)).toEqual({ enable: 1, digest: expect.any(String) });
  });

  it('are read on the node the path names (the call is proxied there), unlike the rest of the firewall, which any node serves', async () => {
    await guest(h, 101);
    await ok('PUT', `${FW}/options`, { enable: '1' });
    expect(await refused('GET', '/nodes/nowhere/qemu/101/firewall/options')).toEqual(
      failed("hostname lookup 'nowhere' failed - failed to get address info for: nowhere: Name or service not known"),
    );
    await ok('POST', `${FW}/rules`, { type: 'in', action: 'ACCEPT', proto: 'tcp', dport: '22' });
    expect(await ok('GET', '/nodes/pve2/qemu/101/firewall/rules')).toHaveLength(1);
  });
});

describe("a guest's firewall rules", () => {
  const rule = (params: Record<string, string>) => ok('POST', `${FW}/rules`, params);
  const rules = async () => (await ok('GET', `${FW}/rules`)) as Record<string, unknown>[];

  it('go in first, disabled unless `enable` is given, at positions renumbered from 0 with the digest of the whole list', async () => {
    await guest(h, 101);
    await rule({ type: 'in', action: 'ACCEPT', proto: 'tcp', dport: '443', enable: '1', comment: 'web' });
    await rule({ type: 'out', action: 'DROP', dest: '192.0.2.0/24', pos: '5' });
    const listed = await rules();
    const digest = listed[0]?.digest;
    expect(listed).toEqual([
      { pos: 0, type: 'out', action: 'DROP', dest: '192.0.2.0/24', enable: 0, ipversion: 4, digest },
      { pos: 1, type: 'in', action: 'ACCEPT', proto: 'tcp', dport: '443', enable: 1, comment: 'web', digest },
    ]);
    expect(await ok('GET', `${FW}/rules/1`)).toEqual(listed[1]);
    expect(await refused('GET', `${FW}/rules/2`)).toEqual(failed('no rule at position 2'));
    expect(h.sim.state.firewallFiles.get('101.fw')).toBe('[RULES]\n\n|OUT DROP -dest 192.0.2.0/24\nIN ACCEPT -p tcp -dport 443 # web\n\n');
  });

  it('move with `moveto` to just before the rule at that position, other arguments ignored', async () => {
    await guest(h, 101);
    for (const port of ['4', '3', '2', '1']) await rule({ type: 'in', action: 'ACCEPT', proto: 'tcp', dport: port });
    const ports = async () => (await rules()).map((r) => r.dport);
    expect(await ports()).toEqual(['1', '2', '3', '4']);
    await ok('PUT', `${FW}/rules/0`, { moveto: '2', dport: '99' });
    expect(await ports()).toEqual(['2', '1', '3', '4']);
    await ok('PUT', `${FW}/rules/3`, { moveto: '0' });
    expect(await ports()).toEqual(['4', '2', '1', '3']);
    await ok('PUT', `${FW}/rules/0`, { moveto: '9' });
    expect(await ports()).toEqual(['2', '1', '3', '4']);
    await ok('DELETE', `${FW}/rules/1`);
    expect((await rules()).map((r) => [r.pos, r.dport])).toEqual([[0, '2'], [1, '3'], [2, '4']]);
  });

  it('change in place, `delete` or an empty value removing a property, but never `type` or `action`', async () => {
    await guest(h, 101);
    await rule({ type: 'in', action: 'ACCEPT', proto: 'tcp', dport: '22', source: '198.51.100.0/24', comment: 'ssh', enable: '1' });
    await ok('PUT', `${FW}/rules/0`, { action: 'DROP', comment: '', delete: 'source' });
    expect(await ok('GET', `${FW}/rules/0`)).toEqual({ pos: 0, type: 'in', action: 'DROP', proto: 'tcp', dport: '22', enable: 1, digest: expect.any(String) });
    expect(await refused('PUT', `${FW}/rules/0`, { delete: 'action' })).toEqual(invalid('delete', "unable to delete required property 'action'"));
    expect(await refused('PUT', `${FW}/rules/0`, { delete: 'colour' })).toEqual(invalid('delete', "no such property ('colour')"));
    expect(await refused('PUT', `${FW}/rules/4`, { enable: '0' })).toEqual(failed('no rule at position 4'));
  });

  it('refuse a change or a removal against a stale digest, and leave the rules as they were; a new rule takes no digest', async () => {
    await guest(h, 101);
    await rule({ type: 'in', action: 'ACCEPT', proto: 'tcp', dport: '22' });
    const before = await rules();
    const digest = before[0]?.digest as string;
    await rule({ type: 'in', action: 'ACCEPT', proto: 'tcp', dport: '80', digest: 'f'.repeat(40) });
    expect(await refused('PUT', `${FW}/rules/0`, { enable: '1', digest })).toEqual(failed(STALE));
    expect(await refused('DELETE', `${FW}/rules/0`, { digest })).toEqual(failed(STALE));
    const current = await rules();
    expect(current.map((r) => r.dport)).toEqual(['80', '22']);
    await ok('DELETE', `${FW}/rules/0`, { digest: current[0]?.digest as string });
    expect((await rules()).map((r) => r.dport)).toEqual(['22']);
  });

  it('are checked as verify_rule checks them, the first error a 400 naming the parameter', async () => {
    await guest(h, 101);
    const post = (params: Record<string, string>) => refused('POST', `${FW}/rules`, params);
    expect(await post({ type: 'in', action: 'accept' })).toEqual(invalid('action', "unknown action 'accept'"));
    expect(await post({ type: 'forward', action: 'ACCEPT' })).toEqual(invalid('type', "invalid rule type 'forward' for rule_env 'vm'"));
    expect(await post({ type: 'in', action: 'ACCEPT', dport: '80' })).toEqual(invalid('proto', "missing property - 'dport' requires this property"));
    expect(await post({ type: 'in', action: 'ACCEPT', proto: 'gre', dport: '80' })).toEqual(invalid('dport', "protocol 'gre' does not support ports"));
    expect(await post({ type: 'in', action: 'ACCEPT', proto: 'udp', 'icmp-type': 'echo-request' })).toEqual(invalid('proto', "missing property - 'icmp-type' requires this property"));
    expect(await post({ type: 'in', action: 'ACCEPT', proto: 'tcp', dport: '90:80' })).toEqual(
      invalid('dport', "invalid format - backwards range '90:80' not allowed, did you mean '80:90'?"),
    );
    expect(await post({ type: 'in', action: 'ACCEPT', proto: 'tcp', dport: 'http,70000' })).toEqual(invalid('dport', "invalid format - invalid port '70000'"));
    expect(await post({ type: 'in', action: 'ACCEPT', proto: 'gopher' })).toEqual(invalid('proto', "invalid format - unknown protocol 'gopher'"));
    expect(await post({ type: 'in', action: 'ACCEPT', source: '+web' })).toEqual(invalid('source', "no such ipset 'web'"));
    expect(await post({ type: 'in', action: 'ACCEPT', source: 'office' })).toEqual(invalid('source', "no such alias 'office'"));
    expect(await post({ type: 'in', action: 'ACCEPT', source: '10.0.0.5/24' })).toEqual(
      invalid('source', 'invalid format - invalid IP address: Invalid prefix 00001010000000000000000000000101/24'),
    );
    expect(await post({ type: 'in', action: 'ACCEPT', source: '10.0.0.1,2001:db8::1' })).toEqual(
      invalid('source', "invalid format - detected mixed ipv4/ipv6 addresses in address list '10.0.0.1,2001:db8::1'"),
    );
    expect(await post({ type: 'in', action: 'ACCEPT', source: '10.0.0.1', dest: '2001:db8::1' })).toEqual(invalid('dest', 'detected mixed ipv4/ipv6 addresses in rule'));
    expect(await post({ type: 'in', action: 'ACCEPT', iface: 'eth0' })).toEqual(invalid('iface', "value does not match the regex pattern 'net\\d+'"));
    expect(await post({ type: 'in', action: 'ACCEPT', macro: 'Gopher' })).toEqual(invalid('macro', "unknown macro 'Gopher'"));
    expect(await post({ type: 'in', action: 'ACCEPT', macro: 'ssh', proto: 'udp' })).toEqual(invalid('proto', "parameter 'proto' already define in macro (value = 'tcp')"));
    expect(await rules()).toEqual([]);
  });

  it('take a macro in any case and keep its own spelling; take service names and ICMP types', async () => {
    await guest(h, 101);
    await rule({ type: 'in', action: 'ACCEPT', macro: 'ssh', source: '198.51.100.7' });
    await rule({ type: 'in', action: 'ACCEPT', proto: 'tcp', dport: 'https,8000:8100' });
    await rule({ type: 'in', action: 'ACCEPT', proto: 'icmp', 'icmp-type': 'echo-request' });
    expect((await rules()).map(({ digest: _digest, ...r }) => r)).toEqual([
      { pos: 0, type: 'in', action: 'ACCEPT', proto: 'icmp', 'icmp-type': 'echo-request', enable: 0, ipversion: 4 },
      { pos: 1, type: 'in', action: 'ACCEPT', proto: 'tcp', dport: 'https,8000:8100', enable: 0 },
      { pos: 2, type: 'in', action: 'ACCEPT', macro: 'SSH', source: '198.51.100.7', enable: 0, ipversion: 4 },
    ]);
  });
});

describe("a guest's ipsets", () => {
  const IPSET = `${FW}/ipset`;
  const entries = async (name: string) => ((await ok('GET', `${IPSET}/${name}`)) as Record<string, unknown>[]).map(({ digest: _digest, ...e }) => e);

  it('hold addresses as pve-firewall writes them: host bits cleared, /32 and /128 left out, IPv6 compressed, sorted', async () => {
    await guest(h, 101);
    await ok('POST', IPSET, { name: 'ipfilter-net0', comment: 'own addresses' });
    await ok('POST', `${IPSET}/ipfilter-net0`, { cidr: '192.0.2.10/32', comment: 'v4' });
    await ok('POST', `${IPSET}/ipfilter-net0`, { cidr: '2001:DB8:0:0::10/128' });
    await ok('POST', `${IPSET}/ipfilter-net0`, { cidr: '10.1.2.3/24', nomatch: '1' });
    expect(await ok('GET', IPSET)).toEqual([{ name: 'ipfilter-net0', comment: 'own addresses', digest: expect.any(String) }]);
    expect(await entries('ipfilter-net0')).toEqual([{ cidr: '10.1.2.0/24', nomatch: 1 }, { cidr: '192.0.2.10', comment: 'v4' }, { cidr: '2001:db8::10' }]);
    expect(await ok('GET', `${IPSET}/ipfilter-net0/10.1.2.0/24`)).toEqual({ cidr: '10.1.2.0/24', nomatch: 1, digest: expect.any(String) });
    expect(await ok('GET', `${IPSET}/ipfilter-net0/${encodeURIComponent('10.1.2.0/24')}`)).toEqual({ cidr: '10.1.2.0/24', nomatch: 1, digest: expect.any(String) });
    expect(await refused('GET', `${IPSET}/ipfilter-net0/192.0.2.10/32`)).toEqual(invalid('cidr', 'no such IP/Network'));
  });

  it('refuse an address twice, a zero prefix, and a name that is taken', async () => {
    await guest(h, 101);
    await ok('POST', IPSET, { name: 'web' });
    await ok('POST', `${IPSET}/web`, { cidr: '192.0.2.10' });
    expect(await refused('POST', `${IPSET}/web`, { cidr: '192.0.2.10/32' })).toEqual(invalid('cidr', "address '192.0.2.10' already exists"));
    expect(await refused('POST', `${IPSET}/web`, { cidr: '0.0.0.0/0' })).toEqual(invalid('cidr', 'a zero prefix is not allowed in ipset entries'));
    expect(await refused('POST', `${IPSET}/web`, { cidr: '192.0.2.300' })).toEqual(invalid('cidr', 'invalid format - value does not look like a valid IP address or CIDR network'));
    expect(await refused('POST', IPSET, { name: 'web' })).toEqual(invalid('name', "IPSet 'web' already exists"));
    expect(await refused('POST', `${IPSET}/nosuch`, { cidr: '192.0.2.1' })).toEqual(failed("no such IPSet 'nosuch'"));
    expect(await entries('web')).toEqual([{ cidr: '192.0.2.10' }]);
  });

  it('change an entry (leaving out nomatch or comment clears it), remove it, and refuse a stale digest', async () => {
    await guest(h, 101);
    await ok('POST', IPSET, { name: 'web' });
    await ok('POST', `${IPSET}/web`, { cidr: '192.0.2.10', comment: 'first', nomatch: '1' });
    const [{ digest }] = (await ok('GET', `${IPSET}/web`)) as [{ digest: string }];
    await ok('PUT', `${IPSET}/web/192.0.2.10`, { comment: 'second', digest });
    expect(await entries('web')).toEqual([{ cidr: '192.0.2.10', comment: 'second' }]);
    expect(await refused('PUT', `${IPSET}/web/192.0.2.10`, { comment: 'third', digest })).toEqual(failed(STALE));
    expect(await refused('PUT', `${IPSET}/web/192.0.2.11`, { comment: 'x' })).toEqual(invalid('cidr', 'no such IP/Network'));
    await ok('DELETE', `${IPSET}/web/192.0.2.11`);
    await ok('DELETE', `${IPSET}/web/192.0.2.10`);
    expect(await entries('web')).toEqual([]);
  });

  it('are renamed with `rename`, named in lower case once written, and removed only when empty unless forced', async () => {
    await guest(h, 101);
    await ok('POST', IPSET, { name: 'Web' });
    expect(await ok('GET', IPSET)).toEqual([{ name: 'web', digest: expect.any(String) }]);
    expect(await refused('GET', `${IPSET}/Web`)).toEqual(failed("no such IPSet 'Web'"));
    await ok('POST', `${IPSET}/web`, { cidr: '192.0.2.10' });
    await ok('POST', IPSET, { name: 'frontends', rename: 'web', comment: 'renamed' });
    expect(await ok('GET', IPSET)).toEqual([{ name: 'frontends', comment: 'renamed', digest: expect.any(String) }]);
    expect(await refused('DELETE', `${IPSET}/frontends`)).toEqual(failed("IPSet 'frontends' is not empty"));
    await ok('DELETE', `${IPSET}/frontends`, { force: '1' });
    expect(await ok('GET', IPSET)).toEqual([]);
  });

  it("leave a rule naming a removed ipset in place with its error, out of the firewall's reach", async () => {
    await guest(h, 101);
    await ok('POST', IPSET, { name: 'web' });
    await ok('POST', `${FW}/rules`, { type: 'in', action: 'ACCEPT', source: '+web', enable: '1' });
    await ok('DELETE', `${IPSET}/web`);
    expect(await ok('GET', `${FW}/rules/0`)).toEqual({
      pos: 0, type: 'in', action: 'ACCEPT', source: '+web', enable: 1, errors: { source: "no such ipset 'web'" }, digest: expect.any(String),
    });
  });
});

describe("a guest's aliases", () => {
  const ALIASES = `${FW}/aliases`;

  it('are created, read in any case, renamed and removed, answering their IP version; ipsets and rules may name them', async () => {
    await guest(h, 101);
    await ok('POST', ALIASES, { name: 'Office', cidr: '198.51.100.0/24', comment: 'HQ' });
    expect(await refused('POST', ALIASES, { name: 'office', cidr: '198.51.100.1' })).toEqual(invalid('name', "alias 'office' already exists"));
    expect(await ok('GET', ALIASES)).toEqual([{ name: 'Office', cidr: '198.51.100.0/24', ipversion: 4, comment: 'HQ', digest: expect.any(String) }]);
    expect(await ok('GET', `${ALIASES}/OFFICE`)).toEqual({ name: 'Office', cidr: '198.51.100.0/24', ipversion: 4, comment: 'HQ' });
    await ok('POST', `${FW}/ipset`, { name: 'admins' });
    await ok('POST', `${FW}/ipset/admins`, { cidr: 'office' });
    await ok('POST', `${FW}/rules`, { type: 'in', action: 'ACCEPT', source: 'office', proto: 'tcp', dport: '22' });
    expect(await ok('GET', `${FW}/refs`)).toEqual([
      { type: 'ipset', name: 'admins', ref: '+admins', scope: 'guest' },
      { type: 'alias', name: 'office', ref: 'office', scope: 'guest', comment: 'HQ' },
    ]);
    const [{ digest }] = (await ok('GET', ALIASES)) as [{ digest: string }];
    await ok('PUT', `${ALIASES}/office`, { cidr: '2001:db8::/64', rename: 'HQ', digest });
    expect(await refused('PUT', `${ALIASES}/office`, { cidr: '198.51.100.1' })).toEqual(invalid('name', 'no such alias'));
    expect(await ok('GET', ALIASES)).toEqual([{ name: 'HQ', cidr: '2001:db8::/64', ipversion: 6, digest: expect.any(String) }]);
    expect(await refused('DELETE', `${ALIASES}/hq`, { digest })).toEqual(failed(STALE));
    await ok('DELETE', `${ALIASES}/hq`);
    expect(await refused('GET', `${ALIASES}/hq`)).toEqual(invalid('name', 'no such alias'));
  });
});

describe("the cluster's firewall options", () => {
  it('are read with Sys.Audit and written with Sys.Modify on /; an `enable` above 1 stands for now (the anti-lockout switch)', async () => {
    expect(await ok('GET', '/cluster/firewall/options')).toEqual({ digest: 'da39a3ee5e6b4b0d3255bfef95601890afd80709' });
    await ok('PUT', '/cluster/firewall/options', { enable: '1', policy_in: 'DROP' });
    const set = (await ok('GET', '/cluster/firewall/options')) as { digest: string };
    expect(set).toEqual({ enable: 1, policy_in: 'DROP', digest: expect.any(String) });
    expect(await refused('PUT', '/cluster/firewall/options', { enable: '0', digest: 'f'.repeat(40) })).toEqual(failed(STALE));
    await ok('PUT', '/cluster/firewall/options', { enable: '2', delete: 'policy_in', digest: set.digest });
    const stamped = (await ok('GET', '/cluster/firewall/options')) as { enable: number };
    expect(Math.abs(stamped.enable - Date.now() / 1000)).toBeLessThan(5);
    const least = await h.api('GET', '/cluster/firewall/options', {}, LEAST);
    expect(least.status).toBe(200);
    const denied = await h.api('PUT', '/cluster/firewall/options', { enable: '0' }, LEAST);
    expect([denied.status, denied.statusText]).toEqual([403, 'Permission check failed (/, Sys.Modify)']);
  });
});

describe('privileges', () => {
  it("the minimal role reads and writes a guest's firewall; VM.Audit only reads it; without VM.Audit nothing", async () => {
    await guest(h, 101);
    expect((await h.api('PUT', `${FW}/options`, { enable: '1' }, LEAST)).status).toBe(200);
    expect((await h.api('POST', `${FW}/ipset`, { name: 'ipfilter-net0' }, LEAST)).status).toBe(200);
    const auditor = `PVEAPIToken=${AUDITOR}=ro-secret`;
    expect((await h.api('GET', `${FW}/options`, {}, auditor)).body.data).toEqual({ enable: 1, digest: expect.any(String) });
    for (const [method, path, params] of [
      ['PUT', `${FW}/options`, { enable: '0' }],
      ['POST', `${FW}/rules`, { type: 'in', action: 'ACCEPT' }],
      ['POST', `${FW}/ipset/ipfilter-net0`, { cidr: '192.0.2.1' }],
      ['DELETE', `${FW}/ipset/ipfilter-net0`, {}],
      ['POST', `${FW}/aliases`, { name: 'office', cidr: '192.0.2.0/24' }],
    ] as const) {
      const denied = await h.api(method, path, params, auditor);
      expect([denied.status, denied.statusText], `${method} ${path}`).toEqual([403, 'Permission check failed (/vms/101, VM.Config.Network)']);
    }
    const stranger = await h.api('GET', `${FW}/rules`, {}, `PVEAPIToken=${STRANGER}=no-secret`);
    expect([stranger.status, stranger.statusText]).toEqual([403, 'Permission check failed (/vms/101, VM.Audit)']);
    expect(await ok('GET', `${FW}/options`)).toEqual({ enable: 1, digest: expect.any(String) });
  });
});

describe('the firewall file through a guest\'s life', () => {
  it('is copied by a clone, carried by a backup and written back by a restore, and removed by a destroy', async () => {
    await guest(h, 101);
    await ok('PUT', `${FW}/options`, { enable: '1' });
    await ok('POST', `${FW}/rules`, { type: 'in', action: 'ACCEPT', proto: 'tcp', dport: '443', enable: '1' });
    const file = h.sim.state.firewallFiles.get('101.fw');
    await guest(h, 102, 101);
    expect(h.sim.state.firewallFiles.get('102.fw')).toBe(file);

    await h.wait((await h.api('POST', '/nodes/pve1/vzdump', { vmid: '101', storage: 'local' })).body.data as string);
    await ok('DELETE', `${FW}/rules/0`);
    const [archive] = (await ok('GET', '/nodes/pve1/storage/local/content', { content: 'backup', vmid: '101' })) as { volid: string }[];
    await h.wait((await h.api('POST', '/nodes/pve1/qemu', { vmid: '101', archive: archive?.volid as string, force: '1' })).body.data as string);
    expect(h.sim.state.firewallFiles.get('101.fw')).toBe(file);

    await h.wait((await h.api('DELETE', '/nodes/pve1/qemu/101', { purge: '1' })).body.data as string);
    await h.wait((await h.api('DELETE', '/nodes/pve1/qemu/102')).body.data as string);
    expect([...h.sim.state.firewallFiles.keys()]).toEqual([]);
    expect(await ok('GET', `${FW}/rules`)).toEqual([]);
  });

  it('is not left behind by a clone that fails', async () => {
    await guest(h, 101);
    await ok('PUT', `${FW}/options`, { enable: '1' });
    await h.control('POST', '/faults', { op: 'clone', mode: 'task_fail', message: 'clone failed: out of space' });
    const made = await h.api('POST', '/nodes/pve1/qemu/101/clone', { newid: '102' });
    await expect(h.wait(made.body.data as string)).rejects.toThrow('out of space');
    expect([...h.sim.state.firewallFiles.keys()]).toEqual(['101.fw']);
  });
});

describe('faults', () => {
  it('reach a firewall call named with `call`: a rule written whose answer is lost is there when read', async () => {
    await guest(h, 101);
    await h.control('POST', '/faults', { op: 'any', call: 'POST /nodes/{node}/qemu/{vmid}/firewall/rules', mode: 'drop_after_accept' });
    await expect(h.api('POST', `${FW}/rules`, { type: 'in', action: 'ACCEPT', proto: 'tcp', dport: '443', enable: '1' })).rejects.toThrow();
    expect(await ok('GET', `${FW}/rules`)).toEqual([expect.objectContaining({ pos: 0, dport: '443' })]);
  });
});
