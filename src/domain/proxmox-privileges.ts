/**
 * The Proxmox VE privileges the control plane's API token needs, and where: the minimal role
 * (docs/security.md explains each). A connection is only saved once its token holds all of them.
 */

export interface RequiredPrivilege {
  /** One of these suffices (a privilege renamed between releases). */
  privileges: readonly string[];
  /** `/`, `/vms`, `/nodes`, `/storage/{storage}`, `/storage/{snippetsStorage}`, `/storage/{importStorage}`, `/sdn/zones/localnetwork`. */
  path: string;
  /** Needed only on a connection that has this storage (and so takes part in what it serves). */
  onlyWith?: 'snippetsStorage' | 'importStorage';
}

export const REQUIRED_PRIVILEGES: readonly RequiredPrivilege[] = [
  { privileges: ['Sys.Audit'], path: '/' },
  ...[
    'VM.Audit',
    'VM.Allocate',
    'VM.Clone',
    'VM.Config.CPU',
    'VM.Config.Memory',
    'VM.Config.Disk',
    // Also enough for the cloud-init keys (Proxmox takes VM.Config.Cloudinit or VM.Config.Network).
    'VM.Config.Network',
    'VM.Config.Options',
    // `serial0: socket` and `scsihw` (qemu-server checks a serial socket against it on create and
    // on every config write that names one), as an image's template is made and configured.
    'VM.Config.HWType',
    // An ISO in the CD-ROM drive, and rescue mode (the boot order itself is VM.Config.Disk's).
    'VM.Config.CDROM',
    'VM.PowerMgmt',
    'VM.Migrate',
    'VM.Snapshot',
    'VM.Snapshot.Rollback',
    // vzdump, and a restore over our own guest.
    'VM.Backup',
    // vncproxy, termproxy and vncwebsocket: the guest's screen and serial console.
    'VM.Console',
  ].map((privilege) => ({ privileges: [privilege], path: '/vms' })),
  // The guest agent ping: VM.Monitor up to PVE 8, VM.GuestAgent.Audit from PVE 9.
  { privileges: ['VM.GuestAgent.Audit', 'VM.Monitor'], path: '/vms' },
  { privileges: ['Datastore.AllocateSpace'], path: '/storage/{storage}' },
  { privileges: ['Datastore.Audit'], path: '/storage/{storage}' },
  { privileges: ['Datastore.Audit'], path: '/storage/{snippetsStorage}', onlyWith: 'snippetsStorage' },
  // Images from a URL, with an import storage only: download-url into it (Datastore.AllocateTemplate),
  // list and use what it holds (Datastore.Audit, check_volume_access), delete what we downloaded
  // (Content.pm delete: Datastore.Allocate for anything but an archive), and let the nodes fetch a
  // URL at all (Sys.AccessNetwork on /nodes/{node}, the schema's narrow alternative to
  // Sys.Audit with Sys.Modify on `/`).
  { privileges: ['Datastore.AllocateTemplate'], path: '/storage/{importStorage}', onlyWith: 'importStorage' },
  { privileges: ['Datastore.Audit'], path: '/storage/{importStorage}', onlyWith: 'importStorage' },
  { privileges: ['Datastore.Allocate'], path: '/storage/{importStorage}', onlyWith: 'importStorage' },
  { privileges: ['Sys.AccessNetwork'], path: '/nodes', onlyWith: 'importStorage' },
  // Every bridge a pool may name: the local bridges' zone (PVE 8+ checks /sdn/zones/localnetwork/<bridge>).
  { privileges: ['SDN.Use'], path: '/sdn/zones/localnetwork' },
];

/** Every privilege the minimal role holds (both names of a renamed one). */
export const MINIMAL_ROLE_PRIVILEGES: readonly string[] = [...new Set(REQUIRED_PRIVILEGES.flatMap((r) => r.privileges))].sort();

/** The storages a connection names. */
export interface ConnectionStorages {
  storage: string;
  snippetsStorage?: string | null;
  /** Where images from a URL are downloaded to (a storage with the `import` content type). */
  importStorage?: string | null;
}

/** A required privilege the token lacks, on the concrete path. */
export interface MissingPrivilege {
  privilege: string;
  path: string;
}

/** The minimal role on one concrete path: which of its privileges the token holds there, and which it lacks. */
export interface PathPrivileges {
  path: string;
  held: string[];
  /** A renamed privilege as `new or old`. */
  missing: string[];
}

/**
 * The minimal role per concrete path for one connection, in the order of REQUIRED_PRIVILEGES,
 * given what the token holds per path (`held(path)`, as GET /access/permissions?path= answers).
 * Paths naming a value the connection has not (no snippets or import storage) are skipped.
 */
export function privilegesByPath(values: ConnectionStorages, held: (path: string) => ReadonlySet<string>): PathPrivileges[] {
  const byPath = new Map<string, PathPrivileges>();
  for (const required of REQUIRED_PRIVILEGES) {
    for (const path of concretePaths(required, values)) {
      const entry = byPath.get(path) ?? { path, held: [], missing: [] };
      byPath.set(path, entry);
      const has = held(path);
      const holding = required.privileges.filter((p) => has.has(p));
      // The snippets storage may be the disks' storage: each privilege once per path.
      if (holding.length === 0) entry.missing = [...new Set([...entry.missing, required.privileges.join(' or ')])];
      entry.held = [...new Set([...entry.held, ...holding])];
    }
  }
  return [...byPath.values()];
}

/** The required privileges a token lacks, each on its concrete path, from privilegesByPath. */
export const missingPrivileges = (byPath: PathPrivileges[]): MissingPrivilege[] => byPath.flatMap((entry) => entry.missing.map((privilege) => ({ privilege, path: entry.path })));

/** Every concrete path the minimal role is needed on for one connection. */
export const requiredPaths = (values: ConnectionStorages): string[] => [...new Set(REQUIRED_PRIVILEGES.flatMap((r) => concretePaths(r, values)))];

/** The concrete path of a required privilege for one connection: none when it needs a storage the connection has not. */
function concretePaths(required: RequiredPrivilege, values: ConnectionStorages): string[] {
  if (required.onlyWith && !values[required.onlyWith]) return [];
  return [required.path.replace(/\{(storage|snippetsStorage|importStorage)\}/, (_, key: keyof ConnectionStorages) => String(values[key]))];
}
