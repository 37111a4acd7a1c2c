/**
 * Cluster CPU baseline: the highest x86-64 microarchitecture level every online node
 * supports, mapped to a Proxmox VE CPU type so guests can live-migrate anywhere.
 *
 * Proxmox VE (8.0+) ships the built-in models x86-64-v2, x86-64-v2-AES, x86-64-v3 and
 * x86-64-v4 (the API schema lists them only as free-form `cputype` strings; see the
 * `abstract` note on GET /nodes/{node}/capabilities/qemu/cpu). `kvm64` is the safe fallback.
 */

export type X86Level = 1 | 2 | 3 | 4;

/** Flags as spelled in /proc/cpuinfo (Proxmox's `cpuinfo.flags`). */
const V2_FLAGS = ['cx16', 'lahf_lm', 'popcnt', 'sse4_1', 'sse4_2', 'ssse3'];
/** `abm` is how /proc/cpuinfo names LZCNT support; `lzcnt` is accepted too. */
const V3_FLAGS = ['avx', 'avx2', 'bmi1', 'bmi2', 'f16c', 'fma', ['abm', 'lzcnt'], 'movbe', 'xsave'] as const;
const V4_FLAGS = ['avx512f', 'avx512bw', 'avx512cd', 'avx512dq', 'avx512vl'];

export const PVE_X86_64_CPU_TYPES = ['kvm64', 'x86-64-v2', 'x86-64-v2-AES', 'x86-64-v3', 'x86-64-v4'] as const;
export type PveCpuType = (typeof PVE_X86_64_CPU_TYPES)[number];

function hasAll(set: Set<string>, required: ReadonlyArray<string | readonly string[]>): boolean {
  return required.every((f) => (typeof f === 'string' ? set.has(f) : f.some((alt) => set.has(alt))));
}

function flagSet(flags: string[] | string): Set<string> {
  const list = typeof flags === 'string' ? flags.split(/\s+/) : flags;
  return new Set(list.map((f) => f.trim().toLowerCase()).filter(Boolean));
}

/** The x86-64 level a CPU with these flags supports (1 when it lacks the v2 set). */
export function cpuLevelFromFlags(flags: string[] | string): X86Level {
  const set = flagSet(flags);
  if (!hasAll(set, V2_FLAGS)) return 1;
  if (!hasAll(set, V3_FLAGS)) return 2;
  if (!hasAll(set, V4_FLAGS)) return 3;
  return 4;
}

/** Proxmox CPU type for a level; at v2, the AES variant when every node has AES-NI. */
export function cpuTypeForLevel(level: X86Level, allHaveAes = false): PveCpuType {
  switch (level) {
    case 4:
      return 'x86-64-v4';
    case 3:
      return 'x86-64-v3';
    case 2:
      return allHaveAes ? 'x86-64-v2-AES' : 'x86-64-v2';
    default:
      return 'kvm64';
  }
}

export interface NodeCpuInfo {
  node: string;
  status: string;
  /** cpuinfo.flags (space separated) or a list; undefined when unknown. */
  flags: string | string[] | undefined;
}

export interface CpuBaseline {
  level: X86Level;
  cpuType: PveCpuType;
  /** Per online node level. */
  nodes: Record<string, X86Level>;
}

/** Lowest common level of the online nodes; kvm64 when no online node reported its flags. */
export function clusterCpuBaseline(nodes: NodeCpuInfo[]): CpuBaseline {
  const online = nodes.filter((n) => n.status === 'online');
  const levels: Record<string, X86Level> = {};
  let min: X86Level | undefined;
  let allAes = online.length > 0;
  for (const n of online) {
    if (n.flags === undefined) {
      return { level: 1, cpuType: 'kvm64', nodes: levels };
    }
    const set = flagSet(n.flags);
    const level = cpuLevelFromFlags([...set]);
    levels[n.node] = level;
    if (!set.has('aes')) allAes = false;
    min = min === undefined || level < min ? level : min;
  }
  if (min === undefined) return { level: 1, cpuType: 'kvm64', nodes: levels };
  return { level: min, cpuType: cpuTypeForLevel(min, allAes), nodes: levels };
}

/** What the baseline reads: the cluster area of a client (ClusterApi). */
export interface CpuInfoSource {
  nodes(call?: AbortSignal): Promise<Array<{ node: string; status: string }>>;
  nodeStatus(node: string, call?: AbortSignal): Promise<{ cpuinfo?: { flags?: string } }>;
}

/** Reads every node's CPU flags and computes the baseline. */
export async function readClusterCpuBaseline(cluster: CpuInfoSource, signal?: AbortSignal): Promise<CpuBaseline> {
  const nodes = await cluster.nodes(signal);
  const infos = await Promise.all(
    nodes.map(async (n): Promise<NodeCpuInfo> => {
      if (n.status !== 'online') return { node: n.node, status: n.status, flags: undefined };
      const st = await cluster.nodeStatus(n.node, signal);
      return { node: n.node, status: n.status, flags: st.cpuinfo?.flags };
    }),
  );
  return clusterCpuBaseline(infos);
}

/** Caches the baseline per connection (any string key) for `ttlMs`; concurrent reads share one request. */
export class CpuBaselineCache {
  private readonly ttlMs: number;
  private readonly now: () => number;
  private readonly entries = new Map<string, { at: number; value: Promise<CpuBaseline> }>();

  constructor(opts: { ttlMs?: number; now?: () => number } = {}) {
    this.ttlMs = opts.ttlMs ?? 10 * 60_000;
    this.now = opts.now ?? Date.now;
  }

  async get(key: string, cluster: CpuInfoSource, signal?: AbortSignal): Promise<CpuBaseline> {
    const hit = this.entries.get(key);
    if (hit && this.now() - hit.at < this.ttlMs) return hit.value;
    const value = readClusterCpuBaseline(cluster, signal);
    const entry = { at: this.now(), value };
    this.entries.set(key, entry);
    try {
      return await value;
    } catch (e) {
      if (this.entries.get(key) === entry) this.entries.delete(key);
      throw e;
    }
  }

  invalidate(key?: string): void {
    if (key === undefined) this.entries.clear();
    else this.entries.delete(key);
  }
}
