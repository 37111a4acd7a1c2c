/**
 * Phase images: what the control plane adds to building an image from a URL over the Proxmox
 * tasks themselves. The image server serves the demo qcow2 at `--image-bytes-per-second`; the
 * create and template conversion take 1 s each, the worker polls at the production interval. For
 * each of `--images` images, one after another: POST /v1/admin/images with a source → every
 * node's build ready; the time minus the Proxmox tasks' critical path (the download, then the
 * slowest node's create and conversion) is the control plane's share.
 */
import crypto from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { createClient } from '../../clients/typescript/index';
import { DEFAULT_IMAGE, startImageServer } from '../../src/simulator';
import type { Options } from '../options';
import type { SimTiming, Stack } from '../stack';
import { round, spread, type Spread } from '../stats';

export const IMAGE_TIMING: SimTiming = { taskMs: 0, taskMsByType: { qmcreate: 1000, qmtemplate: 1000 } };

export interface ImageRun {
  endToEndMs: number;
  /** The download's duration plus the slowest node's create and conversion. */
  taskPathMs: number;
  tasks: Record<string, number>;
  addedMs: number;
}

export interface ImagesResult {
  timing: SimTiming;
  runs: ImageRun[];
  added: Spread;
}

export async function measureImages(stack: Stack, apiUrl: string, options: Options, log: (line: string) => void): Promise<ImagesResult> {
  log(`images: ${options.images} images built from a URL one after another, tasks ${JSON.stringify(IMAGE_TIMING)}, production task polling`);
  const admin = createClient({ baseUrl: apiUrl, token: stack.adminToken });
  const server = await startImageServer();
  const runs: ImageRun[] = [];
  try {
    const body = server.bodyOf(DEFAULT_IMAGE.path) as Buffer;
    const checksum = crypto.createHash('sha256').update(body).digest('hex');
    for (let i = 0; i < options.images; i++) {
      const sentAt = performance.now();
      const { data, response } = await admin.POST('/v1/admin/images', {
        body: {
          name: `bench-image-${i}`,
          os: 'debian',
          version: '12',
          loginMethods: ['password', 'ssh'],
          defaultUsername: 'debian',
          rootAllowed: false,
          source: { url: server.urlOf(DEFAULT_IMAGE.path), checksum, checksumAlgorithm: 'sha256' },
        },
      });
      if (response.status !== 201 || !data) throw new Error(`image ${i} refused: ${response.status}`);
      const imageId = data.data.id;
      const deadline = Date.now() + options.timeoutS * 1000;
      for (;;) {
        const builds = await stack.db.imageBuild.findMany({ where: { version: { imageId } }, select: { state: true } });
        if (builds.length > 0 && builds.every((b) => b.state === 'ready')) break;
        if (builds.some((b) => b.state === 'failed')) throw new Error(`image ${i} failed to build`);
        if (Date.now() > deadline) throw new Error(`image ${i} not ready after ${options.timeoutS} s`);
        await new Promise((r) => setTimeout(r, 10));
      }
      const endToEndMs = performance.now() - sentAt;
      const from = performance.timeOrigin + sentAt;
      const mine = stack.simulator.state.tasks.all().filter((t) => t.startedAtMs >= from && t.startedAtMs <= from + endToEndMs && t.endedAtMs !== undefined);
      const duration = (t: (typeof mine)[number]) => (t.endedAtMs as number) - t.startedAtMs;
      const download = mine.filter((t) => t.type === 'download').reduce((sum, t) => sum + duration(t), 0);
      const perNode = new Map<string, number>();
      for (const t of mine.filter((t) => t.type === 'qmcreate' || t.type === 'qmtemplate')) perNode.set(t.node, (perNode.get(t.node) ?? 0) + duration(t));
      const taskPathMs = download + Math.max(0, ...perNode.values());
      const tasks: Record<string, number> = {};
      for (const t of mine) tasks[t.type] = (tasks[t.type] ?? 0) + 1;
      runs.push({ endToEndMs: round(endToEndMs), taskPathMs: round(taskPathMs), tasks, addedMs: round(endToEndMs - taskPathMs) });
    }
  } finally {
    await server.close();
  }
  return { timing: IMAGE_TIMING, runs, added: spread(runs.map((r) => r.addedMs)) };
}
