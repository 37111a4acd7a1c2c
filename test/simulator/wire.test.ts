/**
 * The simulator speaks Proxmox's wire format: token auth, schema validation errors,
 * status-line messages and Proxmox's answer typing.
 */
import { describe, expect, it } from 'vitest';
import { isUpid } from '../../src/proxmox';
import { createSimulator, DEFAULT_SIM_TOKEN } from '../../src/simulator';
import { startSim, useSim } from './support';

const h = useSim();

describe('authentication', () => {
  it('answers 401 without a token, with a wrong secret or an unknown token id', async () => {
    expect((await h.api('GET', '/nodes', {}, null)).status).toBe(401);
    expect((await h.api('GET', '/nodes', {}, 'PVEAPIToken=root@pam!controlplane=nope')).status).toBe(401);
    expect((await h.api('GET', '/nodes', {}, 'PVEAPIToken=root@pam!other=sim-secret-change-me')).status).toBe(401);
    expect((await h.api('GET', '/nodes')).status).toBe(200);
  });

  it('delays failed authentication when configured (real Proxmox waits ~3 s)', async () => {
    const h2 = await startSim({ authFailDelayMs: 150 });
    try {
      const t0 = Date.now();
      expect((await h2.api('GET', '/nodes', {}, 'PVEAPIToken=root@pam!controlplane=nope')).status).toBe(401);
      expect(Date.now() - t0).toBeGreaterThanOrEqual(140);
    } finally {
      await h2.close();
    }
  });

  it('accepts a custom token and exports the default one', async () => {
    expect(DEFAULT_SIM_TOKEN).toBe('root@pam!controlplane=sim-secret-change-me');
    const h2 = await startSim({ token: 'cp@pve!prov=abc123' });
    try {
      expect((await h2.api('GET', '/nodes', {}, 'PVEAPIToken=cp@pve!prov=abc123')).status).toBe(200);
      expect((await h2.api('GET', '/nodes')).status).toBe(401);
    } finally {
      await h2.close();
    }
    expect(() => createSimulator({ token: 'not-a-token' })).toThrow(/USER@REALM!TOKENID=SECRET/);
  });
});

describe('schema validation', () => {
  it('answers 501 "Method ... not implemented" for unknown paths and verbs', async () => {
    const r = await h.api('GET', '/foo/bar');
    expect(r.status).toBe(501);
    expect(r.statusText).toBe("Method 'GET /foo/bar' not implemented");
    expect((await h.api('PATCH' as string, '/nodes')).status).toBe(501);
  });

  it('an unknown parameter is a 400 "Parameter verification failed." with a per-parameter message', async () => {
    const r = await h.api('POST', '/nodes/pve1/qemu/9000/clone', { newid: '500', colour: 'blue' });
    expect(r.status).toBe(400);
    expect(r.statusText).toBe('Parameter verification failed.');
    expect(r.body.data).toBeNull();
    expect(r.body.errors).toEqual({ colour: 'property is not defined in schema and the schema does not allow additional properties' });
  });

  it('a missing required parameter, a wrong type, enum, minimum and pattern are rejected', async () => {
    const missing = await h.api('POST', '/nodes/pve1/qemu/9000/clone', { name: 'x' });
    expect(missing.body.errors).toEqual({ newid: 'property is missing and it is not optional' });
    const wrongType = await h.api('POST', '/nodes/pve1/qemu/9000/clone', { newid: 'abc', full: 'maybe' });
    expect(wrongType.body.errors).toEqual({ newid: "type check ('integer') failed - got 'abc'", full: "type check ('boolean') failed - got 'maybe'" });
    const tooSmall = await h.api('POST', '/nodes/pve1/qemu/9000/clone', { newid: '99' });
    expect(tooSmall.body.errors).toEqual({ newid: 'value must have a minimum value of 100' });
    const badEnum = await h.api('GET', '/cluster/resources', { type: 'disk' });
    expect(badEnum.body.errors?.type).toMatch(/does not have a value in the enumeration/);
    const badPattern = await h.api('PUT', '/nodes/pve1/qemu/9000/resize', { disk: 'scsi0', size: 'huge' });
    expect(badPattern.body.errors).toEqual({ size: 'value does not match the regex pattern' });
    const badPath = await h.api('GET', '/nodes/pve1/qemu/abc/status/current');
    expect(badPath.status).toBe(400);
    expect(badPath.body.errors?.vmid).toMatch(/type check/);
  });

  it('checks property strings such as net0 and formats such as sshkeys', async () => {
    const net = await h.api('PUT', '/nodes/pve1/qemu/9000/config', { net0: 'virtio,bridge=vmbr0,speed=fast' });
    expect(net.status).toBe(400);
    expect(net.body.errors?.net0).toMatch(/invalid format/);
    const keys = await h.api('PUT', '/nodes/pve1/qemu/9000/config', { sshkeys: 'ssh-ed25519 AAAA raw@key' });
    expect(keys.status).toBe(400);
    expect(keys.body.errors?.sshkeys).toMatch(/urlencoded/);
  });

  it('validates against 8.4.5 when asked to', async () => {
    const h2 = await startSim({ pveVersion: '8.4.5' });
    try {
      expect(h2.sim.schema.version).toBe('8.4.5');
      // with-conntrack-state appeared after 8.4
      const r = await h2.api('POST', '/nodes/pve1/qemu/9000/migrate', { target: 'pve2', 'with-conntrack-state': '1' });
      expect(r.status).toBe(400);
      expect(r.body.errors?.['with-conntrack-state']).toMatch(/not defined in schema/);
      expect((await h2.api('GET', '/version')).body.data).toMatchObject({ version: '8.4.5' });
    } finally {
      await h2.close();
    }
  });
});

describe('other failures', () => {
  it('are HTTP 500 with the message in the status line and {"data":null} in the body', async () => {
    const r = await h.api('POST', '/nodes/pve1/qemu/999/status/start');
    expect(r.status).toBe(500);
    expect(r.statusText).toBe("Configuration file 'nodes/pve1/qemu-server/999.conf' does not exist");
    expect(r.body.data).toBeNull();
  });
});

describe('answer typing', () => {
  it('GET /cluster/nextid answers a JSON string; a taken VMID is a 400', async () => {
    const free = await h.api('GET', '/cluster/nextid', { vmid: '777' });
    expect(free.text).toBe('{"data":"777"}');
    const next = await h.api('GET', '/cluster/nextid');
    expect(next.body.data).toBe('100');
    const taken = await h.api('GET', '/cluster/nextid', { vmid: '9000' });
    expect(taken.status).toBe(400);
    expect(taken.body.errors).toEqual({ vmid: 'VM 9000 already exists' });
  });

  it('booleans are 0/1, integers have no decimals, template: 1 only on templates', async () => {
    await h.wait(await h.client.guests.clone('pve1', 9000, { newid: 501, name: 'typed' }));
    await h.client.guestConfig.setSync('pve1', 501, { onboot: true, cores: 2 });
    const cfg = await h.api('GET', '/nodes/pve1/qemu/501/config');
    expect(cfg.text).toContain('"onboot":1');
    expect(cfg.text).toContain('"cores":2');
    expect(cfg.text).not.toMatch(/true|false/);
    expect(cfg.body.data).not.toHaveProperty('template');
    const res = await h.api('GET', '/cluster/resources', { type: 'vm' });
    const list = res.body.data as Record<string, unknown>[];
    expect(list.find((r) => r.vmid === 9000)?.template).toBe(1);
    expect(list.find((r) => r.vmid === 501)).not.toHaveProperty('template');
    expect(res.text).not.toMatch(/true|false/);
    for (const r of list) expect(Number.isInteger(r.maxmem)).toBe(true);
  });

  it('task status carries numbers for pid/pstart/starttime and strings for id/type/user', async () => {
    const upid = await h.client.guests.clone('pve1', 9000, { newid: 502, name: 't' });
    expect(isUpid(upid)).toBe(true);
    await h.wait(upid);
    const st = await h.api('GET', `/nodes/pve1/tasks/${encodeURIComponent(upid)}/status`);
    const d = st.body.data as Record<string, unknown>;
    expect(d).toMatchObject({ upid, status: 'stopped', exitstatus: 'OK', type: 'qmclone', id: '9000', user: 'root@pam', tokenid: 'controlplane' });
    for (const k of ['pid', 'pstart', 'starttime']) expect(Number.isInteger(d[k])).toBe(true);
  });

  it('node status has loadavg as strings and CPU flags', async () => {
    const r = await h.api('GET', '/nodes/pve3/status');
    const d = r.body.data as { loadavg: unknown[]; cpuinfo: { flags: string } };
    expect(d.loadavg.every((x) => typeof x === 'string')).toBe(true);
    expect(d.cpuinfo.flags).toContain('sse4_2');
    expect(d.cpuinfo.flags).not.toContain('avx2');
  });
});

describe('many calls at once', () => {
  // How fast is the bench's business (bench/README.md); here, that none is dropped or mixed up.
  it('answers 300 concurrent calls, each with its own guest', async () => {
    const vmids = [9000, 9001, 9002];
    const answers = await Promise.all(Array.from({ length: 300 }, (_, i) => h.client.guests.status('pve1', vmids[i % 3] as number)));
    expect(answers.map((answer) => answer.vmid)).toEqual(Array.from({ length: 300 }, (_, i) => vmids[i % 3]));
  });
});
