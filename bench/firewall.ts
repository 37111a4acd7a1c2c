/**
 * What anti-spoofing costs Proxmox, measured alone against the simulator in this process (tasks
 * 0 ms): (1) the firewall part of one provision's network stage on a fresh guest — the calls
 * `writeAntiSpoofing` makes, in its order; (2) the firewall part of one reconcile pass on a
 * cluster of `--guests` guests — `FIREWALL_CHECKS_PER_PASS` guests checked by
 * `restoreAntiSpoofing`, once as the first pass after an upgrade (everything written) and once
 * in the steady state (reads only). The database side is one UPDATE per guest checked (plus an
 * audit row and an event for each one written back) and two statements per recorded write.
 *
 *   npx tsx bench/firewall.ts --guests=30000 --checks=200
 */
import { performance } from 'node:perf_hooks';
import { restoreAntiSpoofing } from '../src/activities/anti-spoofing';
import { IPFILTER_IPSET } from '../src/domain/anti-spoofing';
import { guestDescription } from '../src/domain/ownership';
import { ProxmoxClient } from '../src/proxmox';
import { createSimulator, DEFAULT_SIM_TOKEN, parseToken } from '../src/simulator/server';
import { round } from './stats';

const arg = (name: string, fallback: number) => Number(new RegExp(`^--${name}=(\\d+)$`).exec(process.argv.find((a) => a.startsWith(`--${name}=`)) ?? '')?.[1] ?? fallback);

/** Every Proxmox call made while `run` ran, by method and path, and how long it took. */
async function measured(calls: Map<string, number>, run: () => Promise<unknown>): Promise<{ ms: number; calls: number; byCall: Record<string, number> }> {
  const before = new Map(calls);
  const started = performance.now();
  await run();
  const ms = round(performance.now() - started, 1);
  const byCall = Object.fromEntries([...calls].map(([k, v]) => [k, v - (before.get(k) ?? 0)]).filter(([, v]) => (v as number) > 0));
  return { ms, calls: Object.values(byCall).reduce((a: number, b) => a + (b as number), 0), byCall };
}

async function main(): Promise<void> {
  const guests = arg('guests', 30_000);
  const checks = arg('checks', 200);
  const simulator = createSimulator({ token: DEFAULT_SIM_TOKEN, taskMs: 0, maxRecordedRequests: 0 });
  const listening = await simulator.listen(0, '127.0.0.1');
  const { tokenId, secret } = parseToken(DEFAULT_SIM_TOKEN);
  const client = new ProxmoxClient({ baseUrl: listening.url, tokenId, tokenSecret: secret, plaintextLab: true });
  try {
    const seeded = await fetch(`${listening.url}/_sim/guests`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ count: guests, firstVmid: 100_000, status: 'running' }) });
    if (seeded.status !== 201) throw new Error(`seeding guests: ${seeded.status}`);
    const listed = (await client.guests.list()).filter((g) => g.vmid >= 100_000);
    const address = (i: number) => [{ address: `10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}` }, { address: `2001:db8::${i.toString(16)}` }];
    const target = (i: number) => ({ instanceId: `inst_bench${i}`, node: listed[i]!.node, vmid: listed[i]!.vmid, addresses: address(i) });

    // (1) one provision: the firewall calls of writeAntiSpoofing on a fresh guest, in its order.
    const fresh = target(guests - 1);
    const provision = await measured(simulator.calls, async () => {
      await Promise.all([client.firewall.guestOptions(fresh.node, fresh.vmid), client.firewall.ipsetEntries(fresh.node, fresh.vmid, IPFILTER_IPSET)]);
      await client.firewall.createIpset(fresh.node, fresh.vmid, IPFILTER_IPSET, 'anti-spoofing');
      for (const a of fresh.addresses) await client.firewall.addIpsetEntry(fresh.node, fresh.vmid, IPFILTER_IPSET, a.address);
      await client.firewall.setGuestOptions(fresh.node, fresh.vmid, { enable: 1, ipfilter: 1, macfilter: 1, policy_in: 'ACCEPT' });
    });

    // (2) one reconcile pass's firewall part: the first after an upgrade, then the steady state.
    // The checked guests carry our marker, as ours do (a guest without it is never written to).
    for (let i = 0; i < checks; i++) await client.guestConfig.setSync(target(i).node, target(i).vmid, { description: guestDescription(target(i).instanceId) });
    const pass = () => measured(simulator.calls, async () => {
      for (let i = 0; i < checks; i++) await restoreAntiSpoofing(client, target(i));
    });
    const first = await pass();
    const steady = await pass();
    const perGuest = (m: { ms: number }) => round(m.ms / checks, 2);
    console.log(JSON.stringify({ guests, checks, provision, firstPass: { ...first, msPerGuest: perGuest(first) }, steadyPass: { ...steady, msPerGuest: perGuest(steady) } }, null, 2));
  } finally {
    client.close();
    await listening.close();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
