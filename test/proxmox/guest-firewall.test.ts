/** The client's view of a guest's firewall, against the simulator: options as set, ipset entries as Proxmox writes them back, a missing ipset as null. */
import { describe, expect, it } from 'vitest';
import { useSim } from '../simulator/support';

describe('the guest firewall client', () => {
  const h = useSim();

  it('reads a missing ipset as null, then its entries as Proxmox writes them back (no /32 or /128)', async () => {
    expect(await h.client.firewall.ipsetEntries('pve1', 9000, 'ipfilter-net0')).toBeNull();
    await h.client.firewall.createIpset('pve1', 9000, 'ipfilter-net0');
    expect(await h.client.firewall.ipsetEntries('pve1', 9000, 'ipfilter-net0')).toEqual([]);
    await h.client.firewall.addIpsetEntry('pve1', 9000, 'ipfilter-net0', '198.51.100.7/32');
    await h.client.firewall.addIpsetEntry('pve1', 9000, 'ipfilter-net0', '2001:db8:0::7/128');
    expect((await h.client.firewall.ipsetEntries('pve1', 9000, 'ipfilter-net0'))?.map((e) => e.cidr).sort()).toEqual(['198.51.100.7', '2001:db8::7']);
    await h.client.firewall.removeIpsetEntry('pve1', 9000, 'ipfilter-net0', '2001:db8::7');
    await h.client.firewall.removeIpsetEntry('pve1', 9000, 'ipfilter-net0', '2001:db8::7');
    expect(await h.client.firewall.ipsetEntries('pve1', 9000, 'ipfilter-net0')).toEqual([{ cidr: '198.51.100.7' }]);
  });

  it('writes only the options given and reads back only what is set', async () => {
    expect(await h.client.firewall.guestOptions('pve1', 9000)).not.toHaveProperty('enable');
    await h.client.firewall.setGuestOptions('pve1', 9000, { enable: 1, ipfilter: 1 });
    await h.client.firewall.setGuestOptions('pve1', 9000, { macfilter: 1 });
    expect(await h.client.firewall.guestOptions('pve1', 9000)).toMatchObject({ enable: 1, ipfilter: 1, macfilter: 1 });
  });

  it('refuses a second entry for the same address, as Proxmox does', async () => {
    await h.client.firewall.createIpset('pve1', 9000, 'ipfilter-net0');
    await h.client.firewall.addIpsetEntry('pve1', 9000, 'ipfilter-net0', '198.51.100.7');
    await expect(h.client.firewall.addIpsetEntry('pve1', 9000, 'ipfilter-net0', '198.51.100.7')).rejects.toMatchObject({ isAlreadyExists: true });
  });
});
