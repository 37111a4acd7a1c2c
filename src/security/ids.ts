import { randomBytes } from 'node:crypto';

export type IdPrefix = 'inst' | 'task' | 'ten' | 'usr' | 'tok' | 'plan' | 'loc' | 'img' | 'tpl' | 'conn' | 'node' | 'pool' | 'ip' | 'vmid' | 'vol' | 'cred' | 'op' | 'alloc' | 'idem' | 'evt' | 'orph' | 'whk' | 'whd' | 'sse' | 'chk' | 'ses' | 'inv' | 'snap' | 'bkp' | 'cons' | 'plc' | 'fwg' | 'job' | 'imv' | 'imb' | 'iso' | 'isoc' | 'grt' | 'prj' | 'sshk';

const ALPHABET = '0123456789abcdefghijklmnopqrstuvwxyz';

/** Opaque prefixed id with 120 random bits, e.g. `inst_3kq0...`. */
export function newId(prefix: IdPrefix): string {
  const bytes = randomBytes(24);
  let body = '';
  for (const byte of bytes) body += ALPHABET[byte % 36];
  return `${prefix}_${body}`;
}
