import { newId } from '../security/ids';
import { sha512Crypt } from '../security/password-hash';
import { generatePassword } from '../security/secrets';
import { isUniqueViolation } from '../db/errors';
import type { BootParams } from '../db/lifecycle';
import type { ProxmoxClient } from '../proxmox';
import type { ActivityDeps } from './deps';
import { fail, FailureType } from './failures';
import type { GuestCall } from './guest-calls';
import { guestOf, paramsOf, saidCall, type Guest } from './lifecycle';
import type { InstanceRef } from './context';
import { cicustomFor, deleteSnippet, snippetsOf, writeVisibleSnippet } from './snippets';
import { BOOT_ORDER, driveVolume, ISO_DRIVE, RESCUE_USERNAME } from '../domain/boot-media';

const EMPTY_DRIVE = 'none,media=cdrom';
/** The name the rescue system's user-data snippet goes by, beside the server's own. */
const rescueSnippetOf = (instanceId: string) => `rescue-${instanceId}`;


/**
 * A config write compared with the guest's config by meaning (a drive line by its volume, a key
 * to delete by its absence), so that a retry writes only what is not there yet.
 */
function writeBootConfig(client: ProxmoxClient, node: string, vmid: number, kind: string, set: Record<string, string>, remove: string[]): GuestCall {
  let unset = set;
  let unremoved = remove;
  return {
    kind,
    isDone: async () => {
      const config = await client.guestConfig.get(node, vmid);
      unset = Object.fromEntries(
        Object.entries(set).filter(([key, value]) => (key === ISO_DRIVE ? driveVolume(config[key]) !== driveVolume(value) : String(config[key] ?? '') !== value)),
      );
      unremoved = remove.filter((key) => config[key] !== undefined);
      return Object.keys(unset).length === 0 && unremoved.length === 0;
    },
    repeatable: true,
    issue: () => client.guestConfig.set(node, vmid, { ...unset, ...(unremoved.length ? { delete: unremoved.join(',') } : {}) }),
    startsTask: { type: 'qmconfig', id: vmid },
  };
}

/** The drive and boot order an operation's parameters ask for. */
function bootValues(boot: BootParams): Record<string, string> {
  return {
    ...(boot.iso !== undefined ? { [ISO_DRIVE]: boot.iso ? `${boot.iso.volume},media=cdrom` : EMPTY_DRIVE } : {}),
    ...(boot.bootFirst ? { boot: BOOT_ORDER[boot.bootFirst] } : {}),
  };
}

async function bootParamsOf(deps: ActivityDeps, taskId: string): Promise<BootParams> {
  const boot = (await paramsOf(deps, taskId)).boot;
  if (!boot) throw fail(FailureType.InconsistentState, `task ${taskId} has no boot parameters`);
  return boot;
}

async function isRunning(guest: Guest): Promise<boolean> {
  return (await guest.client.guests.status(guest.node, guest.vmid)).status === 'running';
}

/**
 * iso_mount, iso_eject, boot_order: the CD-ROM drive and boot order the task asks for. A CD-ROM
 * change reaches a running guest at once; a boot order waits for its next start or reboot.
 * Converges on retry: the write is compared with the guest's config first and sends only what differs.
 */
export function createApplyBootMediaActivity(deps: ActivityDeps) {
  return async function applyBootMedia(ref: InstanceRef): Promise<void> {
    const guest = await guestOf(deps, ref, (await deps.db.task.findUniqueOrThrow({ where: { id: ref.taskId }, select: { type: true } })).type.toLowerCase());
    const boot = await bootParamsOf(deps, ref.taskId);
    const what = boot.iso !== undefined ? (boot.iso ? 'mounting the ISO' : 'ejecting the ISO') : 'setting the boot order';
    const done = boot.iso !== undefined ? (boot.iso ? 'The ISO is in the CD-ROM drive.' : 'The CD-ROM drive is empty.') : `The server boots from its ${boot.bootFirst} first after its next restart.`;
    await saidCall(deps, guest, what, [`${what[0]?.toUpperCase()}${what.slice(1)}.`, done], writeBootConfig(guest.client, guest.node, guest.vmid, 'boot-media', bootValues(boot), []));
  };
}

/**
 * The rescue password: minted once per rescue entry with a CSPRNG and stored sealed before
 * Proxmox sees its hash; whatever this entry stored wins, so a retry hands over the same one.
 */
async function rescuePasswordFor(deps: ActivityDeps, instanceId: string, taskId: string): Promise<string> {
  // Sealed bound to its own row's id, as every sealed column is (npm run rotate-keys re-seals it).
  const id = newId('cred');
  const stored = await deps.db.rescueCredential
    .create({
      data: {
        id,
        instanceId,
        taskId,
        secretCipher: deps.secrets.seal(generatePassword(), id),
        expiresAt: new Date(Date.now() + deps.config.CREDENTIAL_TTL_HOURS * 3_600_000),
      },
    })
    .catch(async (error: unknown) => {
      if (!isUniqueViolation(error)) throw error;
      return deps.db.rescueCredential.findUniqueOrThrow({ where: { instanceId } });
    });
  if (stored.taskId !== taskId) throw fail(FailureType.InconsistentState, `instance ${instanceId} holds the rescue password of another entry (${stored.taskId})`);
  if (!stored.secretCipher) throw fail(FailureType.InconsistentState, `the rescue password of ${instanceId} was revealed before the rescue system got it`);
  return deps.secrets.open(stored.secretCipher, stored.id);
}

/** The rescue system's user-data: root with the rescue password, reachable over SSH by it. */
const rescueUserData = (passwordHash: string) =>
  ['#cloud-config', 'disable_root: false', 'ssh_pwauth: true', 'users:', `  - name: ${RESCUE_USERNAME}`, '    lock_passwd: false', `    hashed_passwd: ${passwordHash}`, ''].join('\n');

/**
 * rescue_enter, before the boot: the rescue password handed over as user-data of the cloud-init
 * drive (a snippet; the server's own cloud-init settings are not touched, so its system sees
 * nothing new when it boots again), the rescue ISO in the CD-ROM drive, the CD-ROM first.
 * Answers whether the guest runs (then it is rebooted into rescue, else started).
 * Converges on retry: the same password (stored for this task), the snippet rewritten whole, the config compared first.
 */
export function createPrepareRescueActivity(deps: ActivityDeps) {
  return async function prepareRescue(ref: InstanceRef): Promise<{ running: boolean }> {
    const guest = await guestOf(deps, ref, 'rescue_enter');
    const boot = await bootParamsOf(deps, ref.taskId);
    const target = snippetsOf(guest.instance.connection);
    const password = await rescuePasswordFor(deps, ref.instanceId, ref.taskId);
    await writeVisibleSnippet(guest.client, guest.node, target, rescueSnippetOf(ref.instanceId), rescueUserData(sha512Crypt(password)), deps.config.SNIPPETS_VISIBLE_WITHIN_SECONDS);
    await saidCall(
      deps,
      guest,
      'mounting the rescue system',
      ['Putting the rescue system in the CD-ROM drive, first in the boot order.', 'The rescue system is mounted.'],
      writeBootConfig(guest.client, guest.node, guest.vmid, 'rescue-config', { ...bootValues(boot), cicustom: cicustomFor(target, rescueSnippetOf(ref.instanceId)) }, []),
    );
    return { running: await isRunning(guest) };
  };
}

/**
 * rescue_leave (and a rescue entry that failed): the CD-ROM drive emptied, the disk first, the
 * server's own cloud-init user-data (or none) back, the rescue snippet deleted. Answers whether
 * the guest runs (then it is rebooted into its disk).
 * Converges on retry: the config compared first; deleting a missing snippet is nothing.
 */
export function createRestoreFromRescueActivity(deps: ActivityDeps) {
  return async function restoreFromRescue(ref: InstanceRef): Promise<{ running: boolean }> {
    const guest = await guestOf(deps, ref, 'rescue_leave');
    const { instance } = guest;
    const own: Record<string, string> = instance.userData !== null && instance.connection.snippetsStorage ? { cicustom: cicustomFor(snippetsOf(instance.connection), instance.id) } : {};
    await saidCall(
      deps,
      guest,
      'ejecting the rescue system',
      ['Emptying the CD-ROM drive and booting from the disk first.', 'The rescue system is ejected.'],
      writeBootConfig(guest.client, guest.node, guest.vmid, 'rescue-restore', { ...bootValues({ iso: null, bootFirst: 'disk' }), ...own }, own.cicustom ? [] : ['cicustom']),
    );
    await deleteSnippet(instance.connection, rescueSnippetOf(instance.id));
    return { running: await isRunning(guest) };
  };
}
