/**
 * The firewall: the cluster's switch and options (GET /cluster/firewall/options). Nothing a guest
 * holds acts unless the cluster's `enable` is on.
 */
import type { CallOptions, ProxmoxHttp } from './http';

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
}
