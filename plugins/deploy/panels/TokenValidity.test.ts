import { describe, expect, it } from 'vitest';
import { expiryOf } from './TokenValidity';

const DAY = 86_400_000;
const day = (d: Date) => `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`;

describe('token validity', () => {
  const now = new Date(2026, 10, 23, 18, 30);

  it('gives never as null and the fixed periods from now', () => {
    expect(expiryOf({ choice: 'never', date: '' }, now)).toBeNull();
    expect(expiryOf({ choice: 'days30', date: '' }, now)).toBe(new Date(now.getTime() + 30 * DAY).toISOString());
    expect(expiryOf({ choice: 'days90', date: '' }, now)).toBe(new Date(now.getTime() + 90 * DAY).toISOString());
    expect(expiryOf({ choice: 'year1', date: '' }, now)).toBe(new Date(2027, 10, 23, 18, 30).toISOString());
  });

  it('keeps a chosen day valid through its end (local time), today included, up to 10 years ahead', () => {
    expect(expiryOf({ choice: 'date', date: '2027-01-31' }, now)).toBe(new Date(2027, 0, 31, 23, 59, 59, 999).toISOString());
    expect(expiryOf({ choice: 'date', date: day(now) }, now)).toBe(new Date(2026, 10, 23, 23, 59, 59, 999).toISOString());
    expect(expiryOf({ choice: 'date', date: day(new Date(now.getTime() + 3652 * DAY)) }, now)).toEqual(expect.any(String));
    for (const bad of ['', '2026-11-22', day(new Date(now.getTime() + 3654 * DAY)), '2027-02-30', 'soon']) {
      expect(expiryOf({ choice: 'date', date: bad }, now)).toBeUndefined();
    }
  });
});
