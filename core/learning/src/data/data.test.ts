import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { isLearningError, type LearningErrorCode } from '../errors';
import { importReviveYaml } from '../graph/yaml';
import { decodeRows, encodeRows, fieldCodec, nodeCodec } from './codec';
import { buildDataset } from './dataset';
import { readH5, writeH5 } from './h5';
import { readNpz, toFloat64, writeNpz, type NdArray } from './npy';
import { fromNdArrays, fromTable, parseCsv, type Matrix, type RawTrajectories } from './raw';
import { Rng, sampleWindows, splitDataset } from './split';

const PY = '/usr/bin/python3';
const fixtures = join(__dirname, '../../test/fixtures/revive');
const fridge = () => importReviveYaml(readFileSync(join(fixtures, 'refrigeration.yaml'), 'utf8')).graph;
const mat = (rows: number[][]): Matrix => ({ rows: rows.length, cols: rows[0]!.length, data: Float64Array.from(rows.flat()) });
const codeOf = (f: () => unknown): string => {
  try {
    f();
    return 'ok';
  } catch (e) {
    return isLearningError(e) ? e.code : String(e);
  }
};

function fridgeRaw(): RawTrajectories {
  return {
    arrays: {
      temperature: mat([[0], [2], [4], [-20], [-10], [0], [10]]),
      action: mat([[1], [2], [3], [4], [5], [6], [7]]),
      door_open: mat([[0], [1], [0], [0], [0], [1], [1]]),
    },
    index: [3, 7],
  };
}

describe('npy / npz / h5', () => {
  it('reads arrays written by NumPy (dtypes, C and Fortran order)', () => {
    const dir = mkdtempSync(join(tmpdir(), 'npz-'));
    execFileSync(PY, [
      '-c',
      `import numpy as np
a = np.arange(12, dtype=np.float64).reshape(3, 4)
np.savez_compressed('${dir}/a.npz', f4=a.astype(np.float32), f8=np.asfortranarray(a), i8=np.array([[1, -2], [3, 2**40]], dtype=np.int64),
  b=np.array([[True], [False]]), be=np.array([1.5, -2.5], dtype='>f8'), index=np.array([1, 3]))`,
    ]);
    const z = readNpz(readFileSync(join(dir, 'a.npz')));
    expect(z['f4']!.shape).toEqual([3, 4]);
    expect(Array.from(z['f4']!.data as Float32Array)).toEqual(Array.from({ length: 12 }, (_, i) => i));
    expect(Array.from(z['f8']!.data as Float64Array)).toEqual(Array.from({ length: 12 }, (_, i) => i));
    expect(Array.from(toFloat64(z['i8']!.data))).toEqual([1, -2, 3, 2 ** 40]);
    expect(Array.from(z['b']!.data as Uint8Array)).toEqual([1, 0]);
    expect(Array.from(z['be']!.data as Float64Array)).toEqual([1.5, -2.5]);
    expect(fromNdArrays(z).index).toEqual([1, 3]);
  });

  it('writes npz that NumPy reads back', () => {
    const dir = mkdtempSync(join(tmpdir(), 'npz-'));
    const file = join(dir, 'w.npz');
    const bytes = writeNpz({ obs: { dtype: 'f4', shape: [2, 2], data: new Float32Array([1, 2, 3, 4]) }, index: { dtype: 'i8', shape: [1], data: new BigInt64Array([2n]) } });
    writeFileSync(file, bytes);
    const out = execFileSync(PY, ['-c', `import numpy as np; d = np.load('${file}'); print(d['obs'].tolist(), d['index'].tolist(), d['obs'].dtype)`]).toString().trim();
    expect(out).toBe('[[1.0, 2.0], [3.0, 4.0]] [2] float32');
    expect(Array.from(toFloat64(readNpz(bytes)['obs']!.data))).toEqual([1, 2, 3, 4]);
  });

  it('reads h5 written by h5py (int64 as BigInt64Array) and by h5wasm', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'h5-'));
    execFileSync(PY, [
      '-c',
      `import h5py, numpy as np
with h5py.File('${dir}/a.h5', 'w') as f:
    f['obs'] = np.arange(6, dtype=np.float32).reshape(3, 2)
    f['index'] = np.array([1, 3], dtype=np.int64)`,
    ]);
    const h = await readH5(readFileSync(join(dir, 'a.h5')));
    expect(h['index']!.data).toBeInstanceOf(BigInt64Array);
    const raw = fromNdArrays(h);
    expect(raw.index).toEqual([1, 3]);
    expect(raw.arrays['obs']).toEqual({ rows: 3, cols: 2, data: Float64Array.from([0, 1, 2, 3, 4, 5]) });
    const again = await readH5(await writeH5({ x: h['obs'] as NdArray }));
    expect(Array.from(toFloat64(again['x']!.data))).toEqual([0, 1, 2, 3, 4, 5]);
  });
});

describe('buildDataset', () => {
  it('builds next_X by shifting within trajectories and scales to [-1, 1]', () => {
    const ds = buildDataset(fridge(), fridgeRaw());
    expect(ds.report.builtNext).toEqual(['next_temperature']);
    expect(ds.trajectoryCount).toBe(2);
    expect(ds.rows).toBe(5); // 2 + 3, last steps dropped
    expect(Array.from(ds.raw['temperature']!)).toEqual([0, 2, -20, -10, 0]);
    expect(Array.from(ds.raw['next_temperature']!)).toEqual([2, 4, -10, 0, 10]);
    expect(Array.from(ds.scaled['temperature']!)).toEqual([0, 0.1, -1, -0.5, 0].map(Math.fround));
    expect(Array.from(ds.scaled['action']!)).toEqual([1, 2, 4, 5, 6].map((a) => (2 * a) / 10 - 1).map(Math.fround));
    // door_open has no bounds in the YAML: taken from the data
    expect(ds.codecs['door_open']).toMatchObject({ fields: [{ min: 0, max: 1 }] });
    expect(Array.from(ds.done)).toEqual([0, 1, 0, 0, 1]);
  });

  it('keeps the last step when asked', () => {
    const ds = buildDataset(fridge(), fridgeRaw(), { lastStep: 'keep' });
    expect(ds.rows).toBe(7);
    expect(Array.from(ds.raw['next_temperature']!)).toEqual([2, 4, 4, -10, 0, 10, 10]);
    expect(Array.from(ds.done)).toEqual([0, 0, 1, 0, 0, 0, 1]);
  });

  it('reports data that does not fit the graph with codes', () => {
    const g = fridge();
    const without = fridgeRaw();
    delete without.arrays['door_open'];
    expect(codeOf(() => buildDataset(g, without))).toBe('data.missingNode');
    const wide = fridgeRaw();
    wide.arrays['action'] = mat([[1, 1], [2, 2], [3, 3], [4, 4], [5, 5], [6, 6], [7, 7]]);
    expect(codeOf(() => buildDataset(g, wide))).toBe('data.wrongDims');
    expect(codeOf(() => buildDataset(g, { ...fridgeRaw(), index: [3, 3, 7] }))).toBe('data.indexNotMonotonic');
    expect(codeOf(() => buildDataset(g, { ...fridgeRaw(), index: [3, 6] }))).toBe('data.rowMismatch');
    const nan = fridgeRaw();
    nan.arrays['door_open']!.data.fill(NaN);
    expect(codeOf(() => buildDataset(g, nan))).toBe('data.nanOnly');
    const bad = fromNdArrays({ ...Object.fromEntries(Object.entries(fridgeRaw().arrays).map(([k, m]) => [k, { dtype: 'f8', shape: [m.rows, m.cols], data: m.data }])), action: { dtype: 'f8', shape: [7, 1, 1], data: new Float64Array(7) } });
    expect(codeOf(() => buildDataset(g, bad))).toBe('data.notMatrix');
    expect(codeOf(() => buildDataset(g, { arrays: { temperature: mat([[1]]), action: mat([[1]]), door_open: mat([[1]]) }, index: [1] }))).toBe('data.trajectoryTooShort');
  });

  it('drops or fills missing values and says so', () => {
    const raw = fridgeRaw();
    raw.arrays['action']!.data[1] = NaN;
    const dropped = buildDataset(fridge(), raw);
    expect(dropped.rows).toBe(4);
    expect(dropped.report.nanDroppedRows).toBe(1);
    expect(dropped.report.nan).toEqual([{ node: 'action', column: 'power_action', count: 1, action: 'dropped' }]);
    const raw2 = fridgeRaw();
    raw2.arrays['action']!.data[1] = NaN;
    raw2.arrays['temperature']!.data[0] = NaN;
    const filled = buildDataset(fridge(), raw2, { nan: 'fill' });
    expect(filled.rows).toBe(5);
    expect(Array.from(filled.raw['action']!)).toEqual([1, 1, 4, 5, 6]);
    expect(Array.from(filled.raw['temperature']!)).toEqual([2, 2, -20, -10, 0]);
  });

  it('builds history frames (ts) and their next', () => {
    const g = importReviveYaml(readFileSync(join(fixtures, 'refrigeration_ts.yaml'), 'utf8')).graph;
    const ds = buildDataset(g, fridgeRaw());
    expect(ds.report.builtHistory).toEqual(['ts_temperature']);
    // trajectory 1: temps 0, 2 (4 dropped); 5 frames, first frame repeated
    expect(Array.from(ds.raw['ts_temperature']!.subarray(0, 10))).toEqual([0, 0, 0, 0, 0, 0, 0, 0, 0, 2]);
    expect(Array.from(ds.raw['next_ts_temperature']!.subarray(0, 5))).toEqual([0, 0, 0, 0, 2]);
    expect(ds.codecs['ts_temperature']!.width).toBe(5);
  });

  it('encodes categories one-hot and discrete values by index, and decodes back', () => {
    const cat = fieldCodec({ name: 'c', dataType: 'category', kind: 'int', visibility: 'normal', values: [4, 6, 10] });
    const dis = fieldCodec({ name: 'd', dataType: 'discrete', kind: 'int', visibility: 'normal', min: 2, max: 10, count: 5 });
    const con = fieldCodec({ name: 'x', dataType: 'continuous', kind: 'float', visibility: 'normal', min: 0, max: 4 });
    const codec = nodeCodec('n', [cat, dis, con]);
    expect(codec.width).toBe(5);
    const enc = encodeRows(codec, [6, 6, 1, 10, 10, 4], 2);
    expect(Array.from(enc)).toEqual([0, 1, 0, 0, -0.5, 0, 0, 1, 1, 1]);
    expect(Array.from(decodeRows(codec, enc, 2))).toEqual([6, 6, 1, 10, 10, 4]);
    expect(codeOf(() => encodeRows(codec, [5, 6, 1], 1))).toBe('data.categoryValue');
  });
});

describe('tables', () => {
  it('groups by trajectory and sorts by sequence / datetime', () => {
    const csv = 'traj,seq,when,obs_temp,power_action,factor_door_state\n' +
      'b,2,2024-01-01 00:02:00,5,1,0\n' +
      'a,1,2024-01-01 00:01:00,1,1,0\n' +
      'b,1,2024-01-01 00:01:00,4,1,1\n' +
      'a,0,2024-01-01 00:00:00,0,1,0\n' +
      'a,2,2024-01-01 00:02:00,"2",1,0\n';
    const t = parseCsv(csv);
    const raw = fromTable(fridge(), t.columns, { trajectoryField: 'traj', sequenceField: 'seq' });
    // trajectories in order of first appearance (b, then a), steps sorted
    expect(raw.index).toEqual([2, 5]);
    expect(Array.from(raw.arrays['temperature']!.data)).toEqual([4, 5, 0, 1, 2]);
    const byTime = fromTable(fridge(), t.columns, { trajectoryField: 'traj', datetimeField: 'when' });
    expect(Array.from(byTime.arrays['temperature']!.data)).toEqual([4, 5, 0, 1, 2]);
    const ds = buildDataset(fridge(), raw);
    expect(ds.rows).toBe(3);
    expect(codeOf(() => parseCsv('a,a\n1,2'))).toBe('data.csvFormat');
    expect(codeOf(() => parseCsv('a,b\n1'))).toBe('data.csvFormat');
    expect(codeOf(() => fromTable(fridge(), { obs_temp: ['x'], power_action: [1], factor_door_state: [0] }))).toBe('data.notNumeric');
    expect(codeOf(() => fromTable(fridge(), { obs_temp: [1], factor_door_state: [0], power_action: [1], traj: [1] }, { trajectoryField: 'nope' }))).toBe('data.missingColumn');
  });
});

describe('splits and sampling', () => {
  const many = (): RawTrajectories => {
    const n = 40;
    const rows = Array.from({ length: n }, (_, i) => [i % 10]);
    return { arrays: { temperature: mat(rows), action: mat(rows), door_open: mat(rows) }, index: [10, 20, 30, 40] };
  };

  it('splits whole trajectories, seeded', () => {
    const ds = buildDataset(fridge(), many());
    const a = splitDataset(ds, { seed: 7, validationFraction: 0.25 });
    const b = splitDataset(ds, { seed: 7, validationFraction: 0.25 });
    expect(a.mode).toBe('trajectories');
    expect(a.validation.trajectoryCount).toBe(1);
    expect(a.train.trajectoryCount).toBe(3);
    expect(Array.from(a.validation.raw['temperature']!)).toEqual(Array.from(b.validation.raw['temperature']!));
    expect(a.train.rows + a.validation.rows).toBe(ds.rows);
  });

  it('splits one long trajectory in time', () => {
    const raw = many();
    raw.index = [40];
    const ds = buildDataset(fridge(), raw);
    const s = splitDataset(ds, { validationFraction: 0.25 });
    expect(s.mode).toBe('time');
    expect(s.train.rows).toBe(29);
    expect(s.validation.rows).toBe(10);
    expect(s.validation.raw['temperature']![0]).toBe(ds.raw['temperature']![29]);
  });

  it('samples windows inside trajectories', () => {
    const ds = buildDataset(fridge(), many());
    const w = sampleWindows(ds, 200, 9, new Rng(1));
    for (const start of w) {
      const t = Array.from(ds.starts).findIndex((s, i) => start >= s && start < ds.ends[i]!);
      expect(start + 9).toBeLessThanOrEqual(ds.ends[t]!);
    }
    expect(codeOf(() => sampleWindows(ds, 1, 10, new Rng(1)))).toBe('data.splitTooSmall');
  });
});

export type { LearningErrorCode };

describe('tunable parameters', () => {
  it('accepts one row per trajectory or a single row, as REVIVE does', () => {
    const g = importReviveYaml(readFileSync(join(fixtures, 'parameter_tuning.yaml'), 'utf8')).graph;
    const rows = 6;
    const arrays = {
      obs: mat(Array.from({ length: rows }, (_, i) => [i / 10, 0])),
      action: mat(Array.from({ length: rows }, () => [0, 4])),
      parameter: mat([[0.5, 0, 3], [0.25, 1, 15]]),
    };
    const ds = buildDataset(g, { arrays, index: [3, 6] });
    expect(Array.from(ds.raw['parameter']!)).toEqual([0.5, 0, 3, 0.5, 0, 3, 0.25, 1, 15, 0.25, 1, 15]);
    const one = buildDataset(g, { arrays: { ...arrays, parameter: mat([[0.5, 0, 3]]) }, index: [3, 6] });
    expect(one.rows).toBe(4);
    expect(codeOf(() => buildDataset(g, { arrays: { ...arrays, parameter: mat([[0.5, 0, 3], [0.5, 0, 3], [0.5, 0, 3]]) }, index: [3, 6] }))).toBe('data.rowMismatch');
  });
});
