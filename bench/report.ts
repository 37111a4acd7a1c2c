/** The run's results: bench/results.json, and the table printed on stdout (Markdown, for the README). */
import type { Duplicates } from './duplicates';
import type { Options } from './options';
import type { AloneResult } from './phases/alone';
import type { BackupsResult } from './phases/backups';
import type { ImagesResult } from './phases/images';
import type { ConsolesResult } from './phases/consoles';
import type { HostileResult } from './phases/hostile';
import type { CreateApiResult } from './phases/create';
import type { HistoryBreakdown } from './history-breakdown';
import type { FloorResult } from './phases/floor';
import type { MemoryResult } from './phases/memory';
import type { ProvisionsResult } from './phases/provisions';
import type { RealisticResult } from './phases/realistic';
import type { ProfileSummary } from './profile';
import type { QueryCounts, StatementCount } from './query-count';
import { round } from './stats';

export interface Results {
  date: string;
  machine: { cpus: number; cpuModel: string; memoryGiB: number; platform: string; node: string };
  options: Options;
  /** Where the APIs and workers ran. */
  deployment: string;
  floor?: FloorResult;
  alone?: AloneResult;
  createApi?: CreateApiResult;
  provisions?: ProvisionsResult;
  duplicates?: Duplicates;
  realistic?: RealisticResult;
  backups?: BackupsResult;
  images?: ImagesResult;
  consoles?: ConsolesResult;
  hostile?: HostileResult;
  memory?: MemoryResult;
  queries?: QueryCounts;
  profiles?: ProfileSummary[];
  processes: { benchPeakRssMiB: number; temporalPeakRssMiB: number | null; apiAndWorkerInBench: boolean };
}

type Row = [measure: string, value: string, vsFloor: string, target: string, met: string];

const verdict = (ok: boolean | undefined) => (ok === undefined ? '' : ok ? 'yes' : 'NO');
const times = (value: number, floor: number | undefined) => (floor ? `${round(value / floor, 2)} ×` : '');

function rows(r: Results): Row[] {
  const out: Row[] = [];
  const floorMs = r.floor?.alone.p50Ms;
  const floorPerS = r.floor?.throughput.perS;
  if (r.floor) {
    const f = r.floor;
    out.push(['floor (i): one bare 7-activity workflow alone, start → result, p50', `${f.alone.p50Ms} ms (p90 ${f.alone.p90Ms}, n ${f.alone.count})`, '1 ×', '', '']);
    out.push([`floor (ii): bare workflows/s at ${f.throughput.concurrency} clients`, `${f.throughput.perS}/s (${f.throughput.workflows} in ${f.throughput.wallS} s)`, '1 ×', '', '']);
  }
  if (r.alone) {
    const a = r.alone;
    const over = floorMs === undefined ? undefined : round(a.running.p50Ms - floorMs);
    out.push([
      'one provision alone, tasks 0 ms: POST → `running`, p50',
      `${a.running.p50Ms} ms (p90 ${a.running.p90Ms}, n ${a.running.count})`,
      `${times(a.running.p50Ms, floorMs)}${over === undefined ? '' : `, floor + ${over} ms`}`,
      '≤ floor + 150 ms',
      verdict(over === undefined ? undefined : over <= 150),
    ]);
    if (a.breakdown) out.push(['… its workflow history, mean of the runs', describeBreakdown(a.breakdown), '', '', '']);
  }
  if (r.provisions) {
    const b = r.provisions;
    const ratio = floorPerS ? b.perS / floorPerS : undefined;
    out.push([
      `provisions/s at ${r.options.concurrency} clients`,
      `${b.perS}/s (${b.running} of ${b.instances} running${b.failed ? `, ${b.failed} failed` : ''} in ${b.wallS} s)`,
      times(b.perS, floorPerS),
      '≥ 0.55 × floor',
      verdict(ratio === undefined ? undefined : ratio >= 0.55),
    ]);
    out.push(['… create latency p50 / p99 while the worker is busy', `${b.createLatency.p50Ms} / ${b.createLatency.p99Ms} ms`, '', '', '']);
    out.push(['… create → running (task row) p50 / p99', `${b.provision.p50Ms} / ${b.provision.p99Ms} ms`, times(b.provision.p50Ms, floorMs), '', '']);
  }
  if (r.createApi) {
    const c = r.createApi;
    const refused = Object.keys(c.refused).length ? `, refused ${JSON.stringify(c.refused)}` : '';
    out.push([
      `create API at ${c.concurrency} clients: p99 / throughput`,
      `${c.latency.p99Ms} ms / ${c.perS} per s`,
      floorMs === undefined ? '' : `${times(c.latency.p99Ms, floorMs)} / ${times(c.perS, floorPerS)}`,
      '≤ 50 ms / ≥ 150 per s',
      verdict(c.latency.p99Ms <= 50 && c.perS >= 150),
    ]);
    out.push(['… p50 / p90 / p99 / max', `${c.latency.p50Ms} / ${c.latency.p90Ms} / ${c.latency.p99Ms} / ${c.latency.maxMs} ms (${c.accepted} of ${c.requests} accepted${refused})`, times(c.latency.p50Ms, floorMs), '', '']);
    const sides = Object.entries(c.cpuMsPerCreate);
    const total = sides.reduce((sum, [, ms]) => sum + ms, 0);
    out.push([
      '… CPU per create, by process',
      `${sides.map(([side, ms]) => `${side === 'bench' && !('api' in c.cpuMsPerCreate) ? 'bench process (clients and API)' : (CPU_SIDE_NAMES[side] ?? side)} ${ms}`).join(', ')} ms; ${round(total, 1)} ms in all, ${round((total * 150) / 1000, 2)} cores at 150 per s`,
      '',
      '',
      '',
    ]);
  }
  if (r.duplicates) {
    const d = r.duplicates;
    const total = d.vmidReservations + d.instanceVmids + d.addresses;
    out.push(['duplicate VMIDs (reservations / instances) and addresses held', `${d.vmidReservations} / ${d.instanceVmids} and ${d.addresses}`, '', '0', verdict(total === 0)]);
  }
  if (r.realistic) {
    const x = r.realistic;
    const detail = x.runs.map((run) => `${run.endToEndMs}/${run.taskSumMs}`).join(', ');
    const reads = x.runs.map((run) => `${run.listReadsPerTask}/${run.statusReadsPerTask}`).join(', ');
    out.push([
      `realistic tasks${x.scale === 1 ? '' : ` (× ${x.scale})`}: end-to-end ÷ sum of task times, worst of ${x.runs.length}`,
      `${x.maxRatio} (mean ${x.meanRatio}; ms ${detail}; list/status reads per task ${reads})`,
      '',
      '≤ 1.05',
      verdict(x.maxRatio <= 1.05),
    ]);
  }
  if (r.backups) {
    const x = r.backups;
    const detail = (runs: BackupsResult['backups']) => runs.map((run) => `${run.endToEndMs}/${run.taskSumMs}`).join(', ');
    out.push([`backup (vzdump ${x.timing.taskMsByType.vzdump} ms): end-to-end − task time, p50 of ${x.backups.length}`, `${x.backupAdded.p50Ms} ms (max ${x.backupAdded.maxMs}; ms ${detail(x.backups)})`, '', '', '']);
    out.push([`restore in place (qmrestore ${x.timing.taskMsByType.qmrestore} ms): end-to-end − task time, p50 of ${x.restores.length}`, `${x.restoreAdded.p50Ms} ms (max ${x.restoreAdded.maxMs}; ms ${detail(x.restores)})`, '', '', '']);
  }
  if (r.images) {
    const x = r.images;
    const detail = x.runs.map((run) => `${run.endToEndMs}/${run.taskPathMs}`).join(', ');
    out.push([`image from a URL on 3 nodes (download, then create + template 1 s each): end-to-end − task path, p50 of ${x.runs.length}`, `${x.added.p50Ms} ms (max ${x.added.maxMs}; ms ${detail})`, '', '', '']);
  }
  if (r.consoles) {
    const c = r.consoles;
    const window = (w: ConsolesResult['withConsoles']) => `p50 ${w.p50Ms} ms, p99 ${w.p99Ms} ms (${w.requests} GETs; API RSS ${w.apiRssMiB ?? '?'} MiB, CPU ${w.apiCpuPercent ?? '?'} %)`;
    out.push(['GET /v1/instances, one API process, no console open', window(c.withoutConsoles), '', '', '']);
    out.push([`… with ${c.sessions.vnc} VNC + ${c.sessions.serial} serial consoles busy (CONSOLE_SESSIONS_PER_USER=${c.consoleSessionsPerUser})`, `${window(c.withConsoles)}; ${c.echoes} echoes, ${c.frames} frames`, '', '', '']);
  }
  if (r.hostile) {
    const h = r.hostile;
    const attacks = `${h.attacks.upgrades} hostile upgrades (${h.attacks.withValidTicket} on valid tickets), ${h.attacks.malformedFrames} malformed and ${h.attacks.randomFrames} random frames`;
    out.push([`soak, ${h.minutes} min, ${h.attackers} attackers beside normal traffic: ${attacks}`, `same process ${h.apiPidUnchanged ? 'yes' : 'NO'}, ready ${h.readyAtEnd ? 'yes' : 'NO'}; ${h.normal.requests} normal requests, ${h.normal.serverErrors} 5xx; ${h.normal.streamsFollowed} streams, ${h.normal.consolesUsed} consoles; slots held ${h.consoleSlotsHeldAtEnd}; API RSS ${h.apiRssMiB.start ?? '?'} → ${h.apiRssMiB.end ?? '?'} MiB, CPU ${h.apiCpuPercent ?? '?'} %`, '', 'same process, 0 5xx, 0 slots', verdict(h.apiPidUnchanged && h.readyAtEnd && h.normal.serverErrors === 0 && h.consoleSlotsHeldAtEnd === 0)]);
  }
  if (r.memory) {
    const m = r.memory;
    out.push([
      `worker process alone, ${m.accepted} provisions in flight: peak RSS (VmHWM)`,
      `${m.peakRssMiB} MiB (now ${m.rssMiB}; ${m.atCloneStage} at the clone stage, ${m.clonesRunning} clones running)`,
      '',
      '≤ 400 MB',
      verdict(m.peakRssMiB * 1.048576 <= 400),
    ]);
  }
  out.push([`peak RSS, bench process (${r.processes.apiAndWorkerInBench ? 'API, worker, ' : ''}simulator, clients)`, `${r.processes.benchPeakRssMiB} MiB`, '', '', '']);
  out.push([`peak RSS, Temporal ${r.options.temporal === 'cluster' ? 'cluster (four services)' : 'dev server'}`, r.processes.temporalPeakRssMiB === null ? 'n/a' : `${r.processes.temporalPeakRssMiB} MiB`, '', '', '']);
  return out;
}

const markdown = (header: string[], lines: string[][]) => [header, header.map(() => '---'), ...lines].map((line) => `| ${line.join(' | ')} |`).join('\n');
const shorten = (text: string, max = 110) => (text.length > max ? `${text.slice(0, max - 1)}…` : text).replace(/\|/g, '\\|');
const statements = (top: StatementCount[]) => top.map((s) => [String(s.count), `\`${shorten(s.statement)}\``]);

function printQueries(q: QueryCounts): void {
  if (q.skipped) {
    console.log(`SQL statements: not counted (${q.skipped}).\n`);
    return;
  }
  if (q.perCreate) console.log(`SQL statements per create (phase a): ${q.perCreate.total}\n\n${markdown(['per create', 'statement'], statements(q.perCreate.top))}\n`);
  if (q.perProvision) {
    const what = q.perProvision.createsSubtracted ? 'its create subtracted' : 'its create included: phase (a) did not run';
    console.log(`SQL statements per provision (phase b, ${what}): ${q.perProvision.total}\n\n${markdown(['per provision', 'statement'], statements(q.perProvision.top))}\n`);
  }
}

function printProfiles(profiles: ProfileSummary[]): void {
  for (const p of profiles) {
    console.log(`${p.file}: ${p.totalMs} ms sampled, ${p.idleMs} ms idle; top ${p.top.length} functions by self time\n`);
    console.log(`${markdown(['self ms', '% of busy', 'function', 'where'], p.top.map((f) => [String(f.selfMs), String(f.percentOfBusy), shorten(f.function, 50), shorten(f.location, 90)]))}\n`);
  }
}

function describeBreakdown(b: HistoryBreakdown): string {
  const slowest = b.slowest.map((a) => `${a.activity} ${a.ms}`).join(', ');
  return (
    `${b.totalMs} ms start → close: ${b.activities} activities queued ${b.activityQueuedMs} ms and ran ${b.activityRunningMs} ms (slowest: ${slowest}); ` +
    `${b.workflowTasks} workflow tasks queued ${b.workflowTaskQueuedMs} ms and ran ${b.workflowTaskRunningMs} ms; timers ${b.timerMs} ms`
  );
}

/** How the CPU figure of a create names each side. */
const CPU_SIDE_NAMES: Record<string, string> = { api: 'API', postgres: 'PostgreSQL', temporal: 'Temporal', bench: 'bench process' };

export function printTable(r: Results): void {
  console.log('');
  console.log(`${r.machine.cpus} × ${r.machine.cpuModel}, ${r.machine.memoryGiB} GiB, ${r.machine.node}, ${r.date}; ${r.deployment}`);
  console.log('');
  console.log(`Settings: the product's defaults${r.options.pollMs === null ? '' : `, but TASK_POLL_INTERVAL_MS ${r.options.pollMs} ms (--poll-ms)`}; create and read rate limits raised to 1,000,000 (one customer per client would be refused otherwise).`);
  console.log('');
  console.log(markdown(['measure', 'value', 'vs floor', 'target', 'met'], rows(r)));
  console.log('');
  if (r.queries) printQueries(r.queries);
  if (r.profiles) printProfiles(r.profiles);
}
