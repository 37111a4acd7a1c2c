import { randomBytes } from 'node:crypto';
import { open, readdir, rename, rm } from 'node:fs/promises';
import path from 'node:path';
import type { Db } from '../db/client';
import type { ProxmoxConnection } from '../generated/prisma/client';
import type { ProxmoxClient } from '../proxmox';
import { delay } from '../proxmox/delay';
import { heartbeatOfThisActivity } from './context';
import { fail, FailureType } from './failures';

/**
 * Custom cloud-init user data reaches a guest only as a file on a snippets storage
 * (`cicustom: user=<storage>:snippets/<file>`), which the Proxmox API cannot upload. The control
 * plane writes the file into that storage's snippets directory, mounted where the workers run,
 * and then asks Proxmox whether it sees the file.
 */

export interface SnippetsTarget {
  storage: string;
  directory: string;
}

/** The connection's snippets storage; a server with userData on a connection without one cannot be made. */
export function snippetsOf(connection: ProxmoxConnection): SnippetsTarget {
  if (!connection.snippetsStorage || !connection.snippetsDirectory) {
    throw fail(FailureType.InconsistentState, `connection ${connection.id} has no snippets storage for custom user data`, { connectionId: connection.id });
  }
  return { storage: connection.snippetsStorage, directory: connection.snippetsDirectory };
}

export const snippetFileName = (instanceId: string) => `pvecp-${instanceId}.yaml`;

/** The `cicustom` value that points the guest at its file. */
export const cicustomFor = (target: SnippetsTarget, instanceId: string) => `user=${target.storage}:snippets/${snippetFileName(instanceId)}`;

/** Proxmox reads snippets as root, which an NFS export with root squash maps to nobody: the file must be readable by all. */
const SNIPPET_FILE_MODE = 0o644;

/**
 * Writes a file into a snippets directory whole or not at all: a hidden temporary file (Proxmox
 * lists no hidden files), synced and renamed over it. Its mode is set after the write, so the
 * process's umask cannot take the read bits away.
 */
export async function writeSnippetFile(directory: string, name: string, text: string): Promise<void> {
  const temporary = path.join(directory, `.${name}.${randomBytes(4).toString('hex')}`);
  try {
    const file = await open(temporary, 'wx', SNIPPET_FILE_MODE);
    try {
      await file.writeFile(text);
      await file.chmod(SNIPPET_FILE_MODE);
      await file.sync();
    } finally {
      await file.close();
    }
    await rename(temporary, path.join(directory, name));
  } catch (error) {
    await rm(temporary, { force: true });
    throw error;
  }
}

export const writeSnippet = (target: SnippetsTarget, instanceId: string, text: string) => writeSnippetFile(target.directory, snippetFileName(instanceId), text);

/** How often a node's listing is read while waiting for a file to show. */
const LISTING_POLL_MS = 500;

/**
 * Whether the node lists the file on the storage (`GET …/content?content=snippets`, which the
 * node answers from its own mount) within `waitSeconds`: a shared storage may show a new file
 * late (NFS clients cache directory listings). Heartbeats while it waits.
 */
export async function waitUntilListed(client: ProxmoxClient, node: string, storage: string, name: string, waitSeconds: number): Promise<boolean> {
  const volid = `${storage}:snippets/${name}`;
  const deadline = Date.now() + waitSeconds * 1000;
  const beat = heartbeatOfThisActivity();
  for (;;) {
    if ((await client.storage.snippets(node, storage)).some((volume) => volume.volid === volid)) return true;
    const left = deadline - Date.now();
    if (left <= 0) return false;
    beat({ waitingFor: volid, node });
    await delay(Math.min(LISTING_POLL_MS, left));
  }
}

/**
 * Writes the instance's snippet and waits until Proxmox lists it on the guest's node; a file the
 * node never shows fails the stage (SNIPPETS_NOT_VISIBLE) before `cicustom` names it.
 */
export async function writeVisibleSnippet(client: ProxmoxClient, node: string, target: SnippetsTarget, instanceId: string, text: string, waitSeconds: number): Promise<void> {
  await writeSnippet(target, instanceId, text);
  if (!(await waitUntilListed(client, node, target.storage, snippetFileName(instanceId), waitSeconds))) {
    throw fail(FailureType.SnippetsNotVisible, `Proxmox VE on ${node} does not list ${snippetFileName(instanceId)} on storage ${target.storage} ${waitSeconds} s after it was written to ${target.directory}`, {
      node,
      storage: target.storage,
      directory: target.directory,
    });
  }
}

/** Deletes the instance's file; a missing file (or a connection without snippets) is nothing to do. */
export async function deleteSnippet(connection: ProxmoxConnection, instanceId: string): Promise<void> {
  if (!connection.snippetsDirectory) return;
  await rm(path.join(connection.snippetsDirectory, snippetFileName(instanceId)), { force: true });
}

const SNIPPET_FILE = /^pvecp-(inst_[A-Za-z0-9_-]+)\.yaml$/;

/**
 * Snippets whose server is gone (deleted, or failed with nothing left to boot) — e.g. left by a
 * parked destroy an operator resolved by hand — are deleted. Files of instances this database does
 * not know are left alone: another installation may share the storage.
 */
export async function sweepSnippets(db: Db): Promise<number> {
  const connections = await db.proxmoxConnection.findMany({ where: { snippetsDirectory: { not: null } }, select: { snippetsDirectory: true } });
  let deleted = 0;
  for (const { snippetsDirectory } of connections) {
    const directory = snippetsDirectory as string;
    const files = await readdir(directory).catch(() => [] as string[]);
    const byInstance = new Map(files.flatMap((name) => {
      const id = SNIPPET_FILE.exec(name)?.[1];
      return id ? [[id, name] as const] : [];
    }));
    if (byInstance.size === 0) continue;
    const gone = await db.instance.findMany({ where: { id: { in: [...byInstance.keys()] }, status: { in: ['deleted', 'failed'] } }, select: { id: true } });
    for (const { id } of gone) {
      await rm(path.join(directory, byInstance.get(id) as string), { force: true });
      deleted++;
    }
  }
  return deleted;
}
