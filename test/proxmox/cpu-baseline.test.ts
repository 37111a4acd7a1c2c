import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CpuBaselineCache, clusterCpuBaseline, cpuLevelFromFlags, cpuTypeForLevel } from '../../src/proxmox';
import { CPU_FLAGS_V2, CPU_FLAGS_V3 } from '../../src/simulator';
import { startSim, type SimHarness } from '../simulator/support';

const V1 = ['fpu', 'cx8', 'cmov', 'mmx', 'sse', 'sse2', 'lm'];
const V2 = [...V1, 'cx16', 'lahf_lm', 'popcnt', 'sse4_1', 'sse4_2', 'ssse3'];
const V3 = [...V2, 'avx', 'avx2', 'bmi1', 'bmi2', 'f16c', 'fma', 'abm', 'movbe', 'xsave'];
const V4 = [...V3, 'avx512f', 'avx512bw', 'avx512cd', 'avx512dq', 'avx512vl'];

describe('cpuLevelFromFlags', () => {
  it('finds the x86-64 level from /proc/cpuinfo flags', () => {
    expect(cpuLevelFromFlags(V1)).toBe(1);
    expect(cpuLevelFromFlags(V2)).toBe(2);
    expect(cpuLevelFromFlags(V3)).toBe(3);
    expect(cpuLevelFromFlags(V4)).toBe(4);
  });

  it('needs every flag of a level', () => {
    expect(cpuLevelFromFlags(V2.filter((f) => f !== 'popcnt'))).toBe(1);
    expect(cpuLevelFromFlags(V3.filter((f) => f !== 'movbe'))).toBe(2);
    expect(cpuLevelFromFlags(V4.filter((f) => f !== 'avx512vl'))).toBe(3);
  });

  it('accepts lzcnt for abm, a space-separated string, and any case', () => {
    expect(cpuLevelFromFlags(V3.map((f) => (f === 'abm' ? 'lzcnt' : f)))).toBe(3);
    expect(cpuLevelFromFlags(V3.join(' ').toUpperCase())).toBe(3);
    expect(cpuLevelFromFlags([])).toBe(1);
  });
});

describe('cluster baseline', () => {
  it('is the lowest level of the online nodes, ignoring offline ones', () => {
    const b = clusterCpuBaseline([
      { node: 'a', status: 'online', flags: [...V4, 'aes'] },
      { node: 'b', status: 'online', flags: [...V3, 'aes'] },
      { node: 'c', status: 'offline', flags: undefined },
    ]);
    expect(b).toEqual({ level: 3, cpuType: 'x86-64-v3', nodes: { a: 4, b: 3 } });
  });

  it('maps v2 to x86-64-v2-AES only when every node has AES-NI', () => {
    expect(clusterCpuBaseline([{ node: 'a', status: 'online', flags: [...V2, 'aes'] }]).cpuType).toBe('x86-64-v2-AES');
    expect(clusterCpuBaseline([{ node: 'a', status: 'online', flags: V2 }]).cpuType).toBe('x86-64-v2');
  });

  it('falls back to kvm64 when unknown', () => {
    expect(clusterCpuBaseline([]).cpuType).toBe('kvm64');
    expect(clusterCpuBaseline([{ node: 'a', status: 'online', flags: undefined }]).cpuType).toBe('kvm64');
    expect(cpuTypeForLevel(1)).toBe('kvm64');
    expect(cpuTypeForLevel(4)).toBe('x86-64-v4');
  });

  it('the simulator flag sets are v3 and v2', () => {
    expect(cpuLevelFromFlags(CPU_FLAGS_V3)).toBe(3);
    expect(cpuLevelFromFlags(CPU_FLAGS_V2)).toBe(2);
  });
});

describe('CpuBaselineCache', () => {
  let h: SimHarness;
  beforeAll(async () => {
    h = await startSim();
  });
  afterAll(async () => {
    await h.close();
  });

  it('reads the demo cluster (pve3 is v2) as x86-64-v2-AES and caches it per connection for its TTL', async () => {
    let now = 1_000;
    const cache = new CpuBaselineCache({ ttlMs: 60_000, now: () => now });
    const b = await cache.get('demo', h.client.cluster);
    expect(b).toEqual({ level: 2, cpuType: 'x86-64-v2-AES', nodes: { pve1: 3, pve2: 3, pve3: 2 } });
    const reads = () => h.sim.calls.get('GET /nodes/{node}/status') ?? 0;
    const before = reads();
    await Promise.all([cache.get('demo', h.client.cluster), cache.get('demo', h.client.cluster)]);
    expect(reads()).toBe(before);
    now += 60_001;
    await cache.get('demo', h.client.cluster);
    expect(reads()).toBe(before + 3);
    await cache.get('other-cluster', h.client.cluster);
    expect(reads()).toBe(before + 6);
    cache.invalidate('demo');
    await cache.get('demo', h.client.cluster);
    expect(reads()).toBe(before + 9);
  });

  it('does not cache a failed read', async () => {
    const cache = new CpuBaselineCache();
    h.sim.faults.add({ op: 'any', mode: 'http500', message: 'node unreachable' });
    await expect(cache.get('x', h.client.cluster)).rejects.toThrow('node unreachable');
    expect((await cache.get('x', h.client.cluster)).cpuType).toBe('x86-64-v2-AES');
  });
});
