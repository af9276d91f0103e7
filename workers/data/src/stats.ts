/**
 * `stats(file)`: statistics per column over the whole file. csv goes through the engine
 * (DuckDB-WASM: count, nulls, NaN, min, max, mean, approximate distinct in one scan of the
 * lazily read file); npz and h5 arrays stream through {@link ArrayStats} (one column per
 * dimension of `[N, dim]` arrays; distinct exact up to 65 536 values, then HyperLogLog).
 * The same checks as `inspect` run first on the head of the file; a fatal issue stops the scan.
 */
import { blobSource } from './byte-source';
import { ArrayStats } from './column-stats';
import { CsvEngineError } from './csv-engine';
import { CsvScanError, CsvScanUnsupported } from './csv-scan';
import { sniffCsv } from './csv-sniff';
import { detectFileKind, MAGIC_BYTES } from './file-kind';
import { listH5, streamH5 } from './h5';
import { CSV_SAMPLE_BYTES, type DataDeps } from './inspect';
import { issue, toIssue } from './issues';
import { checkFileMeta } from './name-check';
import { listNpz, streamNpzArray } from './npz';
import { throttleProgress } from './progress';
import type { ColumnStats, DataIssue, ProgressCallback, StatsOptions, StatsResult } from './types';

/** csv files above this size get the parallel byte scan (`auto`); smaller ones DuckDB's exact distinct counts. */
export const SCAN_MIN_BYTES = 64 * 1024 * 1024; // = EXACT_DISTINCT_MAX_BYTES of the DuckDB engine

/** Computes column statistics of a local dataset file. */
export async function statsFile(file: File, deps: DataDeps = {}, onProgress?: ProgressCallback, options: StatsOptions = {}): Promise<StatsResult> {
  const started = performance.now();
  const report = throttleProgress(onProgress);
  const issues: DataIssue[] = checkFileMeta(file.name, file.size).filter((i) => i.reason === 'empty');
  const src = blobSource(file);
  const kind = detectFileKind(file.name, await src.read(0, MAGIC_BYTES));
  if (kind.issue) issues.push(kind.issue);
  let rows: number | null = null;
  let engine: StatsResult['engine'];
  const columns: ColumnStats[] = [];
  const finish = (): StatsResult => {
    report({ phase: 'done', fraction: 1 });
    return { name: file.name, kind: kind.kind, ok: !issues.some((i) => i.fatal), issues, rows, columns, ...(engine ? { engine } : {}), elapsedMs: performance.now() - started };
  };
  if (issues.some((i) => i.fatal) || kind.kind === null) return finish();

  if (kind.kind === 'csv') {
    const sampleBytes = Math.min(file.size, CSV_SAMPLE_BYTES);
    const sniff = sniffCsv(await src.read(0, sampleBytes), { final: sampleBytes >= file.size, rows: 100 });
    issues.push(...sniff.issues.filter((i) => i.fatal));
    if (issues.some((i) => i.fatal)) return finish();
    if (!deps.csvEngine) throw new Error('csv statistics need a CSV engine (DuckDB-WASM in the worker)');
    report({ phase: 'scan', fraction: null });
    const choice = options.csvEngine ?? 'auto';
    const scan = deps.csvScan && deps.csvEngine.columns && (choice === 'scan' || (choice === 'auto' && file.size > SCAN_MIN_BYTES)) ? deps.csvScan : null;
    try {
      let done = false;
      if (scan) {
        try {
          const types = await deps.csvEngine.columns!(file);
          const r = await scan(file, types.map((t) => ({ name: t.name, kind: t.kind })), (bytes) =>
            report({ phase: 'scan', fraction: Math.min(1, bytes / file.size), bytes }),
          );
          rows = r.rows;
          columns.push(...r.columns);
          engine = { name: 'scan', parts: r.parts, rescanned: r.rescanned };
          done = true;
        } catch (e) {
          if (e instanceof CsvScanError) issues.push(issue('parse', `row ${e.row}: ${e.message}`, { row: e.row }));
          else if (!(e instanceof CsvScanUnsupported)) throw e;
          // Unsupported (e.g. dates that are not ISO): DuckDB reads the file instead.
          done = e instanceof CsvScanError;
        }
      }
      if (!done) {
        const r = await deps.csvEngine.stats(file, (percent) => report({ phase: 'scan', fraction: Math.min(1, percent / 100) }));
        rows = r.rows;
        columns.push(...r.columns);
        engine = { name: 'duckdb' };
      }
      if (rows === 0) issues.push(issue('empty', 'the file has a header and no data rows'));
    } catch (e) {
      if (!(e instanceof CsvEngineError)) throw e;
      issues.push(issue('parse', e.message));
    }
    return finish();
  }

  try {
    if (kind.kind === 'npz') {
      const list = await listNpz(src);
      const total = list.reduce((s, a) => s + a.entry.compressedSize, 0) || 1;
      let done = 0;
      for (const a of list) {
        const acc = new ArrayStats(a.info.name, a.info.dtype, a.info.shape);
        const { shape } = a.header;
        const n = shape[0] ?? 1;
        const fortran = a.header.fortranOrder && shape.length >= 2;
        const restF = shape.slice(1);
        // Column-major flat index -> row-major column index within a row.
        const columnOf = (flat: number): number => {
          let r = Math.floor(flat / n);
          let col = 0;
          let stride = 1;
          const idx: number[] = [];
          for (const d of restF) {
            idx.push(r % d);
            r = Math.floor(r / d);
          }
          for (let k = restF.length - 1; k >= 0; k -= 1) {
            col += idx[k]! * stride;
            stride *= restF[k]!;
          }
          return col;
        };
        await streamNpzArray(src, a, (data, start) => {
          if (fortran) acc.pushMapped(data, start, columnOf);
          else acc.push(data);
        }, (read) => report({ phase: 'scan', fraction: Math.min(1, (done + read) / total), bytes: done + read }));
        done += a.entry.compressedSize;
        columns.push(...acc.result());
        rows = Math.max(rows ?? 0, shape[0] ?? 1);
      }
    } else {
      if (!deps.openH5) throw new Error('no HDF5 opener');
      const h5 = await deps.openH5(file);
      try {
        const list = listH5(h5.root).filter((a) => a.numeric);
        const total = list.reduce((s, a) => s + (a.info.shape[0] ?? 1), 0) || 1;
        let done = 0;
        for (const a of list) {
          const acc = new ArrayStats(a.info.name, a.info.dtype, a.info.shape);
          streamH5(a, (data, first) => {
            acc.push(data);
            report({ phase: 'scan', fraction: Math.min(1, (done + first) / total) });
          });
          done += a.info.shape[0] ?? 1;
          columns.push(...acc.result());
          rows = Math.max(rows ?? 0, a.info.shape[0] ?? 1);
        }
      } finally {
        h5.close();
      }
    }
  } catch (e) {
    issues.push(toIssue(e, kind.kind === 'npz' ? 'zip' : 'h5'));
  }
  return finish();
}
