/**
 * Tasks about a guest: the locks they hold while they run, what a failure undoes, and the
 * after-effects of a fault.
 */
import type { CallContext } from './call';
import type { SimCluster } from './cluster';
import type { Fault } from './faults';
import type { SimTask } from './tasks';

/** Applies the fault's after-effects (lock / lose_guest) to a guest. */
function applyAfterFault(cluster: SimCluster, fault: Fault | undefined, vmid: number, defaultLock: string): void {
  if (!fault) return;
  if (fault.mode === 'lose_guest') {
    cluster.removeGuest(vmid);
  } else if (fault.mode === 'lock') {
    const g = cluster.guests.get(vmid);
    if (g) g.config.lock = fault.message ?? defaultLock;
  }
}

/**
 * Starts a task about a guest. `configLock` is set on the guest while it runs (clone,
 * migrate); `holdFile` makes other mutating calls fail with the lock timeout.
 */
export function guestTask(
  cluster: SimCluster,
  ctx: CallContext,
  o: {
    node: string;
    type: string;
    id: string;
    vmid: number;
    configLock?: string;
    holdFile?: boolean;
    run: () => number | void;
    onFail?: () => void;
    defaultFaultLock?: string;
  },
): string {
  const fault = ctx.fault;
  ctx.faultHandled = true;
  const g = cluster.guests.get(o.vmid);
  if (g && o.configLock) g.config.lock = o.configLock;
  let upid = '';
  const task = cluster.tasks.create({
    node: o.node,
    type: o.type,
    id: o.id,
    user: ctx.user,
    hang: fault?.mode === 'hang',
    failWith: fault?.mode === 'task_fail' ? (fault.message ?? 'simulated task failure') : undefined,
    warnings: fault?.mode === 'task_warnings' ? (fault.warnings ?? 1) : undefined,
    run: o.run,
    after: (t: SimTask) => {
      const guest = cluster.guests.get(o.vmid);
      if (guest) {
        if (o.configLock && guest.config.lock === o.configLock) delete guest.config.lock;
        if (guest.busyWith === upid) delete guest.busyWith;
      }
      if (t.exitstatus !== 'OK' && !/^WARNINGS/.test(t.exitstatus ?? '')) o.onFail?.();
      applyAfterFault(cluster, fault, o.vmid, o.defaultFaultLock ?? o.configLock ?? 'backup');
    },
  });
  upid = task.upid;
  if (g && o.holdFile) g.busyWith = upid;
  return upid;
}
