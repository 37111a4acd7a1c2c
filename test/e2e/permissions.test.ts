import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ProxmoxClient } from '../../src/proxmox';
import { parseToken } from '../../src/simulator/server';
import { demoAccess } from '../../src/simulator/spec';
import { expectFullyReleased } from '../support/reservations';
import { guestsOf, seededId, startStack, type Stack } from '../support/stack';

/** The demo's least-privilege token, its PVECP role without VM.Config.Memory. */
function withoutMemory() {
  const access = demoAccess();
  return { ...access, roles: access.roles.map((r) => ({ ...r, privs: r.privs.filter((p) => p !== 'VM.Config.Memory') })) };
}

let stack: Stack;
beforeAll(async () => {
  stack = await startStack({ simulator: { access: withoutMemory() } });
});
afterAll(async () => {
  await stack?.close();
});

describe('a token that lost a privilege', () => {
  it('fails the provision with PROVIDER_PERMISSION_DENIED, Proxmox\'s words for admins only, and rolls back completely', async () => {
    // The medium plan's 2 GiB differs from the template's 1 GiB, so configure must write `memory`.
    const created = await stack.create({ hostname: 'no-memory', planId: seededId(stack.seed.plans, 'medium') });
    const id = created.body.data.id as string;
    const failed = await stack.waitForStatus(id, ['failed', 'running', 'rollback_failed'], 60_000);
    expect(failed.status).toBe('failed');
    expect(failed.failure?.code).toBe('PROVIDER_PERMISSION_DENIED');
    expect(failed.task?.error?.code).toBe('PROVIDER_PERMISSION_DENIED');
    expect(JSON.stringify(failed)).not.toContain('Permission check failed');
    expect(JSON.stringify(failed)).not.toMatch(/token refused/i);

    const admin = await stack.api.request('GET', `/v1/admin/instances/${id}`, { token: stack.api.adminToken });
    expect(admin.body.data.failureCause).toMatchObject({ type: 'PROVIDER_PERMISSION_DENIED' });
    expect(String(admin.body.data.failureCause.detail)).toMatch(/^Permission check failed \(\/vms\/\d+, VM\.Config\.Memory\)$/);

    expect(guestsOf(await stack.sim.state(), id)).toEqual([]);
    await expectFullyReleased(stack.api.db, id);
  });
});

describe('a reconcile that meets a refused privilege', () => {
  let plain: Stack;
  beforeAll(async () => {
    plain = await startStack();
  });
  afterAll(async () => {
    await plain?.close();
  });

  it('answers PROVIDER_PERMISSION_DENIED and concludes nothing: an unlisted guest it may not read is not marked lost', async () => {
    const created = await plain.create({ hostname: 'audit-refused' });
    const id = created.body.data.id as string;
    await plain.waitForStatus(id, ['running'], 60_000);
    const { node, vmid } = await plain.api.db.instance.findUniqueOrThrow({ where: { id } });
    // The listing no longer shows the guest, as it hides guests from a token without VM.Audit, and the direct read is refused.
    const { tokenId, secret } = parseToken(plain.simToken);
    const outside = new ProxmoxClient({ baseUrl: plain.sim.url, tokenId, tokenSecret: secret, plaintextLab: true });
    try {
      await outside.tasks.wait(await outside.guests.stop(node as string, vmid as number));
      await outside.tasks.wait(await outside.guests.delete(node as string, vmid as number));
    } finally {
      outside.close();
    }
    await plain.sim.fault({ op: 'status', mode: 'http403', message: `Permission check failed (/vms/${vmid}, VM.Audit)`, count: 100 });

    const res = await plain.api.request('POST', `/v1/admin/instances/${id}/reconcile`, { token: plain.api.adminToken });
    expect(res.status, res.text).toBe(502);
    expect(res.body.error.code).toBe('PROVIDER_PERMISSION_DENIED');
    expect(res.text).not.toContain('Permission check failed');
    expect((await plain.api.db.instance.findUniqueOrThrow({ where: { id } })).status).toBe('running');
  });
});
