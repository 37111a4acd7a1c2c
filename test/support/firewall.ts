/**
 * The firewall as tests see it from outside: Proxmox VE's own API with the simulator's root token
 * (to switch the firewall on as an operator would, or to change rules behind our back), and the
 * simulator's packet oracle.
 */
import { expect } from 'vitest';
import { DEFAULT_SIM_TOKEN } from '../../src/simulator/server';
import type { Stack } from './stack';
import { guestOf } from './lifecycle';

/** One call to the simulator's Proxmox API as root; answers `data`. */
export async function pve(stack: Stack, method: string, path: string, params: Record<string, string> = {}): Promise<unknown> {
  const query = method === 'GET' || method === 'DELETE' ? `?${new URLSearchParams(params).toString()}` : '';
  const res = await fetch(`${stack.sim.url}/api2/json${path}${query}`, {
    method,
    headers: { authorization: `PVEAPIToken=${DEFAULT_SIM_TOKEN}`, ...(query ? {} : { 'content-type': 'application/x-www-form-urlencoded' }) },
    ...(query ? {} : { body: new URLSearchParams(params).toString() }),
  });
  const text = await res.text();
  expect(res.status, `${method} ${path}: ${text}`).toBe(200);
  return (JSON.parse(text) as { data: unknown }).data;
}

export interface GuestNic {
  vmid: number;
  node: string;
  ipv4: string;
}

/** The server's guest with its NIC's `firewall=1` and the cluster's firewall on, as an operator sets them up; answers where it is. */
export async function firewallOn(stack: Stack, instanceId: string): Promise<GuestNic> {
  const guest = (await guestOf(stack, instanceId))!;
  await pve(stack, 'PUT', '/cluster/firewall/options', { enable: '1' });
  const net0 = String(guest.config.net0);
  if (!net0.includes('firewall=1')) await pve(stack, 'PUT', `/nodes/${guest.node}/qemu/${guest.vmid}/config`, { net0: `${net0},firewall=1` });
  const ipv4 = (await stack.api.db.ipAddress.findFirstOrThrow({ where: { instanceId, family: 4 } })).address;
  return { vmid: guest.vmid, node: guest.node, ipv4 };
}

/** The oracle's verdict on a new inbound connection to the server. */
export async function inbound(stack: Stack, nic: GuestNic, packet: { source: string; protocol: string; dport?: number }): Promise<string> {
  const res = await fetch(`${stack.sim.url}/_sim/firewall/packet`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ vmid: nic.vmid, direction: 'in', dest: nic.ipv4, ...packet }),
  });
  expect(res.status).toBe(200);
  return ((await res.json()) as { verdict: string }).verdict;
}

export interface HeldRule {
  pos: number;
  type: string;
  action: string;
  proto?: string;
  dport?: string;
  source?: string;
  comment?: string;
  enable?: number;
}

/** The guest's firewall rules as Proxmox holds them, in order. */
export async function heldRules(stack: Stack, nic: Pick<GuestNic, 'node' | 'vmid'>): Promise<HeldRule[]> {
  return ((await pve(stack, 'GET', `/nodes/${nic.node}/qemu/${nic.vmid}/firewall/rules`)) as HeldRule[]).sort((a, b) => a.pos - b.pos);
}

/** The rules in a short form: `ACCEPT tcp 443 <source> "<comment>"`. */
export const brief = (rules: HeldRule[]) => rules.map((r) => [r.type, r.action, r.proto ?? '*', r.dport ?? '*', r.source ?? '*', r.comment ?? '', r.enable ?? 0].join(' '));
