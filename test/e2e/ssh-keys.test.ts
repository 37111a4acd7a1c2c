/**
 * A key saved on the account reaches the guest: a create naming it by id (beside a raw key) writes
 * both to the guest's cloud-init `sshkeys`, and a rebuild naming another gives the new disk that one.
 */
import { describe, expect, it } from 'vitest';
import { guestOf, runningServer, runOperation, suiteStack } from '../support/lifecycle';
import { sshPublicKeyLine } from '../support/ssh-keys';

describe('SSH keys from the account', () => {
  const stack = suiteStack();
  /** The keys the guest's cloud-init holds (Proxmox keeps them URL-encoded, one per line). */
  const guestKeys = async (id: string) => decodeURIComponent(String((await guestOf(stack, id))!.config.sshkeys ?? '')).trim().split('\n');
  const save = async (name: string, publicKey: string) => {
    const res = await stack.api.request('POST', '/v1/ssh-keys', { token: stack.customer.token, body: { name, publicKey } });
    expect(res.status, res.text).toBe(201);
    return res.body.data.id as string;
  };

  it("hands the guest the account's keys named in a create and a rebuild", async () => {
    const laptop = sshPublicKeyLine({ type: 'ed25519' }, 'laptop');
    const raw = sshPublicKeyLine({ type: 'ec', curve: 'P-256' }, 'ci-runner');
    const id = await runningServer(stack, { hostname: 'keys-from-account', sshKeyIds: [await save('laptop', laptop)], sshKeys: [raw] });
    expect(await guestKeys(id)).toEqual([laptop, raw]);

    const desktop = sshPublicKeyLine({ type: 'rsa', bits: 2048 }, 'desktop');
    const rebuilt = await runOperation(stack, id, 'rebuild', { sshKeyIds: [await save('desktop', desktop)] });
    expect(rebuilt.task.status).toBe('succeeded');
    expect(await guestKeys(id)).toEqual([desktop]);
  });
});
