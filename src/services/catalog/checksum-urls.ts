import http from 'node:http';
import https from 'node:https';
import { isIP } from 'node:net';
import type { Config } from '../../config';
import { AppError } from '../../domain/errors';
import { checksumFromList, imageFileName, type ImageChecksumAlgorithm } from '../../domain/image-sources';
import type { TargetPolicy } from '../../webhooks/policy';
import { assertPublic, bareHost, guardedLookup, WebhookTargetError } from '../../webhooks/targets';

/**
 * An image's checksum file (`SHA256SUMS` and the like), read by the control plane itself:
 * Proxmox VE's download-url takes a checksum, not a URL of one. The fetch is a request the service
 * makes to a URL someone typed, so it goes through the webhooks' guard (only globally reachable
 * addresses, checked on the address connected to) unless CHECKSUM_URL_ALLOW_PRIVATE_TARGETS says
 * otherwise, and it is bounded in time and size.
 */

/** The whole read, redirections included. */
const CHECKSUM_FILE_TIMEOUT_MS = 10_000;
/** Distributions' lists run to a few kilobytes; a megabyte is no checksum list. */
const CHECKSUM_FILE_MAX_BYTES = 1024 * 1024;
const MAX_REDIRECTS = 3;

export const checksumUrlPolicy = (config: Pick<Config, 'CHECKSUM_URL_ALLOW_PRIVATE_TARGETS'>): TargetPolicy => ({ allowHttp: true, allowPrivate: config.CHECKSUM_URL_ALLOW_PRIVATE_TARGETS });

const unreachable = (why: string) => new AppError('IMAGE_CHECKSUM_URL_UNREACHABLE', `The checksum file could not be read: ${why}.`, { fields: { 'source.checksumUrl': why } });
const refused = () =>
  new AppError('IMAGE_CHECKSUM_URL_REFUSED', 'The checksum URL points at a loopback, link-local, private or other special-purpose address.', { fields: { 'source.checksumUrl': 'not a public address' } });

/** GETs one URL: its body when it answers 200, where to go when it redirects; throws the stable codes otherwise. */
function get(url: URL, policy: TargetPolicy, deadline: number): Promise<{ body: string } | { location: URL }> {
  return new Promise((resolve, reject) => {
    if (url.protocol !== 'http:' && url.protocol !== 'https:') return reject(unreachable(`redirected to a ${url.protocol} URL`));
    try {
      // An IP literal is connected to without a lookup: check it here.
      if (isIP(bareHost(url))) assertPublic([bareHost(url)], policy);
    } catch {
      return reject(refused());
    }
    const request = (url.protocol === 'https:' ? https : http).get(url, { lookup: guardedLookup(policy), agent: false, headers: { accept: 'text/plain', 'user-agent': 'pvecp-images/1' } }, (response) => {
      const status = response.statusCode ?? 0;
      if (status >= 300 && status < 400 && response.headers.location) {
        response.resume();
        return settle(() => resolve({ location: new URL(response.headers.location as string, url) }));
      }
      if (status !== 200) {
        response.resume();
        return settle(() => reject(unreachable(`the server answered ${status}`)));
      }
      const chunks: Buffer[] = [];
      let size = 0;
      response.on('data', (chunk: Buffer) => {
        size += chunk.length;
        if (size > CHECKSUM_FILE_MAX_BYTES) return settle(() => reject(unreachable(`larger than ${CHECKSUM_FILE_MAX_BYTES} bytes`)));
        chunks.push(chunk);
      });
      response.on('end', () => settle(() => resolve({ body: Buffer.concat(chunks).toString('utf8') })));
      response.on('error', () => settle(() => reject(unreachable('the answer was cut off'))));
    });
    const timer = setTimeout(() => settle(() => reject(unreachable(`no complete answer within ${CHECKSUM_FILE_TIMEOUT_MS / 1000} s`))), Math.max(0, deadline - Date.now()));
    let settled = false;
    function settle(outcome: () => void) {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      outcome();
      request.destroy();
    }
    request.on('error', (error: NodeJS.ErrnoException) => settle(() => reject(error instanceof WebhookTargetError ? refused() : unreachable(`connection failed (${error.code ?? 'error'})`))));
  });
}

/** The text of a checksum file, redirections followed (each hop guarded alike). */
export async function readChecksumFile(checksumUrl: string, policy: TargetPolicy): Promise<string> {
  const deadline = Date.now() + CHECKSUM_FILE_TIMEOUT_MS;
  let url = new URL(checksumUrl);
  for (let hops = 0; ; hops++) {
    const answer = await get(url, policy, deadline);
    if ('body' in answer) return answer.body;
    if (hops === MAX_REDIRECTS) throw unreachable(`more than ${MAX_REDIRECTS} redirections`);
    url = answer.location;
  }
}

/** The checksum a checksum file lists for the image at `url` (by its file name); IMAGE_CHECKSUM_NOT_LISTED when it lists none. */
export async function listedChecksum(
  config: Pick<Config, 'CHECKSUM_URL_ALLOW_PRIVATE_TARGETS'>,
  source: { url: string; checksumUrl: string; checksumAlgorithm: ImageChecksumAlgorithm },
): Promise<string> {
  const text = await readChecksumFile(source.checksumUrl, checksumUrlPolicy(config));
  const filename = imageFileName(source.url);
  const checksum = checksumFromList(text, filename, source.checksumAlgorithm);
  if (!checksum) {
    throw new AppError('IMAGE_CHECKSUM_NOT_LISTED', `The checksum file lists no ${source.checksumAlgorithm} checksum of ${filename}.`, {
      fields: { 'source.checksumUrl': `does not list ${filename}` },
    });
  }
  return checksum;
}
