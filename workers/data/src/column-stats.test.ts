import { describe, expect, it } from 'vitest';
import { ArrayStats, EXACT_DISTINCT_LIMIT, NumericAccumulator } from './column-stats';

describe('NumericAccumulator', () => {
  it('counts exactly, then estimates distinct values within a few percent', () => {
    const a = new NumericAccumulator('x', 'float');
    for (let i = 0; i < 1000; i += 1) a.add(i % 250);
    expect(a.result()).toMatchObject({ count: 1000, distinct: 250, distinctApprox: false, min: 0, max: 249, mean: 124.5 });
    const b = new NumericAccumulator('y', 'float');
    const n = 300_000;
    for (let i = 0; i < n; i += 1) b.add(i * 0.37);
    const d = b.result();
    expect(d.distinctApprox).toBe(true);
    expect(Math.abs(d.distinct - n) / n).toBeLessThan(0.03);
    expect(n).toBeGreaterThan(EXACT_DISTINCT_LIMIT);
  });
  it('counts NaN as missing and treats -0 as 0', () => {
    const a = new NumericAccumulator('x', 'float');
    [0, -0, Number.NaN, 1].forEach((v) => a.add(v));
    expect(a.result()).toMatchObject({ count: 3, nan: 1, nulls: 1, distinct: 2 });
  });
});

describe('ArrayStats', () => {
  it('splits row-major data into columns and handles BigInt arrays', () => {
    const s = new ArrayStats('a', 'int64', [3, 2]);
    s.push(new BigInt64Array([1n, 10n, 2n]));
    s.push(new BigInt64Array([20n, 3n, 30n]));
    expect(s.result().map((c) => [c.name, c.min, c.max, c.kind])).toEqual([['a[0]', 1, 3, 'integer'], ['a[1]', 10, 30, 'integer']]);
  });
});
