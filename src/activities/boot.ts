import { loadInstance, placement, type InstanceRef } from './context';
import type { ActivityDeps } from './deps';
import { matchesConfig } from './guest-config';
import { runProviderStep } from './provider-step';
import { say } from './steps';

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
    const step = { instanceId, taskId, stage: 'boot', node, vmid };
    await say(deps, taskId, 'boot', 'starting the server', 'processing', 'Powering the server on.');
    await runProviderStep(deps, client, {
      ...step,
      kind: 'bootconfig',
      isDone: async () => matchesConfig(await client.getVmConfig(node, vmid), BOOT_SETTINGS),
      issue: () => client.setVmConfigAsync(node, vmid, BOOT_SETTINGS),
    });
    await runProviderStep(deps, client, {
      ...step,
      kind: 'start',
      isDone: async () => (await client.vmStatus(node, vmid)).status === 'running',
      issue: () => client.startVm(node, vmid),
      acceptsTaskError: (exit) => /already running/i.test(exit),
    });
    await say(deps, taskId, 'boot', 'starting the server', 'success', 'The server is powered on.');
  };
}
