import { describe, expect, it } from 'vitest';
import { DeductionTally, measureMeans, projectRealTotal, relativeChange, scenarioMeasuresOfBatch, type MeasureBatch, type MeasureSums } from './measures';

const batch = (nodes: Record<string, number[][]>): MeasureBatch =>
  Object.fromEntries(Object.entries(nodes).map(([k, rows]) => [k, { data: Float32Array.from(rows.flat()), shape: [rows.length, rows[0]!.length] }]));

describe('scenario measures', () => {
  it('computes the coupon measures row by row (revenue of price times sales, not of the means)', () => {
    const sums: MeasureSums = { sums: {}, counts: {} };
    // Two store-days: price 8 selling 10 of 20 + 10 ordered; price 14 selling 2 of 0 + 4.
    const ok = scenarioMeasuresOfBatch('coupon', batch({ decision: [[8, 10], [14, 4]], sales: [[10], [2]], stock: [[20], [0]], next_stock: [[20], [2]] }), sums);
    expect(ok).toBe(true);
    const m = measureMeans('coupon', sums);
    expect(m.revenue).toBeCloseTo((80 + 28) / 2, 9);
    expect(m.cost).toBeCloseTo((6 * 10 + 0.2 * 20 + 6 * 4 + 0.2 * 2) / 2, 5);
    expect(m.profit).toBeCloseTo(m.revenue! - m.cost!, 9);
    expect(m.unitsSold).toBeCloseTo(6, 9);
    expect(m.sellThrough).toBeCloseTo((10 / 30 + 2 / 4) / 2, 6);
    expect(m.price).toBeCloseTo(11, 9);
    // Coupon: 6 below the full price 14 on 10 units, none at the full price; one of the two store-days sold under a coupon.
    expect(m.couponCost).toBeCloseTo((6 * 10 + 0) / 2, 9);
    expect(m.redemption).toBeCloseTo(1 / 2, 9);
  });

  it('computes the electricity measures: energy of a quarter-hour, violations outside ±1 °C of −2 °C', () => {
    const sums: MeasureSums = { sums: {}, counts: {} };
    expect(scenarioMeasuresOfBatch('electricity', batch({ action: [[4], [0], [10]], next_temperature: [[-2.5], [1], [-3.5]] }), sums)).toBe(true);
    const m = measureMeans('electricity', sums);
    expect(m.energy).toBeCloseTo(((4 + 0 + 10) * 0.25) / 3, 9);
    expect(m.powerCost).toBeCloseTo((0.05 * 14) / 3, 6);
    expect(m.violations).toBeCloseTo(2 / 3, 9);
    expect(m.deviation).toBeCloseTo((0.5 + 3 + 1.5) / 3, 6);
    expect(m.temperature).toBeCloseTo((-2.5 + 1 - 3.5) / 3, 6);
  });

  it('refuses a graph that is not the scenario\'s', () => {
    const sums: MeasureSums = { sums: {}, counts: {} };
    expect(scenarioMeasuresOfBatch('coupon', batch({ action: [[1]], next_temperature: [[0]] }), sums)).toBe(false);
    expect(scenarioMeasuresOfBatch('electricity', batch({ obs: [[1]] }), sums)).toBe(false);
    expect(sums.counts).toEqual({});
  });
});

describe('deduction tally', () => {
  it('keeps per-field means, the reward per step and the measures of the scenarios the graph has', () => {
    const tally = new DeductionTally();
    tally.add(batch({ action: [[2], [4]], next_temperature: [[-2], [0]] }), Float32Array.of(-1, -3));
    tally.add(batch({ action: [[6], [8]], next_temperature: [[-1], [-2]] }), Float32Array.of(-2, -2));
    const s = tally.summary();
    expect(s.rows).toBe(4);
    expect(s.rewardPerStep).toBeCloseTo(-2, 9);
    expect(s.fields).toEqual({ action: [5], next_temperature: [-1.25] });
    expect(Object.keys(s.measures)).toEqual(['electricity']);
    expect(s.measures.electricity!.energy).toBeCloseTo(1.25, 9);
    expect(s.measures.electricity!.violations).toBeCloseTo(1 / 4, 9);
  });

  it('measures nothing of a scenario once a batch lacks its nodes', () => {
    const tally = new DeductionTally();
    tally.add(batch({ action: [[2]], next_temperature: [[-2]] }));
    tally.add(batch({ action: [[2]] }));
    expect(tally.summary().measures).toEqual({});
    expect(tally.summary().rewardPerStep).toBeNull();
  });
});

describe('comparisons with the logged data and the real totals', () => {
  it('gives the relative change and scales a real total by it', () => {
    expect(relativeChange(12, 10)).toBeCloseTo(0.2, 12);
    expect(relativeChange(-8, -10)).toBeCloseTo(0.2, 12);
    expect(relativeChange(1, 0)).toBeNull();
    expect(relativeChange(null, 1)).toBeNull();
    expect(projectRealTotal('1000.50', 12, 10)).toBe(1200.6);
    expect(projectRealTotal('1000', 5, 0)).toBeNull();
  });
});
