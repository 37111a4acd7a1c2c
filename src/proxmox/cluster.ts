/**
 * The cluster: its name and nodes, whether a VMID is free, each node's state, and the Proxmox VE
 * release it runs. The cluster's guests are listed by guests.ts.
 */
import { ProxmoxError } from './errors';
import type { CallOptions, ProxmoxHttp } from './http';
import { assertNode, assertVmid } from './paths';

export interface ClusterIdentity {
  clusterName: string | null;
  nodes: string[];
}

/** An entry of GET /nodes. */
export interface NodeListEntry {
  node: string;
  status: 'online' | 'offline' | 'unknown';
  maxcpu?: number;
  maxmem?: number;
  mem?: number;
  cpu?: number;
  [key: string]: unknown;
}

/** GET /nodes/{node}/status. */
export interface NodeStatus {
  cpuinfo: { flags?: string; model?: string; cpus?: number; cores?: number; sockets?: number; [key: string]: unknown };
  memory: { total: number; used: number; free: number; [key: string]: unknown };
  loadavg?: string[];
  uptime?: number;
  cpu?: number;
  pveversion?: string;
  [key: string]: unknown;
}

/** GET /version. */
export interface ProxmoxVersion {
  /** The pve-manager package version of the node answering, e.g. 9.2.3. */
  version: string;
  /** The point release, `x.y`. */
  release: string;
  repoid: string;
  [key: string]: unknown;
}

export class ClusterApi {
  constructor(private readonly http: ProxmoxHttp) {}

  /**
   * GET /cluster/status: the cluster's name (null for a standalone node) and its nodes' names;
   * what tells two connections to the same cluster apart from two clusters.
   */
  async identity(call?: CallOptions): Promise<ClusterIdentity> {
    const data = await this.http.request<{ type: string; name: string }[]>('GET', '/cluster/status', {}, {}, call);
    const entries = Array.isArray(data) ? data : [];
    return {
      clusterName: entries.find((e) => e.type === 'cluster')?.name ?? null,
      nodes: entries.filter((e) => e.type === 'node').map((e) => e.name),
    };
  }

  /** GET /cluster/nextid?vmid=N: true when the VMID is unused right now (reserves nothing). */
  async isVmidFree(vmid: number, call?: CallOptions): Promise<boolean> {
    assertVmid(vmid);
    try {
      const data = await this.http.request<unknown>('GET', '/cluster/nextid', {}, { vmid }, call);
      return String(data) === String(vmid);
    } catch (e) {
      if (e instanceof ProxmoxError && e.kind === 'http' && e.status === 400) return false;
      throw e;
    }
  }

  /** GET /nodes. */
  async nodes(call?: CallOptions): Promise<NodeListEntry[]> {
    const data = await this.http.request<NodeListEntry[]>('GET', '/nodes', {}, {}, call);
    return Array.isArray(data) ? data : [];
  }

  /** GET /nodes/{node}/status. */
  async nodeStatus(node: string, call?: CallOptions): Promise<NodeStatus> {
    assertNode(node);
    return this.http.request<NodeStatus>('GET', '/nodes/{node}/status', { node }, {}, call);
  }

  /** GET /version: the release of the node answering. */
  async version(call?: CallOptions): Promise<ProxmoxVersion> {
    return this.http.request<ProxmoxVersion>('GET', '/version', {}, {}, call);
  }
}
