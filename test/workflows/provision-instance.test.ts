import { randomBytes } from 'node:crypto';
import { ApplicationFailure } from '@temporalio/common';
import { TestWorkflowEnvironment } from '@temporalio/testing';
import { DefaultLogger, Runtime, Worker } from '@temporalio/worker';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Activities } from '../../src/activities';
import { progressQuery, resolveRollbackSignal, retryRollbackSignal } from '../../src/workflows/definitions';
import type { ProvisionInput, ProvisionResult } from '../../src/workflows/provision-instance';

/**
 * The workflow's orchestration alone, on the real Temporal dev server, with activities that
 * only record what they were asked: order of stages, compensations in reverse, parking and the
 * operator's signals.
 */
type Call = { name: string; args: any };
type Script = Partial<Record<keyof Activities, (args: any, attempt: number) => unknown>>;

const STAGE_ACTIVITIES = ['cloneGuest', 'configureGuest', 'applyCloudInit', 'attachNetwork', 'bootGuest', 'verifyGuest', 'finalizeInstance'] as const;
const BOOKKEEPING = ['removeGuest', 'failInstance', 'parkInstance', 'recordOperatorNote'] as const;

let env: TestWorkflowEnvironment;
beforeAll(async () => {
  // The scripted failures are expected; keep the SDK's per-attempt warnings out of the output.
  Runtime.install({ logger: new DefaultLogger('ERROR') });
  env = await TestWorkflowEnvironment.createFromExistingServer({ address: inject('temporalAddress') });
});
afterAll(async () => {
  await env?.teardown();
});

/** Runs one provision with scripted activities; `during` may signal or query the running workflow. */
async function provision(script: Script, during?: (handle: ReturnType<TestWorkflowEnvironment['client']['workflow']['getHandle']>, calls: Call[]) => Promise<void>) {
  const calls: Call[] = [];
  const attempts = new Map<string, number>();
  const activities = Object.fromEntries(
    [...STAGE_ACTIVITIES, ...BOOKKEEPING].map((name) => [
      name,
      async (args: any) => {
        const attempt = (attempts.get(name) ?? 0) + 1;
        attempts.set(name, attempt);
        calls.push({ name, args });
        const scripted = script[name];
        if (scripted) return scripted(args, attempt);
        return name === 'removeGuest' ? 'removed' : undefined;
      },
    ]),
  );
  const taskQueue = `wf-${randomBytes(4).toString('hex')}`;
  const worker = await Worker.create({
    connection: env.nativeConnection,
    taskQueue,
    workflowBundle: { codePath: inject('workflowBundlePath') },
    activities,
  });
  const input: ProvisionInput = { instanceId: `inst_${randomBytes(6).toString('hex')}`, taskId: 'task_x', timeoutScale: 0.01 };
  return worker.runUntil(async () => {
    const handle = await env.client.workflow.start('ProvisionInstance', { taskQueue, workflowId: `provision-${input.instanceId}`, args: [input] });
    if (during) await during(handle, calls);
    const result = (await handle.result()) as ProvisionResult;
    const description = await handle.describe();
    return { result, calls, names: calls.map((c) => c.name), description };
  });
}

const rejected = (type = 'PROVIDER_REJECTED') => () => {
  throw ApplicationFailure.create({ type, message: 'VM 1000 - unable to find configuration file on pve1', nonRetryable: true });
};

async function waitFor(condition: () => Promise<boolean>, timeoutMs = 20_000) {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe('ProvisionInstance', () => {
  it('runs the seven stages in order and ends running', async () => {
    const { result, names, description } = await provision({});
    expect(result).toEqual({ status: 'running' });
    expect(names).toEqual([...STAGE_ACTIVITIES]);
    expect(description.searchAttributes.InstanceStatus).toEqual(['running']);
    expect(description.searchAttributes.ProvisionStage).toEqual(['finalize']);
  });

  it('on a failed stage removes the guest, then fails the instance with a customer-safe code', async () => {
    const { result, names, calls } = await provision({ configureGuest: rejected() });
    expect(result).toEqual({ status: 'failed', failureCode: 'PROVISIONING_FAILED' });
    expect(names).toEqual(['cloneGuest', 'configureGuest', 'removeGuest', 'failInstance']);
    const failed = calls.find((c) => c.name === 'failInstance')!.args;
    expect(failed.failure.code).toBe('PROVISIONING_FAILED');
    expect(failed.failure.message).not.toContain('pve1');
    expect(failed.cause).toMatchObject({ stage: 'configure', type: 'PROVIDER_REJECTED' });
    expect(failed.keepVmid).toBe(false);
  });

  it('removes a guest even when the clone itself failed, since a half-done clone can leave one', async () => {
    const { names } = await provision({ cloneGuest: rejected('PROVIDER_TASK_FAILED') });
    expect(names).toEqual(['cloneGuest', 'removeGuest', 'failInstance']);
  });

  it('keeps the VMID held when the guest at it is not ours', async () => {
    const { calls } = await provision({ cloneGuest: rejected('GUEST_CONFLICT'), removeGuest: () => 'not_ours' });
    const failed = calls.find((c) => c.name === 'failInstance')!.args;
    expect(failed.keepVmid).toBe(true);
    expect(failed.cause.vmidKept).toBeTruthy();
  });

  it('retries a transient stage failure within its budget', async () => {
    const { result, names } = await provision({
      bootGuest: (_args, attempt) => {
        if (attempt < 3) throw new Error('got no worker upid');
      },
    });
    expect(result.status).toBe('running');
    expect(names.filter((n) => n === 'bootGuest')).toHaveLength(3);
  });

  it('parks when the guest cannot be removed, and tries again on retryRollback', async () => {
    const { result, names } = await provision(
      { verifyGuest: rejected(), removeGuest: (_args, attempt) => (attempt === 1 ? Promise.reject(rejected('GUEST_LOCKED')()) : 'removed') },
      async (handle) => {
        await waitFor(async () => (await handle.query(progressQuery)).rollback.state === 'parked');
        const parked = await handle.query(progressQuery);
        expect(parked.status).toBe('rollback_failed');
        expect(parked.rollback.reason).toContain('unable to find');
        expect((await handle.describe()).searchAttributes.InstanceStatus).toEqual(['rollback_failed']);
        await handle.signal(retryRollbackSignal);
      },
    );
    expect(result).toEqual({ status: 'failed', failureCode: 'PROVISIONING_FAILED' });
    expect(names.slice(-4)).toEqual(['removeGuest', 'parkInstance', 'removeGuest', 'failInstance']);
  });

  it('waits for an operator without giving up, and resolveRollback releases with the note', async () => {
    const { calls, names } = await provision(
      { bootGuest: rejected(), removeGuest: () => Promise.reject(rejected('GUEST_LOCKED')()) },
      async (handle, seen) => {
        await waitFor(async () => seen.some((c) => c.name === 'parkInstance'));
        // Parked means parked: no further attempts while nobody answers.
        const before = seen.length;
        await new Promise((resolve) => setTimeout(resolve, 1500));
        expect(seen.length).toBe(before);
        await handle.signal(resolveRollbackSignal, { note: 'qm unlock 1000 && qm destroy 1000 on pve1' });
      },
    );
    expect(names.slice(-3)).toEqual(['parkInstance', 'recordOperatorNote', 'failInstance']);
    expect(calls.find((c) => c.name === 'failInstance')!.args.cause.operatorNote).toContain('qm destroy');
  });

  it('ignores operator signals while nothing is parked', async () => {
    const { result } = await provision({}, async (handle) => {
      await handle.signal(resolveRollbackSignal, { note: 'too early' });
    });
    expect(result.status).toBe('running');
  });

  it('rolls back a cancelled provision outside the cancellation', async () => {
    const { result, names } = await provision(
      { attachNetwork: () => new Promise((resolve) => setTimeout(resolve, 400)) },
      async (handle, seen) => {
        await waitFor(async () => seen.some((c) => c.name === 'attachNetwork'));
        await handle.cancel();
      },
    );
    expect(result).toEqual({ status: 'failed', failureCode: 'CANCELLED' });
    expect(names.slice(-2)).toEqual(['removeGuest', 'failInstance']);
  });
});
