import { randomBytes } from 'node:crypto';
import type { Knex } from 'knex';
import type { DuckDBAppender } from '@duckdb/node-api';
import { AppError, type ConnectionType, type RemoteColumn } from '@decisio/domain';
import { sqlIdent, sqlString, withDuck } from '../datasets/duck';
import { columnKindOf, listRemoteColumns } from './connector';

/** What an import reads: a table (optionally schema-qualified) or a read-only query. */
export type CopySource = { table: string; schema?: string } | { sql: string };

/** Rows fetched from the outside server per round trip. */
const BATCH = 2048;
/** Rows a query's column kinds are inferred from. */
const SAMPLE = 1000;

const isMy = (type: ConnectionType) => type !== 'postgresql';

/** A quoted identifier of the outside server's dialect. */
export function remoteIdent(type: ConnectionType, name: string): string {
  return isMy(type) ? `\`${name.replace(/`/g, '``')}\`` : `"${name.replace(/"/g, '""')}"`;
}

/**
 * Only one statement that reads: a `SELECT` or `WITH` query without a `;` inside (a trailing one
 * is dropped) and without `INTO OUTFILE` / `INTO DUMPFILE` (a file written on the outside
 * server; looked for with comment markers removed, MySQL runs `/*! ... *\/`). The session is
 * read-only besides (`connector.ts`) and the connection user's own rights are the real guard.
 */
export function checkQuery(sql: string): string {
  const q = sql.trim().replace(/;\s*$/, '');
  // Comments hide nothing: the text as is, without block comments (the content of MySQL's
  // executable `/*!` ones kept), and without line comments too.
  const blocks = q.replace(/\/\*!\d*/g, ' ').replace(/\/\*[\s\S]*?\*\//g, ' ').replace(/\*\//g, ' ');
  const writesFile = [q, blocks, blocks.replace(/(--|#)[^\n]*/g, ' ')].some((t) => /\binto\s+(outfile|dumpfile)\b/i.test(t));
  if (!/^(select|with)\b/i.test(q) || q.includes(';') || writesFile) {
    throw new AppError('tableParamError', { sql: 'validation.invalid' }, 'Only one SELECT query may be imported');
  }
  return q;
}

/** The SELECT an import runs. */
export function selectOf(type: ConnectionType, source: CopySource): string {
  if ('sql' in source) return checkQuery(source.sql);
  const table = remoteIdent(type, source.table);
  return `select * from ${source.schema ? `${remoteIdent(type, source.schema)}.${table}` : table}`;
}

/** The kind of a value as the driver returned it. */
function kindOfValue(v: unknown): RemoteColumn['kind'] | null {
  if (v === null || v === undefined) return null;
  if (typeof v === 'boolean') return 'bool';
  if (typeof v === 'number' || typeof v === 'bigint') return 'number';
  if (v instanceof Date) return 'datetime';
  if (typeof v === 'string') {
    if (v.trim() !== '' && Number.isFinite(Number(v))) return 'number';
    if (/^\d{4}-\d{2}-\d{2}([ T]\d{2}:\d{2}(:\d{2}(\.\d+)?)?)?(Z|[+-]\d{2}(:?\d{2})?)?$/.test(v)) return 'datetime';
  }
  return 'string';
}

/** Column kinds of a query from its first rows: every non-null value must agree, else text. */
export function inferKinds(names: string[], rows: Record<string, unknown>[]): RemoteColumn['kind'][] {
  return names.map((n) => {
    let kind: RemoteColumn['kind'] | null = null;
    for (const r of rows) {
      const k = kindOfValue(r[n]);
      if (!k) continue;
      if (kind === null) kind = k;
      else if (kind !== k) return 'string';
    }
    return kind ?? 'string';
  });
}

const DUCK_TYPE: Record<RemoteColumn['kind'], string> = { number: 'DOUBLE', string: 'VARCHAR', bool: 'BOOLEAN', datetime: 'VARCHAR' };

function appendValue(app: DuckDBAppender, kind: RemoteColumn['kind'], v: unknown): void {
  if (v === null || v === undefined) return app.appendNull();
  switch (kind) {
    case 'number': {
      const x = typeof v === 'number' ? v : Number(v as string);
      return Number.isFinite(x) ? app.appendDouble(x) : app.appendNull();
    }
    case 'bool':
      return app.appendBoolean(typeof v === 'boolean' ? v : v === 1 || v === '1' || v === 't' || v === 'true');
    case 'datetime':
      return app.appendVarchar(v instanceof Date ? v.toISOString() : String(v));
    default:
      return app.appendVarchar(v instanceof Date ? v.toISOString() : Buffer.isBuffer(v) ? v.toString('base64') : typeof v === 'object' ? JSON.stringify(v) : String(v));
  }
}

/** The part of a mysql2 (callback API) connection, as knex's pool hands it out, that a copy uses. */
interface MySqlConnection {
  query(sql: string): { stream(options?: { highWaterMark?: number }): NodeJS.ReadableStream & { destroy(): void } };
  destroy(): void;
}

/**
 * Reads `select` in batches and hands each to `onBatch` (MySQL: streamed; PostgreSQL: a cursor).
 * An aborted `signal` ends it with `importTimeout` (the caller tells a stop from a time-out).
 */
async function readBatches(
  db: Knex,
  type: ConnectionType,
  select: string,
  onBatch: (rows: Record<string, unknown>[]) => Promise<void>,
  signal?: AbortSignal,
): Promise<void> {
  if (isMy(type)) {
    // The driver's own connection, so that a stop can cut it: a MySQL result keeps arriving until
    // its end unless the connection closes (destroying the row stream alone would read it all).
    const client = db.client as { acquireConnection(): Promise<MySqlConnection>; releaseConnection(c: MySqlConnection): Promise<unknown> };
    const conn = await client.acquireConnection();
    const cut = () => conn.destroy();
    signal?.addEventListener('abort', cut, { once: true });
    const stream = conn.query(select).stream({ highWaterMark: BATCH });
    let batch: Record<string, unknown>[] = [];
    let complete = false;
    try {
      if (signal?.aborted) throw new AppError('importTimeout');
      for await (const row of stream as AsyncIterable<Record<string, unknown>>) {
        if (signal?.aborted) throw new AppError('importTimeout');
        batch.push(row);
        if (batch.length >= BATCH) {
          await onBatch(batch);
          batch = [];
        }
      }
      complete = true;
    } catch (err) {
      if (signal?.aborted) throw new AppError('importTimeout');
      throw err;
    } finally {
      signal?.removeEventListener('abort', cut);
      // Ended early (row limit, a failed batch): cut the connection, or the rest would still be read.
      if (!complete) conn.destroy();
      stream.destroy();
      // A cut connection fails the pool's validation and is thrown away.
      await client.releaseConnection(conn).catch(() => undefined);
    }
    if (batch.length) await onBatch(batch);
    return;
  }
  await db.transaction(async (trx) => {
    // The session's default already is read-only (connector.ts); this transaction says so itself.
    await trx.raw('set transaction read only');
    await trx.raw(`declare decisio_import no scroll cursor for ${select}`);
    for (;;) {
      if (signal?.aborted) throw new AppError('importTimeout');
      const res = (await trx.raw(`fetch forward ${BATCH} from decisio_import`)) as { rows: Record<string, unknown>[] };
      if (res.rows.length === 0) break;
      await onBatch(res.rows);
      if (res.rows.length < BATCH) break;
    }
    await trx.raw('close decisio_import');
  });
}

/**
 * Copies a table or a query of an outside database into a Parquet file at `out`: columns typed
 * from the server's catalogue (tables) or from the first rows (queries), numbers as DOUBLE, text
 * as VARCHAR, booleans, dates and times as TIMESTAMP. Calls `onProgress(rows)` after each batch.
 * Throws on any failure; `out` may then hold a partial file the caller removes.
 */
export async function copyToParquet(
  db: Knex,
  type: ConnectionType,
  source: CopySource,
  out: string,
  options: { onProgress?: (rows: number) => Promise<void> | void; signal?: AbortSignal; maxRows?: number } = {},
): Promise<{ rows: number; columns: { name: string; kind: RemoteColumn['kind'] }[] }> {
  const select = selectOf(type, source);
  const maxRows = options.maxRows ?? Number.POSITIVE_INFINITY;
  let read = 0;
  let columns: { name: string; kind: RemoteColumn['kind'] }[] | null = null;
  if ('table' in source) {
    const cols = await listRemoteColumns(db, type, source.table, source.schema);
    if (cols.length === 0) throw new AppError('tableNotFound', { table: 'validation.invalid' });
    columns = cols.map((c) => ({ name: c.name, kind: c.kind }));
  }
  return withDuck(async (c) => {
    const staging = `import_${randomBytes(6).toString('hex')}`;
    let appender: DuckDBAppender | null = null;
    let rows = 0;
    const pending: Record<string, unknown>[] = [];
    const start = async (sample: Record<string, unknown>[]) => {
      if (!columns) {
        const names = Object.keys(sample[0] ?? {});
        const kinds = inferKinds(names, sample);
        columns = names.map((name, i) => ({ name, kind: kinds[i]! }));
      }
      await c.run(`CREATE TABLE ${staging} (${columns.map((col) => `${sqlIdent(col.name)} ${DUCK_TYPE[col.kind]}`).join(', ')})`);
      appender = await c.createAppender(staging);
    };
    const append = (batch: Record<string, unknown>[]) => {
      for (const r of batch) {
        for (const col of columns!) appendValue(appender!, col.kind, r[col.name]);
        appender!.endRow();
      }
      rows += batch.length;
    };
    try {
      await readBatches(
        db,
        type,
        select,
        async (batch) => {
          read += batch.length;
          if (read > maxRows) throw new AppError('importTooManyRows', { limit: String(maxRows) });
          if (!appender) {
            // Queries: hold rows until the sample is large enough to infer the column kinds.
            pending.push(...batch);
            if (columns === null && pending.length < SAMPLE) return;
            await start(pending);
            append(pending.splice(0));
          } else append(batch);
          appender!.flushSync();
          await options.onProgress?.(rows);
        },
        options.signal,
      );
      if (!appender) {
        if (pending.length === 0 && !columns) throw new AppError('datasetEmpty');
        await start(pending);
        append(pending.splice(0));
      }
      (appender as DuckDBAppender | null)?.closeSync();
      appender = null;
      if (rows === 0) throw new AppError('datasetEmpty');
      const projection = columns!
        .map((col) => (col.kind === 'datetime' ? `try_cast(${sqlIdent(col.name)} AS TIMESTAMP) AS ${sqlIdent(col.name)}` : sqlIdent(col.name)))
        .join(', ');
      await c.run(`COPY (SELECT ${projection} FROM ${staging}) TO ${sqlString(out)} (FORMAT parquet, COMPRESSION zstd)`);
      await options.onProgress?.(rows);
      return { rows, columns: columns! };
    } finally {
      try {
        (appender as DuckDBAppender | null)?.closeSync();
      } catch {
        /* already closed */
      }
      await c.run(`DROP TABLE IF EXISTS ${staging}`);
    }
  });
}

export { columnKindOf };
