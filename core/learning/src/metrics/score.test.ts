import { describe, expect, it } from 'vitest';
import { ErrorAccumulator, durationBucket, scoreBucket, stepScore } from './score';

describe('step score', () => {
  it('follows 100 * clip((ln 2 - ln MAE) / 15, 0, 1)', () => {
    expect(stepScore(2)).toBe(0);
    expect(stepScore(5)).toBe(0);
    expect(stepScore(0)).toBe(100);
    expect(stepScore(2 * Math.exp(-15))).toBeCloseTo(100, 9);
    expect(stepScore(2 * Math.exp(-7.5))).toBeCloseTo(50, 9);
    expect(stepScore(0.01)).toBeCloseTo((100 * (Math.LN2 - Math.log(0.01))) / 15, 9);
    expect(stepScore(NaN)).toBe(0);
  });

  it('accumulates per node and overall, honouring the fit mask', () => {
    const acc = new ErrorAccumulator();
    acc.add('a', [0, 1, 0, 1], [0.1, 1, 0.1, 1], 2);
    acc.add('b', [0, 5], [0.3, 0], 2, [1, 0]);
    const r = acc.report();
    expect(r.nodes['a']!.mae).toBeCloseTo(0.05);
    expect(r.nodes['a']!.mse).toBeCloseTo(0.005);
    expect(r.nodes['b']!.mae).toBeCloseTo(0.3);
    expect(r.nodes['b']!.count).toBe(1);
    expect(r.mae).toBeCloseTo(0.175);
    expect(r.score).toBeCloseTo(stepScore(0.175));
    // Node a: column 1 is constant (1, 1) and fitted exactly; column 0 targets 0.1, 0.1 (constant too): no spread.
    expect(r.nodes['a']!.r2).toBeNaN();
  });

  it('gives R² per node against each column\'s own mean', () => {
    const acc = new ErrorAccumulator();
    // Column 0 around 0 and column 1 around 10: predicting each exactly gives 1.
    acc.add('exact', [-1, 9, 1, 11], [-1, 9, 1, 11], 2);
    // Predicting the mean gives 0; predictions off by twice the spread give a negative R².
    acc.add('mean', [0, 0, 0], [-1, 0, 1], 1);
    acc.add('worse', [1, 0, -1], [-1, 0, 1], 1);
    // Two batches accumulate: targets 0, 2 then 4 (mean 2, SST 8), errors 1, 1, 0 (SSE 2).
    acc.add('batches', [1, 1], [0, 2], 1);
    acc.add('batches', [4], [4], 1);
    const r = acc.report();
    expect(r.nodes['exact']!.r2).toBeCloseTo(1, 12);
    expect(r.nodes['mean']!.r2).toBeCloseTo(0, 12);
    expect(r.nodes['worse']!.r2).toBeCloseTo(1 - 8 / 2, 12);
    expect(r.nodes['batches']!.r2).toBeCloseTo(1 - 2 / 8, 12);
  });
});

describe('buckets', () => {
  it('buckets durations up to 1h, 6h, 12h, 24h, over 24h', () => {
    const h = 3_600_000;
    expect([0.5, 1, 1.01, 6, 7, 12, 13, 24, 25].map((x) => durationBucket(x * h))).toEqual(['1h', '1h', '6h', '6h', '12h', '12h', '24h', '24h', 'over24h']);
  });
  it('buckets scores up to 60, 70, 80, 90, 100', () => {
    expect([0, 60, 60.5, 70, 79, 85, 90, 95, 100].map(scoreBucket)).toEqual(['60', '60', '70', '70', '80', '90', '90', '100', '100']);
  });
});
