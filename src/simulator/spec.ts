/**
 * What a simulated cluster is made of (nodes, storages, bridges, templates, pools), and the demo
 * cluster the simulator starts with unless told otherwise.
 */
import { MINIMAL_ROLE_PRIVILEGES } from '../domain/proxmox-privileges';
import type { AccessSpec } from './access';

export interface SimNodeSpec {
  name: string;
  status?: 'online' | 'offline';
  cpus: number;
  memoryGiB: number;
  cpuModel?: string;
  cpuFlags: string[];
  /** Address the cluster resolves the node name to; default 192.0.2.<11 + position>. */
  ip?: string;
}

export interface SimStorageSpec {
  storage: string;
  type?: string;
  shared?: boolean;
  totalGiB?: number;
  /** Content types; default `images,rootdir`. */
  content?: string;
  /**
   * Where a file-based storage (dir, nfs, cifs, cephfs, btrfs) is mounted, as storage.cfg's `path`
   * (task logs and errors name files below it); default `/var/lib/vz` for `local`,
   * `/mnt/pve/<storage>` for network storages, `/mnt/<storage>` for other directories.
   */
  path?: string;
  /**
   * The nodes the storage is configured for, as storage.cfg `nodes` restricts it; default every
   * node. Elsewhere it is listed disabled and its content cannot be read.
   */
  nodes?: string[];
  /**
   * A directory storage whose disk is not mounted right now (without storage.cfg's `is_mountpoint`
   * Proxmox reads the empty mount point): it lists no backup archives and finds none until mounted again.
   */
  unmounted?: boolean;
  /**
   * For a storage with content `snippets`: the directory its `snippets/` volumes are read from on
   * every node (e.g. one the control plane also writes to, as a shared storage mounted on both).
   */
  snippetsDir?: string;
  /**
   * Per node, the directory read there instead of `snippetsDir`: a local storage has one per
   * node, and a mount can differ from the one the control plane writes to.
   */
  snippetsDirByNode?: Record<string, string>;
}

export interface SimBridgeSpec {
  iface: string;
  vlanAware?: boolean;
}

export interface SimTemplateSpec {
  vmid: number;
  node: string;
  name: string;
  ostype?: string;
  diskGiB?: number;
  storage?: string;
  /** `vga` of the template (`serial0`: no screen, as many cloud images come); unset: the standard display. */
  vga?: string;
}

export interface SimPoolSpec {
  poolid: string;
  comment?: string;
}

export interface ClusterSpec {
  nodes: SimNodeSpec[];
  storages: SimStorageSpec[];
  bridges: SimBridgeSpec[];
  templates: SimTemplateSpec[];
  /** Resource pools a clone can join (`pool`); members are listed by GET /pools. */
  pools: SimPoolSpec[];
}

const BASE_FLAGS =
  'fpu vme de pse tsc msr pae mce cx8 apic sep mtrr pge mca cmov pat pse36 clflush mmx fxsr sse sse2 ht syscall nx pdpe1gb rdtscp lm constant_tsc rep_good nopl xtopology cpuid pni pclmulqdq';
const V2_FLAGS = 'ssse3 cx16 sse4_1 sse4_2 popcnt aes lahf_lm';
const V3_FLAGS = 'fma movbe xsave avx f16c avx2 bmi1 bmi2 abm rdrand';

/** x86-64-v3 capable flags (Haswell-class and later). */
export const CPU_FLAGS_V3 = `${BASE_FLAGS} ${V2_FLAGS} ${V3_FLAGS}`.split(' ');
/** x86-64-v2 capable flags (Nehalem/Westmere-class, with AES-NI). */
export const CPU_FLAGS_V2 = `${BASE_FLAGS} ${V2_FLAGS}`.split(' ');

export const DEMO_TEMPLATE_IMAGES = [
  { name: 'debian-12', ostype: 'l26' },
  { name: 'ubuntu-24.04', ostype: 'l26', vga: 'serial0' },
  { name: 'rocky-9', ostype: 'l26', vga: 'serial0' },
] as const;

/**
 * Demo cluster: pve1, pve2 (x86-64-v3) and pve3 (x86-64-v2), storage local-lvm (not shared), the
 * directory storage `local` (one per node) for backups, ISO images and disk images to import, the
 * NFS storage `shared-nfs` (one for all nodes) for the same,
 * VLAN-aware bridge vmbr0, an empty resource pool `customers`. Cloud-init templates (serial0 a
 * socket; debian-12 with a standard display, the others `vga: serial0`) debian-12 /
 * ubuntu-24.04 / rocky-9 are 9000/9001/9002 on pve1, 9010/9011/9012 on pve2 and 9020/9021/9022
 * on pve3.
 */
export function demoCluster(): ClusterSpec {
  const nodes: SimNodeSpec[] = [
    { name: 'pve1', cpus: 32, memoryGiB: 128, cpuModel: 'AMD EPYC 7302P 16-Core Processor', cpuFlags: CPU_FLAGS_V3 },
    { name: 'pve2', cpus: 32, memoryGiB: 128, cpuModel: 'AMD EPYC 7302P 16-Core Processor', cpuFlags: CPU_FLAGS_V3 },
    { name: 'pve3', cpus: 16, memoryGiB: 64, cpuModel: 'Intel(R) Xeon(R) CPU X5670 @ 2.93GHz', cpuFlags: CPU_FLAGS_V2 },
  ];
  const templates: SimTemplateSpec[] = [];
  nodes.forEach((n, i) => {
    DEMO_TEMPLATE_IMAGES.forEach((img, j) => {
      templates.push({ vmid: 9000 + i * 10 + j, node: n.name, name: img.name, ostype: img.ostype, diskGiB: 4, storage: 'local-lvm', ...('vga' in img ? { vga: img.vga } : {}) });
    });
  });
  return {
    nodes,
    storages: [
      { storage: 'local-lvm', type: 'lvmthin', shared: false, totalGiB: 2048 },
      { storage: 'local', type: 'dir', shared: false, totalGiB: 512, content: 'backup,import,iso,vztmpl' },
      { storage: 'shared-nfs', type: 'nfs', shared: true, totalGiB: 4096, content: 'backup,import,iso' },
    ],
    bridges: [{ iface: 'vmbr0', vlanAware: true }],
    templates,
    pools: [{ poolid: 'customers', comment: 'guests made for customers' }],
  };
}

const LEAST_PRIVILEGE_USER = 'pvecp@pve';
const LEAST_PRIVILEGE_TOKEN_ID = `${LEAST_PRIVILEGE_USER}!controlplane`;
/** The demo's least-privilege token, `USER@REALM!TOKENID=SECRET`: privilege separated, holding only the PVECP role. */
export const LEAST_PRIVILEGE_SIM_TOKEN = `${LEAST_PRIVILEGE_TOKEN_ID}=sim-least-privilege-secret`;

/**
 * Demo access: besides the all-privileges root token the simulator is started with, user
 * `pvecp@pve` with role `PVECP` (exactly the control plane's minimal role) on `/`, and its
 * privilege-separated token `controlplane` given the same role on `/` itself.
 */
export function demoAccess(): AccessSpec {
  return {
    tokens: [{ tokenid: LEAST_PRIVILEGE_TOKEN_ID, secret: LEAST_PRIVILEGE_SIM_TOKEN.slice(LEAST_PRIVILEGE_TOKEN_ID.length + 1), privsep: true }],
    roles: [{ roleid: 'PVECP', privs: [...MINIMAL_ROLE_PRIVILEGES] }],
    acl: [
      { path: '/', ugid: LEAST_PRIVILEGE_USER, roleid: 'PVECP' },
      { path: '/', ugid: LEAST_PRIVILEGE_TOKEN_ID, roleid: 'PVECP' },
    ],
  };
}
