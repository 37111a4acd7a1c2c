import { rm } from 'node:fs/promises';
import path from 'node:path';
import { ProxmoxError } from '../proxmox';
import { proxmoxClientOf, type ProxmoxReach } from '../proxmox/factory';
import type { ActivityDeps } from './deps';
import { waitUntilListed, writeSnippetFile } from './snippets';

/** A connection's snippets setting, to be checked before it is saved (the connection may not exist yet). */
export interface SnippetsCheckInput {
  /** The check's own id: it names the probe file, and the token secret is sealed to it. */
  checkId: string;
  proxmox: ProxmoxReach & { tokenSecretCipher: string };
  /** Every node of the connection: servers with user data may be placed on any of them. */
  nodes: string[];
  storage: string;
  /** Where the workers write, the storage's snippets directory as mounted here. */
  directory: string;
  waitSeconds: number;
}

export type SnippetsVerdict =
  | { verdict: 'visible'; shared: boolean }
  /** The setting names what is not there: `fields` as an input error says it. */
  | { verdict: 'invalid'; fields: Record<string, string> }
  /** What each node that does not see the probe says, or why it was not asked. */
  | { verdict: 'not_visible'; shared: boolean; nodes: Record<string, string> };

export const probeFileName = (checkId: string) => `pvecp-probe-${checkId}.yaml`;

const PROBE_TEXT = '#cloud-config\n# written by pvecp to check that Proxmox VE sees this directory; removed at once\n';

/** The file system refused the directory itself (missing, not a directory, not writable). */
const isDirectoryRefusal = (error: unknown) => ['ENOENT', 'ENOTDIR', 'EACCES', 'EPERM', 'EROFS'].includes((error as NodeJS.ErrnoException).code ?? '');

/** A node that cannot be asked counts as not seeing the file, with Proxmox's words; anything else fails the attempt. */
const unanswered = (what: string) => (error: unknown) => {
  if (error instanceof ProxmoxError) return { unanswered: `Proxmox VE did not list ${what}: ${error.message}` };
  throw error;
};

/**
 * Whether Proxmox sees what the workers write to a snippets directory: the storage must take
 * snippets and be available on every node of the connection, and a probe file written here must
 * show in every node's own listing within the wait.
 * Converges on retry: the probe's name comes from the check's id, so an attempt rewrites the same file, and every attempt deletes it.
 */
export function createCheckSnippetsStorageActivity(deps: ActivityDeps) {
  return async function checkSnippetsStorage(input: SnippetsCheckInput): Promise<SnippetsVerdict> {
    const { storage, directory, nodes, waitSeconds } = input;
    const client = proxmoxClientOf(input.proxmox, deps.secrets.open(input.proxmox.tokenSecretCipher, input.checkId), 5_000);
    try {
      const listings = await Promise.all(
        nodes.map((node) => client.storage.list(node).then((all) => ({ entry: all.find((s) => s.storage === storage) }), unanswered('the storages of this node'))),
      );
      const entries = listings.flatMap((listing) => ('entry' in listing && listing.entry ? [listing.entry] : []));
      if (entries.length === 0 && listings.every((listing) => 'entry' in listing)) {
        return { verdict: 'invalid', fields: { 'snippets.storage': `no storage ${storage} on ${nodes.join(', ')}` } };
      }
      if (entries.some((entry) => !entry.content?.split(',').includes('snippets'))) {
        return { verdict: 'invalid', fields: { 'snippets.storage': `storage ${storage} does not take content type snippets` } };
      }
      const shared = entries.length > 0 && entries.every((entry) => entry.shared === 1);
      const unavailable = listings.flatMap((listing, i) => {
        const node = nodes[i] as string;
        if ('unanswered' in listing) return [[node, listing.unanswered]];
        if (!listing.entry || listing.entry.enabled === 0) return [[node, `storage ${storage} is not available on this node`]];
        return listing.entry.active === 0 ? [[node, `storage ${storage} is not active on this node`]] : [];
      });
      if (unavailable.length > 0) return { verdict: 'not_visible', shared, nodes: Object.fromEntries(unavailable) };

      const probe = probeFileName(input.checkId);
      try {
        await writeSnippetFile(directory, probe, PROBE_TEXT);
      } catch (error) {
        if (isDirectoryRefusal(error)) return { verdict: 'invalid', fields: { 'snippets.directory': 'not a writable directory on the control plane' } };
        throw error;
      }
      try {
        const looks = await Promise.all(
          nodes.map((node) => waitUntilListed(client, node, storage, probe, waitSeconds).then((seen) => ({ seen }), unanswered("the storage's snippets"))),
        );
        const unseen = looks.flatMap((look, i) => {
          const node = nodes[i] as string;
          if ('unanswered' in look) return [[node, look.unanswered]];
          return look.seen ? [] : [[node, `a file written to ${directory} is not listed here after ${waitSeconds} s`]];
        });
        return unseen.length > 0 ? { verdict: 'not_visible', shared, nodes: Object.fromEntries(unseen) } : { verdict: 'visible', shared };
      } finally {
        await rm(path.join(directory, probe), { force: true });
      }
    } finally {
      client.close();
    }
  };
}
