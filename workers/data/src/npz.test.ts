import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { fileOf, npyBytes, npzBytes } from '../test/fixtures';
import { bytesSource } from './byte-source';
import { inspectFile } from './inspect';
import { listNpz, readNpzHead } from './npz';
import { statsFile } from './stats';
import { existsSync as pythonExists } from 'node:fs';

/** Debian's python3 (with numpy) when present, else the one on PATH. */
const PYTHON = pythonExists('/usr/bin/python3') ? '/usr/bin/python3' : 'python3';


const obs = Float32Array.from({ length: 300 * 3 }, (_, i) => (i % 3) * 10 + Math.floor(i / 3));
const act = new Float64Array(300).map((_, i) => (i % 7 === 0 ? Number.NaN : i / 2));
const index = new BigInt64Array([100n, 250n, 300n]);

function reviveNpz(deflate: boolean): Uint8Array {
  return npzBytes({ obs: npyBytes('<f4', [300, 3], obs), act: npyBytes('<f8', [300, 1], act), index: npyBytes('<i8', [3], index) }, deflate);
}

describe.each([false, true])('npz (deflated: %s)', (deflate) => {
  it('lists arrays and reads first rows', async () => {
    const src = bytesSource(reviveNpz(deflate));
    const arrays = await listNpz(src);
    expect(arrays.map((a) => [a.info.name, a.info.dtype, a.info.shape])).toEqual([
      ['obs', 'float32', [300, 3]],
      ['act', 'float64', [300, 1]],
      ['index', 'int64', [3]],
    ]);
    const head = await readNpzHead(src, arrays[0]!, 2);
    expect(head.shape).toEqual([2, 3]);
    expect([...head.data as Float32Array]).toEqual([0, 10, 20, 1, 11, 21]);
    const idx = await readNpzHead(src, arrays[2]!, 10);
    expect(idx.data).toBeInstanceOf(BigInt64Array);
    expect([...idx.data as BigInt64Array]).toEqual([100n, 250n, 300n]);
  });

  it('inspects a REVIVE npz', async () => {
    const r = await inspectFile(fileOf(reviveNpz(deflate), 'traj.npz'), { rows: 5 });
    expect(r.ok).toBe(true);
    expect(r.issues).toEqual([]);
    expect(r.revive).toMatchObject({ ok: true, rows: 300, trajectories: 3, nodes: [{ name: 'obs', dim: 3 }, { name: 'act', dim: 1 }] });
    expect(r.heads?.[1]?.shape).toEqual([5, 1]);
  });

  it('computes stats per array dimension', async () => {
    const r = await statsFile(fileOf(reviveNpz(deflate), 'traj.npz'));
    expect(r.ok).toBe(true);
    expect(r.rows).toBe(300);
    const obs1 = r.columns.find((c) => c.name === 'obs[1]')!;
    expect(obs1).toMatchObject({ count: 300, nulls: 0, min: 10, max: 309, mean: 159.5, distinct: 300, distinctApprox: false });
    const a = r.columns.find((c) => c.name === 'act[0]')!;
    expect(a).toMatchObject({ nan: 43, nulls: 43, count: 257, min: 0.5 });
  });
});

describe('npz checks', () => {
  it('warns when the REVIVE layout is broken', async () => {
    const bytes = npzBytes({
      obs: npyBytes('<f4', [10, 2], new Float32Array(20)),
      act: npyBytes('<f4', [9, 1], new Float32Array(9)),
      index: npyBytes('<i8', [2], new BigInt64Array([6n, 4n])),
    });
    const r = await inspectFile(fileOf(bytes, 'bad.npz'));
    expect(r.ok).toBe(true);
    expect(r.revive?.ok).toBe(false);
    expect(r.issues[0]).toMatchObject({ code: 'tableFileFormatError', reason: 'revive', fatal: false });
    expect(r.revive?.problems.join(' ')).toMatch(/disagree on N/);
  });
  it('rejects a corrupt archive and an empty one', async () => {
    const good = reviveNpz(false);
    const cut = good.slice(0, good.length - 30);
    expect((await inspectFile(fileOf(cut, 'cut.npz'))).issues[0]).toMatchObject({ code: 'tableFileFormatError', reason: 'zip' });
    const empty = await inspectFile(fileOf(npzBytes({ x: npyBytes('<f8', [0, 3], new Float64Array(0)) }), 'e.npz'));
    expect(empty.issues.map((i) => i.code)).toContain('datasetEmpty');
  });
  it('rejects unsupported dtypes with the array name', async () => {
    const r = await inspectFile(fileOf(npzBytes({ z: npyBytes('<c16', [1], new Float64Array(2)) }), 'c.npz'));
    expect(r.issues[0]).toMatchObject({ code: 'tableFileFormatError', reason: 'npyDtype', details: { array: 'z' } });
  });
});

describe('npz written by numpy', () => {
  it('reads savez and savez_compressed files (ZIP64 extras, Fortran order, int64, bool, uint8)', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'decisio-npz-'));
    const script = `
import numpy as np, sys
d = sys.argv[1]
a = np.asfortranarray(np.arange(12, dtype='<f8').reshape(4, 3))
kw = dict(a=a, i=np.arange(5, dtype='<i8') - 2, u=np.arange(6, dtype='u1').reshape(3, 2), b=np.array([True, False, True]), f=np.arange(6, dtype='<f4').reshape(2, 3))
np.savez(d + '/plain.npz', **kw)
np.savez_compressed(d + '/packed.npz', **kw)
`;
    execFileSync(PYTHON, ['-c', script, dir]);
    for (const name of ['plain.npz', 'packed.npz']) {
      const src = bytesSource(new Uint8Array(readFileSync(join(dir, name))));
      const arrays = await listNpz(src);
      const byName = Object.fromEntries(arrays.map((a) => [a.info.name, a]));
      expect(byName.a?.info).toMatchObject({ dtype: 'float64', shape: [4, 3], fortranOrder: true });
      const a = await readNpzHead(src, byName.a!, 2);
      expect([...a.data as Float64Array]).toEqual([0, 1, 2, 3, 4, 5]);
      expect([...(await readNpzHead(src, byName.i!, 5)).data as BigInt64Array]).toEqual([-2n, -1n, 0n, 1n, 2n]);
      expect([...(await readNpzHead(src, byName.b!, 5)).data]).toEqual([1, 0, 1]);
      expect((await readNpzHead(src, byName.u!, 9)).shape).toEqual([3, 2]);
      const s = await statsFile(fileOf(new Uint8Array(readFileSync(join(dir, name))), name));
      // Fortran array columns: a[:, 1] = 1, 4, 7, 10
      expect(s.columns.find((c) => c.name === 'a[1]')).toMatchObject({ min: 1, max: 10, mean: 5.5, count: 4 });
    }
  });
});
