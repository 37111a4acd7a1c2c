/** What an instance is charged for, to its tenant's quota and to its node's capacity. */
export interface Sizing {
  vcpus: number;
  memoryMiB: number;
  diskGiB: number;
}

const RESOURCES = ['vcpus', 'memoryMiB', 'diskGiB'] as const;

function each(pick: (from: number, to: number) => number, from: Sizing, to: Sizing): Sizing {
  const out = { vcpus: 0, memoryMiB: 0, diskGiB: 0 };
  for (const resource of RESOURCES) out[resource] = pick(from[resource], to[resource]);
  return out;
}

/** What a resize from `from` to `to` needs on top of what is charged already (never negative). */
export function growth(from: Sizing, to: Sizing): Sizing {
  return each((a, b) => Math.max(0, b - a), from, to);
}

/**
 * What is held while a resize runs: the larger of both sizes, so growth is charged before the
 * change and what shrinks is refunded only once the change is done.
 */
export function peak(from: Sizing, to: Sizing): Sizing {
  return each(Math.max, from, to);
}

export type ResizeVerdict = { ok: true } | { ok: false; reason: 'disk_shrink' };

/** Disks only grow: a plan with a smaller disk than the server has cannot be applied. */
export function judgeResize(currentDiskGiB: number, to: Sizing): ResizeVerdict {
  return to.diskGiB < currentDiskGiB ? { ok: false, reason: 'disk_shrink' } : { ok: true };
}
