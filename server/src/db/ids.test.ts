import { describe, expect, it } from 'vitest';
import { newId, orderedId } from './ids';

describe('ids', () => {
  it('makes 32 hex characters, random or time-ordered', () => {
    expect(newId()).toMatch(/^[0-9a-f]{32}$/);
    expect(orderedId()).toMatch(/^[0-9a-f]{32}$/);
  });

  it('orders ids by their millisecond and keeps them unique within one', () => {
    const t = Date.UTC(2026, 10, 23, 12, 0, 0);
    const ids = [orderedId(t + 1), orderedId(t), orderedId(t + 1000), orderedId(t + 2)];
    expect([...ids].sort()).toEqual([ids[1], ids[0], ids[3], ids[2]]);
    expect(ids[1]!.slice(0, 12)).toBe(t.toString(16).padStart(12, '0'));
    // thousands in one millisecond (more than one refill of the random pool) never repeat
    const same = new Set(Array.from({ length: 5000 }, () => orderedId(t)));
    expect(same.size).toBe(5000);
    for (const id of same) expect(id.slice(0, 12)).toBe(ids[1]!.slice(0, 12));
  });
});
