import { describe, expect, it } from 'vitest';
import { formatUpid, isUpid, parseExitStatus, parseUpid } from '../../src/proxmox';

const SAMPLE = 'UPID:pve1:0000A1B2:0012D687:6553F00D:qmclone:9000:root@pam!controlplane:';

describe('UPID', () => {
  it('parses every field; the task user is the full token id', () => {
    expect(parseUpid(SAMPLE)).toEqual({
      node: 'pve1',
      pid: 0xa1b2,
      pstart: 0x12d687,
      starttime: 0x6553f00d,
      type: 'qmclone',
      id: '9000',
      user: 'root@pam!controlplane',
    });
  });

  it('accepts a 9-digit pstart and an empty id', () => {
    const u = parseUpid('UPID:node-2:00000001:1000D6870:6553F00D:aptupdate::root@pam:');
    expect(u).toMatchObject({ node: 'node-2', pstart: 0x1000d6870, id: '', type: 'aptupdate', user: 'root@pam' });
  });

  it('formats back to the same text', () => {
    expect(formatUpid(parseUpid(SAMPLE))).toBe(SAMPLE);
  });

  it('rejects anything else', () => {
    for (const bad of ['', 'UPID:pve1', SAMPLE.slice(0, -1), SAMPLE.replace('0000A1B2', 'XYZ'), 'upid:pve1:0000A1B2:0012D687:6553F00D:qmclone:9000:root@pam:']) {
      expect(isUpid(bad)).toBe(false);
      expect(() => parseUpid(bad)).toThrow(TypeError);
    }
  });
});

describe('task exit status', () => {
  it('"OK" and "WARNINGS: N" are success', () => {
    expect(parseExitStatus('OK')).toEqual({ ok: true, warnings: 0 });
    expect(parseExitStatus('WARNINGS: 3')).toEqual({ ok: true, warnings: 3 });
  });
  it('anything else is an error text', () => {
    expect(parseExitStatus('VM 100 already running').ok).toBe(false);
    expect(parseExitStatus('unexpected status').ok).toBe(false);
    expect(parseExitStatus('WARNINGS: x').ok).toBe(false);
  });
});
