import type { BootParams, OperationParams } from './lifecycle';
import type { Tx } from './client';

/**
 * An ISO, boot-order or rescue operation that did what it asked records what the guest now has
 * in its CD-ROM drive and boot order (and whether it is in rescue); one that did not changes
 * nothing here. Absolute values: settling twice is settling once.
 */
export async function settleBoot(tx: Tx, instanceId: string, params: OperationParams, outcome: 'commit' | 'revert'): Promise<void> {
  const boot: BootParams | undefined = params.boot;
  if (!boot || outcome === 'revert') return;
  await tx.instance.update({
    where: { id: instanceId },
    data: {
      ...(boot.iso !== undefined ? { isoId: boot.iso?.isoId ?? null } : {}),
      ...(boot.bootFirst ? { bootFirst: boot.bootFirst } : {}),
      ...(boot.rescue === 'enter' ? { rescueSince: new Date() } : {}),
      ...(boot.rescue === 'leave' ? { rescueSince: null } : {}),
    },
  });
  if (boot.rescue === 'leave') await tx.rescueCredential.deleteMany({ where: { instanceId } });
}
