import { loadInstance, placement, type InstanceRef } from './context';
import type { ActivityDeps } from './deps';
import { fail, FailureType } from './failures';
import { say } from './steps';

/**
 * verify: Proxmox must report the guest running; the guest agent is asked too, but its silence
 * is only a warning (many images start the agent late or not at all).
 * Converges on retry: read-only.
 */
export function createVerifyActivity(deps: ActivityDeps) {
  return async function verifyGuest({ instanceId, taskId }: InstanceRef): Promise<void> {
    const instance = await loadInstance(deps.db, instanceId);
    const { node, vmid } = placement(instance);
    const client = deps.proxmox(instance.connection);
    await say(deps, taskId, 'verify', 'checking the server', 'processing', 'Checking that the server is up.');
    const status = await client.guests.status(node, vmid);
    if (status.status !== 'running') {
      // Retried with backoff until the stage's budget runs out.
      throw fail(FailureType.GuestNotRunning, `guest ${vmid} reports ${status.status}`, { vmid, node });
    }
    try {
      await client.guests.pingAgent(node, vmid);
      await say(deps, taskId, 'verify', 'guest agent', 'success', 'The guest agent answered.');
    } catch {
      await say(deps, taskId, 'verify', 'guest agent', 'warning', 'The guest agent did not answer yet; the server is running.');
    }
    await say(deps, taskId, 'verify', 'checking the server', 'success', 'The server is running.');
  };
}
