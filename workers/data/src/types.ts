/**
 * Types of the data worker. What it answers (checks, previews, statistics) is defined once in
 * `@decisio/domain` (`files/data-file.ts`), shared with the SDK's data-worker service; the worker
 * keeps its own short names for them here.
 */
import type { DataFileInspection, DataFileProgress, DataFileStats } from '@decisio/domain';

export type {
  DataFileKind,
  DataFileIssueReason as DataIssueReason,
  DataFileIssue as DataIssue,
  DataFileColumnKind as ColumnKind,
  DataFileColumn as ColumnSchema,
  DataFileCell as Cell,
  DataFileColumnStats as ColumnStats,
  DataFileArray as ArrayInfo,
  DataFileArrayHead as ArrayHead,
  DataFileReviveLayout as ReviveLayout,
  DataFileProgress as DataProgress,
  DataFileInspection as InspectResult,
  DataFileStats as StatsResult,
} from '@decisio/domain';

/** Progress callback; pass it through the client, which wraps it in a comlink proxy. */
export type ProgressCallback = (p: DataFileProgress) => void;

/** Options of {@link DataWorkerApi.stats}. */
export interface StatsOptions {
  /**
   * csv: `auto` (default) scans files over 64 MB with the byte scanner in parallel ranges and
   * smaller ones (exact distinct counts) with DuckDB; `duckdb` or `scan` force one.
   */
  csvEngine?: 'auto' | 'duckdb' | 'scan';
}

/** Result of {@link DataWorkerApi.compressStream}. */
export interface CompressResult {
  /** gzip stream when `compressed`, else the raw bytes of the file. */
  stream: ReadableStream<Uint8Array>;
  compressed: boolean;
  /** `Content-Encoding` to send with the stream (`'gzip'` or `'identity'`). */
  encoding: 'gzip' | 'identity';
  /** Estimated compressed size / original size from the sample (1 means no gain). */
  estimatedRatio: number;
  /** Bytes of the file that were sampled. */
  sampledBytes: number;
}

/** Options of {@link DataWorkerApi.inspect}. */
export interface InspectOptions {
  /** Rows to preview; default 100, at most 10 000. */
  rows?: number;
}

/** Options of {@link DataWorkerApi.compressStream}. */
export interface CompressOptions {
  /** Compress when the sample ratio is at most this; default 0.8. */
  threshold?: number;
  /** Bytes sampled per probe (three probes: start, middle, end); default 256 KiB. */
  probeBytes?: number;
}

/**
 * The worker's API as seen through comlink. Progress callbacks must be comlink proxies; the
 * client of `client.ts` wraps plain functions.
 */
export interface DataWorkerApi {
  /** Checks and previews a local file (see `inspect.ts`). */
  inspect(file: File, options?: InspectOptions, onProgress?: ProgressCallback): Promise<DataFileInspection>;
  /** Column statistics over the whole file (see `stats.ts`). */
  stats(file: File, onProgress?: ProgressCallback, options?: StatsOptions): Promise<DataFileStats>;
  /**
   * Starts the engines (DuckDB-WASM: fetch and compile the bundled wasm, open, connect) ahead of
   * the first file, so that the first preview does not pay for it. Resolves with the time spent.
   */
  warmUp(): Promise<{ engineMs: number }>;
  /** A stream to upload, gzip when it pays (see `compress.ts`). */
  compressStream(file: File, options?: CompressOptions): Promise<CompressResult>;
}
