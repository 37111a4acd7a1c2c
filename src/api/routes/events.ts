import type { Request, Response } from 'express';
import { z } from 'zod';
import type { Db } from '../../db/client';
import { parse } from '../http';
import { sequenceSchema } from '../openapi';

const POLL_MS = 250;
const KEEPALIVE_MS = 15_000;

/** `Last-Event-ID`: the `id:` of the last step the client saw (a bigint, as the step's sequence). */
export const lastEventIdHeader = z.object({ 'Last-Event-ID': sequenceSchema.optional() });

/**
 * Server-sent events for one task: replays its step thread, then follows it by polling the
 * database (any API replica can serve any stream), and ends with `event: close` once the task
 * is over. `Last-Event-ID` resumes after the last step a client saw.
 */
export async function streamTaskEvents(db: Db, taskId: string, req: Request, res: Response): Promise<void> {
  const resumeFrom = parse(lastEventIdHeader, { 'Last-Event-ID': req.header('last-event-id') }, 'Last-Event-ID header')['Last-Event-ID'];
  res.writeHead(200, {
    'Content-Type': 'text/event-stream; charset=utf-8',
    'Cache-Control': 'no-cache, no-transform',
    Connection: 'keep-alive',
    'X-Accel-Buffering': 'no',
  });
  res.flushHeaders();
  let closed = false;
  req.on('close', () => {
    closed = true;
  });
  let lastId = resumeFrom === undefined ? -1n : BigInt(resumeFrom);
  let lastWrite = Date.now();

  while (!closed) {
    const task = await db.task.findUnique({ where: { id: taskId }, select: { status: true } });
    const steps = await db.taskStep.findMany({ where: { taskId, id: { gt: lastId } }, orderBy: { id: 'asc' } });
    for (const step of steps) {
      res.write(`id: ${step.id}\ndata: ${JSON.stringify({ step: step.step, status: step.status, message: step.message })}\n\n`);
      lastId = step.id;
      lastWrite = Date.now();
    }
    // The steps were read after the status, so a terminal status means nothing more will come.
    if (!task || task.status === 'succeeded' || task.status === 'failed') {
      res.write(`event: close\ndata: ${JSON.stringify({ status: task?.status ?? 'unknown' })}\n\n`);
      break;
    }
    if (Date.now() - lastWrite > KEEPALIVE_MS) {
      res.write(': keep-alive\n\n');
      lastWrite = Date.now();
    }
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
  res.end();
}
