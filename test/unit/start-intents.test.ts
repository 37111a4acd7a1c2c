import { describe, expect, it } from 'vitest';
import { intentColumns, readStartIntent, type StartIntent } from '../../src/temporal/start-intents';

const provision: StartIntent = { workflowType: 'ProvisionInstance', workflowArgs: { instanceId: 'inst_1', taskId: 'task_1', summary: 'create web-1', timeoutScale: 1 } };
const operation: StartIntent = {
  workflowType: 'InstanceOperation',
  workflowArgs: { instanceId: 'inst_1', taskId: 'task_2', summary: 'stop web-1', operation: 'stop', shutdownTimeoutSeconds: 60, timeoutScale: 1 },
};
const keptBackupDelete: StartIntent = {
  workflowType: 'DeleteKeptBackup',
  workflowArgs: { instanceId: 'inst_1', taskId: 'task_3', backupId: 'bkp_1', summary: 'backup_delete bkp_1 (deleted server inst_1, tenant ten_1)', timeoutScale: 1 },
};
/** What the task row gives back: the columns as JSON. */
const stored = (intent: StartIntent) => JSON.parse(JSON.stringify(intentColumns(intent))) as { workflowType: string; workflowArgs: unknown };

describe('start intents read back from a task row', () => {
  it('are the intents that were recorded', () => {
    expect(readStartIntent(stored(provision))).toEqual(provision);
    expect(readStartIntent(stored(operation))).toEqual(operation);
    expect(readStartIntent(stored(keptBackupDelete))).toEqual(keptBackupDelete);
  });

  it('are none when the row records none', () => {
    expect(readStartIntent({ workflowType: null, workflowArgs: null })).toBeNull();
  });

  it('are none when the row holds something no workflow here takes', () => {
    expect(readStartIntent({ workflowType: 'Reconcile', workflowArgs: { connectionId: 'conn_1' } })).toBeNull();
    expect(readStartIntent({ ...stored(operation), workflowArgs: { ...operation.workflowArgs, operation: 'explode' } })).toBeNull();
    expect(readStartIntent({ ...stored(provision), workflowArgs: { taskId: 'task_1', summary: 'no instance' } })).toBeNull();
    expect(readStartIntent({ ...stored(keptBackupDelete), workflowArgs: { instanceId: 'inst_1', taskId: 'task_3', summary: 'no backup' } })).toBeNull();
  });
});
