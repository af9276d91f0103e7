import { describe, expect, it } from 'vitest';
import { chartColours, downsample, downsampleIndices, ema, groupOf, groupSeries, integerTicks, legendValue, logDistr } from './chart';

describe('groupOf / groupSeries', () => {
  it('groups metrics by the documented name rule', () => {
    expect(groupOf('train/return')).toBe('return');
    expect(groupOf('eval/return')).toBe('return');
    expect(groupOf('reward')).toBe('return');
    expect(groupOf('search/bestReward')).toBe('return');
    expect(groupOf('loss/bc')).toBe('loss');
    expect(groupOf('val/mse')).toBe('error');
    expect(groupOf('nll/next_x')).toBe('loss');
    expect(groupOf('search/bestValLoss')).toBe('loss');
    expect(groupOf('approx-kl')).toBe('loss');
    expect(groupOf('score')).toBe('score');
    expect(groupOf('trial/score')).toBe('score');
    expect(groupOf('trial')).toBe('counter');
    expect(groupOf('best')).toBe('score');
    expect(groupOf('lr')).toBe('rate');
    expect(groupOf('alpha')).toBe('rate');
    expect(groupOf('bc-coef')).toBe('rate');
    expect(groupOf('eval/return-worst')).toBe('return');
    expect(groupOf('samples')).toBe('counter');
    expect(groupOf('ensemble/members')).toBe('counter');
    expect(groupOf('buffer')).toBe('counter');
    expect(groupOf('entropy')).toBe('other');
  });

  it('puts counters and constants aside as numbers and one panel per group (samples no longer flattens the curves)', () => {
    const names = ['samples', 'ensemble/members', 'loss/bc', 'val/mse', 'train/return', 'entropy', 'score'];
    const values = [
      [1600, 1600, 1600],
      [5, 5, 5],
      [0.9, 0.5, 0.2],
      [0.8, 0.4, 0.3],
      [-200, -150, -90],
      [1.2, 1.1, 1.0],
      [null, null, 70],
    ];
    const g = groupSeries(names, values);
    expect(g.numbers.map((i) => names[i])).toEqual(['samples', 'ensemble/members', 'score']);
    expect(g.panels.map((p) => [p.group, p.series.map((i) => names[i])])).toEqual([
      ['return', ['train/return']],
      ['loss', ['loss/bc']],
      ['error', ['val/mse']],
      ['other', ['entropy']],
    ]);
  });
});

describe('chartColours', () => {
  it('never repeats a colour within a chart', () => {
    for (const n of [1, 8, 9, 15, 16, 40]) expect(new Set(chartColours(n)).size).toBe(n);
  });
});

describe('integerTicks', () => {
  it('gives whole steps only (no tick at 1.5)', () => {
    expect(integerTicks(0, 3)).toEqual([0, 1, 2, 3]);
    expect(integerTicks(-0.4, 2.6)).toEqual([0, 1, 2]);
    expect(integerTicks(0.2, 0.8)).toEqual([]);
    for (const [lo, hi] of [[0, 7], [0, 13], [3, 977], [0, 10_000], [0.5, 1.5]] as const) {
      const t = integerTicks(lo, hi, 8);
      expect(t.every(Number.isInteger)).toBe(true);
      expect(t.length).toBeLessThanOrEqual(8);
      expect(t.length).toBeGreaterThan(0);
    }
  });
});

describe('ema', () => {
  it('smooths measured points, debiased at the start, gaps kept', () => {
    expect(ema([1, 2, 3], 0)).toEqual([1, 2, 3]);
    const s = ema([10, null, 0, 0], 0.5);
    expect(s[0]).toBeCloseTo(10);
    expect(s[1]).toBeNull();
    expect(s[2]).toBeCloseTo((0.5 * 0.5 * 10) / (1 - 0.25));
    expect(s[3]!).toBeLessThan(s[2]!);
  });
});

describe('downsample', () => {
  it('keeps every point of a short series', () => {
    expect(downsampleIndices([0, 1, 2], [[1, 2, 3]], 10)).toEqual([0, 1, 2]);
  });

  it('keeps the extremes and the full x range of a long series, with far fewer points', () => {
    const n = 10_000;
    const xs = Array.from({ length: n }, (_, i) => i);
    const a = xs.map((i) => Math.sin(i / 50));
    a[4321] = 99; // a one-step spike
    a[7777] = -99;
    const b = xs.map((i) => (i === 123 ? null : i * 0.001));
    const d = downsample(xs, [a, b], 200);
    expect(d.xs.length).toBeLessThanOrEqual(2 + 200 * 4);
    expect(d.xs.length).toBeGreaterThan(200);
    expect(d.xs[0]).toBe(0);
    expect(d.xs[d.xs.length - 1]).toBe(n - 1);
    expect(Math.max(...(d.series[0] as number[]))).toBe(99);
    expect(Math.min(...(d.series[0] as number[]))).toBe(-99);
    expect(d.xs).toContain(4321);
    expect(d.series[1]![d.series[1]!.length - 1]).toBeCloseTo((n - 1) * 0.001);
    // x stays ascending (uPlot needs it) and every kept value is the measured one
    expect(d.xs.every((x, i) => i === 0 || x > d.xs[i - 1]!)).toBe(true);
    d.xs.forEach((x, i) => expect(d.series[0]![i]).toBe(a[x]));
  });
});

describe('legendValue / logDistr', () => {
  it('shows the latest measured value, or the hovered one', () => {
    expect(legendValue([1, 2, null], null)).toBe(2);
    expect(legendValue([1, 2, 3], 0)).toBe(1);
    expect(legendValue([1, null, 3], 1)).toBeNull();
    expect(legendValue([], null)).toBeNull();
  });

  it('is logarithmic for positive series, arcsinh where zero or negatives occur', () => {
    expect(logDistr([[1, 10, null]])).toBe(3);
    expect(logDistr([[1, 10], [0, 2]])).toBe(4);
    expect(logDistr([[-5, 3]])).toBe(4);
  });
});
