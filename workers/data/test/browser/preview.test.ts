/**
 * Real-browser test: the data worker in headless Chromium previews and summarises a generated
 * csv of several MB through DuckDB-WASM, rejects duplicate columns, and makes no request
 * outside 127.0.0.1.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import h5wasm from 'h5wasm/node';
import { SCAN_CHUNK } from '../../src/csv-scan';
import { writeCsv, type GeneratedCsv } from '../csv-gen';
import { npyBytes, npzBytes } from '../fixtures';
import { chooseFile, openHarness, skipWithoutChromium, type Harness } from './harness';
import type { PageApi } from './main';

type Win = { dataWorker: PageApi };

/**
 * The progress callback's contract, independent of timing and of the engine's own cadence:
 * fractions within [0, 1] that never go down, and exactly one `done` report, last, at 1.
 */
function expectProgressContract(events: { phase: string; fraction: number | null }[]): void {
  expect(events.at(-1)).toEqual({ phase: 'done', fraction: 1 });
  expect(events.filter((e) => e.phase === 'done')).toHaveLength(1);
  const fractions = events.map((e) => e.fraction).filter((f): f is number => f !== null);
  for (const f of fractions) expect(f).toBeGreaterThanOrEqual(0);
  for (const f of fractions) expect(f).toBeLessThanOrEqual(1);
  fractions.forEach((f, i) => {
    if (i > 0) expect(f).toBeGreaterThanOrEqual(fractions[i - 1]!);
  });
}

describe.skipIf(skipWithoutChromium(import.meta.url))('data worker in Chromium', () => {
  let h: Harness;
  let dir: string;
  let csv: GeneratedCsv;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'decisio-data-browser-'));
    csv = await writeCsv(join(dir, '销售 data (1).csv'), 6 * 1024 * 1024);
    h = await openHarness();
  });

  afterAll(async () => {
    await h?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('previews first rows and types with DuckDB-WASM', async () => {
    await chooseFile(h.page, csv.path);
    const r = await h.page.evaluate(() => (window as unknown as Win).dataWorker.inspect(20));
    expect(r.issues).toEqual([]);
    expect(r.ok).toBe(true);
    expect(r.engine).toBe('duckdb');
    expect(r.columns?.map((c) => [c.name, c.kind])).toEqual([
      ['id', 'integer'], ['value', 'float'], ['count', 'integer'], ['城市', 'string'], ['flag', 'boolean'], ['day', 'date'],
    ]);
    expect(r.rows).toHaveLength(20);
    expect(r.rows?.[0]).toEqual([0, null, 0, '北京', true, '2024-01-01']);
    expect(r.rows?.[2]).toEqual([2, -19.75, 14, '深圳, 南山', false, '2024-03-03']);
    expect(r.rows?.[4]?.[3]).toBe('He said "hi"');
    expect(r.columns?.[1]?.missing).toBe(1);
    expect(r.progress).toBeGreaterThan(0);
  });

  it('computes stats over the whole file', async () => {
    const r = await h.page.evaluate(() => (window as unknown as Win).dataWorker.stats());
    expect(r.issues).toEqual([]);
    expect(r.rows).toBe(csv.rows);
    const byName = Object.fromEntries(r.columns.map((c) => [c.name, c]));
    expect(byName.id).toMatchObject({ count: csv.rows, nulls: 0, min: 0, max: csv.rows - 1, mean: (csv.rows - 1) / 2 });
    expect(byName.value).toMatchObject({ nan: csv.valueNan, nulls: csv.valueMissing + csv.valueNan, min: -20 });
    expect(byName.value?.count).toBe(csv.rows - csv.valueMissing - csv.valueNan);
    expect(byName.count).toMatchObject({ min: 0, max: 999 });
    expect(byName.count).toMatchObject({ distinct: 1000, distinctApprox: false });
    expect(byName.flag).toMatchObject({ kind: 'boolean', distinct: 2 });
    expect(byName['城市']).toMatchObject({ kind: 'string', nulls: 0 });
    // Whether DuckDB reports progress during a query depends on its timer: only the contract
    // is checked here; fractions during the scan are checked with our own reader below.
    expectProgressContract(r.events);
  });

  it('computes the same stats with the byte scan in parallel scan workers (the engine of files over 64 MB)', async () => {
    const duck = await h.page.evaluate(() => (window as unknown as Win).dataWorker.stats('duckdb'));
    const scan = await h.page.evaluate(() => (window as unknown as Win).dataWorker.stats('scan'));
    expect(duck.engine).toEqual({ name: 'duckdb' });
    expect(scan.engine).toMatchObject({ name: 'scan', parts: expect.any(Number) });
    expect(scan.issues).toEqual([]);
    expect(scan.rows).toBe(duck.rows);
    const plain = (c: (typeof duck.columns)[number]) => ({ name: c.name, kind: c.kind, count: c.count, nulls: c.nulls, nan: c.nan, min: c.min, max: c.max });
    expect(scan.columns.map(plain)).toEqual(duck.columns.map(plain));
    scan.columns.forEach((c, i) => {
      const d = duck.columns[i]!;
      if (d.mean === null) expect(c.mean).toBeNull();
      else expect(Math.abs(c.mean! - d.mean)).toBeLessThan(1e-9 * Math.max(1, Math.abs(d.mean)));
      // DuckDB counts distinct values exactly below 64 MB; the scan estimates them (HyperLogLog).
      expect(Math.abs(c.distinct - d.distinct)).toBeLessThanOrEqual(Math.max(1, 0.06 * d.distinct));
    });
    expectProgressContract(duck.events);
    expectProgressContract(scan.events);
  });

  it('reports progress during the scan of a file our reader reads in several parts', async () => {
    // Larger than one read of the byte scan: read in at least two parts (two chunks of one
    // range, or two ranges), whatever the number of cores. The first part's progress always
    // reaches the callback (the first fraction of a phase is never throttled), so a fraction
    // strictly between 0 and 1 is reported however fast or loaded the machine is.
    const big = await writeCsv(join(dir, 'big.csv'), SCAN_CHUNK + 4 * 1024 * 1024);
    await chooseFile(h.page, big.path);
    const r = await h.page.evaluate(() => (window as unknown as Win).dataWorker.stats('scan'));
    expect(r.issues).toEqual([]);
    expect(r.engine).toMatchObject({ name: 'scan' });
    expect(r.rows).toBe(big.rows);
    expectProgressContract(r.events);
    expect(r.events.some((e) => e.phase === 'scan' && e.fraction !== null && e.fraction > 0 && e.fraction < 1)).toBe(true);
  });

  it('reads BOM, quoted newlines, NA markers and trailing empty lines', async () => {
    const odd = join(dir, 'odd.csv');
    writeFileSync(odd, '\uFEFF名称,数量,备注\r\n甲,1,"第一行\r\n第二行"\r\n乙,NA,"a, ""b"""\r\n丙,3,\r\n\r\n\r\n');
    await chooseFile(h.page, odd);
    const r = await h.page.evaluate(() => (window as unknown as Win).dataWorker.inspect());
    expect(r.issues).toEqual([]);
    expect(r.columns?.map((c) => [c.name, c.kind, c.missing])).toEqual([['名称', 'string', 0], ['数量', 'integer', 1], ['备注', 'string', 1]]);
    expect(r.rows).toEqual([['甲', 1, '第一行\r\n第二行'], ['乙', null, 'a, "b"'], ['丙', 3, null]]);
    const s = await h.page.evaluate(() => (window as unknown as Win).dataWorker.stats());
    expect(s.rows).toBe(3);
    expect(s.columns[1]).toMatchObject({ name: '数量', count: 2, nulls: 1, min: 1, max: 3, mean: 2 });
  });

  it('rejects duplicate columns and a semicolon delimiter', async () => {
    const dup = join(dir, 'dup.csv');
    writeFileSync(dup, 'a,b,a,c,b\n1,2,3,4,5\n');
    await chooseFile(h.page, dup);
    const r = await h.page.evaluate(() => (window as unknown as Win).dataWorker.inspect());
    expect(r.ok).toBe(false);
    expect(r.issues).toEqual([expect.objectContaining({ code: 'tableRepeatedColumns', value: 5008, details: { columns: ['a', 'b'] } })]);
    const semi = join(dir, 'semi.csv');
    writeFileSync(semi, 'a;b\n1;2\n');
    await chooseFile(h.page, semi);
    const s = await h.page.evaluate(() => (window as unknown as Win).dataWorker.inspect());
    expect(s.issues[0]).toMatchObject({ code: 'tableFileFormatError', reason: 'delimiter' });
  });

  it('reports unparsable rows found by DuckDB', async () => {
    const bad = join(dir, 'bad.csv');
    const lines = ['a,b'];
    for (let i = 0; i < 50_000; i += 1) lines.push(`${i},${i}`);
    lines.push('1,2,3,4');
    writeFileSync(bad, lines.join('\n'));
    await chooseFile(h.page, bad);
    const r = await h.page.evaluate(() => (window as unknown as Win).dataWorker.stats());
    expect(r.ok).toBe(false);
    expect(r.issues[0]).toMatchObject({ code: 'tableFileFormatError', reason: 'parse' });
  });

  it('gzips a compressible file for upload', async () => {
    await chooseFile(h.page, csv.path);
    const r = await h.page.evaluate(() => (window as unknown as Win).dataWorker.compress());
    expect(r.compressed).toBe(true);
    expect(r.ratio).toBeLessThan(0.5);
    expect(r.bytes).toBeLessThan(csv.bytes / 2);
  });

  it('previews and summarises npz and h5 files in the worker', async () => {
    const npz = join(dir, 'traj.npz');
    const obs = Float32Array.from({ length: 50 * 4 }, (_, i) => i);
    writeFileSync(npz, npzBytes({ obs: npyBytes('<f4', [50, 4], obs), index: npyBytes('<i8', [2], new BigInt64Array([20n, 50n])) }, true));
    await chooseFile(h.page, npz);
    const r = await h.page.evaluate(() => (window as unknown as Win).dataWorker.inspect(3));
    expect(r.issues).toEqual([]);
    expect(r.arrays?.map((a) => [a.name, a.dtype, a.shape])).toEqual([['obs', 'float32', [50, 4]], ['index', 'int64', [2]]]);
    expect(r.heads?.[0]).toMatchObject({ shape: [3, 4], data: [0, 1, 2, 3, 4, 5, 6, 7] });
    expect(r.revive).toMatchObject({ ok: true, rows: 50, trajectories: 2 });

    await h5wasm.ready;
    const h5 = join(dir, 'traj.h5');
    const f = new h5wasm.File(h5, 'w');
    f.create_dataset({ name: 'act', data: Float64Array.from({ length: 40 }, (_, i) => i / 2), shape: [20, 2] });
    f.create_dataset({ name: 'index', data: new BigInt64Array([20n]), shape: [1] });
    f.close();
    await chooseFile(h.page, h5);
    const i5 = await h.page.evaluate(() => (window as unknown as Win).dataWorker.inspect(2));
    expect(i5.issues).toEqual([]);
    expect(i5.heads?.[0]).toMatchObject({ name: 'act', shape: [2, 2], data: [0, 0.5, 1, 1.5] });
    expect(i5.revive).toMatchObject({ ok: true, rows: 20, trajectories: 1 });
    const s5 = await h.page.evaluate(() => (window as unknown as Win).dataWorker.stats());
    expect(s5.columns.find((c) => c.name === 'act[1]')).toMatchObject({ min: 0.5, max: 19.5, count: 20 });
  });

  it('made no request outside 127.0.0.1', () => {
    expect(h.requests.length).toBeGreaterThan(0);
    expect(h.external()).toEqual([]);
  });
}, 300_000);
