import {
  type ConnectionWithNodes,
  findConnection,
  findConnections,
  insertConnection,
  lockConnection,
  type NodeSpec,
  readConnection,
  updateConnectionRow,
} from '../../db/catalog-connections';
import type { PageArgs } from '../../db/pages';
import { moveVmidRange } from '../../db/reservations';
import { AppError, notFound } from '../../domain/errors';
import type { ProxmoxConnection } from '../../generated/prisma/client';
import type { ClusterIdentity } from '../../proxmox';
import type { SecretBox } from '../../security/secrets';
import { newId } from '../../security/ids';
import { upsertConnectionSchedules } from '../../temporal/schedules';
import type { ServiceDeps } from '../deps';
import { asBody, audit, createRow, updateRow } from './changes';
import { assertNoVmidOverlap, assertPrivileges, assertSnippetsVisible, identifyCluster, savedIdentity, savedTarget } from './cluster-identity';
import { clusterFirewallWarnings, type ConnectionWarning } from './connection-health';

/** A connection as saved, with what the answer warns of (the cluster's firewall switch). */
export type SavedConnection = ConnectionWithNodes & { warnings: ConnectionWarning[] };

/**
 * Proxmox VE connections: how the control plane reaches a cluster. The token secret is sealed
 * with the connection id as associated data and never returned. Settings are saved only once
 * Proxmox answered them (cluster-identity.ts).
 */

export type ConnectionDeps = Pick<ServiceDeps, 'db' | 'temporal' | 'config' | 'logger' | 'secrets'>;

/** Where custom cloud-init user data goes: written through `directory`, or (not supported yet) over SSH. */
export interface SnippetsSpec {
  storage: string;
  directory?: string;
  ssh?: { user: string; privateKey: string; directory: string };
}

export interface ConsoleUserSpec {
  username: string;
  password: string;
}

export interface ConnectionSpec {
  name: string;
  url: string;
  tokenId: string;
  tokenSecret: string;
  vmidRange: VmidRange;
  nodes: NodeSpec[];
  storage?: string;
  snippets?: SnippetsSpec;
  caCert?: string;
  insecureTls?: boolean;
  plaintextLab?: boolean;
  consoleUser?: ConsoleUserSpec;
}

/** `null` clears `caCert`, `snippets` and `consoleUser`; `force` saves settings that reach another cluster. */
export interface ConnectionChange {
  name?: string;
  url?: string;
  tokenId?: string;
  tokenSecret?: string;
  caCert?: string | null;
  insecureTls?: boolean;
  plaintextLab?: boolean;
  storage?: string;
  snippets?: SnippetsSpec | null;
  consoleUser?: ConsoleUserSpec | null;
  archived?: boolean;
  force?: boolean;
}

/** The VMIDs a connection may hand out, both ends included. */
export type VmidRange = { start: number; end: number };

/** The saved snippets setting. */
export const snippetsOf = (connection: ProxmoxConnection): { storage: string; directory: string } | null =>
  connection.snippetsStorage && connection.snippetsDirectory ? { storage: connection.snippetsStorage, directory: connection.snippetsDirectory } : null;

/** The saved console user, without its password. */
export const consoleUserOf = (connection: ProxmoxConnection): { username: string } | null => (connection.consoleUsername ? { username: connection.consoleUsername } : null);

/**
 * The snippets storage of a connection as the workers write it, through its directory mounted
 * where they run (assertSnippetsVisible then asks Proxmox); writing over SSH is modelled but not
 * supported yet.
 */
function writableSnippets(snippets: SnippetsSpec | null | undefined): { storage: string; directory: string } | null {
  if (!snippets) return null;
  if (snippets.ssh || snippets.directory === undefined) {
    throw new AppError('UNSUPPORTED', 'Writing snippets over SSH is not supported yet; mount the snippets storage on the control plane and name its directory.', {
      fields: { 'snippets.ssh': 'not supported yet' },
    });
  }
  return { storage: snippets.storage, directory: snippets.directory };
}

const snippetsColumns = (snippets: SnippetsSpec | null | undefined) =>
  snippets === undefined ? {} : { snippetsStorage: snippets?.storage ?? null, snippetsDirectory: snippets?.directory ?? null };

/** The console user's columns, its password sealed like the token secret (the connection id as associated data). */
const consoleUserColumns = (secrets: SecretBox, consoleUser: ConsoleUserSpec | null | undefined, id: string) =>
  consoleUser === undefined
    ? {}
    : { consoleUsername: consoleUser?.username ?? null, consoleUserPasswordCipher: consoleUser ? secrets.seal(consoleUser.password, id) : null };

/** Every connection, or only the archived (true) or current (false) ones, with their nodes. */
export const listConnections = (deps: Pick<ServiceDeps, 'db'>, page: PageArgs, archived?: boolean): Promise<ConnectionWithNodes[]> => findConnections(deps.db, page, archived);

/**
 * Before anything is saved, Proxmox must answer the token and name its cluster, and no other
 * connection to that cluster may use an overlapping VMID range. The connection's reconciler
 * starts once it is saved. A cluster whose firewall is off is warned of, not refused.
 */
export async function createConnection(deps: ConnectionDeps, actorUserId: string, spec: ConnectionSpec): Promise<SavedConnection> {
  const snippets = writableSnippets(spec.snippets);
  const target = { ...spec, insecureTls: spec.insecureTls ?? deps.config.PROXMOX_INSECURE_TLS_DEFAULT };
  const storages = { storage: spec.storage ?? 'local-lvm', snippetsStorage: spec.snippets?.storage };
  const identity = await identifyCluster(target, storages);
  await assertPrivileges(target, storages);
  await assertNoVmidOverlap(deps, identity, spec.vmidRange);
  if (snippets) await assertSnippetsVisible(deps, target, spec.nodes.map((n) => n.name), snippets);
  const created = await createRow(deps, ['connection'], async (tx) => {
    const id = newId('conn');
    const connection = await insertConnection(
      tx,
      {
        id,
        name: spec.name,
        url: spec.url,
        tokenId: spec.tokenId,
        tokenSecretCipher: deps.secrets.seal(spec.tokenSecret, id),
        caCert: spec.caCert ?? null,
        insecureTls: target.insecureTls,
        plaintextLab: spec.plaintextLab ?? false,
        clusterName: identity.clusterName,
        ...(spec.storage ? { storage: spec.storage } : {}),
        ...snippetsColumns(spec.snippets),
        ...consoleUserColumns(deps.secrets, spec.consoleUser, id),
        vmidStart: spec.vmidRange.start,
        vmidEnd: spec.vmidRange.end,
      },
      spec.nodes,
    );
    await audit(tx, actorUserId, 'connection.created', { connectionId: id, name: connection.name });
    return connection;
  });
  // Should Temporal be away, the next worker start sets the schedule up.
  await upsertConnectionSchedules(deps.temporal, deps.config, created.id).catch((error: unknown) =>
    deps.logger.warn({ err: error, connectionId: created.id }, 'could not create the reconcile and traffic schedules'),
  );
  return { ...created, warnings: await clusterFirewallWarnings(target) };
}

/**
 * What Proxmox says about changed settings, before the update's transaction: new URL, token or
 * TLS settings must reach the cluster the connection was made for (unless `force`: then that
 * cluster's VMIDs must not overlap another connection's there), the token must hold the
 * privileges, and the snippets directory must be seen. The identity read, when one was.
 */
async function checkChange(deps: ConnectionDeps, id: string, change: ConnectionChange): Promise<ClusterIdentity | undefined> {
  const connection = await findConnection(deps.db, id);
  if (!connection) throw notFound('connection');
  const snippets = writableSnippets(change.snippets);
  const target = {
    url: change.url ?? connection.url,
    tokenId: change.tokenId ?? connection.tokenId,
    tokenSecret: change.tokenSecret ?? deps.secrets.open(connection.tokenSecretCipher, connection.id),
    caCert: change.caCert === undefined ? connection.caCert : change.caCert,
    insecureTls: change.insecureTls ?? connection.insecureTls,
    plaintextLab: change.plaintextLab ?? connection.plaintextLab,
  };
  if (!target.plaintextLab && !target.url.startsWith('https:')) {
    throw new AppError('INVALID_INPUT', 'The request body is invalid.', { fields: { url: 'must be https (set plaintextLab for a plaintext lab endpoint)' } });
  }
  const storages = {
    storage: change.storage ?? connection.storage,
    snippetsStorage: change.snippets === undefined ? connection.snippetsStorage : change.snippets?.storage,
  };
  const reach = ['url', 'tokenId', 'tokenSecret', 'caCert', 'insecureTls', 'plaintextLab'] as const;
  const identity = reach.some((key) => change[key] !== undefined) ? await identifyCluster(target, storages) : undefined;
  if (identity && connection.clusterName !== null && identity.clusterName !== connection.clusterName) {
    if (!change.force) {
      throw new AppError('CONFLICT', 'These settings reach another cluster than the one this connection was made for; send force: true to switch clusters.', {
        recordedClusterName: connection.clusterName,
        clusterName: identity.clusterName,
      });
    }
    await assertNoVmidOverlap(deps, identity, { start: connection.vmidStart, end: connection.vmidEnd }, id);
  }
  if (identity || change.storage !== undefined || change.snippets !== undefined) await assertPrivileges(target, storages);
  if (snippets) await assertSnippetsVisible(deps, target, connection.nodes.map((n) => n.name), snippets);
  return identity;
}

/**
 * New URL, token or TLS settings are saved only once Proxmox answered GET /cluster/status with
 * them, and only for the cluster the connection was made for (unless `force`: then the new
 * cluster's name is recorded). Workers build a new Proxmox client for the changed row on their
 * next call. A cluster whose firewall is off is warned of, not refused.
 */
export async function updateConnection(deps: ConnectionDeps, actorUserId: string, id: string, change: ConnectionChange): Promise<SavedConnection> {
  const identity = await checkChange(deps, id, change);
  const updated = await updateRow(deps, actorUserId, id, change, {
    duplicate: ['connection'],
    lock: lockConnection,
    noun: 'connection',
    action: 'connection.updated',
    subject: 'connectionId',
    apply: (tx, { fields: { tokenSecret, snippets, consoleUser, force: _force, ...fields }, archive }) =>
      updateConnectionRow(tx, id, {
        ...fields,
        ...(tokenSecret !== undefined ? { tokenSecretCipher: deps.secrets.seal(tokenSecret, id) } : {}),
        ...(identity ? { clusterName: identity.clusterName } : {}),
        ...snippetsColumns(snippets),
        ...consoleUserColumns(deps.secrets, consoleUser, id),
        ...archive,
      }),
    asBody: (connection) => ({ ...asBody(connection), tokenSecret: undefined, snippets: snippetsOf(connection), consoleUser: consoleUserOf(connection) }),
    moreDetails: (connection) =>
      identity && identity.clusterName !== connection.clusterName ? { clusterName: { before: connection.clusterName, after: identity.clusterName } } : {},
  });
  return { ...updated, warnings: await clusterFirewallWarnings(savedTarget(deps, updated)) };
}

/**
 * A connection's VMID range moves under the connection's row lock: it may not reach VMIDs
 * another connection to the same cluster uses, and may leave out free VMIDs only.
 */
export async function moveConnectionVmidRange(deps: ConnectionDeps, actorUserId: string, id: string, range: VmidRange): Promise<ConnectionWithNodes> {
  const connection = await findConnection(deps.db, id);
  if (!connection) throw notFound('connection');
  await assertNoVmidOverlap(deps, await savedIdentity(deps, connection), range, id);
  return deps.db.$transaction(async (tx) => {
    const current = await lockConnection(tx, id);
    if (!current) throw notFound('connection');
    const { rowsRemoved } = await moveVmidRange(tx, id, range);
    await audit(tx, actorUserId, 'connection.vmid_range_changed', {
      connectionId: id,
      before: { start: current.vmidStart, end: current.vmidEnd },
      after: range,
      freeRowsRemoved: rowsRemoved,
    });
    return readConnection(tx, id);
  });
}
