import { describe, expect, it } from 'vitest';
import { decodeCursor, encodeCursor, sequenceSchema } from '../../src/api/openapi';

const raw = (value: unknown) => Buffer.from(typeof value === 'string' ? value : JSON.stringify(value)).toString('base64url');

describe('list cursors', () => {
  it('decode what encodeCursor wrote', () => {
    const row = { createdAt: new Date('2026-11-30T23:59:59.123Z'), id: 'inst_abc123' };
    expect(decodeCursor(encodeCursor(row))).toEqual(row);
  });

  it.each([
    ['a year past 9999', ['+275760-09-13T00:00:00.000Z', 'inst_x']],
    ['the year 0000', ['0000-01-01T00:00:00.000Z', 'inst_x']],
    ['a negative year', ['-000001-01-01T00:00:00.000Z', 'inst_x']],
    ['February 30th', ['2024-02-30T00:00:00.000Z', 'inst_x']],
    ['a date without time', ['2024-01-01', 'inst_x']],
    ['an offset instead of Z', ['2024-01-01T00:00:00.000+01:00', 'inst_x']],
    ['an id with NUL', ['2024-01-01T00:00:00.000Z', 'inst\u0000x']],
    ['an id with a lone surrogate', ['2024-01-01T00:00:00.000Z', '\ud800']],
    ['an empty id', ['2024-01-01T00:00:00.000Z', '']],
    ['three elements', ['2024-01-01T00:00:00.000Z', 'a', 'b']],
    ['an object', { createdAt: '2024-01-01T00:00:00.000Z', id: 'a' }],
    ['not JSON', 'hello'],
  ])('refuse %s as 400 INVALID_INPUT naming the cursor', (_what, value) => {
    expect(() => decodeCursor(raw(value))).toThrow(expect.objectContaining({ code: 'INVALID_INPUT', details: { fields: { cursor: 'invalid cursor' } } }));
  });
});

describe('sequence numbers (event cursors, Last-Event-ID)', () => {
  it('accept 0 up to the largest bigint', () => {
    for (const text of ['0', '1', '42', '9223372036854775807']) expect(sequenceSchema.safeParse(text).success, text).toBe(true);
  });

  it('refuse anything past bigint, signs, leading zeros, spaces and text without throwing', () => {
    for (const text of ['9223372036854775808', '99999999999999999999', '-1', '+1', '01', ' 1', '1e3', '%ZZ', '', 'abc']) {
      expect(sequenceSchema.safeParse(text).success, text).toBe(false);
    }
  });
});
