import { describe, expect, it } from 'vitest';
import { ipConfigLine } from '../../src/activities/cloud-init';
import { diskSizeGiB, parseNetLine, unappliedConfig } from '../../src/activities/guest-config';

describe('unappliedConfig', () => {
  const current = { cores: 2, memory: '4096', name: 'pvecp-inst-1', scsi0: 'local-lvm:vm-101-disk-0,size=32G', agent: '1' };

  it('is empty when every desired key already has the desired value', () => {
    expect(unappliedConfig(current, { cores: 2, memory: 4096 })).toEqual({});
    expect(unappliedConfig(current, { name: 'pvecp-inst-1' })).toEqual({});
  });

  it('compares numbers and their text as equal, since Proxmox answers either', () => {
    expect(unappliedConfig(current, { cores: '2', agent: 1 })).toEqual({});
  });

  it('is empty for nothing desired', () => {
    expect(unappliedConfig(current, {})).toEqual({});
    expect(unappliedConfig({}, {})).toEqual({});
  });

  it('keeps exactly the desired values that differ', () => {
    expect(unappliedConfig(current, { cores: 4 })).toEqual({ cores: 4 });
    expect(unappliedConfig(current, { cores: 2, memory: 8192 })).toEqual({ memory: 8192 });
    expect(unappliedConfig(current, { name: 'PVECP-INST-1' })).toEqual({ name: 'PVECP-INST-1' });
  });

  it('keeps a desired key missing from the guest', () => {
    expect(unappliedConfig(current, { sockets: 1, cores: 2 })).toEqual({ sockets: 1 });
    expect(unappliedConfig({}, { cores: 2 })).toEqual({ cores: 2 });
  });

  it('ignores keys the guest has but nobody asked about', () => {
    expect(unappliedConfig({ ...current, balloon: 0 }, { cores: 2 })).toEqual({});
  });
});

describe('diskSizeGiB', () => {
  const size = (line: string | number | undefined, disk = 'scsi0') => diskSizeGiB(line === undefined ? {} : { [disk]: line }, disk);

  it('reads gibibytes', () => {
    expect(size('local-lvm:vm-101-disk-0,size=32G')).toBe(32);
    expect(size('local-lvm:vm-101-disk-0,discard=on,iothread=1,size=100G,ssd=1')).toBe(100);
  });

  it('converts tebibytes, mebibytes and kibibytes', () => {
    expect(size('ceph:vm-101-disk-0,size=2T')).toBe(2048);
    expect(size('ceph:vm-101-disk-0,size=512M')).toBe(0.5);
    expect(size('ceph:vm-101-disk-0,size=10240M')).toBe(10);
    expect(size('ceph:vm-101-disk-0,size=1048576K')).toBe(1);
    expect(size('ceph:vm-101-disk-0,size=2097152K')).toBe(2);
  });

  it('reads a bare number as bytes', () => {
    expect(size('local:101/vm-101-disk-0.qcow2,size=34359738368')).toBe(32);
    expect(size('local:101/vm-101-disk-0.qcow2,size=1073741824')).toBe(1);
  });

  it('reads fractional sizes', () => {
    expect(size('local-lvm:vm-101-disk-0,size=2.5G')).toBe(2.5);
    expect(size('local-lvm:vm-101-disk-0,size=1.5T')).toBe(1536);
  });

  it('reads the size option wherever it sits on the line', () => {
    expect(size('size=8G,local-lvm:vm-101-disk-0')).toBe(8);
    expect(size('local-lvm:vm-101-disk-0,size=8G')).toBe(8);
  });

  it('does not mistake another option ending in "size" for the size', () => {
    expect(size('local-lvm:vm-101-disk-0,blocksize=4K,size=16G')).toBe(16);
    expect(size('local-lvm:vm-101-disk-0,blocksize=4K')).toBeNull();
  });

  it('is null when the disk is missing, has no size, or is not a disk line', () => {
    expect(size(undefined)).toBeNull();
    expect(diskSizeGiB({ scsi1: 'local-lvm:vm-101-disk-1,size=32G' }, 'scsi0')).toBeNull();
    expect(size('local:iso/debian.iso,media=cdrom')).toBeNull();
    expect(size(32)).toBeNull();
  });

  it('reads the disk it is asked about', () => {
    const config = { scsi0: 'local-lvm:vm-101-disk-0,size=32G', scsi1: 'local-lvm:vm-101-disk-1,size=100G' };
    expect(diskSizeGiB(config, 'scsi0')).toBe(32);
    expect(diskSizeGiB(config, 'scsi1')).toBe(100);
  });
});

describe('parseNetLine', () => {
  it('splits a Proxmox network line into model, MAC, bridge, VLAN tag and firewall flag', () => {
    expect(parseNetLine('virtio=BC:24:11:00:00:01,bridge=vmbr0,tag=20,firewall=1')).toEqual({ model: 'virtio', mac: 'BC:24:11:00:00:01', bridge: 'vmbr0', tag: '20', firewall: '1' });
  });

  it('knows every NIC model Proxmox offers for guests here', () => {
    for (const model of ['virtio', 'e1000', 'rtl8139', 'vmxnet3']) {
      expect(parseNetLine(`${model}=BC:24:11:AA:BB:CC,bridge=vmbr1`)).toEqual({ model, mac: 'BC:24:11:AA:BB:CC', bridge: 'vmbr1', tag: undefined });
    }
  });

  it('leaves out what the line does not say', () => {
    const nic = parseNetLine('virtio=BC:24:11:00:00:01,bridge=vmbr0,rate=12');
    expect(nic).toEqual({ model: 'virtio', mac: 'BC:24:11:00:00:01', bridge: 'vmbr0' });
    expect(nic.tag).toBeUndefined();
    expect(nic.firewall).toBeUndefined();
  });

  it('has a model without a MAC when Proxmox is to choose one', () => {
    const nic = parseNetLine('virtio,bridge=vmbr0');
    expect(nic.model).toBe('virtio');
    expect(nic.mac).toBeUndefined();
    expect(nic.bridge).toBe('vmbr0');
  });

  it('has no model or MAC when the line names no known model', () => {
    const nic = parseNetLine('bridge=vmbr0,tag=5');
    expect(nic.model).toBeUndefined();
    expect(nic.mac).toBeUndefined();
    expect(nic).toMatchObject({ bridge: 'vmbr0', tag: '5' });
  });

  it('is empty for a missing or non-text value', () => {
    expect(parseNetLine(undefined)).toEqual({});
    expect(parseNetLine(0)).toEqual({});
  });
});

describe('ipConfigLine', () => {
  type Addresses = Parameters<typeof ipConfigLine>[0];
  const v4 = { family: 4, address: '198.51.100.7', pool: { cidr: '198.51.100.0/24', gateway: '198.51.100.1' } };
  const v6 = { family: 6, address: '2001:db8:100::7', pool: { cidr: '2001:db8:100::/64', gateway: '2001:db8:100::1' } };
  const line = (...addresses: object[]) => ipConfigLine(addresses as unknown as Addresses);

  it('writes an IPv4 address with its prefix and gateway', () => {
    expect(line(v4)).toBe('ip=198.51.100.7/24,gw=198.51.100.1');
  });

  it('writes IPv4 first and IPv6 second, whatever order the addresses come in', () => {
    const expected = 'ip=198.51.100.7/24,gw=198.51.100.1,ip6=2001:db8:100::7/64,gw6=2001:db8:100::1';
    expect(line(v4, v6)).toBe(expected);
    expect(line(v6, v4)).toBe(expected);
  });

  it('writes an IPv6-only line', () => {
    expect(line(v6)).toBe('ip6=2001:db8:100::7/64,gw6=2001:db8:100::1');
  });

  it("takes the prefix from the address's own pool", () => {
    const small = { family: 4, address: '10.0.0.2', pool: { cidr: '10.0.0.0/30', gateway: '10.0.0.1' } };
    expect(line(small)).toBe('ip=10.0.0.2/30,gw=10.0.0.1');
  });

  it('does not reorder the caller’s array', () => {
    const addresses = [v6, v4];
    ipConfigLine(addresses as unknown as Addresses);
    expect(addresses.map((a) => a.family)).toEqual([6, 4]);
  });

  it('is empty for an instance with no addresses', () => {
    expect(line()).toBe('');
  });
});
