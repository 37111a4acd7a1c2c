import { ANTI_SPOOFING_OPTIONS, antiSpoofingOptionChanges, canonicalEntry, IPFILTER_IPSET, ipfilterEntries, ipsetChanges, withFirewallFlag } from '../domain/anti-spoofing';
import { ownerOf } from '../domain/ownership';
import { isAlreadyExists, type IpsetEntry, type ProxmoxClient } from '../proxmox';
import type { ActivityDeps } from './deps';
import { fromProxmoxError } from './failures';
import { parseNetLine } from './guest-config';
import { runProviderCall } from './provider-call';

/**
 * Anti-spoofing on one guest (domain/anti-spoofing.ts): the ipset `ipfilter-net0` holding exactly
 * the server's addresses, then the firewall options `enable`, `ipfilter`, `macfilter`. The set is
 * right before the filter is switched on, so a running guest never loses its own addresses; the
 * NIC's `firewall=1` is the network stage's net0 line.
 */

export interface FirewallGuest {
  node: string;
  vmid: number;
  /** The addresses the server holds (its IPv4, its IPv6). */
  addresses: readonly { address: string }[];
}

/** Where a stage's provider calls are recorded: the instance, its task, and the phase (the stage's name, e.g. `network`). */
export interface RecordedIn {
  instanceId: string;
  taskId: string;
  phase: string;
}

/** What the guest's firewall held of anti-spoofing, as the audit trail shows it. */
export interface AntiSpoofingState {
  options: Record<string, unknown>;
  /** Null: the guest has no such ipset. */
  ipfilterNet0: string[] | null;
  /** net0's `firewall` flag (null: not set, off). */
  net0Firewall: string | null;
}

async function readState(client: ProxmoxClient, guest: FirewallGuest): Promise<{ options: Record<string, unknown>; entries: IpsetEntry[] | null }> {
  const [options, entries] = await Promise.all([client.firewall.guestOptions(guest.node, guest.vmid), client.firewall.ipsetEntries(guest.node, guest.vmid, IPFILTER_IPSET)]);
  return { options, entries };
}

/**
 * An ipset or entry that is there already is what the write wanted ("already exists"): so these
 * writes may be repeated, and a first attempt makes them without reading first.
 */
async function alreadyThereIsDone(write: Promise<null>): Promise<null> {
  try {
    return await write;
  } catch (error) {
    if (isAlreadyExists(error)) return null;
    throw error;
  }
}

const hasEntry = (entries: IpsetEntry[] | null, cidr: string) => (entries ?? []).some((e) => !e.nomatch && canonicalOrSelf(e.cidr) === cidr);

function canonicalOrSelf(cidr: string): string {
  try {
    return canonicalEntry(cidr);
  } catch {
    return cidr;
  }
}

/**
 * Writes anti-spoofing as provider calls of a stage, each recorded before it is made.
 * Converges on retry: the state is read once and each write asks it whether it is done; a call an
 * earlier attempt recorded asks the firewall again instead (and is recorded as the success it was),
 * so after a crash between a write and its answer nothing is written twice and no record stays open.
 */
export async function writeAntiSpoofing(deps: ActivityDeps, client: ProxmoxClient, at: RecordedIn, guest: FirewallGuest): Promise<void> {
  const { node, vmid } = guest;
  const key = { instanceId: at.instanceId, taskId: at.taskId, phase: at.phase, node, vmid };
  let state;
  try {
    state = await readState(client, guest);
  } catch (error) {
    throw fromProxmoxError(error, { kind: 'firewall', node, vmid });
  }
  const entries = () => client.firewall.ipsetEntries(node, vmid, IPFILTER_IPSET);
  /** Done as the state read above says (a fresh claim: no earlier call can have changed it), or as the firewall says now. */
  const doneBy = (seen: boolean, now: () => Promise<boolean>) => async ({ fresh }: { fresh: boolean }) => (fresh ? seen : now());
  await runProviderCall(deps, client, {
    ...key,
    kind: `firewall.ipset ${IPFILTER_IPSET}`,
    repeatable: true,
    isDone: doneBy(state.entries !== null, async () => (await entries()) !== null),
    issue: () => alreadyThereIsDone(client.firewall.createIpset(node, vmid, IPFILTER_IPSET, 'anti-spoofing: the addresses this server holds')),
  });
  const wanted = ipfilterEntries(guest.addresses);
  for (const cidr of ipsetChanges(state.entries ?? [], wanted).remove) {
    await runProviderCall(deps, client, {
      ...key,
      kind: `firewall.ipset-${cidr}`,
      repeatable: true,
      isDone: async () => !((await entries()) ?? []).some((e) => e.cidr === cidr),
      issue: () => client.firewall.removeIpsetEntry(node, vmid, IPFILTER_IPSET, cidr),
    });
  }
  // Each entry on its own: Proxmox serializes writes of the guest's firewall file.
  await Promise.all(
    wanted.map((cidr) =>
      runProviderCall(deps, client, {
        ...key,
        kind: `firewall.ipset+${cidr}`,
        repeatable: true,
        isDone: doneBy(hasEntry(state.entries, cidr), async () => hasEntry(await entries(), cidr)),
        issue: () => alreadyThereIsDone(client.firewall.addIpsetEntry(node, vmid, IPFILTER_IPSET, cidr)),
      }),
    ),
  );
  const options = antiSpoofingOptionChanges(state.options);
  await runProviderCall(deps, client, {
    ...key,
    kind: 'firewall.options',
    isDone: doneBy(Object.keys(options).length === 0, async () => Object.keys(antiSpoofingOptionChanges(await client.firewall.guestOptions(node, vmid))).length === 0),
    issue: () => client.firewall.setGuestOptions(node, vmid, options),
  });
}

const shown = (state: { options: Record<string, unknown>; entries: IpsetEntry[] | null }, net0Firewall: string | null): AntiSpoofingState => ({
  options: Object.fromEntries(['enable', 'ipfilter', 'macfilter', 'policy_in'].filter((k) => state.options[k] !== undefined).map((k) => [k, state.options[k]])),
  ipfilterNet0: state.entries === null ? null : state.entries.map((e) => (e.nomatch ? `!${e.cidr}` : e.cidr)).sort(),
  net0Firewall,
});

/**
 * The reconciler's look at one guest: what anti-spoofing lacks is written back at once (the set,
 * the options, then net0's `firewall=1`, on the config's digest so a concurrent edit is not
 * overwritten); the state before and after, or null when nothing had changed or the guest at the
 * VMID does not carry the instance's marker (a guest that is not ours is never written to).
 * Converges on retry: it reads before it writes, and each write makes what it reads true.
 */
export async function restoreAntiSpoofing(client: ProxmoxClient, guest: FirewallGuest & { instanceId: string }): Promise<{ before: AntiSpoofingState; after: AntiSpoofingState } | null> {
  const { node, vmid } = guest;
  const [state, config] = await Promise.all([readState(client, guest), client.guestConfig.get(node, vmid)]);
  const owner = ownerOf({ name: typeof config.name === 'string' ? config.name : undefined, description: typeof config.description === 'string' ? config.description : undefined });
  if (owner !== guest.instanceId) return null;
  const wanted = ipfilterEntries(guest.addresses);
  const { add, remove } = ipsetChanges(state.entries ?? [], wanted);
  const options = antiSpoofingOptionChanges(state.options);
  const net0 = typeof config.net0 === 'string' ? config.net0 : null;
  const flag = parseNetLine(net0 ?? undefined).firewall ?? null;
  const nicOff = net0 !== null && flag !== '1';
  if (state.entries !== null && add.length === 0 && remove.length === 0 && Object.keys(options).length === 0 && !nicOff) return null;
  if (state.entries === null) await client.firewall.createIpset(node, vmid, IPFILTER_IPSET, 'anti-spoofing: the addresses this server holds');
  for (const cidr of remove) await client.firewall.removeIpsetEntry(node, vmid, IPFILTER_IPSET, cidr);
  for (const cidr of add) await client.firewall.addIpsetEntry(node, vmid, IPFILTER_IPSET, cidr);
  if (Object.keys(options).length > 0) await client.firewall.setGuestOptions(node, vmid, options);
  if (nicOff) {
    // The synchronous PUT: a NIC flag needs no Proxmox task to wait for.
    await client.guestConfig.setSync(node, vmid, { net0: withFirewallFlag(net0), ...(config.digest ? { digest: config.digest } : {}) });
  }
  return {
    before: shown(state, flag),
    after: shown({ options: { ...state.options, ...ANTI_SPOOFING_OPTIONS, ...options }, entries: wanted.map((cidr) => ({ cidr })) }, net0 === null ? null : '1'),
  };
}
