/**
 * The privileges each implemented call needs, and on which path: from the schema's `permissions`
 * check (`perm`, `and`, `or`), by hand where Proxmox checks in code what the schema describes in
 * prose (clone, create, config writes, resize, backups, volumes).
 */
import type { PrivilegeCheck, PrivilegeRule } from './access';
import type { SimCluster } from './cluster';
import { DISK_KEY, isCdrom, splitProps } from './config-values';
import { isCloudinitVolume, NEW_DISK, parseDrive, resolveCdromAlias, volumeType } from './drives';
import type { MethodSchema } from './schema';

/** qemu-server's key classes (API2/Qemu.pm $cpuoptions, $memoryoptions, $hwtypeoptions, $generaloptions, $diskoptions, $cloudinitoptions). */
const CPU_KEYS = new Set(['cores', 'cpu', 'cpulimit', 'cpuunits', 'numa', 'smp', 'sockets', 'vcpus', 'affinity']);
const MEMORY_KEYS = new Set(['memory', 'balloon', 'shares', 'allow-ksm']);
const HWTYPE_KEYS = new Set(['acpi', 'hotplug', 'kvm', 'machine', 'scsihw', 'smbios1', 'tablet', 'vga', 'watchdog', 'audio0', 'rng0']);
const DISK_OPTION_KEYS = new Set(['boot', 'bootdisk', 'vmstatestorage']);
const CLOUDINIT_KEYS = new Set(['cicustom', 'cipassword', 'citype', 'ciupgrade', 'ciuser', 'nameserver', 'searchdomain', 'sshkeys']);
/** Parameters of a config write or a create that are not config keys. */
const CALL_PARAMS = new Set(['node', 'vmid', 'digest', 'background_delay', 'skiplock', 'delete', 'revert', 'force', 'archive', 'storage', 'unique', 'pool', 'start', 'bwlimit', 'live-restore', 'ha-managed', 'import-working-storage']);

/** The SDN zone path of a bridge Proxmox (8+) checks SDN.Use on: local bridges are the `localnetwork` zone. */
const bridgePath = (bridge: string): string => `/sdn/zones/localnetwork/${bridge}`;

const bridgeOf = (netLine: string): string | undefined => /(?:^|,)bridge=([^,]+)/.exec(netLine)?.[1];

/** Whether the caller holds privileges on a path. */
type Can = (path: string, privs: string[]) => boolean;


/** SDN.Use on the bridge of each NIC a call sets (check_bridge_access). */
const bridgeChecks = (params: Record<string, string>): PrivilegeCheck[] =>
  Object.entries(params).flatMap(([key, value]) => {
    const bridge = /^net\d+$/.test(key) ? bridgeOf(value) : undefined;
    return bridge ? [{ path: bridgePath(bridge), privs: ['SDN.Use'] }] : [];
  });

/** check_vm_modify_config_perm: what setting or deleting a non-drive key needs on the guest. */
function keyPrivilege(key: string): string | undefined {
  if (DISK_KEY.test(key) || /^(?:hostpci|virtiofs)\d+$/.test(key) || key === 'cdrom') return undefined;
  // removing an unused disk; a USB device (check_usb_perm)
  if (/^unused\d+$/.test(key)) return 'VM.Config.Disk';
  if (/^usb\d+$/.test(key)) return 'VM.Config.HWType';
  if (CPU_KEYS.has(key) || /^numa\d+$/.test(key)) return 'VM.Config.CPU';
  if (MEMORY_KEYS.has(key)) return 'VM.Config.Memory';
  // a serial port that is a socket (only root may pass real devices), as update_vm_api and create check it
  if (HWTYPE_KEYS.has(key) || /^serial\d+$/.test(key)) return 'VM.Config.HWType';
  if (DISK_OPTION_KEYS.has(key)) return 'VM.Config.Disk';
  if (/^net\d+$/.test(key)) return 'VM.Config.Network';
  if (key === 'freeze') return 'VM.PowerMgmt';
  // $generaloptions (agent, name, description, ostype, onboot, template, …) and tags (assert_tag_permissions)
  return 'VM.Config.Options';
}

/**
 * pve-storage's check_volume_access: Datastore.Allocate on the storage is enough; else an ISO
 * image, template or image to import needs read access (Datastore.AllocateSpace or Audit), a
 * guest's disk Datastore.Audit and VM.Config.Disk on its guest, a guest's archive
 * Datastore.AllocateSpace and VM.Backup on it.
 */
function volumeAccess(cluster: SimCluster, volid: string, can: Can): PrivilegeCheck[] {
  const storage = `/storage/${volid.slice(0, volid.indexOf(':'))}`;
  if (can(storage, ['Datastore.Allocate'])) return [];
  let type: string;
  try {
    type = volumeType(cluster, volid).type;
  } catch {
    // an unknown storage or a volume name it cannot parse is refused by the call itself
    return [];
  }
  const owner = /(?:^|[:/])(?:vm|base)-(\d+)-/.exec(volid)?.[1] ?? /vzdump-(?:qemu|lxc|openvz)-(\d+)-/.exec(volid)?.[1];
  if (type === 'iso' || type === 'vztmpl' || type === 'import') return [{ path: storage, privs: ['Datastore.AllocateSpace', 'Datastore.Audit'], any: true }];
  if (type === 'backup' && owner) return [{ path: storage, privs: ['Datastore.AllocateSpace'] }, { path: `/vms/${owner}`, privs: ['VM.Backup'] }];
  if (type === 'images' && owner) return [{ path: storage, privs: ['Datastore.Audit'] }, { path: `/vms/${owner}`, privs: ['VM.Config.Disk'] }];
  return [{ path: storage, privs: ['Datastore.Allocate'] }];
}

/**
 * check_storage_access for one drive parameter: a new disk needs Datastore.AllocateSpace on its
 * storage (a create's `storage` by default), an existing volume (an ISO image) access to it, an
 * import source access to it (another guest's disk: VM.Clone on that guest); a host CD-ROM
 * drive Sys.Console.
 */
function driveStorageAccess(cluster: SimCluster, value: string, defaultStorage: string | undefined, can: Can): PrivilegeRule[] {
  const { file, props } = parseDrive(value);
  const cdrom = props.get('media') === 'cdrom';
  const rules: PrivilegeRule[] = [];
  const newDisk = NEW_DISK.exec(file);
  if (file === 'cdrom' && cdrom) rules.push({ path: '/', privs: ['Sys.Console'] });
  else if (newDisk && !cdrom) {
    const storage = newDisk[1] ?? defaultStorage;
    if (storage) rules.push({ path: `/storage/${storage}`, privs: ['Datastore.AllocateSpace'] });
  } else if (file !== 'none' && file !== '' && !isCloudinitVolume(file) && !/:cloudinit$/.test(file)) rules.push(...volumeAccess(cluster, file, can));
  const source = props.get('import-from');
  if (source !== undefined) {
    const owner = /(?:^|[:/])(?:vm|base)-(\d+)-/.exec(source)?.[1];
    rules.push(...(owner ? [{ path: `/vms/${owner}`, privs: ['VM.Clone'] }] : volumeAccess(cluster, source, can)));
  }
  return rules;
}

/** $check_drive_perms of update_vm_api: a cloud-init drive needs Cloudinit and CDROM, another CD-ROM CDROM, a disk Disk. */
function drivePrivileges(value: string): string[] {
  const { file, props } = parseDrive(value);
  if (isCloudinitVolume(file) || /:cloudinit$/.test(file)) return ['VM.Config.Cloudinit', 'VM.Config.CDROM'];
  return props.get('media') === 'cdrom' ? ['VM.Config.CDROM'] : ['VM.Config.Disk'];
}

/**
 * A config write (update_vm_api): each key's class on the guest, the old and new value of each
 * drive, storage access for the drives, SDN.Use on the bridges.
 */
function configWriteChecks(cluster: SimCluster, vmid: number, input: Record<string, string>, can: Can): PrivilegeRule[] {
  const params = resolveCdromAlias(input);
  const vm = `/vms/${vmid}`;
  const current = cluster.guests.get(vmid);
  const valueNow = (key: string) => current?.pending?.[key] ?? current?.config[key];
  const rules: PrivilegeRule[] = [];
  const deletes = (params.delete ?? '').split(/[,;\s]+/).filter(Boolean).map((key) => (key === 'cdrom' ? 'ide2' : key));
  for (const key of [...deletes, ...Object.keys(params).filter((k) => !CALL_PARAMS.has(k))]) {
    // `serialN: socket` wants VM.Config.HWType even when the guest has that socket already (update_vm_api)
    const priv = keyPrivilege(key);
    if (CLOUDINIT_KEYS.has(key) || /^ipconfig\d+$/.test(key)) rules.push({ path: vm, privs: ['VM.Config.Cloudinit', 'VM.Config.Network'], any: true });
    else if (priv) rules.push({ path: vm, privs: [priv] });
  }
  for (const [key, value] of Object.entries(params)) {
    if (!DISK_KEY.test(key)) continue;
    rules.push(...driveStorageAccess(cluster, value, undefined, can));
    const old = valueNow(key);
    if (old !== undefined) rules.push({ path: vm, privs: drivePrivileges(String(old)) });
    rules.push({ path: vm, privs: drivePrivileges(value) });
  }
  for (const key of deletes) {
    const old = valueNow(key);
    if (DISK_KEY.test(key) && old !== undefined) rules.push({ path: vm, privs: drivePrivileges(String(old)) });
  }
  return [...rules, ...bridgeChecks(params)];
}

/**
 * A create (create_vm): Datastore.AllocateSpace on the default storage, VM.PowerMgmt to start it,
 * VM.Allocate on the VMID or its pool (else the bare 403), storage access for each drive, each
 * key's class (on the pool when the caller holds it there), SDN.Use on the bridges.
 */
function createChecks(cluster: SimCluster, input: Record<string, string>, can: Can): PrivilegeRule[] {
  const params = resolveCdromAlias(input);
  const vm = `/vms/${params.vmid}`;
  const pool = params.pool !== undefined ? `/pool/${params.pool}` : undefined;
  // check_vm_perm: the pool's privilege is enough, else the guest's is checked
  const onGuest = (privs: string[]): PrivilegeRule[] => (pool && can(pool, privs) ? [] : [{ path: vm, privs }]);
  const rules: PrivilegeRule[] = [];
  if (params.storage !== undefined) rules.push({ path: `/storage/${params.storage}`, privs: ['Datastore.AllocateSpace'] });
  if (params.start === '1') rules.push(...onGuest(['VM.PowerMgmt']));
  rules.push({ anyOf: [[{ path: vm, privs: ['VM.Allocate'] }], ...(pool ? [[{ path: pool, privs: ['VM.Allocate'] }]] : [])] });
  for (const [key, value] of Object.entries(params)) if (DISK_KEY.test(key)) rules.push(...driveStorageAccess(cluster, value, params.storage, can));
  for (const key of Object.keys(params).filter((k) => !CALL_PARAMS.has(k) && !DISK_KEY.test(k))) {
    const priv = keyPrivilege(key);
    if (CLOUDINIT_KEYS.has(key) || /^ipconfig\d+$/.test(key)) {
      if (!(pool && (can(pool, ['VM.Config.Cloudinit']) || can(pool, ['VM.Config.Network'])))) rules.push({ path: vm, privs: ['VM.Config.Cloudinit', 'VM.Config.Network'], any: true });
    } else if (priv) rules.push(...onGuest([priv]));
  }
  return [...rules, ...bridgeChecks(params)];
}

/** Clone: VM.Clone on the source, VM.Allocate on the new VMID (or its pool), space on the storages, SDN.Use on the bridges. */
function cloneChecks(cluster: SimCluster, vmid: number, params: Record<string, string>, can: Can): PrivilegeCheck[] {
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

/** The volume a …/content/{volume} path names: a volume id, or a name on the path's storage. */
const volidOf = (pathParams: Record<string, string>): string => {
  const volume = pathParams.volume ?? '';
  return volume.includes(':') ? volume : `${pathParams.storage}:${volume}`;
};

/**
 * Deleting a volume (Content.pm delete): a guest's archive needs Datastore.AllocateSpace and
 * VM.Backup on its guest, anything else (an ISO image, an image to import) Datastore.Allocate.
 */
function volumeDeleteChecks(pathParams: Record<string, string>): PrivilegeCheck[] {
  const volid = volidOf(pathParams);
  const storage = `/storage/${volid.slice(0, volid.indexOf(':'))}`;
  const owner = /^[^:]+:backup\/vzdump-(?:qemu|lxc|openvz)-(\d+)-/.exec(volid)?.[1];
  return owner ? [{ path: storage, privs: ['Datastore.AllocateSpace'] }, { path: `/vms/${owner}`, privs: ['VM.Backup'] }] : [{ path: storage, privs: ['Datastore.Allocate'] }];
}

/** A schema permission expression (`perm`, `and`, `or`) as rules; undefined for kinds the simulator leaves unchecked. */
function schemaRules(check: unknown, values: Record<string, string>): PrivilegeRule[] | undefined {
  if (!Array.isArray(check)) return undefined;
  const [test, ...args] = check as unknown[];
  if (test === 'perm' && typeof args[0] === 'string' && Array.isArray(args[1])) {
    const path = args[0].replace(/\{(\w+)\}/g, (_, name: string) => values[name] ?? `{${name}}`);
    return [{ path, privs: args[1] as string[], ...(args.slice(2).includes('any') ? { any: true } : {}) }];
  }
  const parts = args.map((sub) => schemaRules(sub, values));
  if (parts.some((part) => part === undefined)) return undefined;
  if (test === 'and') return (parts as PrivilegeRule[][]).flat();
  if (test === 'or') return [{ anyOf: parts as PrivilegeRule[][] }];
  return undefined;
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
  can: Can,
): PrivilegeRule[] {
  const key = `${method.verb} ${method.template}`;
  const vmid = Number(pathParams.vmid);
  if (key === 'POST /nodes/{node}/qemu/{vmid}/clone') return cloneChecks(cluster, vmid, params, can);
  if (key === 'POST /nodes/{node}/qemu/{vmid}/config' || key === 'PUT /nodes/{node}/qemu/{vmid}/config') {
    const checks = configWriteChecks(cluster, vmid, params, can);
    if (checks.length > 0) return checks;
  }
  if (key === 'POST /nodes/{node}/vzdump' || (key === 'POST /nodes/{node}/qemu' && params.archive !== undefined)) return backupChecks(cluster, key, params);
  if (key === 'POST /nodes/{node}/qemu') return createChecks(cluster, params, can);
  if (key === 'DELETE /nodes/{node}/storage/{storage}/content/{volume}') return volumeDeleteChecks(pathParams);
  // GET …/content/{volume}: read access to the volume (check_volume_access)
  if (key === 'GET /nodes/{node}/storage/{storage}/content/{volume}') return volumeAccess(cluster, volidOf(pathParams), can);
  const values = { ...params, ...pathParams };
  const fromSchema = schemaRules(method.permissionCheck, values) ?? [];
  if (key === 'PUT /nodes/{node}/qemu/{vmid}/resize') {
    const disk = cluster.guests.get(vmid)?.config[params.disk ?? ''];
    const storage = disk !== undefined ? splitProps(String(disk)).first.split(':')[0] : undefined;
    if (storage) fromSchema.push({ path: `/storage/${storage}`, privs: ['Datastore.AllocateSpace'] });
  }
  return fromSchema;
}
