import { createServer, type IncomingHttpHeaders, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ReceivedWebhook {
  headers: IncomingHttpHeaders;
  body: string;
  json: { id: string; type: string; createdAt: string; data: Record<string, unknown>; instanceId: string; tenantId: string };
}

/** How the receiver answers its n-th request (0-based): a status, or `'drop'` to cut the connection. */
export type Answer = (request: ReceivedWebhook, index: number) => number | 'drop';

/** A webhook receiver on 127.0.0.1 that records every POST and answers as told. */
export async function startReceiver(answer: Answer = () => 200) {
  const received: ReceivedWebhook[] = [];
  let respond = answer;
  const server = createServer((req, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      const request = { headers: req.headers, body, json: JSON.parse(body) as ReceivedWebhook['json'] };
      received.push(request);
      const status = respond(request, received.length - 1);
      if (status === 'drop') return req.socket.destroy();
      res.writeHead(status, { 'content-type': 'text/plain' }).end('ok');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    port,
    url: `http://127.0.0.1:${port}/hooks/pvecp`,
    received,
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
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
