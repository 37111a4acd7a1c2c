import type { VmConfig } from '../proxmox';
import { loadInstance, placement, WITH_ADDRESSES, type InstanceRef } from './context';
import type { ActivityDeps } from './deps';
import { fail, FailureType } from './failures';
import { parseNetLine } from './guest-config';
import { writeAntiSpoofing } from './anti-spoofing';
import { runProviderCall } from './provider-call';
import { say } from './steps';

/**
 * network: anti-spoofing first (the ipset `ipfilter-net0` with exactly the server's addresses, the
 * guest firewall's `enable`, `ipfilter`, `macfilter`), then the primary NIC on the location's
 * bridge (and VLAN) with `firewall=1`, then its MAC read back.
 * Converges on retry: only what differs is written (anti-spoofing.ts); the NIC only when its bridge,
 * VLAN, firewall flag or (for a rebuilt guest) MAC differ, keeping the MAC it has.
 */
export function createNetworkActivity(deps: ActivityDeps) {
  return async function attachNetwork({ instanceId, taskId }: InstanceRef): Promise<void> {
    const instance = await loadInstance(deps.db, instanceId, WITH_ADDRESSES);
    const { node, vmid } = placement(instance);
    const primary = instance.addresses.find((a) => a.family === 4);
    if (!primary) throw fail(FailureType.InconsistentState, `instance ${instanceId} has no IPv4 address`);
    const client = deps.proxmox(instance.connection);
    const { bridge, vlan } = primary.pool;
    await say(deps, taskId, 'network', 'attaching the network', 'processing', 'Connecting the server to the network.');
    await writeAntiSpoofing(deps, client, { instanceId, taskId, phase: 'network' }, { node, vmid, addresses: instance.addresses });
    // A rebuilt guest keeps the MAC address the instance had.
    const keptMac = instance.macAddress?.toUpperCase() ?? null;
    const isWanted = (line: string | number | undefined) => {
      const nic = parseNetLine(line);
      const macOk = keptMac === null || nic.mac?.toUpperCase() === keptMac;
      return nic.model === 'virtio' && nic.bridge === bridge && (nic.tag ?? null) === (vlan === null ? null : String(vlan)) && nic.firewall === '1' && macOk;
    };
    // The config isDone read; an unchanged NIC's MAC is read from it instead of asking again.
    let seen: VmConfig | undefined;
    const { skipped } = await runProviderCall(deps, client, {
      instanceId,
      taskId,
      phase: 'network',
      kind: 'net0',
      node,
      vmid,
      isDone: async () => isWanted((seen = await client.guestConfig.get(node, vmid)).net0),
      issue: async () => {
        const mac = keptMac ?? parseNetLine((await client.guestConfig.get(node, vmid)).net0).mac;
        const line = [mac ? `virtio=${mac}` : 'virtio', `bridge=${bridge}`, ...(vlan === null ? [] : [`tag=${vlan}`]), 'firewall=1'].join(',');
        return client.guestConfig.set(node, vmid, { net0: line });
      },
      startsTask: { type: 'qmconfig', id: vmid },
    });
    const mac = parseNetLine((skipped && seen ? seen : await client.guestConfig.get(node, vmid)).net0).mac;
    if (!mac) throw fail(FailureType.InconsistentState, `guest ${vmid} has no MAC address on net0`);
    await deps.db.instance.update({ where: { id: instanceId }, data: { macAddress: mac, firewallCheckedAt: new Date() } });
    await say(deps, taskId, 'network', 'attaching the network', 'success', 'The network interface is attached.');
  };
}
