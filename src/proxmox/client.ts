/**
 * The Proxmox VE client, by resource, in the manner of bpg/terraform-provider-proxmox's `proxmox/`
 * packages: the HTTP plumbing in http.ts, then one file per resource area, each a class of
 * methods with its wire types beside it, composed here on one ProxmoxClient per connection:
 *
 *   proxmox.guests.clone(node, templateVmid, { newid, name })
 *   proxmox.snapshots.delete(node, vmid, name)
 *   proxmox.tasks.wait(upid)
 *
 * Why areas on one client, rather than loose functions or bpg's scoped clients
 * (`Node(n).VM(id)`): the area names the resource and the method the verb, so a call reads as
 * what it does; every area shares the client's connection pool and its per-node task watchers;
 * and callers hold a guest as (node, vmid) from a database row, so passing both per call is
 * plainer than building a scoped client for each. A new area (storage downloads, say) is a
 * new file and one line below.
 */
import { AccessApi } from './access';
import { BackupsApi } from './backups';
import { ClusterApi } from './cluster';
import { ConsolesApi } from './consoles';
import { FirewallApi } from './firewall';
import { FirewallRulesApi } from './firewall-rules';
import { GuestConfigApi } from './guest-config';
import { GuestsApi } from './guests';
import { ProxmoxHttp, type ProxmoxClientOptions } from './http';
import { SnapshotsApi } from './snapshots';
import { StorageApi } from './storage';
import { TasksApi } from './tasks';

export class ProxmoxClient {
  /** The transport every area calls through; for a raw call no area makes. */
  readonly http: ProxmoxHttp;
  readonly cluster: ClusterApi;
  readonly access: AccessApi;
  readonly guests: GuestsApi;
  readonly guestConfig: GuestConfigApi;
  readonly snapshots: SnapshotsApi;
  readonly backups: BackupsApi;
  readonly storage: StorageApi;
  readonly tasks: TasksApi;
  readonly consoles: ConsolesApi;
  readonly firewall: FirewallApi;
  readonly firewallRules: FirewallRulesApi;

  constructor(opts: ProxmoxClientOptions) {
    this.http = new ProxmoxHttp(opts);
    this.cluster = new ClusterApi(this.http);
    this.access = new AccessApi(this.http);
    this.guests = new GuestsApi(this.http);
    this.guestConfig = new GuestConfigApi(this.http);
    this.snapshots = new SnapshotsApi(this.http);
    this.backups = new BackupsApi(this.http);
    this.storage = new StorageApi(this.http);
    this.tasks = new TasksApi(this.http);
    this.consoles = new ConsolesApi(this.http);
    this.firewall = new FirewallApi(this.http);
    this.firewallRules = new FirewallRulesApi(this.http);
  }

  /** USER@REALM!TOKENID: the user field of the UPIDs of the Proxmox tasks this client starts. */
  get tokenId(): string {
    return this.http.tokenId;
  }

  /** Releases pooled connections. */
  close(): void {
    this.http.close();
  }
}
