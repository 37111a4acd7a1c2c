/** Every kind of instance event, as listed by GET /v1/events and carried by its `type`. */
export const INSTANCE_EVENT_TYPES = [
  'instance.created',
  'instance.scheduled',
  'instance.running',
  'instance.stopping',
  'instance.stopped',
  'instance.starting',
  'instance.rebooting',
  'instance.resizing',
  'instance.resized',
  'instance.rebuilding',
  'instance.rebuilt',
  'instance.migrating',
  'instance.migrated',
  'instance.deleting',
  'instance.deleted',
  'instance.failed',
  'instance.lost',
  'instance.changed_outside',
  'instance.firewall_restored',
  'instance.snapshotting',
  'instance.rolling_back',
  'instance.rolled_back',
  'instance.backing_up',
  'instance.restoring',
  'instance.restored',
  'instance.traffic_threshold',
  'instance.throttled',
  'instance.unthrottled',
  'instance.updating_network',
  'instance.updating_firewall',
  'instance.firewall_updated',
  'instance.boot_changing',
  'instance.boot_changed',
  'instance.rescue_entering',
  'instance.rescue_entered',
  'instance.rescue_leaving',
  'instance.rescue_left',
  'snapshot.created',
  'snapshot.deleted',
  'backup.created',
  'backup.failed',
  'backup.deleted',
  'backup.lost',
  'backup.found',
  // A tenant's own events ride the same feed and webhooks: their `instanceId` is the invitation's id.
  'user.invited',
  'user.joined',
] as const;

export type InstanceEventType = (typeof INSTANCE_EVENT_TYPES)[number];

/** What an event says, safe for the customer who owns the instance: no node, VMID or provider words. */
export interface InstanceEventData {
  status: string;
  hostname?: string;
  /** The failure code of `instance.failed` / `instance.lost`. */
  code?: string;
  /** The operation that led here, e.g. `start`. */
  operation?: string;
  /** `instance.changed_outside`: what the instance showed before the cluster said otherwise. */
  previousStatus?: string;
  /** `snapshot.*`, `instance.rolled_back`: the snapshot's name. */
  snapshot?: string;
  /** `backup.*`, `instance.restored`: the backup's id. */
  backupId?: string;
  /** `user.invited`, `user.joined`: who, as what. The link itself is added to the webhook body only (never stored here). */
  invitation?: { id: string; email: string; role: string; expiresAt: string; userId?: string };
  /** `instance.traffic_threshold`, `instance.throttled`, `instance.unthrottled`: the billing period's figures. */
  traffic?: TrafficEventFigures;
}

/** What a traffic event says of the billing period it happened in; bytes as exact integers. */
export interface TrafficEventFigures {
  /** The threshold crossed (80 or 100), percent of the allowance. */
  threshold?: number;
  periodStart: string;
  periodEnd: string;
  countedBytes: number;
  allowanceBytes: number | null;
  percent: number | null;
  /** The throttle, megabits per second (`instance.throttled`). */
  throttleMbps?: number;
}
