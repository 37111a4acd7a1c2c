import { describe, expect, it } from 'vitest';
import { guestOf, operate, runningServer, runOperation, suiteStack } from '../support/lifecycle';

describe('POST /v1/instances/{id}/credentials/reveal answers only for a running or stopped server', () => {
  const stack = suiteStack({}, (started) => started.sim.clearFaults());
  const reveal = (id: string) => stack.api.request('POST', `/v1/instances/${id}/credentials/reveal`, { token: stack.customer.token });
  const expectInvalidState = async (id: string) => {
    const res = await reveal(id);
    expect(res.status, res.text).toBe(409);
    expect(res.body.error.code).toBe('INVALID_STATE');
  };

  it('reveals while the server is stopped', async () => {
    const id = await runningServer(stack, { hostname: 'reveal-stopped' });
    expect((await runOperation(stack, id, 'stop')).instance.status).toBe('stopped');
    const res = await reveal(id);
    expect(res.status).toBe(200);
    expect(res.body.data.password).toBe((await guestOf(stack, id))?.cipassword);
  });

  it('answers 409 while a rebuild replaces the credential, then reveals the new one once the server runs', async () => {
    const id = await runningServer(stack, { hostname: 'reveal-rebuild' });
    const oldPassword = (await guestOf(stack, id))?.cipassword;
    // Hold the old guest's destroy so the rebuild is still under way while we ask.
    await stack.sim.fault({ op: 'destroy', mode: 'delay', delayMs: 1000 });
    const rebuild = await operate(stack, id, 'rebuild', {});
    expect(rebuild.status).toBe(202);
    await expectInvalidState(id);
    await stack.waitForStatus(id, ['running', 'failed']);
    const res = await reveal(id);
    expect(res.status).toBe(200);
    expect(res.body.data.password).not.toBe(oldPassword);
    expect(res.body.data.password).toBe((await guestOf(stack, id))?.cipassword);
  });

  it('answers 409 for a server whose provisioning failed', async () => {
    await stack.sim.fault({ op: 'start', mode: 'task_fail' });
    const created = await stack.create({ hostname: 'reveal-failed' });
    const id = created.body.data.id as string;
    expect((await stack.waitForStatus(id, ['failed', 'running', 'rollback_failed'], 60_000)).status).toBe('failed');
    await expectInvalidState(id);
  });

  it('answers 409 for a deleted server', async () => {
    const id = await runningServer(stack, { hostname: 'reveal-deleted' });
    expect((await runOperation(stack, id, 'delete')).instance.status).toBe('deleted');
    await expectInvalidState(id);
  });
});
