import type { Cell, ColumnKind, ColumnSchema, ColumnStats } from './types';

/**
 * A SQL engine that reads a local CSV file lazily (DuckDB-WASM in the worker). Operations fall
 * back to the TypeScript sniffer when no engine is given (Node, tests).
 */
export interface CsvEngine {
  /**
   * First `rows` data rows and the engine's column types (missing counts over those rows).
   * `file` may be a prefix of the file cut at a record boundary: types are inferred from it.
   */
  preview(file: Blob, rows: number): Promise<{ columns: ColumnSchema[]; rows: Cell[][] }>;
  /**
   * The engine's column names and types for the whole file (DuckDB: its sniffer on the head of
   * the file), for the fast statistics scan of `csv-scan.ts`.
   */
  columns?(file: File): Promise<{ name: string; kind: ColumnKind; rawType: string }[]>;
  /** Row count and per-column statistics over the whole file; progress in percent if known. */
  stats(file: File, onPercent?: (percent: number) => void): Promise<{ rows: number; columns: ColumnStats[] }>;
}

/** Error of the engine while reading the file's content (a format error, not a bug). */
export class CsvEngineError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'CsvEngineError';
  }
}
