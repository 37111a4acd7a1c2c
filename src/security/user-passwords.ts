import { randomBytes, scrypt, type ScryptOptions, timingSafeEqual } from 'node:crypto';

/**
 * Sign-in passwords, hashed with scrypt (memory-hard, in Node's crypto). N = 2^17, r = 8, p = 1
 * are the minimum of OWASP's Password Storage Cheat Sheet: 128 MiB and about half a second per
 * hash on a small server, so guessing a stolen hash offline costs memory as well as time. They
 * are stored with each hash in the PHC string format (`$scrypt$ln=17,r=8,p=1$<salt>$<hash>`), so
 * a hash made with other parameters stays verifiable, and is made again with these at the next
 * successful sign-in (usesCurrentParameters).
 */
export const SCRYPT_PARAMETERS = { logN: 17, r: 8, p: 1 } as const;
export type ScryptParameters = { logN: number; r: number; p: number };
const KEY_LENGTH = 32;
const SALT_LENGTH = 16;
const PHC = /^\$scrypt\$ln=(\d{1,2}),r=(\d{1,2}),p=(\d{1,2})\$([A-Za-z0-9+/]+)\$([A-Za-z0-9+/]+)$/;

/** The shortest and longest password accepted; the cap bounds the work a single sign-in asks for. */
export const PASSWORD_MIN_LENGTH = 12;
export const PASSWORD_MAX_LENGTH = 256;

const b64 = (bytes: Buffer) => bytes.toString('base64').replace(/=+$/, '');

function derive(password: string, salt: Buffer, { logN, r, p }: ScryptParameters): Promise<Buffer> {
  const N = 2 ** logN;
  // scrypt needs 128 * N * r bytes; Node's default ceiling (32 MiB) leaves no room above that.
  const options: ScryptOptions = { N, r, p, maxmem: 256 * N * r };
  return new Promise((resolve, reject) => scrypt(password.normalize('NFC'), salt, KEY_LENGTH, options, (error, key) => (error ? reject(error) : resolve(key))));
}

/** The PHC string of `password` with a new salt; older parameters only to model hashes stored before a change. */
export async function hashUserPassword(password: string, parameters: ScryptParameters = SCRYPT_PARAMETERS): Promise<string> {
  const { logN, r, p } = parameters;
  const salt = randomBytes(SALT_LENGTH);
  const key = await derive(password, salt, parameters);
  return `$scrypt$ln=${logN},r=${r},p=${p}$${b64(salt)}$${b64(key)}`;
}

/** Whether a stored hash was made with today's parameters; one that was not is made again at the next successful sign-in. */
export function usesCurrentParameters(stored: string): boolean {
  const match = PHC.exec(stored);
  return match !== null && Number(match[1]) === SCRYPT_PARAMETERS.logN && Number(match[2]) === SCRYPT_PARAMETERS.r && Number(match[3]) === SCRYPT_PARAMETERS.p;
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
  const actual = await derive(password, Buffer.from(salt as string, 'base64'), { logN: Number(logN), r: Number(r), p: Number(p) });
  return stored != null && actual.length === expected.length && timingSafeEqual(actual, expected);
}
