import { listedRunning } from '../proxmox';
import { cancellationSignal, heartbeatOfThisActivity } from './context';
import type { ActivityDeps } from './deps';
import { fail, FailureType, fromProxmoxError } from './failures';
import { ownerOfGuest } from './ownership';
import { orphanReason } from './reconcile';
import { recordAudit } from '../db/audit';

export type OrphanDestroyOutcome = 'removed' | 'absent' | 'not_orphan';

/**
 * Destroys an orphan guest an operator asked to destroy, with the discipline of a rollback: the
 * guest must still carry the same marker and its instance must still not be live, then stop,
 * destroy with purge, and the VMID must be gone from /cluster/resources.
 * Converges on retry: each Proxmox task's UPID is recorded on the orphan before it is polled and
 * is polled again instead of being issued twice; a guest already gone counts as destroyed.
 */
export function createDestroyOrphanGuestActivity(deps: ActivityDeps) {
  return async function destroyOrphanGuest({ orphanId }: { orphanId: string }): Promise<OrphanDestroyOutcome> {
    const orphan = await deps.db.orphanGuest.findUniqueOrThrow({ where: { id: orphanId }, include: { connection: true } });
    if (orphan.status === 'destroyed') return 'removed';
    if (orphan.status !== 'destroying') throw fail(FailureType.InconsistentState, `orphan ${orphanId} is ${orphan.status}, not destroying`);
    const { vmid, connection } = orphan;
    const client = deps.proxmox(connection);
    const findGuest = async () => (await client.guests.list()).find((r) => r.vmid === vmid);
    /** `resumed`: the Proxmox task was not issued by this attempt. */
    const poll = async (upid: string, resumed: boolean) => {
      const beat = heartbeatOfThisActivity();
      beat({ upid });
      try {
        return await client.tasks.wait(upid, { signal: cancellationSignal(), pollIntervalMs: deps.config.TASK_POLL_INTERVAL_MS, resumed, onPoll: () => beat({ upid }) });
      } catch (error) {
        throw fromProxmoxError(error, { kind: 'orphan-removal', vmid, upid });
      }
    };

    let guest = await findGuest();
    if (!guest) return 'absent';
    const destroyRecorded = orphan.destroyUpid !== null;
    if (!orphan.destroyUpid) {
      const owner = await ownerOfGuest(client, guest);
      const instance = owner ? await deps.db.instance.findUnique({ where: { id: owner }, select: { status: true, vmid: true, connectionId: true } }) : null;
      if (owner !== orphan.ownerInstanceId || !orphanReason(instance, vmid, connection.id)) return 'not_orphan';
      if (guest.lock) {
        // A Proxmox task holds the guest (someone is working on it): let it finish first.
        const running = (await client.tasks.list(guest.node, { vmid, source: 'active' })).filter(listedRunning);
        for (const proxmoxTask of running) await poll(proxmoxTask.upid, true);
        guest = await findGuest();
        if (!guest) return 'absent';
      }
      if (guest.status !== 'stopped') {
        const stopUpid = orphan.stopUpid ?? (await client.guests.stop(guest.node, vmid));
        await deps.db.orphanGuest.update({ where: { id: orphanId }, data: { stopUpid } });
        await poll(stopUpid, orphan.stopUpid !== null);
      }
      const destroyUpid = await client.guests.delete(guest.node, vmid).catch((error: unknown) => {
        throw fromProxmoxError(error, { kind: 'orphan-destroy', vmid, node: guest?.node });
      });
      await deps.db.orphanGuest.update({ where: { id: orphanId }, data: { destroyUpid } });
      orphan.destroyUpid = destroyUpid;
    }
    const destroyed = await poll(orphan.destroyUpid, destroyRecorded);
    if (destroyed.warnings > 0) {
      const leftovers = await client.storage.images(guest.node, connection.storage, vmid);
      if (leftovers.length > 0) {
        throw fail(FailureType.GuestLocked, `guest ${vmid} was destroyed but left ${leftovers.length} volume(s) on ${connection.storage}`, { vmid, volumes: leftovers.map((v) => v.volid) });
      }
    }
    if (await findGuest()) throw new Error(`guest ${vmid} is still listed by the cluster after its destroy task`);
    return 'removed';
  };
}

/**
 * Ends an orphan's destroy: removed or absent → `destroyed`; no longer an orphan → `gone`; a
 * destroy that failed → `open` again with the error, for another try or a decision by hand.
 * Converges on retry: conditional on the record still being `destroying`.
 */
export function createSettleOrphanActivity(deps: ActivityDeps) {
  return async function settleOrphan({ orphanId, outcome, error }: { orphanId: string; outcome: OrphanDestroyOutcome | 'failed'; error?: string }): Promise<void> {
    const done = outcome === 'removed' || outcome === 'absent';
    const data =
      outcome === 'failed'
        ? { status: 'open' as const, lastError: error ?? 'the removal failed', stopUpid: null, destroyUpid: null }
        : { status: done ? ('destroyed' as const) : ('gone' as const), openKey: null, resolvedAt: new Date(), lastError: done ? null : 'its marker names a live instance again' };
    await deps.db.$transaction(async (tx) => {
      const { count } = await tx.orphanGuest.updateMany({ where: { id: orphanId, status: 'destroying' }, data });
      if (count > 0) await recordAudit(tx, { action: `orphan.${done ? 'destroyed' : outcome === 'failed' ? 'destroy_failed' : 'claimed'}`, details: { orphanId, outcome, ...(error ? { error } : {}) } });
    });
  };
}
