/**
 * The Proxmox API calls the simulator implements, one table per area, each call handed to the
 * module of its area.
 */
import type { ServerResponse } from 'node:http';
import { delay } from '../proxmox/delay';
import type { AccessControl } from './access';
import { SimHttpError, type CallContext } from './call';
import type { SimCluster } from './cluster';
import { clusterStatus, poolList, resources } from './cluster-reads';
import type { FaultRegistry } from './faults';
import { resize, setConfig } from './guest-config';
import { clone, destroy, migrate, reboot, shutdown, start, stop } from './guest-operations';
import { agentPing, getConfig, getPending, qemuList, vmStatus } from './guest-reads';
import { convertToTemplate, createGuest } from './guest-create';
import { downloadUrl, urlMetadata } from './downloads';
import { guestRrdData } from './guest-metrics';
import { openConsole } from './consoles';
import * as firewall from './firewall';
import { networkList, nodeList, nodeStatus } from './nodes';
import type { PveSchema } from './schema';
import { restore, updateBackupVolume, vzdump } from './backups';
import { deleteSnapshot, rollbackSnapshot, setSnapshotDescription, snapshotConfig, snapshotList, takeSnapshot } from './snapshots';
import { storageContent, storageList } from './storage';
import { taskList, taskLog, taskStatus } from './task-reads';
import { deleteVolume, volumeInfo } from './volumes';

export interface RecordedRequest {
  method: string;
  /** Path below /api2/json, e.g. /nodes/pve1/qemu/9000/clone */
  path: string;
  template: string;
  params: Record<string, string>;
}

export interface ApiContext {
  cluster: SimCluster;
  faults: FaultRegistry;
  schema: () => PveSchema;
  access: AccessControl;
  authFailDelayMs: () => number;
  calls: Map<string, number>;
  requests: RecordedRequest[];
  maxRecordedRequests: number;
  held: Set<ServerResponse>;
}

interface HandlerInput {
  ctx: CallContext;
  node: string;
  vmid: number;
  pathParams: Record<string, string>;
  params: Record<string, string>;
  api: ApiContext;
}

type Handler = (i: HandlerInput) => unknown;

const Q = '/nodes/{node}/qemu/{vmid}';
const S = `${Q}/snapshot/{snapname}`;
const V = '/nodes/{node}/storage/{storage}/content/{volume}';
const F = `${Q}/firewall`;

async function waitBackground(api: ApiContext, upid: string, seconds: number, vmid: number): Promise<string | null> {
  const end = Date.now() + seconds * 1000;
  for (;;) {
    const t = api.cluster.tasks.get(upid);
    if (!t) return upid;
    if (t.status === 'stopped') {
      const exit = t.exitstatus ?? '';
      if (exit === 'OK' || /^WARNINGS: \d+$/.test(exit)) return null;
      throw new SimHttpError(500, `failed to update VM ${vmid}: ${exit}`);
    }
    if (Date.now() >= end) return upid;
    await delay(Math.min(10, Math.max(1, end - Date.now())));
  }
}

/** Lists answer only the entries the caller may see (Proxmox filters them by privilege). */
const visibleGuests = <T extends { vmid?: unknown }>(api: ApiContext, user: string, list: T[]): T[] =>
  list.filter((e) => e.vmid === undefined || api.access.can(user, `/vms/${String(e.vmid)}`, ['VM.Audit']));
const visibleStorages = <T extends { storage?: unknown }>(api: ApiContext, user: string, list: T[]): T[] =>
  list.filter((e) => e.storage === undefined || api.access.can(user, `/storage/${String(e.storage)}`, ['Datastore.Audit', 'Datastore.AllocateSpace'], true));

const ACCESS_ROUTES: Record<string, Handler> = {
  'GET /version': ({ api }) => ({ version: api.schema().version, release: api.schema().version.split('.').slice(0, 2).join('.'), repoid: '0000000000000000' }),
  'GET /access/permissions': ({ api, ctx, params }) => api.access.permissions(ctx.user, params),
};

const CLUSTER_ROUTES: Record<string, Handler> = {
  'GET /cluster/status': ({ api }) => clusterStatus(api.cluster),
  'GET /cluster/resources': ({ api, ctx, params }) => visibleStorages(api, ctx.user, visibleGuests(api, ctx.user, resources(api.cluster, params.type))),
  'GET /cluster/nextid': ({ api, params }) => api.cluster.nextId(params.vmid),
  'GET /pools': ({ api, ctx, params }) => (poolList(api.cluster, params) as { poolid: string }[]).filter((p) => api.access.can(ctx.user, `/pool/${p.poolid}`, ['Pool.Audit'])),
};

const NODE_ROUTES: Record<string, Handler> = {
  'GET /nodes': ({ api }) => nodeList(api.cluster),
  'GET /nodes/{node}/status': ({ api, node }) => nodeStatus(api.cluster, node),
  'GET /nodes/{node}/network': ({ api, node }) => networkList(api.cluster, node),
  'GET /nodes/{node}/query-url-metadata': ({ api, node, params }) => urlMetadata(api.cluster, node, params),
};

const STORAGE_ROUTES: Record<string, Handler> = {
  'GET /nodes/{node}/storage': ({ api, ctx, node }) => visibleStorages(api, ctx.user, storageList(api.cluster, node)),
  'GET /nodes/{node}/storage/{storage}/content': ({ api, node, pathParams, params }) =>
    storageContent(api.cluster, node, pathParams.storage as string, params),
  [`GET ${V}`]: ({ api, node, pathParams }) => volumeInfo(api.cluster, node, pathParams.storage as string, pathParams.volume as string),
  [`PUT ${V}`]: ({ api, node, pathParams, params }) => updateBackupVolume(api.cluster, node, pathParams.storage as string, pathParams.volume as string, params),
  [`DELETE ${V}`]: ({ api, ctx, node, pathParams }) => deleteVolume(api.cluster, ctx, node, pathParams.storage as string, pathParams.volume as string),
  'POST /nodes/{node}/storage/{storage}/download-url': ({ api, ctx, node, pathParams, params }) => downloadUrl(api.cluster, ctx, node, pathParams.storage as string, params),
};

const BACKUP_ROUTES: Record<string, Handler> = {
  'POST /nodes/{node}/vzdump': ({ api, ctx, node, params }) => vzdump(api.cluster, ctx, node, params),
  // a restore with `archive`, else a new guest
  'POST /nodes/{node}/qemu': ({ api, ctx, node, params }) => (params.archive !== undefined ? restore(api.cluster, ctx, node, params) : createGuest(api.cluster, ctx, node, params)),
};

const SNAPSHOT_ROUTES: Record<string, Handler> = {
  [`GET ${Q}/snapshot`]: ({ api, node, vmid }) => snapshotList(api.cluster, node, vmid),
  [`POST ${Q}/snapshot`]: ({ api, ctx, node, vmid, params }) => takeSnapshot(api.cluster, ctx, node, vmid, params),
  [`DELETE ${S}`]: ({ api, ctx, node, vmid, pathParams }) => deleteSnapshot(api.cluster, ctx, node, vmid, pathParams.snapname as string),
  [`POST ${S}/rollback`]: ({ api, ctx, node, vmid, pathParams, params }) => rollbackSnapshot(api.cluster, ctx, node, vmid, pathParams.snapname as string, params),
  [`GET ${S}/config`]: ({ api, node, vmid, pathParams }) => snapshotConfig(api.cluster, node, vmid, pathParams.snapname as string),
  [`PUT ${S}/config`]: ({ api, node, vmid, pathParams, params }) => setSnapshotDescription(api.cluster, node, vmid, pathParams.snapname as string, params),
};

const GUEST_ROUTES: Record<string, Handler> = {
  'GET /nodes/{node}/qemu': ({ api, ctx, node }) => visibleGuests(api, ctx.user, qemuList(api.cluster, node)),
  [`GET ${Q}/config`]: ({ api, node, vmid, params }) => getConfig(api.cluster, node, vmid, params),
  [`GET ${Q}/pending`]: ({ api, node, vmid }) => getPending(api.cluster, node, vmid),
  [`POST ${Q}/template`]: ({ api, ctx, node, vmid, params }) => convertToTemplate(api.cluster, ctx, node, vmid, params),
  [`POST ${Q}/config`]: async ({ api, ctx, node, vmid, params }) => {
    const upid = setConfig(api.cluster, ctx, node, vmid, params, true);
    if (upid && params.background_delay !== undefined) return waitBackground(api, upid, Number(params.background_delay), vmid);
    return upid;
  },
  [`PUT ${Q}/config`]: ({ api, ctx, node, vmid, params }) => setConfig(api.cluster, ctx, node, vmid, params, false),
  [`PUT ${Q}/resize`]: ({ api, ctx, node, vmid, params }) => resize(api.cluster, ctx, node, vmid, params),
  [`GET ${Q}/status/current`]: ({ api, node, vmid }) => vmStatus(api.cluster, node, vmid),
  [`GET ${Q}/rrddata`]: ({ api, node, vmid, params }) => guestRrdData(api.cluster, node, vmid, params),
  [`POST ${Q}/status/start`]: ({ api, ctx, node, vmid }) => start(api.cluster, ctx, node, vmid),
  [`POST ${Q}/status/stop`]: ({ api, ctx, node, vmid }) => stop(api.cluster, ctx, node, vmid),
  [`POST ${Q}/status/shutdown`]: ({ api, ctx, node, vmid }) => shutdown(api.cluster, ctx, node, vmid),
  [`POST ${Q}/status/reboot`]: ({ api, ctx, node, vmid }) => reboot(api.cluster, ctx, node, vmid),
  [`POST ${Q}/clone`]: ({ api, ctx, node, vmid, params }) => clone(api.cluster, ctx, node, vmid, params),
  [`POST ${Q}/migrate`]: ({ api, ctx, node, vmid, params }) => migrate(api.cluster, ctx, node, vmid, params),
  [`DELETE ${Q}`]: ({ api, ctx, node, vmid }) => destroy(api.cluster, ctx, node, vmid),
  [`POST ${Q}/agent/ping`]: ({ api, node, vmid }) => agentPing(api.cluster, node, vmid),
};

const CONSOLE_ROUTES: Record<string, Handler> = {
  [`POST ${Q}/vncproxy`]: ({ api, ctx, node, vmid, params }) => openConsole(api.cluster, ctx, 'vnc', node, vmid, params),
  [`POST ${Q}/termproxy`]: ({ api, ctx, node, vmid, params }) => openConsole(api.cluster, ctx, 'term', node, vmid, params),
};

const TASK_ROUTES: Record<string, Handler> = {
  'GET /nodes/{node}/tasks': ({ api, ctx, node, params }) => taskList(api.cluster, node, ctx.user, params),
  'GET /nodes/{node}/tasks/{upid}/status': ({ api, ctx, node, pathParams }) => {
    const upid = pathParams.upid as string;
    const fault = ctx.fault;
    const task = api.cluster.tasks.get(upid);
    if (fault && task && task.status === 'running' && task.user === ctx.user) {
      if (fault.mode === 'task_fail') api.cluster.tasks.finish(upid, fault.message ?? 'simulated task failure');
      if (fault.mode === 'hang') api.cluster.tasks.hang(upid);
      ctx.faultHandled = true;
    }
    return taskStatus(api.cluster, node, upid, ctx.user);
  },
  'GET /nodes/{node}/tasks/{upid}/log': ({ api, ctx, node, pathParams }) => taskLog(api.cluster, node, pathParams.upid as string, ctx.user),
};

const FIREWALL_ROUTES: Record<string, Handler> = {
  'GET /cluster/firewall/options': ({ api }) => firewall.clusterOptions(api.cluster),
  'PUT /cluster/firewall/options': ({ api, params }) => firewall.setClusterOptions(api.cluster, params),
  [`GET ${F}`]: () => firewall.firewallIndex(),
  [`GET ${F}/options`]: ({ api, node, vmid }) => firewall.guestOptions(api.cluster, node, vmid),
  [`PUT ${F}/options`]: ({ api, node, vmid, params }) => firewall.setGuestOptions(api.cluster, node, vmid, params),
  [`GET ${F}/rules`]: ({ api, vmid }) => firewall.guestRules(api.cluster, vmid),
  [`POST ${F}/rules`]: ({ api, vmid, params }) => firewall.createGuestRule(api.cluster, vmid, params),
  [`GET ${F}/rules/{pos}`]: ({ api, vmid, pathParams }) => firewall.guestRule(api.cluster, vmid, Number(pathParams.pos)),
  [`PUT ${F}/rules/{pos}`]: ({ api, vmid, pathParams, params }) => firewall.updateGuestRule(api.cluster, vmid, Number(pathParams.pos), params),
  [`DELETE ${F}/rules/{pos}`]: ({ api, vmid, pathParams, params }) => firewall.deleteGuestRule(api.cluster, vmid, Number(pathParams.pos), params),
  [`GET ${F}/ipset`]: ({ api, vmid }) => firewall.guestIpsets(api.cluster, vmid),
  [`POST ${F}/ipset`]: ({ api, vmid, params }) => firewall.createGuestIpset(api.cluster, vmid, params),
  [`GET ${F}/ipset/{name}`]: ({ api, vmid, pathParams }) => firewall.guestIpset(api.cluster, vmid, pathParams.name as string),
  [`POST ${F}/ipset/{name}`]: ({ api, vmid, pathParams, params }) => firewall.addGuestIpsetEntry(api.cluster, vmid, pathParams.name as string, params),
  [`DELETE ${F}/ipset/{name}`]: ({ api, vmid, pathParams, params }) => firewall.deleteGuestIpset(api.cluster, vmid, pathParams.name as string, params),
  [`GET ${F}/ipset/{name}/{cidr}`]: ({ api, vmid, pathParams }) => firewall.guestIpsetEntry(api.cluster, vmid, pathParams.name as string, pathParams.cidr as string),
  [`PUT ${F}/ipset/{name}/{cidr}`]: ({ api, vmid, pathParams, params }) =>
    firewall.updateGuestIpsetEntry(api.cluster, vmid, pathParams.name as string, pathParams.cidr as string, params),
  [`DELETE ${F}/ipset/{name}/{cidr}`]: ({ api, vmid, pathParams, params }) =>
    firewall.removeGuestIpsetEntry(api.cluster, vmid, pathParams.name as string, pathParams.cidr as string, params),
  [`GET ${F}/aliases`]: ({ api, vmid }) => firewall.guestAliases(api.cluster, vmid),
  [`POST ${F}/aliases`]: ({ api, vmid, params }) => firewall.createGuestAlias(api.cluster, vmid, params),
  [`GET ${F}/aliases/{name}`]: ({ api, vmid, pathParams }) => firewall.guestAlias(api.cluster, vmid, pathParams.name as string),
  [`PUT ${F}/aliases/{name}`]: ({ api, vmid, pathParams, params }) => firewall.updateGuestAlias(api.cluster, vmid, pathParams.name as string, params),
  [`DELETE ${F}/aliases/{name}`]: ({ api, vmid, pathParams, params }) => firewall.removeGuestAlias(api.cluster, vmid, pathParams.name as string, params),
  [`GET ${F}/refs`]: ({ api, vmid, params }) => firewall.guestRefs(api.cluster, vmid, params.type),
};

/** Handlers by template key, e.g. "POST /nodes/{node}/qemu/{vmid}/clone". */
export const HANDLERS: Record<string, Handler> = { ...ACCESS_ROUTES, ...CLUSTER_ROUTES, ...NODE_ROUTES, ...STORAGE_ROUTES, ...GUEST_ROUTES, ...SNAPSHOT_ROUTES, ...BACKUP_ROUTES, ...CONSOLE_ROUTES, ...TASK_ROUTES, ...FIREWALL_ROUTES };

/** Template keys the simulator implements, e.g. "POST /nodes/{node}/qemu/{vmid}/clone". */
export const IMPLEMENTED_CALLS = Object.keys(HANDLERS);
