import { DuckDBInstance, type DuckDBConnection } from '@duckdb/node-api';

/**
 * The server's DuckDB (in memory, one per process). It must never fetch anything: automatic
 * installation and loading of extensions are off; Parquet, JSON and the csv reader are built
 * into `@duckdb/node-api`.
 */
let instance: Promise<DuckDBInstance> | null = null;

/** The shared instance, created on first use. */
export function duckdb(): Promise<DuckDBInstance> {
  instance ??= DuckDBInstance.create(':memory:', {
    autoinstall_known_extensions: 'false',
    autoload_known_extensions: 'false',
  }).catch((err: unknown) => {
    instance = null;
    throw err;
  });
  return instance;
}

/** Runs `fn` on a fresh connection, closed afterwards. */
export async function withDuck<T>(fn: (c: DuckDBConnection) => Promise<T>): Promise<T> {
  const c = await (await duckdb()).connect();
  try {
    return await fn(c);
  } finally {
    c.closeSync();
  }
}

/** A SQL string literal. */
export function sqlString(s: string): string {
  return `'${s.replace(/'/g, "''")}'`;
}

/** A quoted SQL identifier. */
export function sqlIdent(s: string): string {
  return `"${s.replace(/"/g, '""')}"`;
}

/** True for DuckDB's numeric type names. */
export function isNumericType(type: string): boolean {
  return /^(TINYINT|SMALLINT|INTEGER|BIGINT|HUGEINT|UTINYINT|USMALLINT|UINTEGER|UBIGINT|UHUGEINT|FLOAT|DOUBLE|DECIMAL.*)$/i.test(type);
}
