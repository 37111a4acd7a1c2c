/**
 * The traffic sampler's activities: one pass over a connection's guests (one /cluster/resources
 * read), and the NIC rate a server's throttle asks for (the throttle and unthrottle operations,
 * the reconciler's restore).
 */
import { endThrottles, settleThresholds } from '../db/traffic-periods';
import { readSampledServers, recordServerSamples, type SampledServer, type ServerSample } from '../db/traffic-samples';
import { counterDelta, nicRateForMbps, nicRateOf, spreadOverHours, withNicRate, type CounterReading } from '../domain/traffic';
import type { ClusterVmResource } from '../proxmox';
import { recordAudit } from '../db/audit';
import { sqlTransaction } from '../db/client';
import { operationOfTask } from '../db/lifecycle';
import { AppError, type ErrorCode } from '../domain/errors';
import { SYSTEM, type Principal } from '../services/principal';
import { askForNicRate, requestThrottleOperation } from '../services/traffic';
import { WAIT_FOR } from './firewall-groups';
import type { InstanceRef } from './context';
import { Context } from '@temporalio/activity';
import type { ActivityDeps } from './deps';
import { guestOf, saidCall } from './lifecycle';
import { say } from './steps';

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

/** The NIC `rate` a throttle of `mbps` asks for; null: none. */
const rateOf = (mbps: number | null): number | null => (mbps === null ? null : nicRateForMbps(mbps));

/** A guest config's NIC lines (`net0`, `net1`, …). */
const nicLines = (config: Record<string, unknown>): [string, string][] => Object.entries(config).flatMap(([key, line]) => (/^net\d+$/.test(key) ? [[key, String(line)] as [string, string]] : []));

/** The NIC lines that do not carry `rate` yet, each with it (every other part kept). */
function nicRateChanges(config: Record<string, unknown>, rate: number | null): Record<string, string> {
  return Object.fromEntries(nicLines(config).flatMap(([key, line]) => (nicRateOf(line) === rate ? [] : [[key, withNicRate(line, rate)]])));
}

const describeRate = (rate: number | null) => (rate === null ? 'no rate limit' : `rate=${rate} MB/s`);

/** The throttle now on the server's NICs, written by us: the reconciler compares it with the one asked for. */
const recordApplied = (deps: ActivityDeps, instanceId: string, throttleMbps: number | null) => deps.db.instance.update({ where: { id: instanceId }, data: { appliedThrottleMbps: throttleMbps } });

/**
 * throttle, unthrottle: every NIC of the server's guest gets the rate its throttle asks for now
 * (`instances.throttleMbps`, as the sampler or an operator last decided it) or loses it, in one
 * recorded config write, then read back as proof; the throttle written is recorded as applied.
 * Converges on retry: the write sends only the NIC lines whose rate differs from the guest's
 * config; a read-back that still differs fails the attempt, and the next one writes again.
 */
export function createSetNicRateActivity(deps: ActivityDeps) {
  return async function setNicRate(ref: InstanceRef): Promise<void> {
    const { type } = await deps.db.task.findUniqueOrThrow({ where: { id: ref.taskId }, select: { type: true } });
    const guest = await guestOf(deps, ref, operationOfTask(type) ?? 'throttle');
    const { client, node, vmid, instance, callKey } = guest;
    const { phase } = callKey;
    const rate = rateOf(instance.throttleMbps);
    const wanted = instance.throttleMbps === null ? 'no rate limit' : `${instance.throttleMbps} Mbit/s (rate=${rate} MB/s)`;
    await say(deps, ref.taskId, phase, 'reading the config', 'processing', "Reading the server's network cards.");
    const nics = nicLines(await client.guestConfig.get(node, vmid));
    await say(deps, ref.taskId, phase, 'reading the config', 'success', nics.map(([key, line]) => `${key}: ${describeRate(nicRateOf(line))}`).join('; ') || 'The server has no network card.');
    let changes: Record<string, string> = {};
    await saidCall(deps, guest, 'writing the rate', [`Setting ${wanted} on each network card.`, `Each network card was given ${wanted}.`], {
      kind: 'nic-rate',
      isDone: async () => {
        changes = nicRateChanges(await client.guestConfig.get(node, vmid), rate);
        return Object.keys(changes).length === 0;
      },
      issue: () => client.guestConfig.set(node, vmid, changes),
      startsTask: { type: 'qmconfig', id: vmid },
    });
    const left = Object.keys(nicRateChanges(await client.guestConfig.get(node, vmid), rate));
    if (left.length > 0) throw new Error(`the guest's config does not show ${describeRate(rate)} on ${left.join(', ')} after the write`);
    await recordApplied(deps, ref.instanceId, instance.throttleMbps);
    await say(deps, ref.taskId, phase, 'checking the rate', 'success', `Proxmox VE shows ${describeRate(rate)} on every network card.`);
  };
}

/**
 * Brings every NIC of a server's guest to the rate its throttle asks for (`throttleMbps` → `rate`
 * in megabytes per second), or without a rate when it is not throttled, and records it as applied.
 * An operation under way leaves it alone (`busy`): the reconciler comes back to it.
 * Converges on retry: it compares the guest's config with the database and writes only what differs.
 */
export async function convergeThrottle(deps: ActivityDeps, instanceId: string): Promise<ThrottleOutcome> {
  const instance = await deps.db.instance.findUniqueOrThrow({ where: { id: instanceId }, include: { connection: true, activeTask: { select: { id: true } } } });
  if (instance.vmid === null || instance.node === null || instance.deletedAt || instance.status === 'lost') return 'no_guest';
  if (instance.activeTask) return 'busy';
  const client = deps.proxmox(instance.connection);
  const config = await client.guestConfig.get(instance.node, instance.vmid);
  const changes = nicRateChanges(config, rateOf(instance.throttleMbps));
  if (Object.keys(changes).length > 0) await client.guestConfig.setSync(instance.node, instance.vmid, { ...changes, digest: String(config.digest ?? '') });
  if (instance.appliedThrottleMbps !== instance.throttleMbps) await recordApplied(deps, instanceId, instance.throttleMbps);
  return Object.keys(changes).length === 0 ? 'in_place' : 'applied';
}

export type NicRateRequestAnswer = { taskId: string } | { skipped: ErrorCode };

/**
 * Asks for a server's throttle or unthrottle operation, as the sampler (the system) or as the
 * operator who lifted the throttle. A server busy with another operation is asked again later (the
 * attempt fails and is retried); one in no state for it (deleted, failed, lost) is skipped, and
 * the reconciler puts back the rate of a throttled one that comes back.
 * Converges on retry: the request is one transaction that opens at most one task per server; a
 * request made again after a lost answer is one more operation that finds the rate in place.
 */
export function createRequestNicRateActivity(deps: ActivityDeps) {
  return async function requestNicRate({ instanceId, actorUserId }: { instanceId: string; actorUserId?: string }): Promise<NicRateRequestAnswer> {
    const services = { ...deps, temporal: Context.current().client };
    const who: Principal = actorUserId ? { ...SYSTEM, userId: actorUserId, tokenId: 'traffic-lift' } : SYSTEM;
    try {
      return { taskId: await requestThrottleOperation(services, who, instanceId) };
    } catch (error) {
      if (!(error instanceof AppError) || WAIT_FOR.includes(error.code)) throw error;
      return { skipped: error.code };
    }
  };
}

/** Before throttles were operations: the NIC rate written straight away. Converges on retry (convergeThrottle). */
export function createApplyThrottleActivity(deps: ActivityDeps) {
  return ({ instanceId }: { instanceId: string }): Promise<ThrottleOutcome> => convergeThrottle(deps, instanceId);
}

/**
 * The reconciler's part, for the servers on the connection free of any operation whose throttle
 * we hold or last applied: one whose throttle differs from the one its last operation applied (a
 * lift whose ApplyThrottle never started, a pass lost after deciding) gets its throttle or
 * unthrottle operation asked for, as the system, through its ApplyThrottle; a throttled one whose
 * NICs lost or changed their rate outside gets it back (audited as `instance.throttle_restored`).
 * A rate never applied by a throttle is not ours and is left alone.
 * Converges on retry: a start joins the server's ApplyThrottle that runs; convergeThrottle writes only what still differs.
 */
export function createRestoreThrottlesActivity(deps: ActivityDeps) {
  return async function restoreThrottles({ connectionId, instanceId }: { connectionId: string; instanceId?: string }): Promise<{ restored: number; requested: number }> {
    const held = await deps.db.instance.findMany({
      where: {
        connectionId,
        OR: [{ throttleMbps: { not: null } }, { appliedThrottleMbps: { not: null } }],
        deletedAt: null,
        status: { in: ['running', 'stopped'] },
        activeTask: null,
        ...(instanceId ? { id: instanceId } : {}),
      },
      select: { id: true, tenantId: true, throttleMbps: true, appliedThrottleMbps: true },
    });
    const services = { ...deps, temporal: Context.current().client };
    let restored = 0;
    let requested = 0;
    for (const server of held) {
      try {
        if (server.throttleMbps !== server.appliedThrottleMbps) {
          await askForNicRate(services, SYSTEM, server.id);
          requested++;
          continue;
        }
        if ((await convergeThrottle(deps, server.id)) !== 'applied') continue;
        restored++;
        await recordAudit(deps.db, { action: 'instance.throttle_restored', tenantId: server.tenantId, instanceId: server.id, details: { throttleMbps: server.throttleMbps } });
      } catch (error) {
        deps.logger.warn({ err: error, instanceId: server.id }, 'could not restore or ask for a throttle this time');
      }
    }
    return { restored, requested };
  };
}
