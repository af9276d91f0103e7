/**
 * Runs the csv statistics scan of `csv-scan.ts` over several byte ranges of a file at once (one
 * scan worker per range in the browser) and merges the results.
 *
 * Ranges are cut just after a line end near `k * size / parts`. A cut may fall inside a quoted
 * field that contains a line end; that is found afterwards without guessing: each range reports
 * where its last record ended, and range k is right exactly when it started there (the previous
 * range's records are right, so its end is a real record boundary). A range that started
 * elsewhere is scanned again from the right place. Errors (a value that does not fit, a ragged
 * row) count only from ranges that started right, with their row number in the whole file.
 */
import type { ByteSource } from './byte-source';
import {
  columnStatsOf,
  scanRange,
  CsvScanError,
  emptyPartial,
  mergePartial,
  type ColumnPartial,
  type RangePartial,
  type ScanColumn,
} from './csv-scan';
import type { ColumnStats } from './types';

/** Scans ranges in this thread, one after another (Node, tests, browsers without workers). */
export function inThreadRunner(source: ByteSource, columns: readonly ScanColumn[]): RangeRunner {
  return (range, onBytes) => scanRange((offset, length) => source.read(offset, length), columns, range, onBytes);
}

/** A range to scan: records starting in `[start, stop)` of a file of `size` bytes. */
export interface ScanRange {
  start: number;
  stop: number;
  size: number;
}

/** Scans one range (in a worker, or in this thread); reports bytes scanned so far. */
export type RangeRunner = (range: ScanRange, onBytes: (bytes: number) => void) => Promise<RangePartial & { end: number }>;

/** Result of {@link scanCsvInRanges}. */
export interface CsvScanResult {
  rows: number;
  columns: ColumnStats[];
  /** Ranges scanned at once, and how many had to be scanned again (a cut inside quotes). */
  parts: number;
  rescanned: number;
}

/** The error of a range, with the row number where it is known. */
function errorOf(e: unknown): { error: unknown; row: number | null } {
  return { error: e, row: e instanceof CsvScanError ? e.row : null };
}

/** Offsets just after the first line end at or after `k * size / parts` (k = 1..parts-1). */
async function cutPoints(source: ByteSource, parts: number): Promise<number[]> {
  const cuts: number[] = [];
  for (let k = 1; k < parts; k += 1) {
    let at = Math.floor((k * source.size) / parts);
    for (;;) {
      const bytes = await source.read(at, 64 * 1024);
      if (bytes.length === 0) break;
      const lf = bytes.indexOf(0x0a);
      if (lf >= 0) {
        at += lf + 1;
        break;
      }
      at += bytes.length;
    }
    if (at < source.size && (cuts.length === 0 || at > cuts[cuts.length - 1]!)) cuts.push(at);
  }
  return cuts;
}

/**
 * Scans `source` in up to `parts` ranges at once with `run` and merges the statistics.
 * `onBytes` gets the bytes scanned over all ranges. Throws the first error of a correctly
 * started range (a {@link CsvScanError} carries the row number in the whole file).
 */
export async function scanCsvInRanges(
  source: ByteSource,
  columns: readonly ScanColumn[],
  options: { parts: number; run: RangeRunner; onBytes?: (bytes: number) => void },
): Promise<CsvScanResult> {
  const size = source.size;
  const cuts = await cutPoints(source, Math.max(1, options.parts));
  const starts = [0, ...cuts];
  const ranges: ScanRange[] = starts.map((start, k) => ({ start, stop: starts[k + 1] ?? size, size }));
  const scanned = ranges.map(() => 0);
  const report = () => options.onBytes?.(scanned.reduce((a, b) => a + b, 0));
  const runOne = (range: ScanRange, k: number) =>
    options.run(range, (b) => {
      scanned[k] = b;
      report();
    });
  const settled = await Promise.all(
    ranges.map((r, k) =>
      runOne(r, k).then(
        (value) => ({ value, error: null as unknown, row: null as number | null }),
        (e: unknown) => ({ value: null, ...errorOf(e) }),
      ),
    ),
  );

  const merged: ColumnPartial[] = columns.map(() => emptyPartial());
  let rows = 0;
  let end = 0;
  let rescanned = 0;
  for (let k = 0; k < ranges.length; k += 1) {
    let outcome = settled[k]!;
    const range = ranges[k]!;
    if (k > 0 && range.start !== end) {
      // The cut fell inside a quoted field: scan this range again from the previous one's end.
      rescanned += 1;
      if (end >= range.stop) {
        outcome = { value: { rows: 0, columns: columns.map(() => emptyPartial()), end }, error: null, row: null };
      } else {
        outcome = await runOne({ start: end, stop: range.stop, size }, k).then(
          (value) => ({ value, error: null as unknown, row: null as number | null }),
          (e: unknown) => ({ value: null, ...errorOf(e) }),
        );
      }
    }
    if (!outcome.value) {
      const e = outcome.error;
      if (e instanceof CsvScanError && outcome.row !== null) throw new CsvScanError(e.message, rows + outcome.row);
      throw e;
    }
    rows += outcome.value.rows;
    end = Math.max(end, outcome.value.end);
    outcome.value.columns.forEach((p, i) => mergePartial(merged[i]!, p));
  }
  return { rows, columns: columns.map((c, i) => columnStatsOf(c, merged[i]!, rows)), parts: ranges.length, rescanned };
}
