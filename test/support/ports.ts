import net from 'node:net';
import { portIsFree } from '../../scripts/process-tree';

/** A TCP port that was free a moment ago on 127.0.0.1. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => (address && typeof address === 'object' ? resolve(address.port) : reject(new Error('no port'))));
    });
  });
}

/** A free port in [min, max), for services that cannot take one from the ephemeral range. */
export async function freePortIn(min: number, max: number): Promise<number> {
  for (let attempt = 0; attempt < 100; attempt++) {
    const port = min + Math.floor(Math.random() * (max - min));
    if (await portIsFree('127.0.0.1', port)) return port;
  }
  throw new Error(`no free port in ${min}..${max}`);
}
