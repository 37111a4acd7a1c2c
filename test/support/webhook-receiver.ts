import { createServer, type IncomingHttpHeaders, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ReceivedWebhook {
  headers: IncomingHttpHeaders;
  body: string;
  json: { id: string; type: string; createdAt: string; data: Record<string, unknown>; instanceId: string; tenantId: string };
}

/**
 * How the receiver answers its n-th request (0-based): a status; `'drop'` to cut the connection;
 * `'drip'` to send a 200's headers and then one byte of body every 200 ms, never ending; `'stall'`
 * to send a 200's headers and then nothing.
 */
export type Answer = (request: ReceivedWebhook, index: number) => number | 'drop' | 'drip' | 'stall';

/** A webhook receiver on 127.0.0.1 that records every POST and answers as told. */
export async function startReceiver(answer: Answer = () => 200) {
  const received: ReceivedWebhook[] = [];
  /** The indexes of dripping or stalled answers whose connection closed (the sender gave up). */
  const cutOff: number[] = [];
  let respond = answer;
  const server = createServer((req, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      const request = { headers: req.headers, body, json: JSON.parse(body) as ReceivedWebhook['json'] };
      const index = received.push(request) - 1;
      const status = respond(request, index);
      if (status === 'drop') return req.socket.destroy();
      if (status === 'drip' || status === 'stall') {
        res.writeHead(200, { 'content-type': 'text/plain' }).flushHeaders();
        const drip = status === 'drip' ? setInterval(() => res.write('.'), 200) : undefined;
        res.on('close', () => {
          clearInterval(drip);
          cutOff.push(index);
        });
        return;
      }
      res.writeHead(status, { 'content-type': 'text/plain' }).end('ok');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    port,
    url: `http://127.0.0.1:${port}/hooks/pvecp`,
    received,
    cutOff,
    answerWith(next: Answer) {
      respond = next;
    },
    /** Polls until `done` holds for what arrived. */
    async waitFor(done: (received: ReceivedWebhook[]) => boolean, what: string, timeoutMs = 30_000) {
      const deadline = Date.now() + timeoutMs;
      while (!done(received)) {
        if (Date.now() > deadline) throw new Error(`receiver: ${what} did not happen; got ${JSON.stringify(received.map((r) => r.json.type))}`);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
