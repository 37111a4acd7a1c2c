/**
 * Calls Proxmox accepted and then answered 500 (a proxy that lost pvedaemon's answer): vzdump, an
 * in-place restore, a snapshot's create, delete and rollback, and an archive's delete each adopt
 * the task our token started, wait for it and never send the call again.
 */
import { describe, expect, it } from 'vitest';
import { callCount, guestOf, Q, runningServer, suiteStack, taskEnd } from '../support/lifecycle';
import type { Stack } from '../support/stack';

const VZDUMP = 'POST /nodes/{node}/vzdump';
const RESTORE = 'POST /nodes/{node}/qemu';
const SNAPSHOT = `POST ${Q}/snapshot`;
const SNAPSHOT_DELETE = `DELETE ${Q}/snapshot/{snapname}`;
const ROLLBACK = `POST ${Q}/snapshot/{snapname}/rollback`;
const ARCHIVE_DELETE = 'DELETE /nodes/{node}/storage/{storage}/content/{volume}';

describe('a call Proxmox accepted and then answered 500 is adopted, not sent again', () => {
  const stack = suiteStack({}, async (started) => {
    await started.sim.clearFaults();
    await started.sim.options({ taskMsByType: {} });
  });
  const customer = (method: string, path: string, body: unknown = {}) => stack.api.request(method, path, { token: stack.customer.token, body });

  /** Runs one operation with its call accepted then answered 500 while its task still runs; answers its task id. */
  async function acceptedThen500(s: Stack, op: string, taskType: string, start: () => Promise<{ body: { meta: { taskId: string } } }>): Promise<string> {
    await s.sim.options({ taskMsByType: { [taskType]: 1500 } });
    await s.sim.fault({ op, mode: 'http500_after_accept', message: 'internal error' });
    const taskId = (await start()).body.meta.taskId;
    expect((await taskEnd(s, taskId, 60_000)).status).toBe('succeeded');
    await s.sim.options({ taskMsByType: {} });
    return taskId;
  }

  /** The call's record names the task Proxmox started for it. */
  async function expectAdopted(taskId: string, kind: string, taskType: string): Promise<void> {
    const call = await stack.api.db.providerCall.findFirstOrThrow({ where: { taskId, kind } });
    expect(call).toMatchObject({ status: 'succeeded', upid: expect.stringContaining(`:${taskType}:`) });
  }

  it('vzdump and an in-place restore: one archive carries the backup, one restore is written', async () => {
    const id = await runningServer(stack, { hostname: 'acc-backup' });
    const vmid = (await guestOf(stack, id))!.vmid;
    await stack.sim.writeGuestFile(vmid, '/data', 'saved');
    const vzdumps = await callCount(stack, VZDUMP);
    let backupId = '';
    const backupTask = await acceptedThen500(stack, 'backup', 'vzdump', async () => {
      const made = await customer('POST', `/v1/instances/${id}/backups`);
      backupId = made.body.data.id;
      return made;
    });
    expect(await callCount(stack, VZDUMP)).toBe(vzdumps + 1);
    await expectAdopted(backupTask, 'vzdump', 'vzdump');
    const archives = (await stack.sim.state()).backups.filter((b) => b.notes.includes(backupId));
    expect(archives).toHaveLength(1);
    expect(await stack.api.db.backup.findUniqueOrThrow({ where: { id: backupId } })).toMatchObject({ status: 'available', volid: archives[0]!.volid });

    await stack.sim.wipeGuestDisk(vmid);
    const restores = await callCount(stack, RESTORE);
    const restoreTask = await acceptedThen500(stack, 'restore', 'qmrestore', () => customer('POST', `/v1/backups/${backupId}/restore`));
    expect(await callCount(stack, RESTORE)).toBe(restores + 1);
    await expectAdopted(restoreTask, 'restore', 'qmrestore');
    expect((await guestOf(stack, id))?.files).toEqual({ '/data': 'saved' });

    const deletes = await callCount(stack, ARCHIVE_DELETE);
    const deleteTask = await acceptedThen500(stack, 'volume_delete', 'imgdel', () => customer('DELETE', `/v1/backups/${backupId}`));
    expect(await callCount(stack, ARCHIVE_DELETE)).toBe(deletes + 1);
    await expectAdopted(deleteTask, 'imgdel', 'imgdel');
    expect((await stack.sim.state()).backups.some((b) => b.notes.includes(backupId))).toBe(false);
  });

  it("a snapshot's create, rollback and delete", async () => {
    const id = await runningServer(stack, { hostname: 'acc-snapshot' });
    const vmid = (await guestOf(stack, id))!.vmid;
    await stack.sim.writeGuestFile(vmid, '/etc/app.conf', 'v1');

    const creates = await callCount(stack, SNAPSHOT);
    const createTask = await acceptedThen500(stack, 'snapshot', 'qmsnapshot', () => customer('POST', `/v1/instances/${id}/snapshots`, { name: 'before' }));
    expect(await callCount(stack, SNAPSHOT)).toBe(creates + 1);
    await expectAdopted(createTask, 'snapshot', 'qmsnapshot');

    await stack.sim.writeGuestFile(vmid, '/etc/app.conf', 'v2');
    const rollbacks = await callCount(stack, ROLLBACK);
    const rollbackTask = await acceptedThen500(stack, 'rollback', 'qmrollback', () => customer('POST', `/v1/instances/${id}/snapshots/before/rollback`));
    expect(await callCount(stack, ROLLBACK)).toBe(rollbacks + 1);
    await expectAdopted(rollbackTask, 'rollback', 'qmrollback');
    expect((await guestOf(stack, id))?.files).toEqual({ '/etc/app.conf': 'v1' });

    const deletes = await callCount(stack, SNAPSHOT_DELETE);
    const deleteTask = await acceptedThen500(stack, 'snapshot_delete', 'qmdelsnapshot', () => customer('DELETE', `/v1/instances/${id}/snapshots/before`));
    expect(await callCount(stack, SNAPSHOT_DELETE)).toBe(deletes + 1);
    await expectAdopted(deleteTask, 'snapshot_delete', 'qmdelsnapshot');
    expect((await stack.sim.state()).guests.find((g) => g.vmid === vmid)?.snapshots).not.toContain('before');
  });
});
