/**
 * The traffic sampler's activities: one pass over a connection's guests (one /cluster/resources
 * read), and the NIC rate a server's throttle asks for.
 */
import { endThrottles, settleThresholds } from '../db/traffic-periods';
import { readSampledServers, recordServerSamples, type SampledServer, type ServerSample } from '../db/traffic-samples';
import { counterDelta, nicRateForMbps, nicRateOf, spreadOverHours, withNicRate, type CounterReading } from '../domain/traffic';
import type { ClusterVmResource } from '../proxmox';
import { recordAudit } from '../db/audit';
import { sqlTransaction } from '../db/client';
import type { ActivityDeps } from './deps';

/** Servers sampled per transaction: a worker lost mid-pass loses at most the chunk it was writing, which the next pass counts. */
export const SAMPLE_CHUNK = 1_000;
/** A chunk's transaction: a thousand servers' rows in a few statements. */
const CHUNK_LIMITS = { maxWaitMs: 10_000, timeoutMs: 60_000 };

export interface TrafficPassSummary {
  guestsListed: number;
  servers: number;
  /** Servers whose counters were counted this pass. */
  counted: number;
  /** Counted from zero: a new QEMU process since the previous sample. */
  resets: number;
  /** Not listed, or on a node that does not answer: looked at again next pass. */
  unlisted: number;
  /** Servers whose NIC rate must change (a throttle begun or ended). */
  throttleChanges: string[];
}

/** What one listed guest adds since the server's previous sample; null when there is nothing to read. */
function sampleOf(server: SampledServer, guest: ClusterVmResource | undefined, at: Date): (ServerSample & { reset: boolean }) | null {
  if (!guest || (guest.status !== 'running' && guest.status !== 'stopped')) return null;
  const running = guest.status === 'running';
  const reading: CounterReading = {
    node: guest.node,
    vmid: guest.vmid,
    netin: running ? BigInt(Math.floor(guest.netin ?? 0)) : 0n,
    netout: running ? BigInt(Math.floor(guest.netout ?? 0)) : 0n,
    uptime: running ? Math.floor(guest.uptime ?? 0) : 0,
    at,
  };
  const previous: CounterReading | null =
    server.sampledAt === null
      ? null
      : { node: server.counterNode ?? '', vmid: server.counterVmid ?? 0, netin: server.netin ?? 0n, netout: server.netout ?? 0n, uptime: server.uptime ?? 0, at: server.sampledAt };
  const delta = counterDelta(previous, reading);
  // A new QEMU process counted from its start; bytes before the server existed are not its own.
  const processStart = new Date(at.getTime() - reading.uptime * 1000);
  const floor = previous ? previous.at : server.createdAt;
  const from = delta.reset || !previous ? new Date(Math.max(processStart.getTime(), floor.getTime())) : previous.at;
  return {
    instanceId: server.id,
    tenantId: server.tenantId,
    previousSampledAt: server.sampledAt,
    ...reading,
    running,
    addresses: server.addresses,
    backupBytes: server.backupBytes,
    snapshotCount: server.snapshotCount,
    hours: spreadOverHours(from, at, delta.inBytes, delta.outBytes),
    reset: delta.reset,
  };
}

/**
 * One sampling pass over a connection: reads every guest's counters in one call and counts each
 * server's delta into its hours, chunk by chunk, each chunk one transaction that also moves the
 * counter state; then settles the metered servers' thresholds. Ends the throttles whose period is over.
 * Converges on retry: a counter moves only from the state the pass read, so a repeated or
 * concurrent pass counts each byte once; a retry after a crash counts from what was committed.
 */
export function createSampleTrafficActivity(deps: ActivityDeps) {
  return async function sampleTraffic({ connectionId }: { connectionId: string }): Promise<TrafficPassSummary> {
    const connection = await deps.db.proxmoxConnection.findUniqueOrThrow({ where: { id: connectionId } });
    const at = new Date();
    const guests = await deps.proxmox(connection).guests.list();
    const byVmid = new Map(guests.filter((g) => g.type !== 'lxc' && !g.template).map((g) => [g.vmid, g]));
    const servers = await readSampledServers(deps.db, connectionId);
    const summary: TrafficPassSummary = { guestsListed: byVmid.size, servers: servers.length, counted: 0, resets: 0, unlisted: 0, throttleChanges: [] };
    for (let i = 0; i < servers.length; i += SAMPLE_CHUNK) {
      const chunk = servers.slice(i, i + SAMPLE_CHUNK);
      const samples = chunk.flatMap((server) => {
        // A guest listed under another server's VMID is not this server's.
        const sample = sampleOf(server, byVmid.get(server.vmid), at);
        if (!sample) summary.unlisted++;
        return sample ? [sample] : [];
      });
      const counted = await sqlTransaction(deps.db, (tx) => recordServerSamples(tx, samples), CHUNK_LIMITS);
      // Thresholds are marked once whenever they are settled: a worker lost before this settles them next pass.
      const metered = chunk.filter((server) => counted.has(server.id) && server.trafficAllowanceGiB !== null);
      const throttled = metered.length === 0 ? [] : await deps.db.$transaction((tx) => settleThresholds(tx, metered, at), { timeout: CHUNK_LIMITS.timeoutMs, maxWait: CHUNK_LIMITS.maxWaitMs });
      summary.counted += counted.size;
      summary.resets += samples.filter((s) => s.reset && counted.has(s.instanceId)).length;
      summary.throttleChanges.push(...throttled);
    }
    summary.throttleChanges.push(...(await deps.db.$transaction((tx) => endThrottles(tx, connectionId, at))));
    return summary;
  };
}

export type ThrottleOutcome = 'applied' | 'in_place' | 'busy' | 'no_guest';

/**
 * Brings every NIC of a server's guest to the rate its throttle asks for (`throttleMbps` → `rate`
 * in megabytes per second), or without a rate when it is not throttled. An operation under way
 * leaves it alone (`busy`): the reconciler comes back to it.
 * Converges on retry: it compares the guest's config with the database and writes only what differs.
 */
export async function convergeThrottle(deps: ActivityDeps, instanceId: string): Promise<ThrottleOutcome> {
  const instance = await deps.db.instance.findUniqueOrThrow({ where: { id: instanceId }, include: { connection: true, activeTask: { select: { id: true } } } });
  if (instance.vmid === null || instance.node === null || instance.deletedAt || instance.status === 'lost') return 'no_guest';
  if (instance.activeTask) return 'busy';
  const client = deps.proxmox(instance.connection);
  const config = await client.guestConfig.get(instance.node, instance.vmid);
  const rate = instance.throttleMbps === null ? null : nicRateForMbps(instance.throttleMbps);
  const changes = Object.fromEntries(
    Object.entries(config)
      .filter(([key, line]) => /^net\d+$/.test(key) && nicRateOf(String(line)) !== rate)
      .map(([key, line]) => [key, withNicRate(String(line), rate)]),
  );
  if (Object.keys(changes).length === 0) return 'in_place';
  await client.guestConfig.setSync(instance.node, instance.vmid, { ...changes, digest: String(config.digest ?? '') });
  return 'applied';
}

/** The NIC rate a server's throttle asks for, as the sampler or an operator just decided it. Converges on retry (convergeThrottle). */
export function createApplyThrottleActivity(deps: ActivityDeps) {
  return ({ instanceId }: { instanceId: string }): Promise<ThrottleOutcome> => convergeThrottle(deps, instanceId);
}

/**
 * The reconciler's part: every throttled server on the connection whose NICs lost or changed
 * their rate gets it back (audited as `instance.throttle_restored`).
 * Converges on retry: convergeThrottle writes only what still differs.
 */
export function createRestoreThrottlesActivity(deps: ActivityDeps) {
  return async function restoreThrottles({ connectionId, instanceId }: { connectionId: string; instanceId?: string }): Promise<{ restored: number }> {
    const throttled = await deps.db.instance.findMany({
      where: { connectionId, throttleMbps: { not: null }, deletedAt: null, status: { in: ['running', 'stopped'] }, activeTask: null, ...(instanceId ? { id: instanceId } : {}) },
      select: { id: true, tenantId: true, throttleMbps: true },
    });
    let restored = 0;
    for (const server of throttled) {
      try {
        if ((await convergeThrottle(deps, server.id)) !== 'applied') continue;
        restored++;
        await recordAudit(deps.db, { action: 'instance.throttle_restored', tenantId: server.tenantId, instanceId: server.id, details: { throttleMbps: server.throttleMbps } });
      } catch (error) {
        deps.logger.warn({ err: error, instanceId: server.id }, 'could not restore a throttle this time');
      }
    }
    return { restored };
  };
}
