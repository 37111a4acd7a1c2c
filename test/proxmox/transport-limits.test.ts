import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLUSTER_RESOURCES_MAX_BYTES, DEFAULT_MAX_RESPONSE_BYTES, MAX_LISTED_GUESTS, ProxmoxClient, ProxmoxError } from '../../src/proxmox';
import { SIM_SECRET, SIM_TOKEN_ID, startSim } from '../simulator/support';

const token = { tokenId: SIM_TOKEN_ID, tokenSecret: SIM_SECRET };

describe('which Proxmox VE URLs a client accepts', () => {
  it('takes https, and http only for a plaintext lab endpoint', () => {
    expect(() => new ProxmoxClient({ baseUrl: 'https://pve.example.net:8006', ...token }).close()).not.toThrow();
    expect(() => new ProxmoxClient({ baseUrl: 'http://pve.example.net:8006', ...token })).toThrow(/must be https/);
    expect(() => new ProxmoxClient({ baseUrl: 'http://pve.example.net:8006', ...token, plaintextLab: false })).toThrow(/must be https/);
    expect(() => new ProxmoxClient({ baseUrl: 'http://pve.example.net:8006', ...token, plaintextLab: true }).close()).not.toThrow();
    expect(() => new ProxmoxClient({ baseUrl: 'ftp://pve.example.net', ...token, plaintextLab: true })).toThrow(/must be https/);
  });

  it('does not name the token secret when it refuses a URL', () => {
    const refusal = (() => {
      try {
        new ProxmoxClient({ baseUrl: 'http://pve.example.net:8006', ...token });
      } catch (error) {
        return (error as Error).message;
      }
      return '';
    })();
    expect(refusal).not.toContain(SIM_SECRET);
  });
});

describe('the size of an answer', () => {
  /** A server that answers every request with `bytes` of JSON, announcing its length or not. */
  let server: http.Server;
  let url = '';
  let announced = true;
  let bytes = 0;
  let written = 0;
  beforeAll(async () => {
    server = http.createServer((_req, res) => {
      const body = `{"data":"${'x'.repeat(Math.max(0, bytes - 11))}"}`;
      res.writeHead(200, { 'content-type': 'application/json', ...(announced ? { 'content-length': Buffer.byteLength(body) } : {}) });
      // Written in 64 KiB pieces, as a big answer arrives; counts how much got out before the client hung up.
      written = 0;
      const piece = 64 * 1024;
      const next = (offset: number): void => {
        if (offset >= body.length || res.destroyed) return void res.end();
        written += piece;
        if (res.write(body.slice(offset, offset + piece))) setImmediate(() => next(offset + piece));
        else res.once('drain', () => next(offset + piece));
      };
      next(0);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  const client = (maxResponseBytes?: number) => new ProxmoxClient({ baseUrl: url, ...token, plaintextLab: true, getRetries: 0, maxResponseBytes });

  it('caps answers at 8 MiB by default', () => {
    expect(DEFAULT_MAX_RESPONSE_BYTES).toBe(8 * 1024 * 1024);
  });

  it('reads an answer just under the cap', async () => {
    bytes = 1024 * 1024;
    const c = client(2 * 1024 * 1024);
    await expect(c.cluster.nodeStatus('pve1')).resolves.toHaveLength(1024 * 1024 - 11);
    c.close();
  });

  it.each([
    ['announced by Content-Length', true],
    ['streamed without a length', false],
  ])('refuses a larger answer %s as a protocol error, without reading it whole', async (_how, withLength) => {
    announced = withLength;
    bytes = DEFAULT_MAX_RESPONSE_BYTES * 2;
    const c = client();
    const error = await c.cluster.nodeStatus('pve1').catch((e: unknown) => e);
    c.close();
    expect(error).toBeInstanceOf(ProxmoxError);
    expect(error).toMatchObject({ kind: 'protocol', isTransient: false });
    expect((error as Error).message).toMatch(/larger than 8388608 bytes/);
    expect(written).toBeLessThan(bytes);
  });

  it('reads the guest listing under a cap of its own, sized for 50,000 guests', async () => {
    announced = true;
    expect(CLUSTER_RESOURCES_MAX_BYTES).toBe(MAX_LISTED_GUESTS * 1024);
    const c = client();
    bytes = DEFAULT_MAX_RESPONSE_BYTES * 2;
    await expect(c.guests.list()).resolves.toEqual([]);
    bytes = CLUSTER_RESOURCES_MAX_BYTES + 1024;
    await expect(c.guests.list()).rejects.toMatchObject({ kind: 'protocol', message: expect.stringContaining(`larger than ${CLUSTER_RESOURCES_MAX_BYTES} bytes`) });
    c.close();
  });

  it('treats a mutating call whose answer is too large as one whose outcome is unknown', async () => {
    announced = true;
    bytes = 4096;
    const c = client(1024);
    const error = await c.guests.start('pve1', 100).catch((e: unknown) => e);
    c.close();
    expect(error).toMatchObject({ kind: 'protocol', outcomeUnknown: true });
  });
});

describe('the cap against the simulator', () => {
  it('reads ordinary answers, and refuses them under a cap set too small', async () => {
    const sim = await startSim({}, { plaintextLab: true });
    try {
      expect((await sim.client.guests.list()).length).toBeGreaterThan(0);
      const tiny = new ProxmoxClient({ baseUrl: sim.server.url, ...token, plaintextLab: true, maxResponseBytes: 64, getRetries: 0 });
      await expect(tiny.cluster.identity()).rejects.toMatchObject({ kind: 'protocol' });
      tiny.close();
    } finally {
      await sim.close();
    }
  });

  it('reads a listing of 50,000 guests: each entry takes well under the 1 KiB per guest the cap allows', async () => {
    const sim = await startSim({}, { plaintextLab: true, timeoutMs: 30_000 });
    try {
      await sim.control('POST', '/guests', { count: MAX_LISTED_GUESTS, firstVmid: 100_000, status: 'running' });
      const listed = await sim.client.guests.list();
      expect(listed.filter((g) => g.vmid >= 100_000)).toHaveLength(MAX_LISTED_GUESTS);
      const answer = await sim.api('GET', '/cluster/resources', { type: 'vm' });
      expect(answer.text.length).toBeGreaterThan(DEFAULT_MAX_RESPONSE_BYTES);
      expect(answer.text.length / listed.length).toBeLessThan(CLUSTER_RESOURCES_MAX_BYTES / MAX_LISTED_GUESTS / 2);
    } finally {
      await sim.close();
    }
  });
});

describe('kept-alive connections', () => {
  /**
   * A server that, like pveproxy, keeps connections alive without announcing for how long
   * (no `Keep-Alive: timeout=` hint) and would close them after 5 s idle: it records when the
   * client hangs up first.
   */
  let server: http.Server;
  let url = '';
  const closedByClientAfterMs: number[] = [];
  beforeAll(async () => {
    server = http.createServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json', connection: 'keep-alive' });
      res.end('{"data":{"version":"9.2.3"}}');
      const answeredAt = Date.now();
      res.socket?.once('end', () => closedByClientAfterMs.push(Date.now() - answeredAt));
    });
    server.keepAliveTimeout = 0;
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it("are closed by the client once idle, before pveproxy's five seconds could close them under a call", async () => {
    const client = new ProxmoxClient({ baseUrl: url, ...token, plaintextLab: true });
    try {
      await client.cluster.version();
      await expect.poll(() => closedByClientAfterMs.length, { timeout: 6_000, interval: 100 }).toBe(1);
      expect(closedByClientAfterMs[0]).toBeLessThan(5_000);
    } finally {
      client.close();
    }
  });
});
