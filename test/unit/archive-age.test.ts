import { describe, expect, it } from 'vitest';
import { archiveWrittenSince, backupIdInNotes, backupNotesMarker } from '../../src/domain/snapshots';

describe('which archives on a storage belong to a server', () => {
  const madeAt = new Date('2026-12-02T05:00:00.750Z');
  const second = Math.floor(madeAt.getTime() / 1000);

  it('takes an archive from an earlier second as a former guest’s at the VMID', () => {
    expect(archiveWrittenSince(second - 1, madeAt)).toBe(false);
  });

  it('counts an archive written in the very second the server took the VMID (Proxmox times archives in whole seconds) as the server’s', () => {
    expect(archiveWrittenSince(second, madeAt)).toBe(true);
    expect(archiveWrittenSince(second + 1, madeAt)).toBe(true);
  });

  it('gives an archive without a creation time to no one: nothing proves whose it is', () => {
    expect(archiveWrittenSince(undefined, madeAt)).toBe(false);
  });

  it('knows our own archives by the marker in their notes, and no other', () => {
    expect(backupIdInNotes(`nightly ${backupNotesMarker('bkp_abc123')}`)).toBe('bkp_abc123');
    expect(backupIdInNotes('manual web01')).toBeUndefined();
    expect(backupIdInNotes('xpvecp-backup:bkp_abc123')).toBeUndefined();
  });
});
