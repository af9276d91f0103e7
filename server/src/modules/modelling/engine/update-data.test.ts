/**
 * An environment update's new data: a calls-shaped table (`decision_`/`outcome_` columns) mapped
 * onto the graph's columns with the rows missing a needed value dropped, and several data sets
 * merged into one whose codecs are those `buildDataset` computes over all the rows.
 */
import { describe, expect, it } from 'vitest';
import { parseDecisionGraph, type DecisionGraph } from '@decisio/domain';
import { buildDataset, fromTable, importReviveYaml, type Dataset, type TableColumns } from '@decisio/learning';
import { TINY_YAML, reviveYaml } from '@decisio/learning/testing';
import { STEP_KEY, graphColumns, mapUpdateTable, mergeDatasets, updateDataset } from './update-data';

const correlation = { trajectoryField: 'traj', sequenceField: 'step', datetimeField: 'time' };
/** How the test tables map onto trajectories (as `datasetOf` does for a table without the datetime field). */
const ordering = { trajectoryField: 'traj', sequenceField: 'step' };
const graphOf = (yaml: string): DecisionGraph => parseDecisionGraph(importReviveYaml(yaml).graph);
/** The tiny graph (obs `x` in [-2, 2], action `a` in [-1, 1], `next_obs` inherits `x`). */
const tiny = graphOf(TINY_YAML);
/** The same graph without bounds: the codecs come from the data. */
const unbounded = graphOf(
  reviveYaml([
    { name: 'x', dim: 'obs', type: 'continuous' },
    { name: 'a', dim: 'action', type: 'continuous' },
  ]),
);
/** The scheme's processed columns: no `next_x` (built by shifting). */
const schemeColumns = ['traj', 'step', 'time', 'x', 'a'];

/** A table of `trajectories` x `steps` rows of `x' = 0.9 x + 0.5 a`, starting at `x0 + t`. */
function trajectoriesTable(trajectories: number, steps: number, x0: number, prefix: string): TableColumns {
  const traj: string[] = [];
  const step: number[] = [];
  const x: number[] = [];
  const a: number[] = [];
  for (let t = 0; t < trajectories; t++) {
    let v = x0 + t * 0.25;
    for (let k = 0; k < steps; k++) {
      const act = Math.max(-1, Math.min(1, -0.5 * v));
      traj.push(`${prefix}${t}`);
      step.push(k);
      x.push(v);
      a.push(act);
      v = 0.9 * v + 0.5 * act;
    }
  }
  return { traj, step, x, a };
}

const concat = (...tables: TableColumns[]): TableColumns => Object.fromEntries(Object.keys(tables[0]!).map((k) => [k, tables.flatMap((t) => Array.from(t[k]!))]));

function expectSameDataset(got: Dataset, want: Dataset): void {
  expect(got.nodes).toEqual(want.nodes);
  expect(Array.from(got.starts)).toEqual(Array.from(want.starts));
  expect(Array.from(got.ends)).toEqual(Array.from(want.ends));
  expect(Array.from(got.done)).toEqual(Array.from(want.done));
  for (const n of want.nodes) {
    expect(Array.from(got.raw[n]!)).toEqual(Array.from(want.raw[n]!));
    expect(Array.from(got.scaled[n]!)).toEqual(Array.from(want.scaled[n]!));
  }
  expect(JSON.stringify(got.codecs)).toEqual(JSON.stringify(want.codecs));
  expect(got.report.rows).toBe(want.report.rows);
  expect(got.report.trajectories).toBe(want.report.trajectories);
}

describe('an environment update\'s new data', () => {
  it('lists the columns the graph reads, next_ ones of inherited fields marked', () => {
    expect(graphColumns(tiny).map((c) => [c.column, c.inheritedNext])).toEqual([
      ['x', false],
      ['a', false],
      ['next_x', true],
    ]);
  });

  it('maps a calls table (inputs as sent, decision_ and outcome_ columns) row by row, dropping rows missing a needed value', () => {
    const calls: TableColumns = {
      decision_id: ['d1', 'd1', 'd2', 'd3', 'd4', 'd5'],
      row: [0, 1, 0, 0, 0, 0],
      called_at: ['2026-11-01T00:00:00Z', '2026-11-01T00:00:00Z', '2026-11-01T00:01:00Z', '2026-11-01T00:02:00Z', '2026-11-01T00:03:00Z', '2026-11-01T00:04:00Z'],
      x: [0.5, -0.5, 1, 1.5, null, 0.2],
      decision_a: [-0.25, 0.25, -0.5, '', 0.1, -0.1],
      outcome_x: [0.325, -0.325, 0.65, 1.2, 0.3, 'NaN'],
      note: ['a', 'b', 'c', 'd', 'e', 'f'],
    };
    const mapped = mapUpdateTable(tiny, calls, correlation, schemeColumns);
    expect(mapped.oneStep).toBe(true);
    expect(mapped.missing).toEqual([]);
    expect(mapped.rows).toBe(6);
    // d3 has no decision, d4 no input x, d5 no outcome.
    expect(mapped.kept).toBe(3);
    expect(mapped.dropped).toBe(3);
    expect(Object.keys(mapped.table).sort()).toEqual([STEP_KEY, 'a', 'next_x', 'x'].sort());
    expect(mapped.table['x']).toEqual([0.5, -0.5, 1]);
    expect(mapped.table['a']).toEqual([-0.25, 0.25, -0.5]);
    expect(mapped.table['next_x']).toEqual([0.325, -0.325, 0.65]);
    expect(mapped.table[STEP_KEY]).toEqual(['d1#0', 'd1#1', 'd2#0']);
    expect(mapped.options).toEqual({ trajectoryField: STEP_KEY });

    // Each kept row is a one-step trajectory with its reported outcome as the next state.
    const ds = updateDataset(tiny, mapped)!;
    expect(ds.rows).toBe(3);
    expect(ds.trajectoryCount).toBe(3);
    expect(Array.from(ds.raw['next_obs']!)).toEqual(Array.from(Float32Array.of(0.325, -0.325, 0.65)));
    expect(Array.from(ds.raw['action']!)).toEqual(Array.from(Float32Array.of(-0.25, 0.25, -0.5)));
  });

  it('prefers a column named as the graph field to its decision_/outcome_ one', () => {
    const mapped = mapUpdateTable(tiny, { x: [1, 2], a: [0.1, 0.2], decision_a: [9, 9], next_x: [3, 4], outcome_x: [9, 9] }, correlation, schemeColumns);
    expect(mapped.table['a']).toEqual([0.1, 0.2]);
    expect(mapped.table['next_x']).toEqual([3, 4]);
    expect(mapped.table[STEP_KEY]).toEqual(['0', '1']);
  });

  it('keeps the trajectories of a table with the trajectory field (next values shifted when absent)', () => {
    const table = { ...trajectoriesTable(2, 4, 0.5, 'n'), note: ['x', 'x', 'x', 'x', 'x', 'x', 'x', 'x'] };
    const mapped = mapUpdateTable(tiny, table, correlation, schemeColumns);
    expect(mapped.oneStep).toBe(false);
    expect(mapped.options).toEqual({ trajectoryField: 'traj', sequenceField: 'step' });
    expect(mapped.kept).toBe(8);
    expect(Object.keys(mapped.table).sort()).toEqual(['a', 'step', 'traj', 'x']);
    const ds = updateDataset(tiny, mapped)!;
    // The last step of each trajectory goes (no next state to shift from), as for the scheme.
    expect(ds.trajectoryCount).toBe(2);
    expect(ds.rows).toBe(6);
  });

  it('drops every row of a table without a column the graph needs', () => {
    const noInput = mapUpdateTable(tiny, { decision_id: ['d1', 'd2'], decision_a: [0.1, 0.2], outcome_x: [0.3, 0.4] }, correlation, schemeColumns);
    expect(noInput.missing).toEqual(['x']);
    expect(noInput.kept).toBe(0);
    expect(noInput.dropped).toBe(2);
    expect(updateDataset(tiny, noInput)).toBeNull();
    // One-step rows need the outcome (there is no next row).
    const noOutcome = mapUpdateTable(tiny, { decision_id: ['d1'], x: [0.3], decision_a: [0.1] }, correlation, schemeColumns);
    expect(noOutcome.missing).toEqual(['next_x']);
    expect(noOutcome.dropped).toBe(1);
  });

  it('merges data sets into the one buildDataset makes of all their rows (codecs over all of them)', () => {
    const a = trajectoriesTable(3, 5, -1, 'a');
    const b = trajectoriesTable(2, 4, 3, 'b'); // beyond the range of `a`
    const base = buildDataset(unbounded, fromTable(unbounded, a, ordering));
    const extra = buildDataset(unbounded, fromTable(unbounded, b, ordering));
    const merged = mergeDatasets(base, [extra]);
    const whole = buildDataset(unbounded, fromTable(unbounded, concat(a, b), ordering));
    expectSameDataset(merged, whole);
    expect(merged.codecs['obs']).not.toEqual(base.codecs['obs']);
    expect(merged.codecs['next_obs']).toEqual({ ...merged.codecs['obs']!, name: 'next_obs' });
    // Two extra data sets, one of one-step trajectories with explicit next values.
    const calls = mapUpdateTable(unbounded, { decision_id: ['c1', 'c2'], x: [5, -4], decision_a: [0.5, -0.5], outcome_x: [4.75, -3.85] }, correlation, schemeColumns);
    const both = mergeDatasets(base, [extra, updateDataset(unbounded, calls)!]);
    expect(both.rows).toBe(base.rows + extra.rows + 2);
    expect(both.trajectoryCount).toBe(base.trajectoryCount + extra.trajectoryCount + 2);
    expect(Array.from(both.starts.slice(-2))).toEqual([base.rows + extra.rows, base.rows + extra.rows + 1]);
    expect(Array.from(both.raw['next_obs']!.slice(-2))).toEqual(Array.from(Float32Array.of(4.75, -3.85)));
    expect(both.codecs['obs']).not.toEqual(merged.codecs['obs']);
  });

  it('leaves the scheme data set as it is without extra data, and refuses data of other nodes', () => {
    const base = buildDataset(tiny, fromTable(tiny, trajectoriesTable(2, 4, 0, 'a'), ordering));
    expect(mergeDatasets(base, [])).toBe(base);
    const other = graphOf(reviveYaml([{ name: 'x', dim: 'obs', type: 'continuous' }, { name: 'a', dim: 'action', type: 'continuous' }, { name: 'g', dim: 'parameter', type: 'continuous', max: 1, min: 0 }]));
    const withParam = buildDataset(other, fromTable(other, { ...trajectoriesTable(1, 3, 0, 'p'), g: [0.5, 0.5, 0.5] }, ordering));
    expect(() => mergeDatasets(base, [withParam])).toThrow(/extra parameter/);
  });
});
