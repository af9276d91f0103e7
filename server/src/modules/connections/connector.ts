import net from 'node:net';
import knexFactory, { type Knex } from 'knex';
import { parseJdbcUrl, type ConnectionTestResult, type ConnectionType, type RemoteColumn, type RemoteTable } from '@decisio/domain';
import { HostGuard, type CheckedHost } from '../../net/host-guard';

/** Everything needed to open a connection to an outside database. */
export interface RemoteTarget {
  type: ConnectionType;
  url: string;
  /** Overrides the URL's database when not empty. */
  database: string;
  username: string;
  password: string;
}

/** How outside connections are made: the host guard and the time limits. */
export interface ConnectorOptions {
  /** Checks the URL's host and gives the address to connect to (`CONNECTION_ALLOW`). */
  guard: HostGuard;
  /**
   * Longest connect (name lookup, TCP, TLS, sign-in), ms. Every failure to connect answers after
   * exactly this long, so a refused port cannot be told from a closed or filtered one.
   */
  connectMs: number;
  /** Longest statement on the outside server, ms (its own time limit, and the driver's). */
  queryMs: number;
  /**
   * Sessions that may write (only `table/copyTableToDataSource`, which creates a new table and
   * fills it). Every other use is read-only.
   */
  writable?: boolean;
}

/** Connect time limit unless configured (`CONNECTION_TIMEOUT_SECONDS`). */
export const DEFAULT_CONNECT_MS = 5_000;
/** Statement time limit of the browsing calls (tables, columns, a query's columns). */
export const DEFAULT_QUERY_MS = 60_000;

/** Options with only public addresses reachable (tests and tools; the server builds its own). */
export function connectorOptions(partial: Partial<ConnectorOptions> = {}): ConnectorOptions {
  return { guard: partial.guard ?? new HostGuard(), connectMs: partial.connectMs ?? DEFAULT_CONNECT_MS, queryMs: partial.queryMs ?? DEFAULT_QUERY_MS };
}

/**
 * Any failure to reach an outside database: a host the guard refused, a name that does not
 * resolve, a refused or silent port, a TLS or sign-in failure, an unknown database. Users see one
 * message (`dataSourceUnreachable`) for all of them; `cause` (the driver's error or the guard's
 * refusal) is for the server's log only.
 */
export class RemoteConnectError extends Error {
  constructor(cause: unknown) {
    super('cannot connect to the outside database', { cause });
    this.name = 'RemoteConnectError';
  }
}

/** `true` for the MySQL family (MySQL, MariaDB). */
const isMy = (type: ConnectionType) => type !== 'postgresql';

/**
 * The statements that make a MySQL-family session read-only with a statement time limit. MariaDB
 * knows `max_statement_time` (seconds), MySQL `max_execution_time` (ms, SELECTs): each server
 * refuses the other's variable, which is ignored.
 */
function mySessionSetup(queryMs: number, writable: boolean): { sql: string; optional: boolean }[] {
  return [
    ...(writable ? [] : [{ sql: 'SET SESSION TRANSACTION READ ONLY', optional: false }]),
    { sql: `SET SESSION max_statement_time = ${(queryMs / 1000).toFixed(3)}`, optional: true },
    { sql: `SET SESSION max_execution_time = ${Math.round(queryMs)}`, optional: true },
  ];
}

/** knex would print drivers' errors on the console: they go to our log, with the request id, instead. */
const quiet = { warn: () => undefined, error: () => undefined, deprecate: () => undefined, debug: () => undefined };

interface CallbackConnection {
  query(sql: string, cb: (err: unknown) => void): void;
}

/**
 * Builds the knex pool to the address the guard checked (never to the name again: a second
 * lookup could answer something else). The name stays where TLS needs it (server name). Every
 * session is read-only (unless `options.writable`): MySQL `SET SESSION TRANSACTION READ ONLY`,
 * PostgreSQL `default_transaction_read_only`; statements are limited to `queryMs` on the server too.
 */
function buildPool(target: RemoteTarget, checked: CheckedHost, database: string | undefined, ssl: boolean, options: ConnectorOptions): Knex {
  const { connectMs, queryMs } = options;
  const named = net.isIP(checked.host) === 0;
  if (isMy(target.type)) {
    const setup = mySessionSetup(queryMs, options.writable === true);
    return knexFactory({
      client: 'mysql2',
      connection: {
        // Only for TLS (server name): the socket goes to the checked address.
        host: checked.host,
        port: checked.port,
        stream: () => {
          const socket = net.connect({ host: checked.address, port: checked.port, family: checked.family });
          socket.setNoDelay(true);
          return socket;
        },
        user: target.username,
        password: target.password,
        database,
        connectTimeout: connectMs,
        dateStrings: true,
        supportBigNumbers: true,
        bigNumberStrings: true,
        // A server may ask for a client file (LOAD DATA LOCAL): never.
        flags: ['-LOCAL_FILES', '-MULTI_STATEMENTS'],
        ...(ssl ? { ssl: {} } : {}),
      },
      pool: {
        min: 0,
        max: 2,
        acquireTimeoutMillis: connectMs + 1000,
        afterCreate: (conn: CallbackConnection, done: (err: unknown, conn: CallbackConnection) => void) => {
          const next = (i: number): void => {
            if (i >= setup.length) return done(null, conn);
            conn.query(setup[i]!.sql, (err) => (err && !setup[i]!.optional ? done(err, conn) : next(i + 1)));
          };
          next(0);
        },
      },
      acquireConnectionTimeout: connectMs + 1000,
      log: quiet,
    });
  }
  return knexFactory({
    client: 'pg',
    connection: {
      host: checked.address,
      port: checked.port,
      user: target.username,
      password: target.password,
      database,
      connectionTimeoutMillis: connectMs,
      statement_timeout: queryMs,
      query_timeout: queryMs + 1000,
      ...(options.writable ? {} : { options: '-c default_transaction_read_only=on' }),
      ...(ssl ? { ssl: { rejectUnauthorized: false, ...(named ? { servername: checked.host, host: checked.host } : {}) } } : {}),
    },
    pool: { min: 0, max: 2, acquireTimeoutMillis: connectMs + 1000 },
    acquireConnectionTimeout: connectMs + 1000,
    log: quiet,
  });
}

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, Math.max(0, ms)));

/**
 * Checks the target's host with the guard, opens a short-lived knex pool to the checked address
 * and makes its first connection (so every failure to connect happens here). The caller must
 * `destroy()` the pool.
 *
 * @throws RemoteConnectError on any failure, always `connectMs` after the call began.
 */
export async function connectRemote(target: RemoteTarget, options: ConnectorOptions): Promise<Knex> {
  const started = performance.now();
  let db: Knex | null = null;
  let timer: NodeJS.Timeout | undefined;
  const attempt = async (): Promise<Knex> => {
    const jdbc = parseJdbcUrl(target.url);
    if (!jdbc) throw new Error('not a JDBC URL');
    const checked = await options.guard.check(jdbc.host, jdbc.port);
    const database = target.database || jdbc.database || undefined;
    const ssl = jdbc.params['ssl'] === 'true' || jdbc.params['useSSL'] === 'true' || jdbc.params['sslmode'] === 'require';
    db = buildPool(target, checked, database, ssl, options);
    const client = db.client as { acquireConnection(): Promise<unknown>; releaseConnection(c: unknown): Promise<unknown> };
    await client.releaseConnection(await client.acquireConnection());
    return db;
  };
  const attempted = attempt();
  try {
    return await Promise.race([
      attempted,
      new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error(`no connection within ${options.connectMs} ms`)), options.connectMs);
      }),
    ]);
  } catch (err) {
    // Timed out: whatever the attempt still makes is closed when it comes.
    attempted.then((late) => late.destroy(), () => undefined).catch(() => undefined);
    await (db as Knex | null)?.destroy().catch(() => undefined);
    // Every failure answers at the same time: refused, closed, filtered, refused by the guard.
    await sleep(options.connectMs - (performance.now() - started));
    throw new RemoteConnectError(err);
  } finally {
    clearTimeout(timer);
  }
}

/** Runs `fn` with a fresh remote pool and always closes it. Connect failures throw `RemoteConnectError`. */
export async function withRemote<T>(target: RemoteTarget, options: ConnectorOptions, fn: (db: Knex) => Promise<T>): Promise<T> {
  const db = await connectRemote(target, options);
  try {
    return await fn(db);
  } finally {
    await db.destroy().catch(() => undefined);
  }
}

/**
 * A driver error for the server's log (never for a user): one line, the password masked, with
 * the guard's reason or the driver's code.
 */
export function describeRemoteError(err: unknown, target?: Pick<RemoteTarget, 'password'>): string {
  const e = (err instanceof RemoteConnectError ? err.cause : err) as { code?: string; message?: string } | null;
  let text = (e?.message ?? String(e)).split('\n')[0]!.slice(0, 300);
  if (target?.password) text = text.split(target.password).join('******');
  return e?.code && !text.includes(e.code) ? `${e.code}: ${text}` : text;
}

/** Whether the outside server ended a statement at its time limit (MariaDB 1969, MySQL 3024, PostgreSQL 57014). */
export function isStatementTimeout(err: unknown): boolean {
  const e = err as { errno?: number; code?: string } | null;
  return e?.errno === 1969 || e?.errno === 3024 || e?.code === 'ER_STATEMENT_TIMEOUT' || e?.code === 'ER_QUERY_TIMEOUT' || e?.code === '57014';
}

function rowsOf(result: unknown, type: ConnectionType): Record<string, unknown>[] {
  // mysql2 through knex.raw: [rows, fields]; pg: { rows }.
  if (isMy(type)) return (result as [Record<string, unknown>[]])[0];
  return (result as { rows: Record<string, unknown>[] }).rows;
}

/**
 * Connects and asks the server's version; never throws. A failure says only that it failed
 * (`error` is `unreachable`; the caller shows the catalogue's message and logs `cause`), after
 * `connectMs` whatever the reason.
 */
export async function testRemote(target: RemoteTarget, options: ConnectorOptions): Promise<{ result: ConnectionTestResult; cause: unknown }> {
  const started = performance.now();
  try {
    const version = await withRemote(target, options, async (db) => {
      const rows = rowsOf(await db.raw('select version() as v'), target.type);
      return String(rows[0]?.['v'] ?? '');
    });
    return { result: { ok: true, version, latencyMs: Math.round(performance.now() - started), error: null }, cause: null };
  } catch (err) {
    if (!(err instanceof RemoteConnectError)) await sleep(options.connectMs - (performance.now() - started));
    return { result: { ok: false, version: null, latencyMs: 0, error: 'unreachable' }, cause: err };
  }
}

/** Whether a session of `db` is read-only (what every outside session must be; tests). */
export async function isReadOnlySession(db: Knex, type: ConnectionType): Promise<boolean> {
  if (isMy(type)) {
    // MariaDB < 10.4 / MySQL 5.7 call it tx_read_only; newer ones transaction_read_only (both kept for a while).
    let rows: Record<string, unknown>[];
    try {
      rows = rowsOf(await db.raw('select @@session.transaction_read_only as ro'), type);
    } catch {
      rows = rowsOf(await db.raw('select @@session.tx_read_only as ro'), type);
    }
    return Number(rows[0]?.['ro']) === 1;
  }
  const rows = rowsOf(await db.raw('show default_transaction_read_only'), type);
  return String(rows[0]?.['default_transaction_read_only']) === 'on';
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
