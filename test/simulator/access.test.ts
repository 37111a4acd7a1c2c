/**
 * The simulator enforces Proxmox VE's access control: privilege-separated tokens, roles, ACL
 * paths that propagate, 403 "Permission check failed (<path>, <privilege>)", and
 * GET /access/permissions answering what the caller holds.
 */
import { describe, expect, it } from 'vitest';
import { ProxmoxClient } from '../../src/proxmox';
import { createSimulator, type AccessSpec } from '../../src/simulator';
import { MINIMAL_ROLE_PRIVILEGES } from '../../src/domain/proxmox-privileges';
import { LEAST_PRIVILEGE_SIM_TOKEN } from '../../src/simulator/spec';

const USER = 'ops@pve';
const TOKEN = `${USER}!cp`;
const SECRET = 'acl-test-secret';

/** A simulator whose only non-root token is TOKEN (privsep as given), with these roles and entries. */
async function withAccess(access: Omit<AccessSpec, 'tokens'>, privsep = true) {
  const sim = createSimulator({ taskMs: 5, access: { tokens: [{ tokenid: TOKEN, secret: SECRET, privsep }], ...access } });
  const server = await sim.listen(0);
  const call = async (method: string, path: string, params: Record<string, string> = {}) => {
    const qs = new URLSearchParams(params).toString();
    const inQuery = method === 'GET' || method === 'DELETE';
    const res = await fetch(`${server.url}/api2/json${path}${inQuery && qs ? `?${qs}` : ''}`, {
      method,
      headers: { Authorization: `PVEAPIToken=${TOKEN}=${SECRET}`, ...(inQuery ? {} : { 'Content-Type': 'application/x-www-form-urlencoded' }) },
      ...(inQuery ? {} : { body: qs }),
    });
    return { status: res.status, statusText: res.statusText, body: (await res.json()) as { data: unknown; message?: string } };
  };
  return { sim, server, call };
}

const VM_ROLE = { roleid: 'VMConfig', privs: ['VM.Audit', 'VM.Config.CPU', 'VM.Config.Memory'] };

describe('privilege checks', () => {
  it('a missing privilege answers 403 "Permission check failed (<path>, <privilege>)" and changes nothing', async () => {
    const { sim, server, call } = await withAccess({ roles: [VM_ROLE], acl: [{ path: '/vms', ugid: USER, roleid: 'VMConfig' }, { path: '/vms', ugid: TOKEN, roleid: 'VMConfig' }] });
    try {
      const ok = await call('PUT', '/nodes/pve1/qemu/9000/config', { cores: '2' });
      expect(ok.status).toBe(200);
      const denied = await call('PUT', '/nodes/pve1/qemu/9000/config', { delete: 'scsi0' });
      expect([denied.status, denied.statusText]).toEqual([403, 'Permission check failed (/vms/9000, VM.Config.Disk)']);
      expect(denied.body).toEqual({ data: null, message: 'Permission check failed (/vms/9000, VM.Config.Disk)\n' });
      const cloudinit = await call('PUT', '/nodes/pve1/qemu/9000/config', { ciuser: 'debian' });
      expect(cloudinit.statusText).toBe('Permission check failed (/vms/9000, VM.Config.Cloudinit|VM.Config.Network)');
      expect(sim.state.guests.get(9000)?.config.ciuser).toBeUndefined();
      const start = await call('POST', '/nodes/pve1/qemu/9000/status/start');
      expect(start.statusText).toBe('Permission check failed (/vms/9000, VM.PowerMgmt)');
      // What the token may not audit it does not see listed.
      expect((await call('GET', '/nodes/pve1/storage')).body.data).toEqual([]);
    } finally {
      await server.close();
    }
  });

  it('vzdump needs VM.Backup on the guest and Datastore.AllocateSpace on the backup storage, as the schema describes', async () => {
    const BACKUP_ROLE = { roleid: 'Backup', privs: ['VM.Audit', 'VM.Backup'] };
    const SPACE_ROLE = { roleid: 'Space', privs: ['Datastore.AllocateSpace', 'Datastore.Audit'] };
    const both = (path: string, roleid: string) => [{ path, ugid: USER, roleid }, { path, ugid: TOKEN, roleid }];
    const noSpace = await withAccess({ roles: [BACKUP_ROLE], acl: both('/vms', 'Backup') });
    const withSpace = await withAccess({ roles: [BACKUP_ROLE, SPACE_ROLE], acl: [...both('/vms', 'Backup'), ...both('/storage/local', 'Space')] });
    try {
      const denied = await noSpace.call('POST', '/nodes/pve1/vzdump', { vmid: '9000', storage: 'local' });
      expect(denied.statusText).toBe('Permission check failed (/storage/local, Datastore.AllocateSpace)');
      expect(noSpace.sim.state.tasks.all().filter((t) => t.type === 'vzdump')).toEqual([]);
      const made = await withSpace.call('POST', '/nodes/pve1/vzdump', { vmid: '9000', storage: 'local' });
      expect(made.status).toBe(200);
      expect(String(made.body.data)).toContain(':vzdump:9000:');
    } finally {
      await noSpace.server.close();
      await withSpace.server.close();
    }
  });

  it('propagates from a path to the paths below only with propagate on; an entry on the path itself holds regardless', async () => {
    const entries = (propagate: boolean) => [
      { path: '/vms', ugid: USER, roleid: 'VMConfig', propagate },
      { path: '/vms', ugid: TOKEN, roleid: 'VMConfig', propagate },
    ];
    const on = await withAccess({ roles: [VM_ROLE], acl: entries(true) });
    const off = await withAccess({ roles: [VM_ROLE], acl: entries(false) });
    try {
      expect((await on.call('GET', '/nodes/pve1/qemu/9000/config')).status).toBe(200);
      expect((await off.call('GET', '/nodes/pve1/qemu/9000/config')).statusText).toBe('Permission check failed (/vms/9000, VM.Audit)');
      expect((await off.call('GET', '/nodes/pve1/qemu/9000/rrddata', { timeframe: 'hour' })).statusText).toBe('Permission check failed (/vms/9000, VM.Audit)');
      expect((await off.call('GET', '/access/permissions', { path: '/vms' })).body.data).toEqual({ '/vms': { 'VM.Audit': 0, 'VM.Config.CPU': 0, 'VM.Config.Memory': 0 } });
      expect((await off.call('GET', '/access/permissions', { path: '/vms/9000' })).body.data).toEqual({ '/vms/9000': {} });
    } finally {
      await on.server.close();
      await off.server.close();
    }
  });

  it('a more specific entry replaces what an ancestor gave', async () => {
    const { server, call } = await withAccess(
      { roles: [VM_ROLE, { roleid: 'AuditOnly', privs: ['VM.Audit'] }], acl: [{ path: '/', ugid: USER, roleid: 'VMConfig' }, { path: '/vms/9000', ugid: USER, roleid: 'AuditOnly' }] },
      false,
    );
    try {
      expect((await call('PUT', '/nodes/pve1/qemu/9001/config', { cores: '2' })).status).toBe(200);
      expect((await call('PUT', '/nodes/pve1/qemu/9000/config', { cores: '2' })).statusText).toBe('Permission check failed (/vms/9000, VM.Config.CPU)');
    } finally {
      await server.close();
    }
  });

  it("a privsep token holds its own entries intersected with its user's; without privsep it holds its user's", async () => {
    const acl = [
      { path: '/', ugid: USER, roleid: 'Administrator' },
      { path: '/vms', ugid: TOKEN, roleid: 'VMConfig' },
    ];
    const separated = await withAccess({ roles: [VM_ROLE], acl });
    const whole = await withAccess({ roles: [VM_ROLE], acl }, false);
    try {
      const sep = (await separated.call('GET', '/access/permissions')).body.data as Record<string, Record<string, number>>;
      expect(Object.keys(sep)).toEqual(['/vms']);
      expect(sep['/vms']).toEqual({ 'VM.Audit': 1, 'VM.Config.CPU': 1, 'VM.Config.Memory': 1 });
      expect((await separated.call('GET', '/cluster/status')).statusText).toBe('Permission check failed (/, Sys.Audit)');
      expect((await whole.call('GET', '/cluster/status')).status).toBe(200);
      const all = (await whole.call('GET', '/access/permissions')).body.data as Record<string, Record<string, number>>;
      expect(all['/']).toMatchObject({ 'Sys.Audit': 1, 'VM.Allocate': 1, 'VM.GuestAgent.Audit': 1 });
      // A token may read its own permissions only: its user's need Sys.Audit on /access.
      expect((await separated.call('GET', '/access/permissions', { userid: USER })).statusText).toBe('Permission check failed (/access, Sys.Audit)');
    } finally {
      await separated.server.close();
      await whole.server.close();
    }
  });
});

describe('the demo cluster', () => {
  it('has a privilege-separated least-privilege token holding exactly the PVECP role on /, besides the all-privileges root token', async () => {
    const sim = createSimulator({ taskMs: 5 });
    const server = await sim.listen(0);
    try {
      const [tokenId, tokenSecret] = LEAST_PRIVILEGE_SIM_TOKEN.split('=') as [string, string];
      const client = new ProxmoxClient({ baseUrl: server.url, tokenId, tokenSecret, plaintextLab: true });
      const res = await fetch(`${server.url}/api2/json/access/permissions`, { headers: { Authorization: `PVEAPIToken=${LEAST_PRIVILEGE_SIM_TOKEN}` } });
      const held = ((await res.json()) as { data: Record<string, Record<string, number>> }).data;
      expect(Object.keys(held)).toEqual(['/']);
      // PVE 9 knows no VM.Monitor: the role holds VM.GuestAgent.Audit instead.
      expect(Object.keys(held['/'] ?? {})).toEqual(MINIMAL_ROLE_PRIVILEGES.filter((p) => p !== 'VM.Monitor'));
      expect((await client.cluster.identity()).clusterName).toBe('pvecp-sim');
      client.close();
    } finally {
      await server.close();
    }
  });
});

describe('users with a password', () => {
  it('POST /access/ticket answers a ticket for the right password only; the ticket authenticates as a cookie, writes also need the CSRF token', async () => {
    const { server } = await withAccess({ users: [{ userid: 'console@pve', password: 'console-pass' }], roles: [{ roleid: 'Console', privs: ['VM.Console'] }], acl: [{ path: '/vms', ugid: 'console@pve', roleid: 'Console' }] });
    try {
      const client = new ProxmoxClient({ baseUrl: server.url, tokenId: TOKEN, tokenSecret: SECRET, plaintextLab: true, getRetries: 0 });
      const refused = await client.access.ticket('console@pve', 'wrong-pass').catch((error: unknown) => error as Error);
      expect(refused).toMatchObject({ status: 401, message: 'authentication failure' });
      expect(`${String(refused)} ${JSON.stringify(refused)}`).not.toContain('wrong-pass');
      const ticket = await client.access.ticket('console@pve', 'console-pass');
      expect(ticket.ticket).toMatch(/^PVE:console@pve:[0-9A-F]{8}::/);
      expect(await client.http.request('GET', '/access/permissions', {}, { path: '/vms/9000' }, { as: ticket })).toEqual({ '/vms/9000': { 'VM.Console': 1 } });
      const termproxy = await client.http.request<{ user: string }>('POST', '/nodes/{node}/qemu/{vmid}/termproxy', { node: 'pve1', vmid: 9000 }, { serial: 'serial0' }, { as: ticket });
      expect(termproxy.user).toBe('console@pve');
      await expect(client.http.request('POST', '/nodes/{node}/qemu/{vmid}/termproxy', { node: 'pve1', vmid: 9000 }, {}, { as: { ...ticket, csrfToken: 'forged' } })).rejects.toMatchObject({ status: 401 });
      await expect(client.http.request('POST', '/nodes/{node}/qemu/{vmid}/status/start', { node: 'pve1', vmid: 9000 }, {}, { as: ticket })).rejects.toMatchObject({ status: 403 });
    } finally {
      await server.close();
    }
  });
});
