import net from 'node:net';

export interface TcpRelay {
  /** `url` with its host and port replaced by the relay's. */
  via(url: string): string;
  /** Destroys every relayed connection and refuses new ones, like a database that went away. */
  cut(): void;
  /** Relays new connections again. */
  restore(): void;
  close(): Promise<void>;
}

/** A TCP relay on loopback to `target` (e.g. PostgreSQL), which a test can cut and restore. */
export async function startTcpRelay(target: { host: string; port: number }): Promise<TcpRelay> {
  const open = new Set<net.Socket>();
  let relaying = true;
  const server = net.createServer((client) => {
    if (!relaying) {
      client.destroy();
      return;
    }
    const upstream = net.connect(target.port, target.host);
    const end = () => {
      client.destroy();
      upstream.destroy();
      open.delete(client);
      open.delete(upstream);
    };
    for (const socket of [client, upstream]) {
      open.add(socket);
      socket.on('error', end).on('close', end);
    }
    client.pipe(upstream).pipe(client);
  });
  await new Promise<void>((resolve, reject) => server.once('error', reject).listen(0, '127.0.0.1', () => resolve()));
  const { port } = server.address() as net.AddressInfo;
  const cut = () => {
    relaying = false;
    for (const socket of open) socket.destroy();
    open.clear();
  };
  return {
    via(url) {
      const relayed = new URL(url);
      relayed.hostname = '127.0.0.1';
      relayed.port = String(port);
      return relayed.toString();
    },
    cut,
    restore() {
      relaying = true;
    },
    async close() {
      cut();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
