import { randomBytes } from 'node:crypto';
import { WorkflowUpdateFailedError } from '@temporalio/client';
import { ApplicationFailure } from '@temporalio/common';
import { TestWorkflowEnvironment } from '@temporalio/testing';
import { DefaultLogger, Runtime, Worker } from '@temporalio/worker';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Activities } from '../../src/activities';
import { progressQuery, resolveRollbackSignal, resolveRollbackUpdate, retryRollbackSignal, retryRollbackUpdate } from '../../src/workflows/definitions';
import type { OperationInput } from '../../src/workflows/instance-operation';
import type { ProvisionInput, ProvisionResult } from '../../src/workflows/provision-instance';

/**
 * The workflow's orchestration alone, on the real Temporal dev server, with activities that
 * only record what they were asked: order of stages, compensations in reverse, parking and the
 * operator's updates.
 */
type Call = { name: string; args: any };
type Script = Partial<Record<keyof Activities, (args: any, attempt: number) => unknown>>;

const STAGE_ACTIVITIES = ['cloneGuest', 'configureGuest', 'applyCloudInit', 'attachNetwork', 'bootGuest', 'verifyGuest', 'finalizeInstance'] as const;
/** The clone stage's activity for a server restored from a backup. */
const RESTORE_STAGE = 'restoreGuestFromBackup' satisfies keyof Activities;
const BOOKKEEPING = ['removeGuest', 'failInstance', 'parkInstance', 'recordOperatorNote', 'completeDeletion', 'removeBackupsOfServer', 'keepBackupsOfServer'] as const;

let env: TestWorkflowEnvironment;
beforeAll(async () => {
  // The scripted failures are expected; keep the SDK's per-attempt warnings out of the output.
  Runtime.install({ logger: new DefaultLogger('ERROR') });
  env = await TestWorkflowEnvironment.createFromExistingServer({ address: inject('temporalAddress') });
});
afterAll(async () => {
  await env?.teardown();
});

type Handle = ReturnType<TestWorkflowEnvironment['client']['workflow']['getHandle']>;

/** Runs one workflow with scripted activities; `during` may update, signal or query the running workflow. */
async function runWorkflow(
  workflowType: 'ProvisionInstance' | 'InstanceOperation',
  input: Partial<ProvisionInput & OperationInput>,
  script: Script,
  during?: (handle: Handle, calls: Call[], firstRunId: string) => Promise<void>,
) {
  const calls: Call[] = [];
  const attempts = new Map<string, number>();
  const activities = Object.fromEntries(
    ([...STAGE_ACTIVITIES, RESTORE_STAGE, ...BOOKKEEPING] as const).map((name) => [
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
  const instanceId = `inst_${randomBytes(6).toString('hex')}`;
  const workflowId = workflowType === 'ProvisionInstance' ? `provision-${instanceId}` : `${input.operation}-${instanceId}-task_x`;
  return worker.runUntil(async () => {
    const started = await env.client.workflow.start(workflowType, { taskQueue, workflowId, args: [{ instanceId, taskId: 'task_x', timeoutScale: 0.01, ...input }] });
    // Not pinned to the first run: updates and queries follow the workflow across continue-as-new.
    const handle = env.client.workflow.getHandle(workflowId);
    if (during) await during(handle, calls, started.firstExecutionRunId);
    const result = (await started.result()) as ProvisionResult;
    const description = await handle.describe();
    return { result, calls, names: calls.map((c) => c.name), description, firstRunId: started.firstExecutionRunId };
  });
}

/** Runs one provision with scripted activities. */
const provision = (script: Script, during?: (handle: Handle, calls: Call[]) => Promise<void>) => runWorkflow('ProvisionInstance', {}, script, during);

const rejected = (type = 'PROVIDER_REJECTED') => () => {
  throw ApplicationFailure.create({ type, message: 'VM 1000 - unable to find configuration file on pve1', nonRetryable: true });
};

async function waitFor(condition: () => Promise<boolean>, timeoutMs = 20_000) {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

const parkedTimes = async (handle: Handle) => {
  const progress = await handle.query(progressQuery);
  return progress.rollback.state === 'parked' ? progress.rollback.parkedTimes : 0;
};

/** The update's rejection, as the validator worded it. */
async function rejection(update: Promise<unknown>): Promise<string> {
  const error = await update.then(() => null, (e: unknown) => e);
  expect(error).toBeInstanceOf(WorkflowUpdateFailedError);
  return (error as WorkflowUpdateFailedError).cause?.message ?? '';
}

/** Sends `times` retryRollback updates, each once the workflow has parked again. */
async function retryWhileParked(handle: Handle, times: number) {
  for (let i = 1; i <= times; i++) {
    await waitFor(async () => (await parkedTimes(handle)) >= i);
    expect(await handle.executeUpdate(retryRollbackUpdate)).toContain('Accepted');
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

  it('restores the backup in the clone stage of a server made from one, then runs the other stages; a failed restore removes what it left', async () => {
    const restored = await runWorkflow('ProvisionInstance', { fromBackup: true }, {});
    expect(restored.result).toEqual({ status: 'running' });
    expect(restored.names).toEqual([RESTORE_STAGE, ...STAGE_ACTIVITIES.slice(1)]);
    const failed = await runWorkflow('ProvisionInstance', { fromBackup: true }, { [RESTORE_STAGE]: rejected('PROVIDER_TASK_FAILED') });
    expect(failed.result).toMatchObject({ status: 'failed' });
    expect(failed.names).toEqual([RESTORE_STAGE, 'removeGuest', 'failInstance']);
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

  it('parks when the guest cannot be removed, and tries again on the retryRollback update', async () => {
    const { result, names } = await provision(
      { verifyGuest: rejected(), removeGuest: (_args, attempt) => (attempt === 1 ? Promise.reject(rejected('GUEST_LOCKED')()) : 'removed') },
      async (handle) => {
        await waitFor(async () => (await parkedTimes(handle)) === 1);
        const parked = await handle.query(progressQuery);
        expect(parked.status).toBe('rollback_failed');
        expect(parked.rollback.reason).toContain('unable to find');
        expect((await handle.describe()).searchAttributes.InstanceStatus).toEqual(['rollback_failed']);
        expect(await handle.executeUpdate(retryRollbackUpdate)).toBe('Accepted: the removal is being tried again.');
      },
    );
    expect(result).toEqual({ status: 'failed', failureCode: 'PROVISIONING_FAILED' });
    expect(names.slice(-4)).toEqual(['removeGuest', 'parkInstance', 'removeGuest', 'failInstance']);
  });

  it('waits for an operator without giving up, and the resolveRollback update releases with the note', async () => {
    const { calls, names } = await provision(
      { bootGuest: rejected(), removeGuest: () => Promise.reject(rejected('GUEST_LOCKED')()) },
      async (handle, seen) => {
        await waitFor(async () => seen.some((c) => c.name === 'parkInstance'));
        // Parked means parked: no further attempts while nobody answers.
        const before = seen.length;
        await new Promise((resolve) => setTimeout(resolve, 1500));
        expect(seen.length).toBe(before);
        expect(await rejection(handle.executeUpdate(resolveRollbackUpdate, { args: [{ note: '  ' }] }))).toContain('needs a note');
        await handle.executeUpdate(resolveRollbackUpdate, { args: [{ note: 'qm unlock 1000 && qm destroy 1000 on pve1' }] });
      },
    );
    expect(names.slice(-3)).toEqual(['parkInstance', 'recordOperatorNote', 'failInstance']);
    expect(calls.find((c) => c.name === 'failInstance')!.args.cause.operatorNote).toContain('qm destroy');
  });

  it('rejects operator updates while nothing is parked, saying what it does instead', async () => {
    let releaseNetwork = () => {};
    const network = new Promise<void>((resolve) => (releaseNetwork = resolve));
    const { result } = await provision({ attachNetwork: () => network }, async (handle, seen) => {
      await waitFor(async () => seen.some((c) => c.name === 'attachNetwork'));
      expect(await rejection(handle.executeUpdate(retryRollbackUpdate))).toBe('Nothing is waiting for an operator: it is provisioning (stage network).');
      expect(await rejection(handle.executeUpdate(resolveRollbackUpdate, { args: [{ note: 'too early' }] }))).toContain('Nothing is waiting for an operator');
      releaseNetwork();
    });
    expect(result.status).toBe('running');
  });

  it('still ignores the operator signals of earlier versions while nothing is parked, and takes them while parked', async () => {
    const { names } = await provision(
      { verifyGuest: rejected(), removeGuest: (_args, attempt) => (attempt === 1 ? Promise.reject(rejected('GUEST_LOCKED')()) : 'removed') },
      async (handle) => {
        await handle.signal(resolveRollbackSignal, { note: 'too early' });
        await waitFor(async () => (await parkedTimes(handle)) === 1);
        await handle.signal(retryRollbackSignal);
      },
    );
    expect(names.slice(-4)).toEqual(['removeGuest', 'parkInstance', 'removeGuest', 'failInstance']);
  });

  it('tells the Web UI what a parked workflow waits for, with the two commands that end it', async () => {
    await provision({ bootGuest: rejected(), removeGuest: () => Promise.reject(rejected('GUEST_LOCKED')()) }, async (handle) => {
      const details = async () => (await handle.query<{ currentDetails?: string }>('__temporal_workflow_metadata')).currentDetails ?? '';
      // The count moves as the park begins; the details follow once the park is recorded.
      await waitFor(async () => (await parkedTimes(handle)) === 1 && (await details()).includes('Parked'));
      const metadata = { currentDetails: await details() };
      expect(metadata.currentDetails).toContain('Parked: waiting for an operator');
      expect(metadata.currentDetails).toContain('unable to find configuration file');
      expect(metadata.currentDetails).toContain(`\`temporal workflow update execute --workflow-id ${handle.workflowId} --name retryRollback\``);
      expect(metadata.currentDetails).toContain(
        `\`temporal workflow update execute --workflow-id ${handle.workflowId} --name resolveRollback --input '{"note":"what you did"}'\``,
      );
      await handle.executeUpdate(resolveRollbackUpdate, { args: [{ note: 'gone' }] });
    });
  });

  it('stays small however often a removal is retried: 300 retries continue as new, and a resolve still finishes cleanly', async () => {
    const { result, calls, description } = await runWorkflow(
      'ProvisionInstance',
      {},
      { cloneGuest: rejected('PROVIDER_TASK_FAILED'), removeGuest: () => Promise.reject(rejected('GUEST_LOCKED')()) },
      async (handle, _calls, firstRunId) => {
        await retryWhileParked(handle, 300);
        await waitFor(async () => (await parkedTimes(handle)) === 301);
        const parkedRun = await handle.describe();
        expect(parkedRun.runId).not.toBe(firstRunId);
        // 20 parks a run at most: a few hundred events, where 300 retries in one run take thousands.
        expect(parkedRun.historyLength).toBeLessThan(500);
        expect(parkedRun.searchAttributes.InstanceStatus).toEqual(['rollback_failed']);
        const progress = await handle.query(progressQuery);
        expect(progress).toMatchObject({ stage: 'clone', status: 'rollback_failed', rollback: { state: 'parked', parkedTimes: 301 } });
        await handle.executeUpdate(resolveRollbackUpdate, { args: [{ note: 'destroyed by hand' }] });
      },
    );
    expect(result).toEqual({ status: 'failed', failureCode: 'PROVISIONING_FAILED' });
    expect(calls.filter((c) => c.name === 'removeGuest')).toHaveLength(301);
    expect(calls.filter((c) => c.name === 'parkInstance').map((c) => c.args.attempt)).toEqual(Array.from({ length: 301 }, (_, i) => i + 1));
    const failed = calls.find((c) => c.name === 'failInstance')!.args;
    expect(failed.cause).toMatchObject({ stage: 'clone', type: 'PROVIDER_TASK_FAILED', operatorNote: 'destroyed by hand' });
    expect(description.historyLength).toBeLessThan(500);
  }, 180_000);

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

describe('InstanceOperation delete', () => {
  it('parks a removal that keeps failing, continues as new while parked, and a retry that succeeds deletes the instance', async () => {
    const { result, calls, description, firstRunId } = await runWorkflow(
      'InstanceOperation',
      { operation: 'delete' },
      { removeGuest: (_args, attempt) => (attempt <= 45 ? Promise.reject(rejected('GUEST_LOCKED')()) : 'removed') },
      async (handle) => {
        await retryWhileParked(handle, 45);
      },
    );
    expect(result).toEqual({ status: 'deleted' });
    expect(description.runId).not.toBe(firstRunId);
    expect(description.historyLength).toBeLessThan(500);
    expect(calls.filter((c) => c.name === 'parkInstance').map((c) => c.args.purpose)).toEqual(Array(45).fill('delete'));
    expect(calls.at(-1)).toMatchObject({ name: 'completeDeletion', args: { keepVmid: false } });
  }, 120_000);
  it("keeps the server's backups when removing them gives up, and still deletes the server", async () => {
    const { result, calls } = await runWorkflow('InstanceOperation', { operation: 'delete', timeoutScale: 0.01 }, { removeBackupsOfServer: rejected('PROVIDER_REJECTED') });
    expect(result).toEqual({ status: 'deleted' });
    const names = calls.map((c) => c.name);
    expect(names.slice(names.indexOf('keepBackupsOfServer'))).toEqual(['keepBackupsOfServer', 'completeDeletion']);
  }, 60_000);
});
