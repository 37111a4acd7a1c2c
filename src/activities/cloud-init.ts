import { newId } from '../domain/ids';
import { parseCidr } from '../domain/ip';
import { generatePassword } from '../security/secrets';
import { loadInstance, placement, type InstanceRef, type LoadedInstance } from './context';
import type { ActivityDeps } from './deps';
import { runProviderStep } from './provider-step';
import { say } from './steps';

/** `ip=198.51.100.7/24,gw=198.51.100.1,ip6=2001:db8::7/64,gw6=2001:db8::1` for net0. */
export function ipConfigLine(addresses: LoadedInstance['addresses']): string {
  return addresses
    .slice()
    .sort((a, b) => a.family - b.family)
    .map((a) => {
      const prefix = parseCidr(a.pool.cidr).prefix;
      return a.family === 4 ? `ip=${a.address}/${prefix},gw=${a.pool.gateway}` : `ip6=${a.address}/${prefix},gw6=${a.pool.gateway}`;
    })
    .join(',');
}

/**
 * The login credential: minted once per operation with a CSPRNG and stored encrypted before
 * Proxmox sees it. Whatever is stored wins (an earlier attempt's, or a concurrent one's), so a
 * retried attempt sends the same password the reveal will show.
 */
async function credentialFor(deps: ActivityDeps, instance: LoadedInstance): Promise<{ password: string | null }> {
  let stored = await deps.db.credential.findUnique({ where: { instanceId: instance.id } });
  if (!stored) {
    const needsPassword = instance.credentialType === 'PASSWORD' || instance.credentialType === 'PASSWORD_AND_SSH_KEY';
    await deps.db.credential.createMany({
      data: {
        id: newId('cred'),
        instanceId: instance.id,
        username: instance.username,
        secretCipher: needsPassword ? deps.secrets.seal(generatePassword(), instance.id) : null,
        sshKeys: instance.sshKeys,
        expiresAt: new Date(Date.now() + deps.config.CREDENTIAL_TTL_HOURS * 3_600_000),
      },
      skipDuplicates: true,
    });
    stored = await deps.db.credential.findUniqueOrThrow({ where: { instanceId: instance.id } });
  }
  return { password: stored.secretCipher ? deps.secrets.open(stored.secretCipher, instance.id) : null };
}

/**
 * cloud_init: user, password and/or SSH keys, addresses and DNS.
 * Converges on retry: the same credential is reused and the config write is idempotent; a recorded UPID is polled instead of writing again.
 */
export function createCloudInitActivity(deps: ActivityDeps) {
  return async function applyCloudInit({ instanceId, taskId }: InstanceRef): Promise<void> {
    const instance = await loadInstance(deps.db, instanceId);
    const { node, vmid } = placement(instance);
    const client = deps.proxmox(instance.connection);
    await say(deps, taskId, 'cloud_init', 'preparing first boot', 'processing', 'Setting the login, addresses and DNS.');
    const { password } = await credentialFor(deps, instance);
    const dns = [...new Set(instance.addresses.flatMap((a) => a.pool.dns))];
    const params: Record<string, string | number> = { ciuser: instance.username, ipconfig0: ipConfigLine(instance.addresses) };
    if (password) params.cipassword = password;
    if (instance.sshKeys.length) params.sshkeys = instance.sshKeys.join('\n');
    if (dns.length) params.nameserver = dns.join(' ');
    await runProviderStep(deps, client, {
      instanceId,
      taskId,
      stage: 'cloud_init',
      kind: 'cloudinit',
      node,
      vmid,
      issue: () => client.setVmConfigAsync(node, vmid, params),
    });
    await say(deps, taskId, 'cloud_init', 'preparing first boot', 'success', 'Login and network settings are in place.');
  };
}
