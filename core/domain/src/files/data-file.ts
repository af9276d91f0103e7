/**
 * What the data worker (`workers/data`: DuckDB-WASM, npz and h5 readers) answers about a local
 * dataset file before upload: checks, first rows, inferred types, column statistics. One
 * definition for the worker (which produces it, under its own names in `workers/data/src/types.ts`)
 * and the SDK's data-worker service (which hands it to plugins, `@decisio/sdk-plugin`).
 */
import type { ErrorCodeName } from '../errors/codes';

/** Kind of a dataset file, by extension and checked against its magic bytes. */
export type DataFileKind = 'csv' | 'npz' | 'h5';

/**
 * Why a check failed. Each reason maps to one error code of the catalogue (see the worker's
 * `issues.ts`): `empty` -> `datasetEmpty`; `delimiter`, `encoding`, `parse`, `magic`,
 * `unknownType`, `npyHeader`, `npyDtype`, `zip`, `h5`, `revive` -> `tableFileFormatError`;
 * `duplicateColumns` -> `tableRepeatedColumns`; `nameTooLong`, `nameChars`, `tooLarge`
 * -> `tableParamError`.
 */
export type DataFileIssueReason =
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

/** One failed check of a file. `fatal` issues stop the preview (and block the upload); the others are warnings. */
export interface DataFileIssue {
  /** Name of the error code in the catalogue (`ErrorCode`). */
  code: ErrorCodeName;
  /** Numeric value of {@link DataFileIssue.code}. */
  value: number;
  reason: DataFileIssueReason;
  /** English explanation for logs and developers; the UI translates `code` and `reason`. */
  message: string;
  fatal: boolean;
  /** Facts behind the issue, e.g. `{ delimiter: ';' }` or `{ columns: ['a'] }`. */
  details?: Record<string, unknown>;
}

/** Column type inferred from the data (for csv: DuckDB's type, simplified). */
export type DataFileColumnKind = 'integer' | 'float' | 'boolean' | 'date' | 'timestamp' | 'string' | 'empty';

/** One column of a table preview. */
export interface DataFileColumn {
  name: string;
  kind: DataFileColumnKind;
  /** Engine type name, e.g. `BIGINT`, `DOUBLE`, `VARCHAR` (DuckDB) or `float64` (sniffer). */
  rawType: string;
  /** Missing values (empty, NA, NaN, null) among the sampled rows. */
  missing: number;
  /** NaN values among the sampled rows (numeric columns). */
  nan: number;
}

/** A cell of a preview: numbers, strings, booleans or null for missing. */
export type DataFileCell = string | number | boolean | null;

/** Statistics of one column or one array dimension over the whole file. */
export interface DataFileColumnStats {
  name: string;
  kind: DataFileColumnKind;
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
  /** Distinct values (approximate when {@link DataFileColumnStats.distinctApprox}). */
  distinct: number;
  distinctApprox: boolean;
}

/** One array of an npz or h5 file. */
export interface DataFileArray {
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
export interface DataFileArrayHead {
  name: string;
  dtype: string;
  /** Shape of `data`: `[rows, ...shape.slice(1)]`. */
  shape: number[];
  data: Float32Array | Float64Array | Int8Array | Int16Array | Int32Array | BigInt64Array
    | Uint8Array | Uint16Array | Uint32Array | BigUint64Array;
}

/** The REVIVE layout check of an npz/h5 file. */
export interface DataFileReviveLayout {
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
export interface DataFileProgress {
  phase: 'read' | 'sniff' | 'engine' | 'scan' | 'compress' | 'done';
  fraction: number | null;
  /** Bytes processed so far, when known. */
  bytes?: number;
}

/** What the worker's `inspect` answers: the checks and a preview of a file. */
export interface DataFileInspection {
  name: string;
  size: number;
  kind: DataFileKind | null;
  /** True when no fatal issue was found: the file may be uploaded. */
  ok: boolean;
  issues: DataFileIssue[];
  /** csv: columns with inferred types and missing counts over the previewed rows. */
  columns?: DataFileColumn[];
  /** csv: the first rows, one array of cells per row. */
  rows?: DataFileCell[][];
  /** csv: which engine produced rows and types. */
  engine?: 'duckdb' | 'sniffer';
  /** npz/h5: arrays with shape and dtype. */
  arrays?: DataFileArray[];
  /** npz/h5: the first rows of each numeric array (transferred, not copied). */
  heads?: DataFileArrayHead[];
  /** npz/h5: REVIVE layout check. */
  revive?: DataFileReviveLayout;
  /** Milliseconds spent. */
  elapsedMs: number;
  /** Milliseconds per phase (`read`, `sniff`, `engine`, `arrays`), for diagnostics. */
  timings: Record<string, number>;
}

/** What the worker's `stats` answers: statistics of every column over the whole file. */
export interface DataFileStats {
  name: string;
  kind: DataFileKind | null;
  ok: boolean;
  issues: DataFileIssue[];
  /** csv: total data rows; npz/h5: rows of the first dimension of the largest array. */
  rows: number | null;
  /** csv: one entry per column; npz/h5: one per array dimension, named `array[i]`. */
  columns: DataFileColumnStats[];
  /** csv: what computed the statistics: DuckDB's aggregate query, or the byte scan in `parts` ranges. */
  engine?: { name: 'duckdb' } | { name: 'scan'; parts: number; rescanned: number };
  elapsedMs: number;
}
