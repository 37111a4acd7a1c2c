/**
 * Access control as the simulator answers it: no ACL is checked, every accepted token holds
 * everything.
 */

/** Privileges of Proxmox VE's Administrator role in both supported releases. */
const PRIVILEGES = [
  'Datastore.Allocate', 'Datastore.AllocateSpace', 'Datastore.AllocateTemplate', 'Datastore.Audit',
  'Group.Allocate', 'Mapping.Audit', 'Mapping.Modify', 'Mapping.Use', 'Permissions.Modify',
  'Pool.Allocate', 'Pool.Audit', 'Realm.Allocate', 'Realm.AllocateUser', 'SDN.Allocate', 'SDN.Audit', 'SDN.Use',
  'Sys.AccessNetwork', 'Sys.Audit', 'Sys.Console', 'Sys.Incoming', 'Sys.Modify', 'Sys.PowerMgmt', 'Sys.Syslog',
  'User.Modify', 'VM.Allocate', 'VM.Audit', 'VM.Backup', 'VM.Clone', 'VM.Config.CDROM', 'VM.Config.CPU',
  'VM.Config.Cloudinit', 'VM.Config.Disk', 'VM.Config.HWType', 'VM.Config.Memory', 'VM.Config.Network',
  'VM.Config.Options', 'VM.Console', 'VM.Migrate', 'VM.PowerMgmt', 'VM.Snapshot', 'VM.Snapshot.Rollback',
];

/**
 * GET /access/permissions. The simulator checks no ACL: every accepted token (and its user)
 * holds every privilege on `/`, propagated; anyone else holds none.
 */
export function permissions(tokens: Map<string, string>, caller: string, params: Record<string, string>): Record<string, Record<string, number>> {
  const userid = params.userid ?? caller;
  const known = [...tokens.keys()].some((t) => t === userid || t.slice(0, t.indexOf('!')) === userid);
  if (!known) return {};
  return { [params.path ?? '/']: Object.fromEntries(PRIVILEGES.map((p) => [p, 1])) };
}
