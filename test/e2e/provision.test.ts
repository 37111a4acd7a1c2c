import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PROVISION_STAGES } from '../../src/domain/provisioning';
import { streamedEvents } from '../support/lifecycle';
import { guestsOf, startStack, type Stack } from '../support/stack';

describe('provisioning a server end to end', () => {
  let stack: Stack;
  beforeAll(async () => {
    stack = await startStack();
  });
  afterAll(async () => {
    await stack?.close();
  });

  it('takes a create request to a running guest through all seven stages', async () => {
    const created = await stack.create({ hostname: 'web-1' });
    expect(created.status).toBe(202);
    const id = created.body.data.id;
    expect(created.body.meta.taskId).toMatch(/^task_/);

    const running = await stack.waitForStatus(id, ['running', 'failed']);
    expect(running.failure).toBeNull();
    expect(running.status).toBe('running');
    const stagesSeen = new Set(running.task?.steps.map((s) => s.step.split(' > ')[0]));
    for (const stage of PROVISION_STAGES) expect(stagesSeen).toContain(stage);
    expect(running.task?.status).toBe('succeeded');
    expect(running.task?.progress).toBe(100);
    expect(running.ipv4).toMatch(/^198\.51\.100\./);

    const [guest, ...others] = guestsOf(await stack.sim.state(), id);
    expect(others).toEqual([]);
    expect(guest?.name).toBe('web-1');
    expect(guest?.status).toBe('running');
    expect(String(guest?.config.net0)).toContain('bridge=vmbr0');
    expect(String(guest?.config.ipconfig0)).toContain(`ip=${running.ipv4}/24`);
    expect(String(guest?.config.memory)).toBe('1024');
    expect(String(guest?.config.tags)).toContain('pvecp');
  });

  it('streams the step thread over SSE until the task ends, then reveals the password exactly once', async () => {
    const created = await stack.create({ hostname: 'stream-1' });
    const id = created.body.data.id;
    const { contentType, steps, closed } = await streamedEvents(stack, id);
    expect(contentType).toContain('text/event-stream');
    expect(steps[0]).toMatchObject({ step: 'schedule > reserving resources', status: 'success' });
    expect(steps.map((s) => s.step)).toContain('finalize > finishing');
    expect(closed).toBe(true);

    const reveal = () => stack.client.POST('/v1/instances/{id}/credentials/reveal', { params: { path: { id } } });
    const first = await reveal();
    expect(first.response.status).toBe(200);
    expect(first.data?.data.username).toBe('debian');
    expect(first.data?.data.password).toMatch(/^\S{24}$/);
    const second = await reveal();
    expect(second.response.status).toBe(410);
    expect(second.error?.error.code).toBe('CREDENTIAL_ALREADY_REVEALED');
  });
});
