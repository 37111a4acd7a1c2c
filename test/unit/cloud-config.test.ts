import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { mergeCloudConfig, parseCloudConfig } from '../../src/domain/cloud-config';
import { sha512Crypt } from '../../src/security/password-hash';

describe('SHA-512 crypt', () => {
  it('matches the test vectors of the specification and of openssl passwd -6', () => {
    expect(sha512Crypt('Hello world!', 'saltstring')).toBe('$6$saltstring$svn8UoSVapNtMuq1ukKS4tPQd8iKwSMHWjl/O817G3uBnIFNjnQJuesI68u4OTLiBFdcbYEdFCoEOfaS35inz1');
    // Longer than one SHA-512 block, and a salt cut at 16 characters.
    expect(sha512Crypt('x'.repeat(100), 'abc')).toBe('$6$abc$hJifFvspkMHRMTXYpDbrug4nrXgZmPzTx/f9.5eCxJlDdjBTMZHgOVcLnSdECLAAJM9qZtSos/rWPoZcqcKDx0');
    expect(sha512Crypt('Hello world!', 'saltstringsaltstring')).toBe(sha512Crypt('Hello world!', 'saltstringsaltst'));
  });

  it('draws a fresh 16-character salt for every hash', () => {
    const [a, b] = [sha512Crypt('same'), sha512Crypt('same')];
    expect(a).toMatch(/^\$6\$[./0-9A-Za-z]{16}\$[./0-9A-Za-z]{86}$/);
    expect(a).not.toBe(b);
    expect(sha512Crypt('same', a.split('$')[2])).toBe(a);
  });
});

describe('custom cloud-config', () => {
  it('accepts a YAML mapping and refuses anything else with a reason', () => {
    expect(parseCloudConfig('#cloud-config\npackages: [nginx]\n')).toEqual({ ok: true, config: { packages: ['nginx'] } });
    expect(parseCloudConfig('#cloud-config\n')).toEqual({ ok: true, config: {} });
    expect(parseCloudConfig('- a\n- b\n')).toMatchObject({ ok: false, reason: expect.stringContaining('mapping') });
    expect(parseCloudConfig('just words')).toMatchObject({ ok: false });
    expect(parseCloudConfig('a: [')).toMatchObject({ ok: false, reason: expect.stringContaining('not valid YAML') });
    expect(parseCloudConfig('a: 1\na: 2\n')).toMatchObject({ ok: false });
  });

  it('lets the identity we set win over the customer\'s keys, keeping everything else', () => {
    const customer = parseCloudConfig(
      'hostname: evil\nfqdn: evil.example\nchpasswd: { list: "root:x" }\nssh_authorized_keys: [ssh-ed25519 AAAA theirs]\nusers: [default, { name: cloud, passwd: x }, { name: backup }]\nwrite_files: [{ path: /etc/motd, content: hi }]\n',
    );
    if (!customer.ok) throw new Error(customer.reason);
    const text = mergeCloudConfig(customer.config, { hostname: 'web-1', username: 'cloud', passwordHash: '$6$s$h', sshKeys: ['ssh-ed25519 AAAA ours'] });
    expect(text.startsWith('#cloud-config\n')).toBe(true);
    const merged = parse(text);
    expect(merged).toEqual({
      write_files: [{ path: '/etc/motd', content: 'hi' }],
      hostname: 'web-1',
      preserve_hostname: false,
      ssh_pwauth: true,
      users: [
        { name: 'cloud', shell: '/bin/bash', sudo: 'ALL=(ALL) NOPASSWD:ALL', lock_passwd: false, passwd: '$6$s$h', ssh_authorized_keys: ['ssh-ed25519 AAAA ours'] },
        { name: 'backup' },
      ],
    });
  });

  it('locks the password of a key-only login', () => {
    const merged = parse(mergeCloudConfig({}, { hostname: 'h', username: 'cloud', passwordHash: null, sshKeys: ['ssh-ed25519 AAAA k'] }));
    expect(merged.ssh_pwauth).toBe(false);
    expect(merged.users[0]).toMatchObject({ lock_passwd: true });
    expect(merged.users[0]).not.toHaveProperty('passwd');
  });
});
