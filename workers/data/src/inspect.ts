/**
 * `inspect(file)`: checks a local dataset file against the upload rules and previews it.
 *
 * Checks and their error codes: name too long or with other characters, file over 2 GB ->
 * `tableParamError`; empty file, or a csv header without rows, or an npz/h5 without data ->
 * `datasetEmpty`; extension not csv/npz/h5, content not matching the extension, csv not UTF-8,
 * csv delimiter other than the comma, unparsable rows, bad npy/zip/h5 structure ->
 * `tableFileFormatError`; duplicate csv column names -> `tableRepeatedColumns`. A broken REVIVE
 * layout is reported as a non-fatal `tableFileFormatError` (warning).
 *
 * csv: the spec's checks run on a sample from the start of the file (1 MiB, more if needed for
 * the requested rows); rows and types then come from the engine (DuckDB-WASM) when given,
 * else from the sniffer. npz/h5: arrays with dtype and shape, their first rows, REVIVE layout.
 */
import { blobSource } from './byte-source';
import { CsvEngineError, type CsvEngine } from './csv-engine';
import type { ScanColumn } from './csv-scan';
import type { CsvScanResult } from './csv-scan-parallel';
import { sniffCsv } from './csv-sniff';
import { detectFileKind, MAGIC_BYTES } from './file-kind';
import { listH5, readH5Rows } from './h5';
import type { H5Opener } from './h5-open';
import { issue, toIssue } from './issues';
import { checkFileMeta } from './name-check';
import { listNpz, readNpzHead } from './npz';
import { throttleProgress } from './progress';
import { checkReviveLayout, REVIVE_INDEX } from './revive';
import type { ArrayHead, ArrayInfo, DataIssue, InspectOptions, InspectResult, ProgressCallback } from './types';

/** Engines and openers an operation may use; the worker passes DuckDB and WORKERFS. */
export interface DataDeps {
  csvEngine?: CsvEngine | null;
  openH5?: H5Opener | null;
  /** The parallel byte scan of csv statistics (scan workers in the browser; see `csv-scan-parallel.ts`). */
  csvScan?: ((file: File, columns: ScanColumn[], onBytes: (bytes: number) => void) => Promise<CsvScanResult>) | null;
}

/** Default preview rows. */
export const DEFAULT_PREVIEW_ROWS = 100;
/** Largest preview. */
export const MAX_PREVIEW_ROWS = 10_000;
/** First csv sample for the checks. */
export const CSV_SAMPLE_BYTES = 1024 * 1024;
/** Largest csv sample (for wide rows and large previews). */
export const CSV_SAMPLE_MAX_BYTES = 16 * 1024 * 1024;

/** Largest REVIVE `index` read for the layout check (one value per trajectory). */
export const MAX_INDEX_VALUES = 1_000_000;

const hasFatal = (issues: DataIssue[]): boolean => issues.some((i) => i.fatal);

/** Checks and previews a local dataset file; see the module comment for the checks. */
export async function inspectFile(
  file: File,
  options: InspectOptions = {},
  deps: DataDeps = {},
  onProgress?: ProgressCallback,
): Promise<InspectResult> {
  const started = performance.now();
  const report = throttleProgress(onProgress);
  const rows = Math.max(1, Math.min(MAX_PREVIEW_ROWS, Math.floor(options.rows ?? DEFAULT_PREVIEW_ROWS)));
  const issues = checkFileMeta(file.name, file.size);
  const base = { name: file.name, size: file.size };
  const timings: Record<string, number> = {};
  let mark = started;
  const lap = (phase: string): void => {
    const now = performance.now();
    timings[phase] = (timings[phase] ?? 0) + now - mark;
    mark = now;
  };
  const finish = (rest: Partial<InspectResult> & Pick<InspectResult, 'kind'>): InspectResult => {
    report({ phase: 'done', fraction: 1 });
    return { ...base, ok: !hasFatal(issues), issues, elapsedMs: performance.now() - started, timings, ...rest };
  };
  const src = blobSource(file);
  report({ phase: 'read', fraction: 0 });
  const head = await src.read(0, MAGIC_BYTES);
  const kind = detectFileKind(file.name, head);
  if (kind.issue) issues.push(kind.issue);
  lap('read');
  if (file.size === 0 || kind.kind === null || kind.issue) return finish({ kind: kind.kind });

  if (kind.kind === 'csv') {
    report({ phase: 'sniff', fraction: null });
    let sampleBytes = Math.min(file.size, CSV_SAMPLE_BYTES);
    let sniff = sniffCsv(await src.read(0, sampleBytes), { final: sampleBytes >= file.size, rows });
    while (sniff.rawRows.length < rows && sampleBytes < file.size && sampleBytes < CSV_SAMPLE_MAX_BYTES) {
      sampleBytes = Math.min(file.size, sampleBytes * 4, CSV_SAMPLE_MAX_BYTES);
      sniff = sniffCsv(await src.read(0, sampleBytes), { final: sampleBytes >= file.size, rows });
    }
    issues.push(...sniff.issues);
    lap('sniff');
    const fromSniffer = { columns: sniff.columns, rows: sniff.rows, engine: 'sniffer' as const };
    if (hasFatal(sniff.issues) || !deps.csvEngine) return finish({ kind: 'csv', ...fromSniffer });
    report({ phase: 'engine', fraction: null });
    try {
      // The engine reads only the sample, cut after its last complete record: first rows and
      // types do not depend on the file's size.
      const prefix = sniff.completeBytes >= file.size ? file : file.slice(0, sniff.completeBytes);
      const preview = await deps.csvEngine.preview(prefix, rows);
      lap('engine');
      return finish({ kind: 'csv', columns: preview.columns, rows: preview.rows, engine: 'duckdb' });
    } catch (e) {
      if (!(e instanceof CsvEngineError)) throw e;
      issues.push(issue('parse', e.message));
      lap('engine');
      return finish({ kind: 'csv', ...fromSniffer });
    }
  }

  const arrays: ArrayInfo[] = [];
  const heads: ArrayHead[] = [];
  let indexValues: ArrayHead['data'] | null = null;
  try {
    if (kind.kind === 'npz') {
      const list = await listNpz(src);
      for (const [i, a] of list.entries()) {
        arrays.push(a.info);
        heads.push(await readNpzHead(src, a, rows));
        if (a.info.name === REVIVE_INDEX && a.header.shape.length === 1 && a.header.shape[0]! <= MAX_INDEX_VALUES) {
          indexValues = (await readNpzHead(src, a, a.header.shape[0]!)).data;
        }
        report({ phase: 'read', fraction: (i + 1) / list.length });
      }
    } else {
      if (!deps.openH5) throw new Error('no HDF5 opener');
      const h5 = await deps.openH5(file);
      try {
        const list = listH5(h5.root);
        for (const a of list) {
          arrays.push(a.info);
          if (!a.numeric) continue;
          heads.push(readH5Rows(a, 0, rows));
          if (a.info.name === REVIVE_INDEX && a.info.shape.length === 1 && a.info.shape[0]! <= MAX_INDEX_VALUES) indexValues = readH5Rows(a, 0, a.info.shape[0]!).data;
        }
      } finally {
        h5.close();
      }
    }
  } catch (e) {
    issues.push(toIssue(e, kind.kind === 'npz' ? 'zip' : 'h5'));
    return finish({ kind: kind.kind, arrays, heads });
  }
  lap('arrays');
  if (arrays.length === 0 || arrays.every((a) => a.shape.length > 0 && a.shape.some((d) => d === 0))) {
    issues.push(issue('empty', arrays.length === 0 ? 'the file holds no arrays' : 'every array is empty'));
  }
  const revive = checkReviveLayout(arrays.filter((a) => a.dtype !== 'other'), indexValues);
  if (!revive.ok && arrays.length > 0) {
    issues.push(issue('revive', `not in the REVIVE layout: ${revive.problems.join('; ')}`, { problems: revive.problems }, false));
  }
  return finish({ kind: kind.kind, arrays, heads, revive });
}

/** Buffers of an inspect result that can be transferred instead of copied. */
export function inspectTransferables(r: InspectResult): ArrayBuffer[] {
  const seen = new Set<ArrayBuffer>();
  for (const h of r.heads ?? []) if (h.data.buffer instanceof ArrayBuffer) seen.add(h.data.buffer);
  return [...seen];
}

