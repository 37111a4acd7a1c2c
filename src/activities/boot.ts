import { loadInstance, placement, type InstanceRef } from './context';
import type { ActivityDeps } from './deps';
import { powerOn, writeConfig } from './guest-calls';
import { runProviderCall } from './provider-call';
import { say, stepLine } from './steps';

const BOOT_SETTINGS = { boot: 'order=scsi0', agent: 1, onboot: 1 };

/**
 * boot: boot order, guest agent and start-on-boot, then power on.
 * Converges on retry: settings are compared first; a running guest is not started again, and "already running" counts as done.
 */
export function createBootActivity(deps: ActivityDeps) {
  return async function bootGuest({ instanceId, taskId }: InstanceRef): Promise<void> {
    const instance = await loadInstance(deps.db, instanceId);
    const { node, vmid } = placement(instance);
    const client = deps.proxmox(instance.connection);
    const callKey = { instanceId, taskId, phase: 'boot', node, vmid };
    await say(deps, taskId, 'boot', 'starting the server', 'processing', 'Powering the server on.');
    await runProviderCall(deps, client, { ...callKey, ...writeConfig(client, node, vmid, 'bootconfig', BOOT_SETTINGS) });
    await runProviderCall(deps, client, { ...callKey, ...powerOn(client, node, vmid), reportsDone: stepLine(taskId, 'boot', 'starting the server', 'success', 'The server is powered on.') });
  };
}
