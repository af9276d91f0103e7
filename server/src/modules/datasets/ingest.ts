import { randomBytes } from 'node:crypto';
import fsp from 'node:fs/promises';
import { DuckDBDataChunk, DOUBLE, type DuckDBConnection } from '@duckdb/node-api';
import { AppError, COLUMN_NAME_MAX, COLUMN_NAME_PATTERN } from '@decisio/domain';
import { readH5, readNpz, toFloat64, type NdArray } from '@decisio/learning';
import { sqlIdent, sqlString, withDuck } from './duck';

/**
 * Server-side ingest of an uploaded dataset file into a Parquet copy, with the spec's checks
 * (workflow §5 "Dataset upload"): not empty (`datasetEmpty`); csv in UTF-8 with the comma as
 * delimiter (`tableFileFormatError`, `details.delimiter` naming the one found); column names
 * unique (`tableRepeatedColumns`), at most 50 characters of the spec's name set
 * (`tableParamError`); a file DuckDB cannot read (`tableFileFormatError`).
 */

/** What an ingest produced. */
export interface IngestResult {
  rows: number;
  columns: { name: string; type: string }[];
  delimiter: string | null;
}

/** Bytes read from the start of a csv for the checks. */
const SAMPLE_BYTES = 1024 * 1024;
const OTHER_DELIMITERS = [';', '\t', '|'] as const;

/** Splits csv text into records (RFC 4180 quotes). The last record is dropped when `final` is false. */
export function parseCsvRecords(text: string, delimiter: string, maxRecords: number, final: boolean): string[][] {
  const records: string[][] = [];
  let row: string[] = [];
  let field = '';
  let inQuotes = false;
  let i = 0;
  const n = text.length;
  const endRow = () => {
    row.push(field);
    field = '';
    if (!(row.length === 1 && row[0] === '')) records.push(row);
    row = [];
  };
  while (i < n && records.length < maxRecords) {
    const c = text[i]!;
    if (inQuotes) {
      if (c === '"') {
        if (text[i + 1] === '"') {
          field += '"';
          i += 2;
          continue;
        }
        inQuotes = false;
      } else field += c;
      i += 1;
      continue;
    }
    if (c === '"' && field === '') inQuotes = true;
    else if (c === delimiter) {
      row.push(field);
      field = '';
    } else if (c === '\n' || c === '\r') {
      if (c === '\r' && text[i + 1] === '\n') i += 1;
      endRow();
    } else field += c;
    i += 1;
  }
  if (final && records.length < maxRecords && (field !== '' || row.length > 0)) endRow();
  return records;
}

/** Checks column names; throws the catalogue error of the first broken rule. */
export function checkColumnNames(names: readonly string[]): void {
  const seen = new Map<string, string>();
  const repeated = new Set<string>();
  for (const name of names) {
    const key = name.toLowerCase();
    const prior = seen.get(key);
    if (prior !== undefined) {
      repeated.add(prior);
      repeated.add(name);
    } else seen.set(key, name);
  }
  if (repeated.size > 0) throw new AppError('tableRepeatedColumns', { columns: [...repeated].join(', ') });
  const empty = names.findIndex((n) => n === '');
  if (empty >= 0) throw new AppError('tableParamError', { columns: `column ${empty + 1} has no name` });
  const long = names.filter((n) => n.length > COLUMN_NAME_MAX);
  if (long.length > 0) throw new AppError('tableParamError', { columns: `longer than ${COLUMN_NAME_MAX} characters: ${long.join(', ')}` });
  const bad = names.filter((n) => !COLUMN_NAME_PATTERN.test(n));
  if (bad.length > 0) throw new AppError('tableParamError', { columns: `characters not allowed: ${bad.join(', ')}` });
}

/** Reads the start of a csv and applies the checks; resolves with the trimmed header. */
export async function checkCsv(file: string): Promise<{ header: string[]; hasRows: boolean }> {
  const handle = await fsp.open(file, 'r');
  let sample: Buffer;
  let size: number;
  try {
    size = (await handle.stat()).size;
    const buf = Buffer.alloc(Math.min(SAMPLE_BYTES, size));
    const { bytesRead } = await handle.read(buf, 0, buf.length, 0);
    sample = buf.subarray(0, bytesRead);
  } finally {
    await handle.close();
  }
  if (size === 0 || sample.toString('utf8').trim() === '') throw new AppError('datasetEmpty');
  const final = sample.length >= size;
  if (sample.includes(0)) throw new AppError('tableFileFormatError', { file: 'binary content' });
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(sample, { stream: !final });
  } catch {
    throw new AppError('tableFileFormatError', { file: 'not UTF-8 text' });
  }
  if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);

  const sampleRecords = (d: string) => parseCsvRecords(text, d, 50, final);
  const comma = sampleRecords(',');
  const widths = (rs: string[][]) => new Set(rs.map((r) => r.length));
  const consistent = (rs: string[][]) => rs.length > 0 && widths(rs).size === 1 && rs[0]!.length > 1;
  if (!consistent(comma)) {
    for (const d of OTHER_DELIMITERS) {
      if (consistent(sampleRecords(d))) throw new AppError('tableFileFormatError', { delimiter: d === '\t' ? '\\t' : d });
    }
  }
  const header = (comma[0] ?? []).map((h) => h.trim());
  checkColumnNames(header);
  if (comma.length > 1 && widths(comma).size > 1) {
    const bad = comma.findIndex((r) => r.length !== header.length);
    throw new AppError('tableFileFormatError', { file: `record ${bad + 1} has ${comma[bad]!.length} fields, the header ${header.length}` });
  }
  return { header, hasRows: comma.length > 1 || !final };
}

function duckMessage(err: unknown): string {
  const m = err instanceof Error ? err.message : String(err);
  return m.split('\n')[0]!.slice(0, 300);
}

async function describeParquet(c: DuckDBConnection, file: string): Promise<IngestResult['columns']> {
  const r = await c.runAndReadAll(`DESCRIBE SELECT * FROM read_parquet(${sqlString(file)})`);
  return r.getRowObjectsJS().map((row) => ({ name: String(row.column_name), type: String(row.column_type) }));
}

async function countParquet(c: DuckDBConnection, file: string): Promise<number> {
  const r = await c.runAndReadAll(`SELECT count(*)::DOUBLE AS n FROM read_parquet(${sqlString(file)})`);
  return Number(r.getRowObjectsJS()[0]!.n);
}

/** csv -> Parquet through DuckDB's own reader (comma, double quotes, header). */
export async function ingestCsv(src: string, out: string): Promise<IngestResult> {
  const { header, hasRows } = await checkCsv(src);
  if (!hasRows) throw new AppError('datasetEmpty');
  return withDuck(async (c) => {
    const names = `[${header.map(sqlString).join(', ')}]`;
    try {
      await c.run(
        `COPY (SELECT * FROM read_csv(${sqlString(src)}, delim = ',', quote = '"', escape = '"', header = true, names = ${names}, ` +
          `auto_detect = true, sample_size = 20480)) TO ${sqlString(out)} (FORMAT parquet, COMPRESSION zstd)`,
      );
    } catch (err) {
      throw new AppError('tableFileFormatError', { file: duckMessage(err) });
    }
    const rows = await countParquet(c, out);
    if (rows === 0) throw new AppError('datasetEmpty');
    return { rows, columns: await describeParquet(c, out), delimiter: ',' };
  });
}

/** A column made from arrays. */
interface ArrayColumn {
  name: string;
  values: (i: number) => number;
}

/** npz / h5 arrays -> columns: `[N]` gives `key`, `[N, d, ...]` gives `key_0` ... ; REVIVE's `index` gives `trajectory`. */
export function arrayColumns(arrays: Record<string, NdArray>): { rows: number; columns: ArrayColumn[] } {
  const entries = Object.entries(arrays).filter(([k]) => k !== 'index');
  if (entries.length === 0) throw new AppError('datasetEmpty');
  const rows = entries[0]![1].shape[0] ?? 0;
  if (rows === 0) throw new AppError('datasetEmpty');
  const sanitize = (k: string) => k.replace(/[^\u4e00-\u9fa5A-Za-z0-9_\-() ]/g, '_');
  const columns: ArrayColumn[] = [];
  for (const [key, a] of entries) {
    if (a.shape.length === 0 || a.shape[0] !== rows) {
      throw new AppError('tableFileFormatError', { file: `array "${key}" has shape [${a.shape.join(', ')}], expected ${rows} rows` });
    }
    const data = toFloat64(a.data);
    const width = a.shape.slice(1).reduce((p, d) => p * d, 1);
    if (a.shape.length === 1) columns.push({ name: sanitize(key), values: (i) => data[i]! });
    else for (let j = 0; j < width; j++) columns.push({ name: `${sanitize(key)}_${j}`, values: (i) => data[i * width + j]! });
  }
  const index = arrays.index;
  if (index) {
    const ends = Array.from(toFloat64(index.data));
    const ok = index.shape.length === 1 && ends.length > 0 && ends.every((e, k) => Number.isInteger(e) && e > (k === 0 ? 0 : ends[k - 1]!)) && ends[ends.length - 1] === rows;
    if (!ok) throw new AppError('tableFileFormatError', { file: `"index" must hold increasing trajectory ends, the last equal to ${rows}` });
    const traj = new Float64Array(rows);
    let t = 0;
    for (let i = 0; i < rows; i++) {
      while (i >= ends[t]!) t += 1;
      traj[i] = t;
    }
    let name = 'trajectory';
    while (columns.some((c) => c.name === name)) name += '_1';
    columns.unshift({ name, values: (i) => traj[i]! });
  }
  checkColumnNames(columns.map((c) => c.name));
  return { rows, columns };
}

/** The arrays of an npz or h5 file: `datasetEmpty` for no bytes, `tableFileFormatError` when unreadable. */
async function readArrayFile(src: string, kind: 'npz' | 'h5'): Promise<Record<string, NdArray>> {
  const bytes = await fsp.readFile(src);
  if (bytes.length === 0) throw new AppError('datasetEmpty');
  try {
    return kind === 'npz' ? readNpz(bytes) : await readH5(bytes);
  } catch (err) {
    throw new AppError('tableFileFormatError', { file: duckMessage(err) });
  }
}

/** npz or h5 -> Parquet: the arrays become DOUBLE columns, appended in chunks. */
export async function ingestArrays(src: string, kind: 'npz' | 'h5', out: string): Promise<IngestResult> {
  const { rows, columns } = arrayColumns(await readArrayFile(src, kind));
  return withDuck(async (c) => {
    const table = `ingest_${randomBytes(6).toString('hex')}`;
    await c.run(`CREATE TABLE ${table} (${columns.map((col) => `${sqlIdent(col.name)} DOUBLE`).join(', ')})`);
    try {
      const appender = await c.createAppender(table);
      const CHUNK = 2048;
      for (let start = 0; start < rows; start += CHUNK) {
        const n = Math.min(CHUNK, rows - start);
        const chunk = DuckDBDataChunk.create(columns.map(() => DOUBLE), n);
        columns.forEach((col, k) => {
          const values: number[] = new Array<number>(n);
          for (let i = 0; i < n; i++) values[i] = col.values(start + i);
          chunk.setColumnValues(k, values);
        });
        appender.appendDataChunk(chunk);
      }
      appender.closeSync();
      await c.run(`COPY ${table} TO ${sqlString(out)} (FORMAT parquet, COMPRESSION zstd)`);
    } finally {
      await c.run(`DROP TABLE IF EXISTS ${table}`);
    }
    return { rows, columns: await describeParquet(c, out), delimiter: null };
  });
}

/** Ingests a csv, npz or h5 file into Parquet at `out`. */
export function ingestFile(src: string, kind: 'csv' | 'npz' | 'h5', out: string): Promise<IngestResult> {
  return kind === 'csv' ? ingestCsv(src, out) : ingestArrays(src, kind, out);
}

/**
 * The checks of a dataset file without making its copy (storage runs them when a dataset upload
 * completes, so a file `table/create` would refuse is refused at once, with the same error).
 */
export async function checkDataFile(file: string, kind: 'csv' | 'npz' | 'h5'): Promise<void> {
  if (kind === 'csv') {
    const { hasRows } = await checkCsv(file);
    if (!hasRows) throw new AppError('datasetEmpty');
    return;
  }
  arrayColumns(await readArrayFile(file, kind));
}
