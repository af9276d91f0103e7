/**
 * The byte scanner of csv statistics against DuckDB itself (native `@duckdb/node-api`, the same
 * csv reader as DuckDB-WASM): on a file with quoted commas, quotes and line ends, missing-value
 * spellings, NaN, exponents, long decimals, booleans, dates, timestamps, Chinese text and blank
 * lines, scanned in one range and in several (cuts falling inside quoted line ends included),
 * every statistic must be DuckDB's (distinct counts: within the HyperLogLog's error).
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import { afterAll, describe, expect, it } from 'vitest';
import { bytesSource } from './byte-source';
import { CsvScanError, CsvScanUnsupported, type ScanColumn } from './csv-scan';
import { inThreadRunner, scanCsvInRanges } from './csv-scan-parallel';
import type { ColumnKind, ColumnStats } from './types';

const dir = mkdtempSync(join(tmpdir(), 'decisio-csv-scan-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const NULLSTR = ['', 'NA', 'N/A', 'na', 'n/a', 'null', 'NULL', 'Null', 'None'];

/** DuckDB's kind of a type name (as the worker's DuckDB engine maps it). */
function kindOf(t: string): ColumnKind {
  const u = t.toUpperCase();
  if (/^(TINYINT|SMALLINT|INTEGER|BIGINT|HUGEINT|UTINYINT|USMALLINT|UINTEGER|UBIGINT)$/.test(u)) return 'integer';
  if (/^(FLOAT|DOUBLE|REAL)$/.test(u) || u.startsWith('DECIMAL')) return 'float';
  if (u === 'BOOLEAN') return 'boolean';
  if (u === 'DATE') return 'date';
  if (u.startsWith('TIMESTAMP')) return 'timestamp';
  return 'string';
}

/** Types and statistics of `file` from DuckDB (exact distinct counts). */
async function duckStats(file: string): Promise<{ columns: ScanColumn[]; rows: number; stats: ColumnStats[] }> {
  const db = await DuckDBInstance.create(':memory:', { autoinstall_known_extensions: 'false', autoload_known_extensions: 'false' });
  const c = await db.connect();
  try {
    const read = `read_csv('${file}', delim=',', quote='"', escape='"', header=true, auto_detect=true, nullstr=[${NULLSTR.map((s) => `'${s}'`).join(', ')}], sample_size=20480)`;
    const described = (await (await c.run(`DESCRIBE SELECT * FROM ${read}`)).getRowObjectsJS()) as { column_name: string; column_type: string }[];
    const columns = described.map((d) => ({ name: d.column_name, kind: kindOf(d.column_type), type: d.column_type }));
    const parts = ['count(*) AS n'];
    columns.forEach((col, i) => {
      const id = `"${col.name.replace(/"/g, '""')}"`;
      const isFloat = col.kind === 'float';
      const numeric = col.kind === 'integer' || isFloat;
      const keep = isFloat ? ` FILTER (WHERE NOT isnan(${id}))` : '';
      parts.push(
        `count(${id}) AS c${i}`,
        isFloat ? `count_if(isnan(${id})) AS nan${i}` : `0 AS nan${i}`,
        numeric ? `CAST(min(${id})${keep} AS DOUBLE) AS lo${i}` : `CAST(min(${id}) AS VARCHAR) AS lo${i}`,
        numeric ? `CAST(max(${id})${keep} AS DOUBLE) AS hi${i}` : `CAST(max(${id}) AS VARCHAR) AS hi${i}`,
        numeric ? `avg(${id})${keep} AS mean${i}` : col.kind === 'boolean' ? `avg(CAST(${id} AS INTEGER)) AS mean${i}` : `NULL AS mean${i}`,
        `count(DISTINCT ${id}) AS d${i}`,
      );
    });
    const row = (await (await c.run(`SELECT ${parts.join(', ')} FROM ${read}`)).getRowObjectsJS())[0] as Record<string, unknown>;
    const num = (v: unknown) => (v === null || v === undefined ? null : Number(v));
    const rows = Number(row.n);
    const stats = columns.map((col, i): ColumnStats => {
      const nonNull = Number(row[`c${i}`]);
      const nan = Number(row[`nan${i}`]);
      const show = (v: unknown) => (v === null || v === undefined ? null : typeof v === 'string' ? v : Number(v));
      return {
        name: col.name,
        kind: col.kind,
        count: nonNull - nan,
        nulls: rows - nonNull + nan,
        nan,
        min: show(row[`lo${i}`]),
        max: show(row[`hi${i}`]),
        mean: num(row[`mean${i}`]),
        distinct: Number(row[`d${i}`]),
        distinctApprox: false,
      };
    });
    return { columns: columns.map(({ name, kind }) => ({ name, kind })), rows, stats };
  } finally {
    c.closeSync();
  }
}

/** A csv with the awkward parts, `rows` rows (deterministic). */
function trickyCsv(rows: number): string {
  let seed = 7;
  const rnd = () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
  const lines = ['\uFEFFid,price,qty,城市,note,flag,day,at'];
  const cities = ['北京', '上海', '"深圳, 南山"', 'Hangzhou', '"He said ""hi"""', 'Zürich', 'a', 'b'];
  for (let i = 0; i < rows; i += 1) {
    const price = i % 53 === 0 ? 'NaN' : i % 47 === 0 ? '' : i % 41 === 0 ? 'NA' : i % 59 === 0 ? `${(rnd() * 1e6).toExponential(3)}` : i % 61 === 0 ? String(rnd() * 1000 - 500) : (rnd() * 1000 - 500).toFixed(2);
    const qty = i % 43 === 0 ? 'null' : String(Math.floor(rnd() * 2000) - 1000);
    // Notes with quoted line ends (CRLF and LF), quotes and commas, so range cuts fall inside quotes.
    const note = i % 5 === 0 ? `"line one\r\nline ${i % 17}, ""two""\nthree"` : i % 7 === 0 ? '' : `n${Math.floor(rnd() * 300)}`;
    const flag = i % 31 === 0 ? 'None' : i % 3 === 0 ? 'true' : 'false';
    const day = `20${10 + (i % 15)}-${String((i % 12) + 1).padStart(2, '0')}-${String((i % 28) + 1).padStart(2, '0')}`;
    const at = i % 29 === 0 ? '' : `2024-0${(i % 9) + 1}-1${i % 10} ${String(i % 24).padStart(2, '0')}:${String(i % 60).padStart(2, '0')}:0${i % 10}`;
    lines.push([i, price, qty, cities[i % cities.length], note, flag, day, at].join(','));
    if (i % 997 === 0) lines.push('');
  }
  return lines.join('\r\n') + '\r\n';
}

function expectSameStats(ours: ColumnStats[], duck: ColumnStats[]): void {
  expect(ours.map((c) => c.name)).toEqual(duck.map((c) => c.name));
  ours.forEach((o, i) => {
    const d = duck[i]!;
    const where = `column ${d.name}`;
    expect({ where, count: o.count, nulls: o.nulls, nan: o.nan, min: o.min, max: o.max }).toEqual({ where, count: d.count, nulls: d.nulls, nan: d.nan, min: d.min, max: d.max });
    if (d.mean === null) expect(o.mean).toBeNull();
    else expect(Math.abs(o.mean! - d.mean)).toBeLessThanOrEqual(1e-9 * Math.max(1, Math.abs(d.mean)));
    expect(Math.abs(o.distinct - d.distinct)).toBeLessThanOrEqual(Math.max(1, 0.06 * d.distinct));
  });
}

describe('csv statistics by byte scan', () => {
  it('gives DuckDB\'s statistics, in one range and in several (cuts inside quoted line ends rescanned)', async () => {
    const text = trickyCsv(30_000);
    const file = join(dir, 'tricky.csv');
    writeFileSync(file, text);
    const duck = await duckStats(file);
    expect(duck.columns.map((c) => c.kind)).toEqual(['integer', 'float', 'integer', 'string', 'string', 'boolean', 'date', 'timestamp']);
    const source = bytesSource(new TextEncoder().encode(text));
    let rescans = 0;
    for (const parts of [1, 2, 3, 8, 29]) {
      const r = await scanCsvInRanges(source, duck.columns, { parts, run: inThreadRunner(source, duck.columns) });
      expect(r.rows).toBe(duck.rows);
      expectSameStats(r.columns, duck.stats);
      rescans += r.rescanned;
    }
    // About one record in five has quoted line ends: some cuts must have fallen inside them.
    expect(rescans).toBeGreaterThan(0);
  });

  it('reports a value that does not fit its column with its row in the whole file, from any range', async () => {
    const lines = ['a,b'];
    for (let i = 0; i < 5000; i += 1) lines.push(`${i},x${i % 7}`);
    lines[4001] = '4000.5,x';
    const source = bytesSource(new TextEncoder().encode(lines.join('\n') + '\n'));
    const columns: ScanColumn[] = [
      { name: 'a', kind: 'integer' },
      { name: 'b', kind: 'string' },
    ];
    for (const parts of [1, 4]) {
      const err = await scanCsvInRanges(source, columns, { parts, run: inThreadRunner(source, columns) }).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(CsvScanError);
      expect((err as CsvScanError).row).toBe(4001);
      expect((err as CsvScanError).message).toContain('4000.5');
    }
  });

  it('refuses rows of another width and unclosed quotes, and leaves dates that are not ISO to DuckDB', async () => {
    const cols: ScanColumn[] = [
      { name: 'a', kind: 'integer' },
      { name: 'b', kind: 'string' },
    ];
    const run = async (text: string, columns = cols) => {
      const source = bytesSource(new TextEncoder().encode(text));
      return scanCsvInRanges(source, columns, { parts: 1, run: inThreadRunner(source, columns) }).catch((e: unknown) => e);
    };
    const ragged = await run('a,b\n1,x\n2,y,z\n');
    expect(ragged).toBeInstanceOf(CsvScanError);
    expect((ragged as CsvScanError).row).toBe(2);
    expect(await run('a,b\n1,"open\n2,y\n')).toBeInstanceOf(CsvScanError);
    expect(await run('a,d\n1,03/04/2024\n', [{ name: 'a', kind: 'integer' }, { name: 'd', kind: 'date' }])).toBeInstanceOf(CsvScanUnsupported);
    // A header only: no rows, no values.
    const empty = await run('a,b\n');
    expect(empty).toMatchObject({ rows: 0, columns: [{ count: 0, min: null, max: null, mean: null, distinct: 0 }, { count: 0, distinct: 0 }] });
  });
});
