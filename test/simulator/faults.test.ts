/**
 * Fault injection through the control API (`/_sim/faults`), one mode at a time.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ProxmoxError, ProxmoxTaskError } from '../../src/proxmox';
import { startSim, type SimHarness } from './support';

let h: SimHarness;
beforeAll(async () => {
  h = await startSim({}, { timeoutMs: 300 });
});
afterAll(async () => {
  await h.close();
});
beforeEach(async () => {
  await h.control('POST', '/reset');
});

interface State {
  guests: { vmid: number; node: string; name: string; status: string; lock?: string; tags?: string; config: Record<string, unknown> }[];
  tasks: { upid: string; type: string; status: string; exitstatus?: string }[];
  calls: Record<string, number>;
}
const state = () => h.control<State>('GET', '/state');
const fault = (body: Record<string, unknown>) => h.control('POST', '/faults', body);
const caught = (p: Promise<unknown>) =>
  p.then(
    () => undefined,
    (e: unknown) => e,
  );

async function ready(newid: number) {
  await h.wait(await h.client.guests.clone('pve1', 9000, { newid, name: `vm-${newid}` }));
}

describe('fault modes', () => {
  it('http500 rejects the call with the message in the status line, and does nothing', async () => {
    await fault({ op: 'clone', mode: 'http500', message: 'storage is on fire' });
    const e = (await caught(h.client.guests.clone('pve1', 9000, { newid: 400, name: 'x' }))) as ProxmoxError;
    expect(e).toBeInstanceOf(ProxmoxError);
    expect(e).toMatchObject({ status: 500, message: 'storage is on fire' });
    expect((await state()).guests.some((g) => g.vmid === 400)).toBe(false);
  });

  it('timeout never answers; the client gives up and the call did not happen', async () => {
    await fault({ op: 'start', mode: 'timeout' });
    await ready(401);
    const e = (await caught(h.client.guests.start('pve1', 401))) as ProxmoxError;
    expect(e).toMatchObject({ kind: 'timeout', outcomeUnknown: true });
    expect((await h.client.guests.status('pve1', 401)).status).toBe('stopped');
  });

  it('task_fail accepts the call; the task ends with the message and a failed clone leaves no guest', async () => {
    await fault({ op: 'clone', mode: 'task_fail', message: 'clone failed: out of space' });
    const upid = await h.client.guests.clone('pve1', 9000, { newid: 402, name: 'x' });
    const e = (await caught(h.wait(upid))) as ProxmoxTaskError;
    expect(e).toBeInstanceOf(ProxmoxTaskError);
    expect(e.exitstatus).toBe('clone failed: out of space');
    const s = await state();
    expect(s.guests.some((g) => g.vmid === 402)).toBe(false);
    expect(s.tasks.find((t) => t.upid === upid)).toMatchObject({ status: 'stopped', exitstatus: 'clone failed: out of space' });
  });

  it('drop_after_accept starts the task and destroys the connection without an answer', async () => {
    await ready(403);
    await fault({ op: 'destroy', mode: 'drop_after_accept' });
    const e = (await caught(h.client.guests.delete('pve1', 403))) as ProxmoxError;
    expect(e).toMatchObject({ kind: 'network', outcomeUnknown: true });
    const tasks = await h.client.tasks.list('pve1', { source: 'all', typefilter: 'qmdestroy', vmid: 403 });
    expect(tasks).toHaveLength(1);
    await h.wait(tasks[0]?.upid as string);
    expect((await state()).guests.some((g) => g.vmid === 403)).toBe(false);
  });

  it('http500_after_accept starts the task, then answers 500 with the message', async () => {
    await ready(411);
    await fault({ op: 'start', mode: 'http500_after_accept', message: 'proxy error on pve1: pvedaemon gave no answer' });
    const e = (await caught(h.client.guests.start('pve1', 411))) as ProxmoxError;
    expect(e).toMatchObject({ status: 500, message: 'proxy error on pve1: pvedaemon gave no answer', isUnexplained5xx: true });
    const tasks = await h.client.tasks.list('pve1', { source: 'all', typefilter: 'qmstart', vmid: 411 });
    expect(tasks).toHaveLength(1);
    await h.wait(tasks[0]?.upid as string);
    expect((await h.client.guests.status('pve1', 411)).status).toBe('running');
  });

  it('http500_after_accept answers 500 to a vzdump, a restore, a snapshot and an archive delete whose task runs to its end', async () => {
    const message = 'proxy error on pve1: pvedaemon gave no answer';
    const acceptedThen500 = async (op: string, method: string, path: string, params: Record<string, string>, type: string) => {
      await fault({ op, mode: 'http500_after_accept', message });
      const answer = await h.api(method, path, params);
      expect([answer.status, answer.statusText], op).toEqual([500, message]);
      const started = (await h.api('GET', '/nodes/pve1/tasks', { source: 'all', typefilter: type })).body.data as { upid: string }[];
      expect(started, op).toHaveLength(1);
      await h.wait(started[0]!.upid);
    };
    await ready(414);
    await acceptedThen500('backup', 'POST', '/nodes/pve1/vzdump', { vmid: '414', storage: 'local' }, 'vzdump');
    const archives = () => h.api('GET', '/nodes/pve1/storage/local/content', { content: 'backup', vmid: '414' }).then((r) => r.body.data as { volid: string }[]);
    const [archive] = await archives();
    expect(archive?.volid).toMatch(/^local:backup\/vzdump-qemu-414-/);

    await acceptedThen500('restore', 'POST', '/nodes/pve1/qemu', { vmid: '415', archive: archive!.volid }, 'qmrestore');
    expect((await state()).guests.find((g) => g.vmid === 415)).toMatchObject({ status: 'stopped' });

    await acceptedThen500('snapshot', 'POST', '/nodes/pve1/qemu/414/snapshot', { snapname: 'before' }, 'qmsnapshot');
    expect(((await h.api('GET', '/nodes/pve1/qemu/414/snapshot')).body.data as { name: string }[]).map((s) => s.name)).toEqual(['before', 'current']);

    await acceptedThen500('volume_delete', 'DELETE', `/nodes/pve1/storage/local/content/${archive!.volid}`, {}, 'imgdel');
    expect(await archives()).toEqual([]);
  });

  it('http400 rejects the call as the parameter check does, naming the parameter, and does nothing', async () => {
    await ready(412);
    const before = (await h.client.guestConfig.get('pve1', 412)).memory;
    await fault({ op: 'config', mode: 'http400', param: 'memory', message: 'value must have a minimum value of 16' });
    const e = (await caught(h.client.guestConfig.set('pve1', 412, { memory: 2048 }))) as ProxmoxError;
    expect(e).toMatchObject({ status: 400, message: 'Parameter verification failed.', errors: { memory: 'value must have a minimum value of 16' }, isParameterError: true });
    expect((await h.client.guestConfig.get('pve1', 412)).memory).toBe(before);
    expect(before).not.toBe(2048);
  });

  it('http403 rejects the call as a failed permission check, and does nothing', async () => {
    await ready(413);
    await fault({ op: 'start', mode: 'http403' });
    const e = (await caught(h.client.guests.start('pve1', 413))) as ProxmoxError;
    expect(e).toMatchObject({ status: 403, isPermissionDenied: true, isUnauthorized: false });
    expect(e.message).toMatch(/^Permission check failed/);
    expect((await h.client.guests.status('pve1', 413)).status).toBe('stopped');
  });

  it('hang leaves the task running forever, and the guest keeps its lock', async () => {
    await fault({ op: 'clone', mode: 'hang' });
    const upid = await h.client.guests.clone('pve1', 9000, { newid: 404, name: 'x' });
    await new Promise((r) => setTimeout(r, 40));
    expect((await h.client.tasks.status(upid)).status).toBe('running');
    expect((await state()).guests.find((g) => g.vmid === 404)?.lock).toBe('clone');
    expect(await h.client.tasks.list('pve1', { source: 'active', typefilter: 'qmclone', vmid: 9000 })).toHaveLength(1);
  });

  it('lock leaves the guest locked after its task; later mutating calls fail "locked"', async () => {
    await fault({ op: 'clone', mode: 'lock' });
    await h.wait(await h.client.guests.clone('pve1', 9000, { newid: 405, name: 'x' }));
    expect((await state()).guests.find((g) => g.vmid === 405)?.lock).toBe('clone');
    const e = (await caught(h.client.guests.start('pve1', 405))) as ProxmoxError;
    expect(e).toMatchObject({ isLocked: true, lockKind: 'clone', message: 'VM 405 is locked (clone)' });
  });

  it('lock names the lock kind through message', async () => {
    await ready(406);
    await fault({ op: 'config', mode: 'lock', message: 'backup' });
    await h.client.guestConfig.setSync('pve1', 406, { cores: 2 });
    const e = (await caught(h.client.guests.delete('pve1', 406))) as ProxmoxError;
    expect(e.lockKind).toBe('backup');
  });

  it('lose_guest makes the guest vanish after the call', async () => {
    await ready(407);
    await fault({ op: 'start', mode: 'lose_guest' });
    await h.wait(await h.client.guests.start('pve1', 407));
    expect((await h.client.guests.list()).some((r) => r.vmid === 407)).toBe(false);
    const e = (await caught(h.client.guests.status('pve1', 407))) as ProxmoxError;
    expect(e.isNotFound).toBe(true);
  });

  it('a status fault applies to reads of the guest (GET status/current)', async () => {
    await ready(408);
    await fault({ op: 'status', mode: 'http500', message: 'VM 408 qmp command failed', count: 5 });
    const e = (await caught(h.client.guests.status('pve1', 408))) as ProxmoxError;
    expect(e.message).toBe('VM 408 qmp command failed');
  });

  it('a task fault applies to task status polling', async () => {
    const h2 = await startSim({ taskMs: 10_000 });
    try {
      h2.sim.faults.add({ op: 'task', mode: 'task_fail', message: 'interrupted by signal' });
      const upid = await h2.client.guests.clone('pve1', 9000, { newid: 409, name: 'x' });
      const e = (await caught(h2.wait(upid))) as ProxmoxTaskError;
      expect(e.exitstatus).toBe('interrupted by signal');
    } finally {
      await h2.close();
    }
  });

  it('an agent fault rejects pings', async () => {
    await ready(410);
    await h.wait(await h.client.guests.start('pve1', 410));
    await fault({ op: 'agent', mode: 'http500', message: 'VM 410 qga command failed - timeout' });
    expect(((await caught(h.client.guests.pingAgent('pve1', 410))) as ProxmoxError).message).toMatch(/qga/);
    await h.client.guests.pingAgent('pve1', 410);
  });

  it('delayMs delays the answer', async () => {
    await fault({ op: 'any', mode: 'delay', delayMs: 120 });
    const t0 = Date.now();
    await h.client.cluster.nodes();
    expect(Date.now() - t0).toBeGreaterThanOrEqual(100);
  });
});

describe('fault matching', () => {
  it('count: each matching call consumes one', async () => {
    await ready(420);
    await fault({ op: 'config', mode: 'http500', count: 2 });
    expect(await caught(h.client.guestConfig.setSync('pve1', 420, { cores: 2 }))).toBeInstanceOf(ProxmoxError);
    expect((await h.control<{ faults: { remaining: number }[] }>('GET', '/faults')).faults).toEqual([expect.objectContaining({ remaining: 1 })]);
    expect(await caught(h.client.guestConfig.setSync('pve1', 420, { cores: 2 }))).toBeInstanceOf(ProxmoxError);
    await h.client.guestConfig.setSync('pve1', 420, { cores: 2 });
    expect((await h.control<{ faults: unknown[] }>('GET', '/faults')).faults).toEqual([]);
  });

  it('node: only calls for that node match', async () => {
    await fault({ op: 'clone', mode: 'http500', node: 'pve2' });
    await h.wait(await h.client.guests.clone('pve1', 9000, { newid: 421, name: 'a' }));
    expect(await caught(h.client.guests.clone('pve2', 9010, { newid: 422, name: 'b' }))).toBeInstanceOf(ProxmoxError);
  });

  it('call, param and skip narrow a fault to one call, calls with a parameter, and after N of them', async () => {
    await ready(423);
    await fault({ op: 'any', call: 'GET /cluster/resources', mode: 'http500', skip: 1, count: 1 });
    expect(await h.client.cluster.nodes()).toHaveLength(3);
    expect((await h.client.guests.list()).some((r) => r.vmid === 423)).toBe(true);
    expect(await caught(h.client.guests.list())).toBeInstanceOf(ProxmoxError);
    expect(await h.client.guests.list()).not.toHaveLength(0);

    await fault({ op: 'config', param: 'cipassword', mode: 'http500', message: 'no password for you' });
    await h.client.guestConfig.setSync('pve1', 423, { memory: 2048 });
    const refused = (await caught(h.client.guestConfig.setSync('pve1', 423, { cipassword: 'secret-1' }))) as ProxmoxError;
    expect(refused).toMatchObject({ status: 500, message: 'no password for you' });
    await h.client.guestConfig.setSync('pve1', 423, { cipassword: 'secret-2' });
    const guest = (await state()).guests.find((g) => g.vmid === 423);
    expect(guest).toMatchObject({ cipassword: 'secret-2', config: { memory: '2048', cipassword: '**********' } });
    expect((await h.control<{ faults: unknown[] }>('GET', '/faults')).faults).toEqual([]);
  });

  it('any matches every API call; DELETE /_sim/faults clears', async () => {
    await fault({ op: 'any', mode: 'http500', count: 100 });
    expect(await caught(h.client.cluster.nodes())).toBeInstanceOf(ProxmoxError);
    expect(await h.control('DELETE', '/faults')).toEqual({ cleared: 1 });
    expect(await h.client.cluster.nodes()).toHaveLength(3);
  });

  it('refuses an invalid fault description', async () => {
    const res = await fetch(`${h.server.url}/_sim/faults`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ op: 'explode', mode: 'http500' }),
    });
    expect(res.status).toBe(400);
  });
});

describe('control API', () => {
  it('GET /_sim/state lists guests, tasks and call counts per path template', async () => {
    const upid = await h.client.guests.clone('pve1', 9000, { newid: 430, name: 'counted' });
    await h.wait(upid);
    await h.client.guestConfig.setSync('pve1', 430, { tags: 'a;b' });
    const s = await state();
    expect(s.guests.find((g) => g.vmid === 430)).toMatchObject({ node: 'pve1', name: 'counted', status: 'stopped', tags: 'a;b' });
    expect(s.guests.find((g) => g.vmid === 430)?.config).toMatchObject({ name: 'counted', tags: 'a;b' });
    expect(s.tasks.find((t) => t.upid === upid)).toMatchObject({ type: 'qmclone', status: 'stopped', exitstatus: 'OK' });
    expect(s.calls['POST /nodes/{node}/qemu/{vmid}/clone']).toBe(1);
    expect(s.calls['PUT /nodes/{node}/qemu/{vmid}/config']).toBe(1);
    expect(s.calls['GET /nodes/{node}/tasks/{upid}/status']).toBeGreaterThanOrEqual(1);
  });

  it('POST /_sim/reset restores the initial cluster and clears faults and counts', async () => {
    await ready(431);
    await fault({ op: 'start', mode: 'http500' });
    expect(await h.control('POST', '/reset')).toEqual({ ok: true });
    const s = await state();
    expect(s.guests.map((g) => g.vmid)).toEqual([9000, 9001, 9002, 9010, 9011, 9012, 9020, 9021, 9022]);
    expect(s.calls).toEqual({});
    expect((await h.control<{ faults: unknown[] }>('GET', '/faults')).faults).toEqual([]);
  });

  it('POST /_sim/options changes task duration and hidden task polls at run time', async () => {
    expect(await h.control('POST', '/options', { hiddenTaskPolls: 1 })).toMatchObject({ hiddenTaskPolls: 1 });
    const upid = await h.client.guests.clone('pve1', 9000, { newid: 432, name: 'x' });
    expect(((await caught(h.client.tasks.status(upid))) as ProxmoxError).isNoSuchTask).toBe(true);
    await h.wait(upid);
    await h.control('POST', '/options', { hiddenTaskPolls: 0 });
  });
});
