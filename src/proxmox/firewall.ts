/**
 * The firewall: the cluster's switch and options (GET /cluster/firewall/options), and a guest's
 * own options and ipsets (`/nodes/{node}/qemu/{vmid}/firewall/…`). Nothing a guest holds acts
 * unless the cluster's `enable` is on. None of these calls starts a Proxmox task: each answers null.
 */
import type { CallOptions, ProxmoxHttp } from './http';
import { ProxmoxError } from './errors';
import { guestParams } from './paths';

/** GET /cluster/firewall/options, as PVE::API2::Firewall::Cluster get_options answers it (booleans as integers). */
export interface ClusterFirewallOptions {
  /** 0 or absent: off. Above 1 after `enable` was set to "now" (set_options stores time()): on. */
  enable?: number;
  ebtables?: number;
  policy_in?: 'ACCEPT' | 'REJECT' | 'DROP';
  policy_out?: 'ACCEPT' | 'REJECT' | 'DROP';
  policy_forward?: 'ACCEPT' | 'DROP';
  log_ratelimit?: string;
  digest?: string;
  [key: string]: unknown;
}

/**
 * GET …/qemu/{vmid}/firewall/options, as PVE::API2::Firewall::VM get_options answers it: only
 * what the guest's file sets (booleans as 0/1), never a default. Unset, `enable` is off,
 * `macfilter` on and `policy_in` DROP.
 */
export interface GuestFirewallOptions {
  enable?: number;
  ipfilter?: number;
  macfilter?: number;
  dhcp?: number;
  ndp?: number;
  radv?: number;
  policy_in?: 'ACCEPT' | 'REJECT' | 'DROP';
  policy_out?: 'ACCEPT' | 'REJECT' | 'DROP';
  digest?: string;
  [key: string]: unknown;
}

/** One entry of GET …/firewall/ipset/{name}: an address as Proxmox writes it back (`198.51.100.7`, `2001:db8::7`, `10.0.0.0/24`). */
export interface IpsetEntry {
  cidr: string;
  nomatch?: number;
  comment?: string;
}

const GUEST_FIREWALL = '/nodes/{node}/qemu/{vmid}/firewall';

/** IPSet.pm's "no such IPSet 'name'" (a 500): the ipset is not in the guest's file. */
const NO_SUCH_IPSET_RE = /no such ipset/i;

export class FirewallApi {
  constructor(private readonly http: ProxmoxHttp) {}

  /** GET /cluster/firewall/options (Sys.Audit on `/`). */
  async clusterOptions(call?: CallOptions): Promise<ClusterFirewallOptions> {
    const data = await this.http.request<ClusterFirewallOptions | null>('GET', '/cluster/firewall/options', {}, {}, call);
    return data ?? {};
  }

  /**
   * Whether the cluster's firewall is on: pve-firewall compiles no rule at all while the
   * cluster's `enable` is unset or 0 (PVE::Firewall's compile and is_enabled_and_not_nftables).
   */
  async clusterEnabled(call?: CallOptions): Promise<boolean> {
    return Number((await this.clusterOptions(call)).enable ?? 0) > 0;
  }

  /** GET …/firewall/options (VM.Audit on /vms/{vmid}). */
  async guestOptions(node: string, vmid: number, call?: CallOptions): Promise<GuestFirewallOptions> {
    return (await this.http.request<GuestFirewallOptions | null>('GET', `${GUEST_FIREWALL}/options`, guestParams(node, vmid), {}, call)) ?? {};
  }

  /** PUT …/firewall/options (VM.Config.Network): the options given, the others left as they are. */
  async setGuestOptions(node: string, vmid: number, options: Record<string, string | number>, call?: CallOptions): Promise<null> {
    await this.http.request('PUT', `${GUEST_FIREWALL}/options`, guestParams(node, vmid), options, call);
    return null;
  }

  /** GET …/firewall/ipset/{name} (VM.Audit): its entries, or null when the guest has no such ipset. */
  async ipsetEntries(node: string, vmid: number, name: string, call?: CallOptions): Promise<IpsetEntry[] | null> {
    try {
      const entries = await this.http.request<IpsetEntry[] | null>('GET', `${GUEST_FIREWALL}/ipset/{name}`, { ...guestParams(node, vmid), name }, {}, call);
      return (entries ?? []).map(({ cidr, nomatch, comment }) => ({ cidr, ...(nomatch ? { nomatch } : {}), ...(comment ? { comment } : {}) }));
    } catch (error) {
      if (error instanceof ProxmoxError && error.kind === 'http' && NO_SUCH_IPSET_RE.test(error.message)) return null;
      throw error;
    }
  }

  /** POST …/firewall/ipset (VM.Config.Network): a new, empty ipset ("already exists" when it is there). */
  async createIpset(node: string, vmid: number, name: string, comment?: string, call?: CallOptions): Promise<null> {
    await this.http.request('POST', `${GUEST_FIREWALL}/ipset`, guestParams(node, vmid), { name, ...(comment ? { comment } : {}) }, call);
    return null;
  }

  /** POST …/firewall/ipset/{name} (VM.Config.Network): one entry ("already exists" when it is there). */
  async addIpsetEntry(node: string, vmid: number, name: string, cidr: string, call?: CallOptions): Promise<null> {
    await this.http.request('POST', `${GUEST_FIREWALL}/ipset/{name}`, { ...guestParams(node, vmid), name }, { cidr }, call);
    return null;
  }

  /** DELETE …/firewall/ipset/{name}/{cidr} (VM.Config.Network): no error when the entry is not there. */
  async removeIpsetEntry(node: string, vmid: number, name: string, cidr: string, call?: CallOptions): Promise<null> {
    await this.http.request('DELETE', `${GUEST_FIREWALL}/ipset/{name}/{cidr}`, { ...guestParams(node, vmid), name, cidr }, {}, call);
    return null;
  }
}
