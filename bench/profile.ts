/**
 * A V8 .cpuprofile (`node --cpu-prof`) summed up: self time per function (name + url:line),
 * from its samples and their time deltas.
 */
import fs from 'node:fs';
import path from 'node:path';
import { round } from './stats';

interface CpuProfile {
  nodes: { id: number; callFrame: { functionName: string; url: string; lineNumber: number } }[];
  samples: number[];
  timeDeltas: number[];
}

export interface ProfileSummary {
  file: string;
  /** Sampled time, and of it the time the process sat idle (waiting on I/O). */
  totalMs: number;
  idleMs: number;
  top: { function: string; location: string; selfMs: number; percentOfBusy: number }[];
}

const projectRoot = path.resolve(__dirname, '..');

export function summariseProfile(file: string, count = 15): ProfileSummary {
  const profile = JSON.parse(fs.readFileSync(file, 'utf8')) as CpuProfile;
  const frames = new Map(profile.nodes.map((node) => [node.id, node.callFrame]));
  const selfUs = new Map<string, { function: string; location: string; us: number }>();
  let totalUs = 0;
  let idleUs = 0;
  // A sample's time is the gap to the next one.
  profile.samples.forEach((nodeId, i) => {
    const us = profile.timeDeltas[i + 1] ?? 0;
    const frame = frames.get(nodeId);
    if (!frame) return;
    totalUs += us;
    if (frame.functionName === '(idle)') {
      idleUs += us;
      return;
    }
    const url = frame.url
      .replace(/^file:\/\//, '')
      .replace(`${projectRoot}/`, '')
      .replace(/^.*\/node_modules\//, 'node_modules/');
    // lineNumber is 0-based in the profile.
    const location = url ? `${url}:${frame.lineNumber + 1}` : '';
    const key = `${frame.functionName}\u0000${location}`;
    const entry = selfUs.get(key) ?? { function: frame.functionName || '(anonymous)', location, us: 0 };
    entry.us += us;
    selfUs.set(key, entry);
  });
  const busyUs = totalUs - idleUs;
  const top = [...selfUs.values()]
    .sort((a, b) => b.us - a.us)
    .slice(0, count)
    .map((e) => ({ function: e.function, location: e.location, selfMs: round(e.us / 1000), percentOfBusy: round((e.us / Math.max(1, busyUs)) * 100) }));
  return { file: path.relative(projectRoot, file), totalMs: round(totalUs / 1000), idleMs: round(idleUs / 1000), top };
}

/** Node names a profile CPU.<date>.<time>.<pid>.<thread id>.<seq>.cpuprofile; thread 0 is the main thread. */
const MAIN_THREAD_PROFILE = /^CPU\.\d+\.\d+\.\d+\.0\.\d+\.cpuprofile$/;

/** The main thread's profile of each process directory under `dir`. */
export function summariseProfiles(dir: string): ProfileSummary[] {
  if (!fs.existsSync(dir)) return [];
  return fs
    .readdirSync(dir, { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .sort((a, b) => a.name.localeCompare(b.name, 'en', { numeric: true }))
    .flatMap((entry) => fs.readdirSync(path.join(dir, entry.name)).filter((name) => MAIN_THREAD_PROFILE.test(name)).map((name) => summariseProfile(path.join(dir, entry.name, name))));
}
