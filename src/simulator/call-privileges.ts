/**
 * The privileges each implemented call needs, and on which path: from the schema's
 * `permissions` check where it is a plain `['perm', path, privs(, 'any', 1)]`, by hand where
 * Proxmox checks in code what the schema describes in prose (clone, config writes, resize).
 */
import type { PrivilegeCheck } from './access';
import type { SimCluster } from './cluster';
import { DISK_KEY, isCdrom, splitProps } from './config-values';
import type { MethodSchema } from './schema';

const CPU_KEYS = new Set(['affinity', 'cores', 'cpu', 'cpulimit', 'cpuunits', 'numa', 'sockets', 'vcpus']);
const MEMORY_KEYS = new Set(['balloon', 'memory', 'shares']);
const HWTYPE_KEYS = new Set(['acpi', 'audio0', 'hotplug', 'keyboard', 'kvm', 'ostype', 'scsihw', 'tablet', 'vga', 'watchdog']);
const CLOUDINIT_KEYS = new Set(['cicustom', 'cipassword', 'citype', 'ciupgrade', 'ciuser', 'nameserver', 'searchdomain', 'sshkeys']);
/** Parameters of a config write that are not config keys. */
const CONFIG_CALL_PARAMS = new Set(['node', 'vmid', 'digest', 'background_delay', 'skiplock', 'delete', 'revert', 'force']);

/** The SDN zone path of a bridge Proxmox (8+) checks SDN.Use on: local bridges are the `localnetwork` zone. */
const bridgePath = (bridge: string): string => `/sdn/zones/localnetwork/${bridge}`;

const bridgeOf = (netLine: string): string | undefined => /(?:^|,)bridge=([^,]+)/.exec(netLine)?.[1];

/** What writing (or deleting) one config key needs (qemu-server's check_vm_modify_config_perm and its disk and bridge checks). */
function configKeyChecks(vmid: number, key: string, value: string | undefined): PrivilegeCheck[] {
  const vm = `/vms/${vmid}`;
  const on = (privs: string[], any = false): PrivilegeCheck[] => [{ path: vm, privs, ...(any ? { any } : {}) }];
  if (DISK_KEY.test(key)) {
    if (value !== undefined && isCdrom(value)) return on(['VM.Config.CDROM']);
    const storage = value !== undefined ? splitProps(value).first.split(':')[0] : undefined;
    return [...on(['VM.Config.Disk']), ...(storage ? [{ path: `/storage/${storage}`, privs: ['Datastore.AllocateSpace'] }] : [])];
  }
  if (/^net\d+$/.test(key)) {
    const bridge = value !== undefined ? bridgeOf(value) : undefined;
    return [...on(['VM.Config.Network']), ...(bridge ? [{ path: bridgePath(bridge), privs: ['SDN.Use'] }] : [])];
  }
  if (CPU_KEYS.has(key) || /^numa\d+$/.test(key)) return on(['VM.Config.CPU']);
  if (MEMORY_KEYS.has(key)) return on(['VM.Config.Memory']);
  if (HWTYPE_KEYS.has(key)) return on(['VM.Config.HWType']);
  if (CLOUDINIT_KEYS.has(key) || /^ipconfig\d+$/.test(key)) return on(['VM.Config.Cloudinit', 'VM.Config.Network'], true);
  if (/^(?:unused|serial|usb)\d+$/.test(key)) return on(['VM.Config.Disk']);
  return on(['VM.Config.Options']);
}

function configWriteChecks(vmid: number, params: Record<string, string>): PrivilegeCheck[] {
  const checks: PrivilegeCheck[] = [];
  for (const [key, value] of Object.entries(params)) if (!CONFIG_CALL_PARAMS.has(key)) checks.push(...configKeyChecks(vmid, key, value));
  for (const key of (params.delete ?? '').split(/[,;\s]+/).filter(Boolean)) checks.push(...configKeyChecks(vmid, key, undefined));
  return checks;
}

/** Clone: VM.Clone on the source, VM.Allocate on the new VMID (or its pool), space on the storages, SDN.Use on the bridges. */
function cloneChecks(cluster: SimCluster, vmid: number, params: Record<string, string>, can: (path: string, privs: string[]) => boolean): PrivilegeCheck[] {
  const checks: PrivilegeCheck[] = [{ path: `/vms/${vmid}`, privs: ['VM.Clone'] }];
  if (params.pool === undefined || !can(`/pool/${params.pool}`, ['VM.Allocate'])) checks.push({ path: `/vms/${params.newid}`, privs: ['VM.Allocate'] });
  const source = cluster.guests.get(vmid)?.config ?? {};
  const storages = new Set<string>();
  for (const [key, value] of Object.entries(source)) {
    const text = String(value);
    if (DISK_KEY.test(key) && !isCdrom(text)) storages.add(params.storage ?? (splitProps(text).first.split(':')[0] as string));
    const bridge = /^net\d+$/.test(key) ? bridgeOf(text) : undefined;
    if (bridge) checks.push({ path: bridgePath(bridge), privs: ['SDN.Use'] });
  }
  for (const storage of storages) checks.push({ path: `/storage/${storage}`, privs: ['Datastore.AllocateSpace'] });
  return checks;
}

/**
 * vzdump and a restore (create with `archive`), which the schema describes in prose: VM.Backup on
 * each guest (a restore onto a new VMID: VM.Allocate) and Datastore.AllocateSpace on the storage
 * written to (vzdump's default: `local`).
 */
function backupChecks(cluster: SimCluster, key: string, params: Record<string, string>): PrivilegeCheck[] {
  const vmids = (params.vmid ?? '').split(',').filter(Boolean);
  const guestPriv = (vmid: string) => (key.endsWith('/vzdump') || cluster.guests.has(Number(vmid)) ? 'VM.Backup' : 'VM.Allocate');
  const storage = params.storage ?? (key.endsWith('/vzdump') ? 'local' : undefined);
  return [...vmids.map((vmid) => ({ path: `/vms/${vmid}`, privs: [guestPriv(vmid)] })), ...(storage ? [{ path: `/storage/${storage}`, privs: ['Datastore.AllocateSpace'] }] : [])];
}

/** A schema check of the plain form `['perm', path, privs]` or `['perm', path, privs, 'any', 1]`. */
function schemaChecks(check: unknown[] | undefined, values: Record<string, string>): PrivilegeCheck[] | undefined {
  if (!check || check[0] !== 'perm' || typeof check[1] !== 'string' || !Array.isArray(check[2])) return undefined;
  const path = check[1].replace(/\{(\w+)\}/g, (_, name: string) => values[name] ?? `{${name}}`);
  return [{ path, privs: check[2] as string[], ...(check[3] === 'any' ? { any: true } : {}) }];
}

/**
 * The checks a call must pass before it does anything. `can` answers for the caller (a clone
 * into a pool the caller may allocate in needs no VM.Allocate on the new VMID).
 */
export function callPrivileges(
  cluster: SimCluster,
  method: MethodSchema,
  pathParams: Record<string, string>,
  params: Record<string, string>,
  can: (path: string, privs: string[]) => boolean,
): PrivilegeCheck[] {
  const key = `${method.verb} ${method.template}`;
  const vmid = Number(pathParams.vmid);
  if (key === 'POST /nodes/{node}/qemu/{vmid}/clone') return cloneChecks(cluster, vmid, params, can);
  if (key === 'POST /nodes/{node}/qemu/{vmid}/config' || key === 'PUT /nodes/{node}/qemu/{vmid}/config') {
    const checks = configWriteChecks(vmid, params);
    if (checks.length > 0) return checks;
  }
  if (key === 'POST /nodes/{node}/vzdump' || (key === 'POST /nodes/{node}/qemu' && params.archive !== undefined)) return backupChecks(cluster, key, params);
  const values = { ...params, ...pathParams };
  const fromSchema = schemaChecks(method.permissionCheck, values) ?? [];
  if (key === 'PUT /nodes/{node}/qemu/{vmid}/resize') {
    const disk = cluster.guests.get(vmid)?.config[params.disk ?? ''];
    const storage = disk !== undefined ? splitProps(String(disk)).first.split(':')[0] : undefined;
    if (storage) fromSchema.push({ path: `/storage/${storage}`, privs: ['Datastore.AllocateSpace'] });
  }
  return fromSchema;
}
