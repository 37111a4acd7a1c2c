import { isUniqueViolation } from '../db/errors';
import { mergeCloudConfig, parseCloudConfig } from '../domain/cloud-config';
import { newId } from '../security/ids';
import { parseCidr } from '../net/ip';
import type { ProxmoxClient } from '../proxmox';
import { sha512Crypt } from '../security/password-hash';
import { generatePassword } from '../security/secrets';
import { loadInstance, placement, WITH_ADDRESSES, type InstanceRef, type LoadedInstance } from './context';
import type { ActivityDeps } from './deps';
import { fail, FailureType } from './failures';
import { runProviderCall } from './provider-call';
import { cicustomFor, snippetsOf, writeVisibleSnippet } from './snippets';
import { say, stepLine } from './steps';

/** `ip=198.51.100.7/24,gw=198.51.100.1,ip6=2001:db8::7/64,gw6=2001:db8::1` for net0. */
export function ipConfigLine(addresses: LoadedInstance<typeof WITH_ADDRESSES>['addresses']): string {
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
  const needsPassword = instance.credentialType === 'PASSWORD' || instance.credentialType === 'PASSWORD_AND_SSH_KEY';
  const stored = await deps.db.credential
    .create({
      data: {
        id: newId('cred'),
        instanceId: instance.id,
        username: instance.username,
        secretCipher: needsPassword ? deps.secrets.seal(generatePassword(), instance.id) : null,
        sshKeys: instance.sshKeys,
        expiresAt: new Date(Date.now() + deps.config.CREDENTIAL_TTL_HOURS * 3_600_000),
      },
    })
    .catch((error: unknown) => {
      if (!isUniqueViolation(error)) throw error;
      return deps.db.credential.findUniqueOrThrow({ where: { instanceId: instance.id } });
    });
  return { password: stored.secretCipher ? deps.secrets.open(stored.secretCipher, instance.id) : null };
}

/**
 * The customer's user data merged with the identity we set (user, password hash, keys, hostname),
 * written as the instance's snippet and seen by the guest's node; answers the `cicustom` that
 * points the guest at it. Proxmox then takes the whole user-data from the file (ciuser,
 * cipassword and sshkeys no longer apply), while addresses and DNS still come from ipconfig0 and
 * nameserver.
 */
async function writeUserData(deps: ActivityDeps, client: ProxmoxClient, node: string, instance: LoadedInstance, password: string | null): Promise<string> {
  const target = snippetsOf(instance.connection);
  const parsed = parseCloudConfig(instance.userData ?? '');
  if (!parsed.ok) throw fail(FailureType.InconsistentState, `stored userData is not a cloud-config mapping: ${parsed.reason}`);
  const text = mergeCloudConfig(parsed.config, {
    hostname: instance.hostname,
    username: instance.username,
    passwordHash: password === null ? null : sha512Crypt(password),
    sshKeys: instance.sshKeys,
  });
  await writeVisibleSnippet(client, node, target, instance.id, text, deps.config.SNIPPETS_VISIBLE_WITHIN_SECONDS);
  return cicustomFor(target, instance.id);
}

/**
 * cloud_init: user, password and/or SSH keys, addresses and DNS; with userData, the snippet too.
 * Converges on retry: the same credential is reused, the snippet is rewritten whole (and looked for again) and the config write is idempotent; a recorded UPID (or, after a 5xx, a qmconfig task found started) is polled instead of writing again.
 */
export function createCloudInitActivity(deps: ActivityDeps) {
  return async function applyCloudInit({ instanceId, taskId }: InstanceRef): Promise<void> {
    const instance = await loadInstance(deps.db, instanceId, WITH_ADDRESSES);
    const { node, vmid } = placement(instance);
    const client = deps.proxmox(instance.connection);
    await say(deps, taskId, 'cloud_init', 'preparing first boot', 'processing', 'Setting the login, addresses and DNS.');
    const { password } = await credentialFor(deps, instance);
    const dns = [...new Set(instance.addresses.flatMap((a) => a.pool.dns))];
    const params: Record<string, string | number> = { ciuser: instance.username, ipconfig0: ipConfigLine(instance.addresses) };
    if (password) params.cipassword = password;
    if (instance.sshKeys.length) params.sshkeys = instance.sshKeys.join('\n');
    if (dns.length) params.nameserver = dns.join(' ');
    if (instance.userData !== null) params.cicustom = await writeUserData(deps, client, node, instance, password);
    await runProviderCall(deps, client, {
      instanceId,
      taskId,
      phase: 'cloud_init',
      kind: 'cloudinit',
      node,
      vmid,
      issue: () => client.guestConfig.set(node, vmid, params),
      startsTask: { type: 'qmconfig', id: vmid },
      reportsDone: stepLine(taskId, 'cloud_init', 'preparing first boot', 'success', 'Login and network settings are in place.'),
    });
  };
}
