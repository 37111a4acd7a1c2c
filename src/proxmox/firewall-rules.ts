/**
 * A guest's firewall rules (its options and ipsets: firewall.ts), as pve-firewall's API2/Firewall/Rules.pm and
 * VM.pm serve them: every write answers null (no task), and takes the `digest` of the list it was
 * decided on, so a write made against a list someone changed since is refused.
 */
import type { CallOptions, ProxmoxHttp } from './http';
import { guestParams } from './paths';

/** An entry of GET …/firewall/rules: the rule, its position and the digest of the whole list. */
export interface GuestFirewallRule {
  pos: number;
  digest: string;
  type: string;
  action: string;
  proto?: string;
  dport?: string;
  sport?: string;
  source?: string;
  dest?: string;
  macro?: string;
  iface?: string;
  comment?: string;
  /** 1 on; absent or 0 off. */
  enable?: number;
  [key: string]: unknown;
}

/** The rule properties a create writes. */
export interface NewGuestFirewallRule {
  type: 'in' | 'out';
  action: 'ACCEPT' | 'DROP' | 'REJECT';
  proto?: string;
  dport?: string;
  source?: string;
  comment?: string;
  enable: 0 | 1;
}


/** Proxmox's refusal of a write made against a digest that is no longer the list's (PVE::Tools::assert_if_modified). */
export const isStaleDigest = (error: unknown): boolean => error instanceof Error && /detected modified configuration/.test(error.message);

const FIREWALL = '/nodes/{node}/qemu/{vmid}/firewall';

export class FirewallRulesApi {
  constructor(private readonly http: ProxmoxHttp) {}

  /** GET …/firewall/rules, in order (VM.Audit). */
  async list(node: string, vmid: number, call?: CallOptions): Promise<GuestFirewallRule[]> {
    const data = await this.http.request<GuestFirewallRule[] | null>('GET', `${FIREWALL}/rules`, guestParams(node, vmid), {}, call);
    return (Array.isArray(data) ? data : []).sort((a, b) => a.pos - b.pos);
  }

  /** POST …/firewall/rules: Proxmox puts the new rule first, whatever `pos` says (VM.Config.Network). */
  async create(node: string, vmid: number, rule: NewGuestFirewallRule, digest: string | undefined, call?: CallOptions): Promise<void> {
    await this.http.request('POST', `${FIREWALL}/rules`, guestParams(node, vmid), { ...rule, digest }, call);
  }

  /** PUT …/firewall/rules/{pos} with `moveto`: the rule goes before the one now at `moveto` (past the end: last). */
  async move(node: string, vmid: number, pos: number, moveto: number, digest: string | undefined, call?: CallOptions): Promise<void> {
    await this.http.request('PUT', `${FIREWALL}/rules/{pos}`, { ...guestParams(node, vmid), pos }, { moveto, digest }, call);
  }

  /** DELETE …/firewall/rules/{pos}. */
  async delete(node: string, vmid: number, pos: number, digest: string | undefined, call?: CallOptions): Promise<void> {
    await this.http.request('DELETE', `${FIREWALL}/rules/{pos}`, { ...guestParams(node, vmid), pos }, { digest }, call);
  }
}
