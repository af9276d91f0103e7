/**
 * A REVIVE folder's data onto the YAML's fields: REVIVE's CSV (node-named columns, pandas'
 * unnamed row number), npz arrays by node. Fixtures are written here in the layout of REVIVE's
 * refrigerator example (`,door_open,temperature,action,next_temperature`).
 */
import { describe, expect, it } from 'vitest';
import { importReviveYaml } from '../graph/yaml';
import { isLearningError } from '../errors';
import { loadDataset } from './load';
import { reviveTable, reviveTableCsv, type ReviveTable } from './revive-table';

const YAML = `metadata:
  graph:
    action:
    - temperature
    next_temperature:
    - action
    - temperature
    - door_open
  columns:
  - obs_temp:
      dim: temperature
      type: continuous
      max: 20
      min: -20
  - power_action:
      dim: action
      type: continuous
      max: 10
      min: 0
  - factor_door_state:
      dim: door_open
      type: continuous
`;

/** Three trajectories of 5 steps, pandas-style row numbers 0..14 (not restarting). */
function fridgeCsv(withNext = true, restart = false): string {
  const lines = [withNext ? ',door_open,temperature,action,next_temperature' : ',door_open,temperature,action'];
  let row = 0;
  for (let t = 0; t < 3; t++) {
    let temp = 10 + t;
    for (let k = 0; k < 5; k++) {
      const action = 2 + 0.1 * k;
      const door = k === 2 ? 1 : 0;
      const next = temp - 0.5 * action + door;
      lines.push([restart ? k : row, door, temp, action, ...(withNext ? [next] : [])].join(','));
      temp = next;
      row++;
    }
  }
  return `${lines.join('\n')}\n`;
}

describe('REVIVE data onto the YAML fields', () => {
  const graph = importReviveYaml(YAML).graph;

  it('asks about the unnamed column, then maps node-named columns to the fields and finds trajectories from next_', () => {
    const q = reviveTable(graph, { kind: 'csv', text: fridgeCsv() });
    expect(q).toEqual({ kind: 'indexColumn', position: 0, sample: ['0', '1', '2', '3', '4'] });
    const t = reviveTable(graph, { kind: 'csv', text: fridgeCsv() }, { indexColumn: 'drop' }) as ReviveTable;
    expect(t.kind).toBe('table');
    expect(t.report.mapped).toEqual([
      { from: 'temperature', to: ['obs_temp'] },
      { from: 'door_open', to: ['factor_door_state'] },
      { from: 'action', to: ['power_action'] },
      { from: 'next_temperature', to: ['next_obs_temp'] },
    ]);
    expect(t.report.indexColumn).toEqual({ position: 0, action: 'drop' });
    expect(t.report.trajectories).toBe(3);
    expect(t.report.trajectorySource).toBe('transitions');
    expect(Array.from(t.columns['trajectory']!.subarray(3, 7))).toEqual([0, 0, 1, 1]);
    expect(Array.from(t.columns['step']!.subarray(3, 7))).toEqual([3, 4, 0, 1]);
    // the YAML's bounds are kept; the door has none (the data's at training)
    expect(t.report.bounds).toEqual([
      { field: 'obs_temp', node: 'temperature', min: -20, max: 20, from: 'yaml' },
      { field: 'factor_door_state', node: 'door_open', min: null, max: null, from: 'data' },
      { field: 'power_action', node: 'action', min: 0, max: 10, from: 'yaml' },
    ]);
    expect(reviveTableCsv(t).split('\n')[0]).toBe('trajectory,step,obs_temp,factor_door_state,power_action,next_obs_temp');
  });

  it('keeps the unnamed column under a name; a per-trajectory counter that starts again gives the trajectories', () => {
    const t = reviveTable(graph, { kind: 'csv', text: fridgeCsv(false, true) }, { indexColumn: { name: 'row' } }) as ReviveTable;
    expect(t.report.indexColumn).toEqual({ position: 0, action: 'named', name: 'row' });
    expect(t.order.at(-1)).toBe('row');
    expect(t.report.trajectories).toBe(3);
    expect(t.report.trajectorySource).toBe('indexColumn');
    const e = (() => {
      try {
        reviveTable(graph, { kind: 'csv', text: fridgeCsv() }, { indexColumn: { name: 'temperature' } });
      } catch (err) {
        return err;
      }
      return null;
    })();
    expect(isLearningError(e, 'data.csvFormat')).toBe(true);
  });

  it('trains from REVIVE csv unchanged: loadDataset maps it (the CLI path) with the YAML min/max', async () => {
    const reports: unknown[] = [];
    const ds = await loadDataset(new TextEncoder().encode(fridgeCsv()), 'csv', graph, { onReviveTable: (r) => reports.push(r) });
    expect(reports.length).toBe(1);
    expect(ds.trajectoryCount).toBe(3);
    expect(ds.rows).toBe(15); // next_ given by the file: no step dropped
    expect([ds.codecs['temperature']!.fields[0]!.min, ds.codecs['temperature']!.fields[0]!.max]).toEqual([-20, 20]);
    // the file's next value at a trajectory's last step (10 -> 9 -> 7.95 -> 7.85 -> 6.7 -> 5.5)
    expect(ds.raw['next_temperature']![4]).toBeCloseTo(5.5, 5);
  });

  it('maps npz arrays by node, trajectories from index; a missing node is refused', () => {
    const n = 6;
    const arr = (v: number[]) => ({ dtype: '<f4', shape: [v.length, 1], data: Float32Array.from(v) });
    const arrays = {
      temperature: arr([1, 2, 3, 4, 5, 6]),
      action: arr([0, 1, 0, 1, 0, 1]),
      door_open: arr([0, 0, 1, 0, 0, 1]),
      extra: arr(new Array(n).fill(0)),
      index: { dtype: '<i8', shape: [2], data: Float64Array.of(4, 6) },
    };
    const t = reviveTable(graph, { kind: 'arrays', arrays: arrays as never }) as ReviveTable;
    expect(t.report.trajectorySource).toBe('index');
    expect(t.report.trajectories).toBe(2);
    expect(t.report.unused).toEqual(['extra']);
    expect(t.report.mapped.map((m) => m.from)).toEqual(['temperature', 'door_open', 'action']);
    expect(Array.from(t.columns['step']!)).toEqual([0, 1, 2, 3, 0, 1]);
    const { door_open: _d, ...without } = arrays;
    const e = (() => {
      try {
        reviveTable(graph, { kind: 'arrays', arrays: without as never });
      } catch (err) {
        return err;
      }
      return null;
    })();
    expect(isLearningError(e, 'data.missingNode')).toBe(true);
  });
});
