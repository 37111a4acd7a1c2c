import { EventSourceParserStream } from 'eventsource-parser/stream';
import type { PvecpClient } from '../../../clients/typescript/index';
import type { Step } from './step-thread';

export interface StreamEnd {
  reason: string;
  status?: string;
}

/** Reasons after which the API invites a reconnect with Last-Event-ID. */
const RECONNECT = new Set(['max_duration', 'shutting_down']);

/**
 * Follows a server's step thread (`GET /v1/instances/{id}/events`, server-sent events) through
 * the typed client, reconnecting with Last-Event-ID when the API asks for it, until the task
 * ends, the server parks, or `signal` aborts. Resolves with how it ended.
 */
export async function followSteps(client: PvecpClient, instanceId: string, onStep: (step: Step) => void, signal: AbortSignal): Promise<StreamEnd> {
  let lastEventId: string | undefined;
  for (let attempt = 0; attempt < 20 && !signal.aborted; attempt++) {
    const { response } = await client.GET('/v1/instances/{id}/events', {
      params: { path: { id: instanceId }, header: lastEventId ? { 'Last-Event-ID': lastEventId } : {} },
      parseAs: 'stream',
      signal,
    });
    if (!response.ok || !response.body) return { reason: `http_${response.status}` };
    const reader = response.body.pipeThrough(new TextDecoderStream()).pipeThrough(new EventSourceParserStream()).getReader();
    let end: StreamEnd | undefined;
    for (;;) {
      const { value, done } = await reader.read();
      if (done || !value) break;
      if (value.event === 'close') {
        end = JSON.parse(value.data) as StreamEnd;
        break;
      }
      if (value.id) lastEventId = value.id;
      onStep(JSON.parse(value.data) as Step);
    }
    await reader.cancel().catch(() => undefined);
    if (end && !RECONNECT.has(end.reason)) return end;
  }
  return { reason: 'aborted' };
}
