import type { Config } from '../config';
import { AppError } from '../domain/errors';
import { counter, histogram } from '../metrics';
import { hashUserPassword, verifyUserPassword } from './user-passwords';

/**
 * The API's scrypt work, bounded. Node runs scrypt on libuv's thread pool (4 threads unless
 * UV_THREADPOOL_SIZE says otherwise), which file, DNS and other crypto work share, and each hash
 * takes 128 MiB: unbounded, a flood of sign-ins would stall everything else and exhaust memory.
 * At most PASSWORD_HASHING_CONCURRENCY hashes run at once; up to PASSWORD_HASHING_QUEUE more
 * wait their turn in order; beyond that a request answers 503 SERVICE_BUSY with Retry-After at
 * once and changes nothing.
 */

const hashDuration = histogram({
  name: 'password_hash_duration_seconds',
  help: 'scrypt work of the API by operation (hash a new password, verify one), from when it got its slot.',
  labelNames: ['operation'] as const,
  buckets: [0.05, 0.1, 0.25, 0.5, 1, 2, 4, 8],
});
// Both series exist from the start, so a dashboard sees zeros rather than nothing.
for (const operation of ['hash', 'verify'] as const) hashDuration.zero({ operation });

const hashingRefused = counter({
  name: 'password_hashing_refused_total',
  help: 'Requests answered 503 SERVICE_BUSY because every password hashing slot and queue place was taken.',
});

const busy = () => new AppError('SERVICE_BUSY', 'Too many passwords are being checked right now; nothing was changed. Please retry in a moment.', { retryAfterSeconds: 1 });

/** A counting semaphore with a bounded queue: work runs in its turn, or is refused when the queue is full. */
class HashingSlots {
  private running = 0;
  private readonly waiting: (() => void)[] = [];

  constructor(
    private readonly slots: number,
    private readonly queue: number,
  ) {}

  async run<T>(work: () => Promise<T>): Promise<T> {
    if (this.running < this.slots) {
      this.running++;
    } else if (this.waiting.length < this.queue) {
      // The finishing work hands its slot over, so `running` stays as it is.
      await new Promise<void>((resolve) => this.waiting.push(resolve));
    } else {
      hashingRefused.inc();
      throw busy();
    }
    try {
      return await work();
    } finally {
      const next = this.waiting.shift();
      if (next) next();
      else this.running--;
    }
  }
}

/** One bound per configuration, and so per API process: the thread pool is the process's. */
const slotsByConfig = new WeakMap<Config, HashingSlots>();

function slotsOf(config: Config): HashingSlots {
  let slots = slotsByConfig.get(config);
  if (!slots) {
    slots = new HashingSlots(config.PASSWORD_HASHING_CONCURRENCY, config.PASSWORD_HASHING_QUEUE);
    slotsByConfig.set(config, slots);
  }
  return slots;
}

function timed<T>(operation: 'hash' | 'verify', work: () => Promise<T>): () => Promise<T> {
  return async () => {
    const end = hashDuration.startTimer({ operation });
    try {
      return await work();
    } finally {
      end();
    }
  };
}

/** hashUserPassword in its turn (SERVICE_BUSY when none is left). */
export const hashPasswordBounded = (config: Config, password: string): Promise<string> => slotsOf(config).run(timed('hash', () => hashUserPassword(password)));

/** verifyUserPassword in its turn (SERVICE_BUSY when none is left). */
export const verifyPasswordBounded = (config: Config, password: string, stored: string | null | undefined): Promise<boolean> =>
  slotsOf(config).run(timed('verify', () => verifyUserPassword(password, stored)));
