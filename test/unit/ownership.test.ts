import { describe, expect, it } from 'vitest';
import { newId } from '../../src/security/ids';
import { guestDescription, isReservedGuestName, legacyGuestName, mayBeOurs, ownerOf, ownershipMarker } from '../../src/domain/ownership';

describe('which instance a guest belongs to', () => {
  const id = newId('inst');

  it('is read from the marker line of the description the clone writes', () => {
    expect(ownerOf({ name: 'web-1', description: guestDescription(id) })).toBe(id);
  });

  it('survives people adding their own notes around the marker', () => {
    expect(ownerOf({ name: 'web-1', description: `backup weekly\n${ownershipMarker(id)}\nowner: ops` })).toBe(id);
  });

  it('is nobody for a guest that merely carries a hostname, even one equal to ours', () => {
    expect(ownerOf({ name: 'web-1' })).toBeNull();
    expect(ownerOf({ name: 'web-1', description: 'my test VM' })).toBeNull();
  });

  it('is not fooled by a marker inside a longer line', () => {
    expect(ownerOf({ name: 'web-1', description: `not ${ownershipMarker(id)}` })).toBeNull();
    expect(ownerOf({ name: 'web-1', description: `${ownershipMarker(id)} (copied)` })).toBeNull();
  });

  it("still recognises guests named the old way, 'pvecp-<instance id>'", () => {
    expect(ownerOf({ name: legacyGuestName(id) })).toBe(id);
    expect(legacyGuestName('inst_abc')).toBe('pvecp-inst-abc');
  });
});

describe('guests worth a closer look in a cluster listing', () => {
  it('are the ones tagged pvecp or named the old way', () => {
    expect(mayBeOurs({ name: 'web-1', tags: 'pvecp' })).toBe(true);
    expect(mayBeOurs({ name: 'web-1', tags: 'prod;pvecp' })).toBe(true);
    expect(mayBeOurs({ name: legacyGuestName(newId('inst')) })).toBe(true);
    expect(mayBeOurs({ name: 'web-1', tags: 'pvecpx' })).toBe(false);
    expect(mayBeOurs({ name: 'web-1' })).toBe(false);
  });
});

describe('hostnames a customer may not choose', () => {
  it('are the legacy guest names, in any case, so nobody can pass for another server', () => {
    expect(isReservedGuestName(legacyGuestName(newId('inst')))).toBe(true);
    expect(isReservedGuestName('PVECP-INST-abc')).toBe(true);
    expect(isReservedGuestName('pvecp-web')).toBe(false);
    expect(isReservedGuestName('web-1')).toBe(false);
  });
});
