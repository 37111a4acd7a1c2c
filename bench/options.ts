/** The bench's command line: `--name=value` flags, each checked against its range. */
import { temporalModeOf, type TemporalMode } from '../test/support/temporal';

export const PHASES = ['floor', 'alone', 'create', 'provisions', 'realistic', 'backups', 'images', 'consoles', 'memory', 'hostile'] as const;
export type Phase = (typeof PHASES)[number];

export interface Options {
  /** Requests in phase (a), create API alone. */
  creates: number;
  /** Concurrent clients in the floor's throughput, phases (a), (b) and the memory phase's creates. */
  concurrency: number;
  /** Servers in phase (b). */
  provisions: number;
  /** TASK_POLL_INTERVAL_MS of every worker the bench starts; null: the product's default. */
  pollMs: number | null;
  /** Give up waiting for provisions after this long (phases alone, (b), realistic). */
  timeoutS: number;
  /** Floor workflows run one after another, for the floor's latency. */
  floorAlone: number;
  /** Floor workflows run from `concurrency` clients, for the floor's throughput. */
  floorWorkflows: number;
  /** Provisions run one after another with zero-latency tasks. */
  alone: number;
  /** Provisions run one after another with realistic task latencies. */
  realistic: number;
  /** Multiplies the realistic task latencies (1 = clone 5 s, start 2 s, config 100 ms). */
  realisticScale: number;
  /** Servers backed up and restored, one after another, in phase backups. */
  backups: number;
  /** How long vzdump and qmrestore take in phase backups. */
  backupTaskMs: number;
  /** Images built from a URL, one after another, in phase images. */
  images: number;
  /** Provisions held in flight on slow clones while the worker's memory is read. */
  inFlight: number;
  /** API processes; more than one runs them (and the workers) as child processes. */
  apis: number;
  /** How long phase hostile's soak lasts. */
  hostileMinutes: number;
  /** Worker processes; more than one runs them (and the APIs) as child processes. */
  workers: number;
  /** Run the API and the worker as child processes under `node --cpu-prof`. */
  profile: boolean;
  /** The Temporal dev server, or the four-process cluster on PostgreSQL (`--temporal=cluster`). */
  temporal: TemporalMode;
  phases: Phase[];
}

export const DEFAULTS: Options = {
  creates: 400,
  concurrency: 16,
  provisions: 100,
  pollMs: null,
  timeoutS: 300,
  floorAlone: 20,
  floorWorkflows: 200,
  alone: 10,
  realistic: 3,
  realisticScale: 1,
  backups: 3,
  backupTaskMs: 3000,
  images: 3,
  inFlight: 1000,
  apis: 1,
  hostileMinutes: 10,
  workers: 1,
  profile: false,
  temporal: 'dev',
  // The soak is asked for by name: it takes ten minutes on its own.
  phases: PHASES.filter((phase) => phase !== 'hostile'),
};

type NumericKey = { [K in keyof Options]: Options[K] extends number ? K : Options[K] extends number | null ? K : never }[keyof Options];

/** Flag name → option, its range, and whether fractions are allowed. */
const NUMERIC_FLAGS: Record<string, { key: NumericKey; min: number; max: number; fraction?: boolean }> = {
  creates: { key: 'creates', min: 1, max: 5000 },
  concurrency: { key: 'concurrency', min: 1, max: 256 },
  provisions: { key: 'provisions', min: 1, max: 2000 },
  'poll-ms': { key: 'pollMs', min: 1, max: 5000 },
  'timeout-s': { key: 'timeoutS', min: 10, max: 3600 },
  'floor-alone': { key: 'floorAlone', min: 1, max: 1000 },
  'floor-workflows': { key: 'floorWorkflows', min: 1, max: 10_000 },
  alone: { key: 'alone', min: 1, max: 200 },
  realistic: { key: 'realistic', min: 1, max: 50 },
  'realistic-scale': { key: 'realisticScale', min: 0.01, max: 10, fraction: true },
  backups: { key: 'backups', min: 1, max: 50 },
  images: { key: 'images', min: 1, max: 20 },
  'backup-task-ms': { key: 'backupTaskMs', min: 0, max: 600_000 },
  'in-flight': { key: 'inFlight', min: 1, max: 10_000 },
  apis: { key: 'apis', min: 1, max: 16 },
  'hostile-minutes': { key: 'hostileMinutes', min: 1, max: 600 },
  workers: { key: 'workers', min: 1, max: 16 },
};

const USAGE = `flags: ${Object.keys(NUMERIC_FLAGS)
  .map((name) => `--${name}=N`)
  .join(' ')} --phases=${PHASES.join(',')} --temporal=dev|cluster --profile`;

export function parseOptions(argv: string[]): Options {
  const options: Options = { ...DEFAULTS, phases: [...DEFAULTS.phases] };
  for (const arg of argv) {
    if (arg === '--profile') {
      options.profile = true;
      continue;
    }
    const match = /^--([a-z-]+)=(.+)$/.exec(arg);
    if (!match) throw new Error(`unknown argument ${arg}; ${USAGE}`);
    const [, name = '', raw = ''] = match;
    if (name === 'temporal') {
      options.temporal = temporalModeOf(raw, '--temporal');
      continue;
    }
    if (name === 'phases') {
      const phases = raw.split(',').filter(Boolean);
      const unknown = phases.filter((phase) => !(PHASES as readonly string[]).includes(phase));
      if (phases.length === 0 || unknown.length > 0) throw new Error(`--phases takes a list of ${PHASES.join(', ')}`);
      options.phases = PHASES.filter((phase) => phases.includes(phase));
      continue;
    }
    const flag = NUMERIC_FLAGS[name];
    if (!flag) throw new Error(`unknown argument ${arg}; ${USAGE}`);
    const value = Number(raw);
    const wellFormed = flag.fraction ? /^\d+(\.\d+)?$/.test(raw) : /^\d+$/.test(raw);
    if (!wellFormed || value < flag.min || value > flag.max) throw new Error(`--${name} must be ${flag.fraction ? 'a number' : 'an integer'} in ${flag.min}..${flag.max}`);
    options[flag.key] = value;
  }
  return options;
}

/** Child processes instead of the in-process API and worker. */
export const runsChildren = (options: Options) => options.apis > 1 || options.workers > 1 || options.profile;
