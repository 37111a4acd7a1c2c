import { OWNERSHIP_TAG } from '../domain/ownership';
import type { CpuBaselineCache } from '../proxmox';
import { loadInstance, placement, type InstanceRef } from './context';
import type { ActivityDeps } from './deps';
import { growDisk, writeConfig } from './guest-calls';
import { runProviderCall } from './provider-call';
import { say, stepLine } from './steps';

/**
 * configure: CPU, memory, tags, a serial port (serial0: socket) and the root disk's size from the plan.
 * Converges on retry: the config write sends only the values the guest's config does not say yet, and the disk is resized to an absolute size only when smaller.
 */
export function createConfigureActivity(deps: ActivityDeps, cpuBaselines: CpuBaselineCache) {
  return async function configureGuest({ instanceId, taskId }: InstanceRef): Promise<void> {
    const instance = await loadInstance(deps.db, instanceId, { plan: true, volumes: true });
    const { node, vmid } = placement(instance);
    const client = deps.proxmox(instance.connection);
    const callKey = { instanceId, taskId, phase: 'configure', node, vmid };

    await say(deps, taskId, 'configure', 'sizing the server', 'processing', `Setting ${instance.plan.vcpus} vCPU and ${instance.plan.memoryMiB} MiB of memory.`);
    const { cpuType: cpu } = await cpuBaselines.get(instance.connectionId, client.cluster);
    // serial0: a serial console on every image (a guest made before takes it at its next boot).
    const desired = { sockets: 1, cores: instance.plan.vcpus, memory: instance.plan.memoryMiB, cpu, tags: OWNERSHIP_TAG, serial0: 'socket' };
    await runProviderCall(deps, client, {
      ...callKey,
      ...writeConfig(client, node, vmid, 'config', desired),
      // The config is read first, and only what differs is written: naming `serial0` at all wants
      // VM.Config.HWType, so a template that has its serial port already is not asked to again.
      repeatable: false,
      reportsDone: stepLine(taskId, 'configure', 'sizing the server', 'success', 'CPU and memory are set.'),
    });

    const volume = instance.volumes.find((v) => v.kind === 'root');
    const sizeGiB = volume?.sizeGiB ?? instance.plan.diskGiB;
    await say(deps, taskId, 'configure', 'growing the disk', 'processing', `Growing the disk to ${sizeGiB} GiB.`);
    await runProviderCall(deps, client, {
      ...callKey,
      ...growDisk(client, node, vmid, sizeGiB),
      reportsDone: stepLine(taskId, 'configure', 'growing the disk', 'success', `The disk is ${sizeGiB} GiB.`),
    });
  };
}
