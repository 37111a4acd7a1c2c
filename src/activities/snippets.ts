import { randomBytes } from 'node:crypto';
import { readdir, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Db } from '../db/client';
import type { ProxmoxConnection } from '../generated/prisma/client';
import { fail, FailureType } from './failures';

/**
 * Custom cloud-init user data reaches a guest only as a file on a snippets storage
 * (`cicustom: user=<storage>:snippets/<file>`), which the Proxmox API cannot upload. The control
 * plane writes the file into that storage's snippets directory, mounted where the workers run.
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

/** Writes the file whole or not at all (a temporary file renamed over it), readable by its owner only: it holds a password hash. */
export async function writeSnippet(target: SnippetsTarget, instanceId: string, text: string): Promise<void> {
  const file = path.join(target.directory, snippetFileName(instanceId));
  const temporary = path.join(target.directory, `.${snippetFileName(instanceId)}.${randomBytes(4).toString('hex')}`);
  await writeFile(temporary, text, { mode: 0o600 });
  try {
    await rename(temporary, file);
  } catch (error) {
    await rm(temporary, { force: true });
    throw error;
  }
}

/** Removes the instance's file; a missing file (or a connection without snippets) is nothing to do. */
export async function removeSnippet(connection: ProxmoxConnection, instanceId: string): Promise<void> {
  if (!connection.snippetsDirectory) return;
  await rm(path.join(connection.snippetsDirectory, snippetFileName(instanceId)), { force: true });
}

const SNIPPET_FILE = /^pvecp-(inst_[A-Za-z0-9_-]+)\.yaml$/;

/**
 * Snippets whose server is gone (deleted, or failed with nothing left to boot) — e.g. left by a
 * parked removal an operator resolved by hand — are removed. Files of instances this database does
 * not know are left alone: another installation may share the storage.
 */
export async function sweepSnippets(db: Db): Promise<number> {
  const connections = await db.proxmoxConnection.findMany({ where: { snippetsDirectory: { not: null } }, select: { snippetsDirectory: true } });
  let removed = 0;
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
      removed++;
    }
  }
  return removed;
}
