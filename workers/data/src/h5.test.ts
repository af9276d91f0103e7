import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import h5wasm from 'h5wasm/node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fileOf } from '../test/fixtures';
import { listH5, readH5Rows } from './h5';
import type { H5Opener } from './h5-open';
import { inspectFile } from './inspect';
import { statsFile } from './stats';

let dir: string;
let path: string;
let badPath: string;

/** In Node, h5wasm reads host paths: the opener ignores the File and opens the fixture path. */
const openerFor = (p: string): H5Opener => async () => {
  const f = new h5wasm.File(p, 'r');
  return { root: f, close: () => f.close() };
};

beforeAll(async () => {
  await h5wasm.ready;
  dir = mkdtempSync(join(tmpdir(), 'decisio-h5-'));
  path = join(dir, 'traj.h5');
  const f = new h5wasm.File(path, 'w');
  f.create_dataset({ name: 'obs', data: Float32Array.from({ length: 40 }, (_, i) => i), shape: [20, 2] });
  f.create_dataset({ name: 'act', data: new Float64Array(20).map((_, i) => (i === 3 ? Number.NaN : i)), shape: [20, 1] });
  f.create_dataset({ name: 'index', data: new BigInt64Array([5n, 12n, 20n]), shape: [3] });
  f.create_group('meta');
  (f.get('meta') as InstanceType<typeof h5wasm.Group>).create_dataset({ name: 'label', data: ['a', 'b'] });
  f.close();
  badPath = join(dir, 'bad.h5');
  const g = new h5wasm.File(badPath, 'w');
  g.create_dataset({ name: 'obs', data: new Float64Array(10), shape: [5, 2] });
  g.create_dataset({ name: 'act', data: new Float64Array(4), shape: [4] });
  g.close();
});

afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('h5', () => {
  it('lists datasets with dtype and shape, in groups too', async () => {
    const f = new h5wasm.File(path, 'r');
    try {
      const list = listH5(f);
      expect(list.map((a) => [a.info.name, a.info.dtype, a.info.shape, a.numeric])).toEqual([
        ['act', 'float64', [20, 1], true],
        ['index', 'int64', [3], true],
        ['meta/label', 'other', [2], false],
        ['obs', 'float32', [20, 2], true],
      ]);
      const rows = readH5Rows(list[3]!, 0, 3);
      expect(rows.shape).toEqual([3, 2]);
      expect([...rows.data as Float32Array]).toEqual([0, 1, 2, 3, 4, 5]);
      expect(readH5Rows(list[1]!, 0, 10).data).toBeInstanceOf(BigInt64Array);
    } finally {
      f.close();
    }
  });

  it('inspects a REVIVE h5 file', async () => {
    const file = fileOf(new Uint8Array(readFileSync(path)), 'traj.h5');
    const r = await inspectFile(file, { rows: 4 }, { openH5: openerFor(path) });
    expect(r.ok).toBe(true);
    expect(r.revive).toMatchObject({ ok: true, rows: 20, trajectories: 3 });
    expect(r.issues).toEqual([]);
    expect(r.heads?.find((h) => h.name === 'obs')?.shape).toEqual([4, 2]);
  });

  it('reports a broken REVIVE layout as a warning', async () => {
    const file = fileOf(new Uint8Array(readFileSync(badPath)), 'bad.h5');
    const r = await inspectFile(file, {}, { openH5: openerFor(badPath) });
    expect(r.ok).toBe(true);
    expect(r.revive?.problems[0]).toMatch(/act: shape \[4\] is not \[N, dim\]/);
    expect(r.issues[0]).toMatchObject({ reason: 'revive', fatal: false });
  });

  it('computes stats of numeric datasets', async () => {
    const file = fileOf(new Uint8Array(readFileSync(path)), 'traj.h5');
    const r = await statsFile(file, { openH5: openerFor(path) });
    expect(r.ok).toBe(true);
    expect(r.columns.find((c) => c.name === 'obs[1]')).toMatchObject({ count: 20, min: 1, max: 39, mean: 20 });
    expect(r.columns.find((c) => c.name === 'act[0]')).toMatchObject({ count: 19, nan: 1, nulls: 1 });
    expect(r.columns.find((c) => c.name === 'index')).toMatchObject({ min: 5, max: 20, kind: 'integer' });
  });

  it('rejects a file that is not HDF5', async () => {
    const r = await inspectFile(fileOf('a,b\n1,2\n', 'x.h5'), {}, { openH5: openerFor(path) });
    expect(r.issues[0]).toMatchObject({ code: 'tableFileFormatError', reason: 'magic' });
  });
});
