import { createHash, randomBytes } from 'node:crypto';

/**
 * SHA-512 crypt (`$6$`), the hash cloud-init's `passwd` and /etc/shadow take. Node's crypto has
 * no crypt(3), so this follows Ulrich Drepper's specification ("Unix crypt using SHA-256 and
 * SHA-512") on top of createHash('sha512').
 */

const ALPHABET = './0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
const DEFAULT_ROUNDS = 5000;
const SALT_LENGTH = 16;

/** The order in which the spec encodes the 64 digest bytes, three at a time. */
const BYTE_ORDER = [
  [0, 21, 42], [22, 43, 1], [44, 2, 23], [3, 24, 45], [25, 46, 4], [47, 5, 26], [6, 27, 48],
  [28, 49, 7], [50, 8, 29], [9, 30, 51], [31, 52, 10], [53, 11, 32], [12, 33, 54], [34, 55, 13],
  [56, 14, 35], [15, 36, 57], [37, 58, 16], [59, 17, 38], [18, 39, 60], [40, 61, 19], [62, 20, 41],
] as const;

const sha512 = (...parts: Buffer[]) => {
  const hash = createHash('sha512');
  for (const part of parts) hash.update(part);
  return hash.digest();
};

/** `length` bytes of `block` repeated. */
const repeatTo = (block: Buffer, length: number) => Buffer.concat(Array.from({ length: Math.ceil(length / block.length) }, () => block)).subarray(0, length);

function encode(bytes: number[], chars: number): string {
  let word = bytes.reduce((acc, byte) => (acc << 8) | byte, 0);
  let out = '';
  for (let i = 0; i < chars; i++) {
    out += ALPHABET[word & 0x3f];
    word >>>= 6;
  }
  return out;
}

/** The `$6$salt$hash` of a password; a random 16-character salt unless one is given (tests). */
export function sha512Crypt(password: string, salt?: string): string {
  const saltText = (salt ?? Array.from(randomBytes(SALT_LENGTH), (byte) => ALPHABET[byte & 0x3f]).join('')).slice(0, SALT_LENGTH);
  const P = Buffer.from(password, 'utf8');
  const S = Buffer.from(saltText, 'utf8');
  const B = sha512(P, S, P);
  const a = createHash('sha512').update(P).update(S).update(repeatTo(B, P.length));
  for (let i = P.length; i > 0; i >>= 1) a.update(i & 1 ? B : P);
  const A = a.digest();
  const pSequence = repeatTo(sha512(...Array.from({ length: P.length }, () => P)), P.length);
  const sSequence = repeatTo(sha512(...Array.from({ length: 16 + (A[0] as number) }, () => S)), S.length);
  let C = A;
  for (let round = 0; round < DEFAULT_ROUNDS; round++) {
    const h = createHash('sha512');
    h.update(round & 1 ? pSequence : C);
    if (round % 3) h.update(sSequence);
    if (round % 7) h.update(pSequence);
    h.update(round & 1 ? C : pSequence);
    C = h.digest();
  }
  const digest = BYTE_ORDER.map((triple) => encode(triple.map((i) => C[i] as number), 4)).join('') + encode([C[63] as number], 2);
  return `$6$${saltText}$${digest}`;
}
