import knexFactory, { type Knex } from 'knex';
import { parseJdbcUrl, type ConnectionTestResult, type ConnectionType, type RemoteColumn, type RemoteTable } from '@decisio/domain';

/** Everything needed to open a connection to an outside database. */
export interface RemoteTarget {
  type: ConnectionType;
  url: string;
  /** Overrides the URL's database when not empty. */
  database: string;
  username: string;
  password: string;
}

/** Time limits of outside connections, ms. */
export interface ConnectorLimits {
  connectMs: number;
  queryMs: number;
}

const DEFAULT_LIMITS: ConnectorLimits = { connectMs: 10_000, queryMs: 60_000 };

/** `true` for the MySQL family (MySQL, MariaDB). */
const isMy = (type: ConnectionType) => type !== 'postgresql';

/**
 * Opens a short-lived knex pool to an outside server. The caller must `destroy()` it. The
 * connection is read-mostly: nothing here writes to the outside database.
 */
export function openRemote(target: RemoteTarget, limits: Partial<ConnectorLimits> = {}): Knex {
  const { connectMs, queryMs } = { ...DEFAULT_LIMITS, ...limits };
  const jdbc = parseJdbcUrl(target.url);
  if (!jdbc) throw new Error('not a JDBC URL');
  const database = target.database || jdbc.database || undefined;
  const ssl = jdbc.params['ssl'] === 'true' || jdbc.params['useSSL'] === 'true' || jdbc.params['sslmode'] === 'require';
  if (isMy(target.type)) {
    return knexFactory({
      client: 'mysql2',
      connection: {
        host: jdbc.host,
        port: jdbc.port,
        user: target.username,
        password: target.password,
        database,
        connectTimeout: connectMs,
        dateStrings: true,
        supportBigNumbers: true,
        bigNumberStrings: true,
        ...(ssl ? { ssl: {} } : {}),
      },
      pool: { min: 0, max: 2, acquireTimeoutMillis: connectMs + 1000 },
      acquireConnectionTimeout: connectMs + 1000,
    });
  }
  return knexFactory({
    client: 'pg',
    connection: {
      host: jdbc.host,
      port: jdbc.port,
      user: target.username,
      password: target.password,
      database,
      connectionTimeoutMillis: connectMs,
      statement_timeout: queryMs,
      query_timeout: queryMs,
      ...(ssl ? { ssl: { rejectUnauthorized: false } } : {}),
    },
    pool: { min: 0, max: 2, acquireTimeoutMillis: connectMs + 1000 },
    acquireConnectionTimeout: connectMs + 1000,
  });
}

/** Runs `fn` with a fresh remote pool and always closes it. */
export async function withRemote<T>(target: RemoteTarget, fn: (db: Knex) => Promise<T>, limits?: Partial<ConnectorLimits>): Promise<T> {
  const db = openRemote(target, limits);
  try {
    return await fn(db);
  } finally {
    await db.destroy().catch(() => undefined);
  }
}

/** A driver error as a user may read it: no password, no stack, one line. */
export function describeRemoteError(err: unknown, target?: Pick<RemoteTarget, 'password'>): string {
  const e = err as { code?: string; message?: string } | null;
  let text = (e?.message ?? String(err)).split('\n')[0]!.slice(0, 300);
  if (target?.password) text = text.split(target.password).join('******');
  return e?.code && !text.includes(e.code) ? `${e.code}: ${text}` : text;
}

function rowsOf(result: unknown, type: ConnectionType): Record<string, unknown>[] {
  // mysql2 through knex.raw: [rows, fields]; pg: { rows }.
  if (isMy(type)) return (result as [Record<string, unknown>[]])[0];
  return (result as { rows: Record<string, unknown>[] }).rows;
}

/** Connects, asks the server's version; never throws. */
export async function testRemote(target: RemoteTarget, limits?: Partial<ConnectorLimits>): Promise<ConnectionTestResult> {
  const started = performance.now();
  try {
    const version = await withRemote(target, async (db) => {
      const rows = rowsOf(await db.raw('select version() as v'), target.type);
      return String(rows[0]?.['v'] ?? '');
    }, limits);
    return { ok: true, version, latencyMs: Math.round(performance.now() - started), error: null };
  } catch (err) {
    return { ok: false, version: null, latencyMs: Math.round(performance.now() - started), error: describeRemoteError(err, target) };
  }
}

/** The tables and views of the connection's database (MySQL) or of every user schema (PostgreSQL). */
export async function listRemoteTables(db: Knex, type: ConnectionType): Promise<RemoteTable[]> {
  if (isMy(type)) {
    const rows = rowsOf(
      await db.raw(
        "select table_name as name, table_schema as sch, table_type as kind, table_rows as est from information_schema.tables where table_schema = database() order by table_name",
      ),
      type,
    );
    return rows.map((r) => ({
      name: String(r['name']),
      schema: String(r['sch']),
      kind: String(r['kind']).toUpperCase().includes('VIEW') ? 'view' : 'table',
      estimatedRows: r['est'] == null ? null : Number(r['est']),
    }));
  }
  const rows = rowsOf(
    await db.raw(
      `select t.table_name as name, t.table_schema as sch, t.table_type as kind, c.reltuples as est
         from information_schema.tables t
         left join pg_catalog.pg_namespace n on n.nspname = t.table_schema
         left join pg_catalog.pg_class c on c.relname = t.table_name and c.relnamespace = n.oid
        where t.table_schema not in ('pg_catalog', 'information_schema') and t.table_schema not like 'pg_toast%'
        order by t.table_schema, t.table_name`,
    ),
    type,
  );
  return rows.map((r) => {
    const est = r['est'] == null ? null : Number(r['est']);
    return {
      name: String(r['name']),
      schema: String(r['sch']),
      kind: String(r['kind']).toUpperCase().includes('VIEW') ? 'view' : 'table',
      estimatedRows: est == null || est < 0 ? null : Math.round(est),
    };
  });
}

/** Maps a server type name onto what a dataset column becomes. */
export function columnKindOf(dataType: string): RemoteColumn['kind'] {
  const t = dataType.toLowerCase();
  if (/^(tinyint\(1\)|bool|boolean|bit\(1\)|bit)$/.test(t)) return 'bool';
  if (/(int|decimal|numeric|float|double|real|serial|money)/.test(t)) return 'number';
  if (/(date|time|year)/.test(t)) return 'datetime';
  return 'string';
}

/** The columns of one table, in their order. */
export async function listRemoteColumns(db: Knex, type: ConnectionType, table: string, schema?: string): Promise<RemoteColumn[]> {
  let rows: Record<string, unknown>[];
  if (isMy(type)) {
    rows = rowsOf(
      await db.raw(
        'select column_name as name, column_type as dt, is_nullable as nul from information_schema.columns where table_schema = coalesce(?, database()) and table_name = ? order by ordinal_position',
        [schema ?? null, table],
      ),
      type,
    );
  } else {
    rows = rowsOf(
      await db.raw(
        `select column_name as name, data_type as dt, is_nullable as nul from information_schema.columns
          where table_schema = coalesce(?, current_schema()) and table_name = ? order by ordinal_position`,
        [schema ?? null, table],
      ),
      type,
    );
  }
  return rows.map((r) => {
    const dataType = String(r['dt']);
    return { name: String(r['name']), dataType, kind: columnKindOf(dataType), nullable: String(r['nul']).toUpperCase() === 'YES' };
  });
}
