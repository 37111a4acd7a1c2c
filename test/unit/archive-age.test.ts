import { describe, expect, it } from 'vitest';
import { archiveOlderThan, backupIdInNotes, backupNotesMarker } from '../../src/domain/snapshots';

describe('which archives on a storage belong to a server', () => {
  const madeAt = new Date('2026-12-02T05:00:00.750Z');
  const second = Math.floor(madeAt.getTime() / 1000);

  it('takes an archive from an earlier second as a former guest’s at the VMID', () => {
    expect(archiveOlderThan(second - 1, madeAt)).toBe(true);
  });

  it('counts an archive written in the very second the server was made (Proxmox times archives in whole seconds) as the server’s', () => {
    expect(archiveOlderThan(second, madeAt)).toBe(false);
    expect(archiveOlderThan(second + 1, madeAt)).toBe(false);
  });

  it('knows our own archives by the marker in their notes, and no other', () => {
    expect(backupIdInNotes(`nightly ${backupNotesMarker('bkp_abc123')}`)).toBe('bkp_abc123');
    expect(backupIdInNotes('manual web01')).toBeUndefined();
    expect(backupIdInNotes('xpvecp-backup:bkp_abc123')).toBeUndefined();
  });
});
