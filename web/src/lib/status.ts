import type { InstanceStatus } from '../../../clients/typescript/index';

export type Tone = 'ok' | 'busy' | 'idle' | 'bad';

/** How a status reads: words and a symbol, so it never depends on colour alone. */
const STATUS: Record<InstanceStatus, { label: string; tone: Tone }> = {
  pending: { label: 'Pending', tone: 'busy' },
  scheduling: { label: 'Scheduling', tone: 'busy' },
  provisioning: { label: 'Being built', tone: 'busy' },
  running: { label: 'Running', tone: 'ok' },
  starting: { label: 'Starting', tone: 'busy' },
  stopping: { label: 'Stopping', tone: 'busy' },
  stopped: { label: 'Stopped', tone: 'idle' },
  rebooting: { label: 'Rebooting', tone: 'busy' },
  resizing: { label: 'Resizing', tone: 'busy' },
  rebuilding: { label: 'Rebuilding', tone: 'busy' },
  migrating: { label: 'Migrating', tone: 'busy' },
  deleting: { label: 'Deleting', tone: 'busy' },
  snapshotting: { label: 'Taking a snapshot', tone: 'busy' },
  rolling_back: { label: 'Rolling back', tone: 'busy' },
  backing_up: { label: 'Backing up', tone: 'busy' },
  restoring: { label: 'Restoring', tone: 'busy' },
  updating_firewall: { label: 'Updating firewall', tone: 'busy' },
  rescue: { label: 'In rescue', tone: 'ok' },
  entering_rescue: { label: 'Entering rescue', tone: 'busy' },
  leaving_rescue: { label: 'Leaving rescue', tone: 'busy' },
  configuring_boot: { label: 'Changing boot media', tone: 'busy' },
  updating_network: { label: 'Setting network rate', tone: 'busy' },
  deleted: { label: 'Deleted', tone: 'idle' },
  failed: { label: 'Failed', tone: 'bad' },
  rollback_failed: { label: 'Needs an operator', tone: 'bad' },
  rebuild_failed: { label: 'Rebuild failed', tone: 'bad' },
  lost: { label: 'Lost', tone: 'bad' },
};

const SYMBOL: Record<Tone, string> = { ok: '●', busy: '◐', idle: '○', bad: '✕' };

export function statusLook(status: InstanceStatus): { label: string; tone: Tone; symbol: string } {
  const look = STATUS[status];
  return { ...look, symbol: SYMBOL[look.tone] };
}

export const ALL_STATUSES = Object.keys(STATUS) as InstanceStatus[];

/** The power operations a server in `status` can be asked for; the API stays the judge (409 otherwise). */
export function powerActions(status: InstanceStatus): ('start' | 'shutdown' | 'stop' | 'reboot')[] {
  if (status === 'running' || status === 'rescue') return ['shutdown', 'stop', 'reboot'];
  if (status === 'stopped') return ['start'];
  return [];
}

/** Whether a server is between states, so its step thread is worth following live. */
export const isBusy = (status: InstanceStatus) => STATUS[status].tone === 'busy';
