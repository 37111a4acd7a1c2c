import { randomBytes, scrypt, type ScryptOptions, timingSafeEqual } from 'node:crypto';

/**
 * Sign-in passwords, hashed with scrypt (memory-hard, in Node's crypto). N = 2^15, r = 8, p = 1
 * are the interactive-sign-in parameters of scrypt's author and Go's x/crypto: 32 MiB and a
 * few tenths of a second per hash on a small server, so guessing offline costs memory as well
 * as time while a sign-in stays quick. They are stored with each hash in the PHC string format
 * (`$scrypt$ln=15,r=8,p=1$<salt>$<hash>`), so raising them later leaves older hashes verifiable.
 */
export const SCRYPT_PARAMETERS = { logN: 15, r: 8, p: 1 } as const;
const KEY_LENGTH = 32;
const SALT_LENGTH = 16;
const PHC = /^\$scrypt\$ln=(\d{1,2}),r=(\d{1,2}),p=(\d{1,2})\$([A-Za-z0-9+/]+)\$([A-Za-z0-9+/]+)$/;

/** The shortest and longest password accepted; the cap bounds the work a single sign-in asks for. */
export const PASSWORD_MIN_LENGTH = 12;
export const PASSWORD_MAX_LENGTH = 256;

const b64 = (bytes: Buffer) => bytes.toString('base64').replace(/=+$/, '');

function derive(password: string, salt: Buffer, logN: number, r: number, p: number): Promise<Buffer> {
  const N = 2 ** logN;
  // scrypt needs 128 * N * r bytes; Node's default ceiling (32 MiB) leaves no room above that.
  const options: ScryptOptions = { N, r, p, maxmem: 256 * N * r };
  return new Promise((resolve, reject) => scrypt(password.normalize('NFC'), salt, KEY_LENGTH, options, (error, key) => (error ? reject(error) : resolve(key))));
}

export async function hashUserPassword(password: string): Promise<string> {
  const { logN, r, p } = SCRYPT_PARAMETERS;
  const salt = randomBytes(SALT_LENGTH);
  const key = await derive(password, salt, logN, r, p);
  return `$scrypt$ln=${logN},r=${r},p=${p}$${b64(salt)}$${b64(key)}`;
}

/** A hash of no one's password: checked when the account is unknown, so that answer takes as long as a wrong password. */
let decoy: Promise<string> | undefined;

/**
 * Whether `password` matches `stored`. Without a stored hash (an unknown account, or a user who
 * has not set a password yet) a decoy is checked, so every refusal takes the same time.
 */
export async function verifyUserPassword(password: string, stored: string | null | undefined): Promise<boolean> {
  decoy ??= hashUserPassword(randomBytes(16).toString('hex'));
  const match = PHC.exec(stored ?? (await decoy));
  if (!match) return false;
  const [, logN, r, p, salt, hash] = match;
  const expected = Buffer.from(hash as string, 'base64');
  const actual = await derive(password, Buffer.from(salt as string, 'base64'), Number(logN), Number(r), Number(p));
  return stored != null && actual.length === expected.length && timingSafeEqual(actual, expected);
}
