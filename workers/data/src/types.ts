import type { ErrorCodeName } from '@decisio/domain';

/** Kind of a dataset file, by extension and checked against its magic bytes. */
export type DataFileKind = 'csv' | 'npz' | 'h5';

/**
 * Why a check failed. Each reason maps to one error code of the catalogue (see `issues.ts`):
 * `empty` -> `datasetEmpty`; `delimiter`, `encoding`, `parse`, `magic`, `unknownType`,
 * `npyHeader`, `npyDtype`, `zip`, `h5`, `revive` -> `tableFileFormatError`;
 * `duplicateColumns` -> `tableRepeatedColumns`; `nameTooLong`, `nameChars`, `tooLarge`
 * -> `tableParamError`.
 */
export type DataIssueReason =
  | 'empty'
  | 'delimiter'
  | 'encoding'
  | 'parse'
  | 'magic'
  | 'unknownType'
  | 'npyHeader'
  | 'npyDtype'
  | 'zip'
  | 'h5'
  | 'revive'
  | 'duplicateColumns'
  | 'nameTooLong'
  | 'nameChars'
  | 'tooLarge';

/** One failed check of a file. `fatal` issues stop the preview; the others are warnings. */
export interface DataIssue {
  /** Name of the error code in the catalogue (`@decisio/domain` `ErrorCode`). */
  code: ErrorCodeName;
  /** Numeric value of {@link DataIssue.code}. */
  value: number;
  reason: DataIssueReason;
  /** English explanation for logs and developers; the UI translates `code` and `reason`. */
  message: string;
  fatal: boolean;
  /** Facts behind the issue, e.g. `{ delimiter: ';' }` or `{ columns: ['a'] }`. */
  details?: Record<string, unknown>;
}

/** Column type inferred from the data (for csv: DuckDB's type, simplified). */
export type ColumnKind = 'integer' | 'float' | 'boolean' | 'date' | 'timestamp' | 'string' | 'empty';

/** One column of a table preview. */
export interface ColumnSchema {
  name: string;
  kind: ColumnKind;
  /** Engine type name, e.g. `BIGINT`, `DOUBLE`, `VARCHAR` (DuckDB) or `float64` (sniffer). */
  rawType: string;
  /** Missing values (empty, NA, NaN, null) among the sampled rows. */
  missing: number;
  /** NaN values among the sampled rows (numeric columns). */
  nan: number;
}

/** A cell of a preview: numbers, strings, booleans or null for missing. */
export type Cell = string | number | boolean | null;

/** Statistics of one column or one array dimension. */
export interface ColumnStats {
  name: string;
  kind: ColumnKind;
  /** Non-missing values. */
  count: number;
  /** Missing values (null, empty; NaN included for numbers). */
  nulls: number;
  /** NaN values (numeric columns). */
  nan: number;
  min: number | string | null;
  max: number | string | null;
  /** Mean of numeric columns, `null` otherwise. */
  mean: number | null;
  /** Distinct values (approximate when {@link ColumnStats.distinctApprox}). */
  distinct: number;
  distinctApprox: boolean;
}

/** One array of an npz or h5 file. */
export interface ArrayInfo {
  /** Name: npz member without `.npy`, h5 dataset path without the leading slash. */
  name: string;
  /** numpy-style dtype (`float32`, `int64`, `uint8`, `bool`, ...). */
  dtype: string;
  shape: number[];
  /** Whether the values are stored column-major (npy `fortran_order`). */
  fortranOrder: boolean;
  /** Stored bytes (compressed size for deflated npz members). */
  byteLength: number;
}

/** The first rows of an array, in row-major order, as a transferable typed array. */
export interface ArrayHead {
  name: string;
  dtype: string;
  /** Shape of `data`: `[rows, ...shape.slice(1)]`. */
  shape: number[];
  data: Float32Array | Float64Array | Int8Array | Int16Array | Int32Array | BigInt64Array
    | Uint8Array | Uint16Array | Uint32Array | BigUint64Array;
}

/** The REVIVE layout check of an npz/h5 file. */
export interface ReviveLayout {
  /** Whether every array is `[N, dim]` with one N, and `index` (if any) is valid. */
  ok: boolean;
  /** Rows shared by all node arrays. */
  rows: number | null;
  /** Node arrays and their dimension. */
  nodes: { name: string; dim: number }[];
  /** Trajectories when an `index` array is present. */
  trajectories: number | null;
  /** What breaks the layout, in English. */
  problems: string[];
}

/** Progress of a long operation. `fraction` is `null` when the total is unknown. */
export interface DataProgress {
  phase: 'read' | 'sniff' | 'engine' | 'scan' | 'compress' | 'done';
  fraction: number | null;
  /** Bytes processed so far, when known. */
  bytes?: number;
}

/** Progress callback; pass it through the client, which wraps it in a comlink proxy. */
export type ProgressCallback = (p: DataProgress) => void;

/** Result of {@link DataWorkerApi.inspect}. */
export interface InspectResult {
  name: string;
  size: number;
  kind: DataFileKind | null;
  /** True when no fatal issue was found: the file may be uploaded. */
  ok: boolean;
  issues: DataIssue[];
  /** csv: columns with inferred types and missing counts over the previewed rows. */
  columns?: ColumnSchema[];
  /** csv: the first rows, one array of cells per row. */
  rows?: Cell[][];
  /** csv: which engine produced rows and types. */
  engine?: 'duckdb' | 'sniffer';
  /** npz/h5: arrays with shape and dtype. */
  arrays?: ArrayInfo[];
  /** npz/h5: the first rows of each numeric array (transferred, not copied). */
  heads?: ArrayHead[];
  /** npz/h5: REVIVE layout check. */
  revive?: ReviveLayout;
  /** Milliseconds spent. */
  elapsedMs: number;
  /** Milliseconds per phase (`read`, `sniff`, `engine`, `arrays`), for diagnostics. */
  timings: Record<string, number>;
}

/** Result of {@link DataWorkerApi.stats}. */
export interface StatsResult {
  name: string;
  kind: DataFileKind | null;
  ok: boolean;
  issues: DataIssue[];
  /** csv: total data rows; npz/h5: rows of the first dimension of the largest array. */
  rows: number | null;
  /** csv: one entry per column; npz/h5: one per array dimension, named `array[i]`. */
  columns: ColumnStats[];
  /** csv: what computed the statistics: DuckDB's aggregate query, or the byte scan in `parts` ranges. */
  engine?: { name: 'duckdb' } | { name: 'scan'; parts: number; rescanned: number };
  elapsedMs: number;
}

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
  inspect(file: File, options?: InspectOptions, onProgress?: ProgressCallback): Promise<InspectResult>;
  /** Column statistics over the whole file (see `stats.ts`). */
  stats(file: File, onProgress?: ProgressCallback, options?: StatsOptions): Promise<StatsResult>;
  /**
   * Starts the engines (DuckDB-WASM: fetch and compile the bundled wasm, open, connect) ahead of
   * the first file, so that the first preview does not pay for it. Resolves with the time spent.
   */
  warmUp(): Promise<{ engineMs: number }>;
  /** A stream to upload, gzip when it pays (see `compress.ts`). */
  compressStream(file: File, options?: CompressOptions): Promise<CompressResult>;
}
