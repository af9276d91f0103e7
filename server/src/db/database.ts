import { AsyncLocalStorage } from 'node:async_hooks';
import fs from 'node:fs';
import path from 'node:path';
import knexFactory, { type Knex } from 'knex';
import { CachedBetterSqlite3Client } from './sqlite-client';

/** The two supported database engines. */
export type DatabaseKind = 'sqlite' | 'mysql';

/** Where the database lives, parsed from `DATABASE_URL`. */
export type DatabaseTarget =
  | { kind: 'sqlite'; filename: string }
  | {
      kind: 'mysql';
      host: string;
      port: number;
      user: string;
      password: string;
      database: string;
    };

/**
 * Parses `DATABASE_URL`: `mysql://user:pass@host:port/db` (also `mariadb://`) for MySQL/MariaDB;
 * `sqlite:<file>`, `file:<file>` or a bare path for the embedded SQLite database.
 */
export function parseDatabaseUrl(url: string): DatabaseTarget {
  if (/^(mysql|mariadb):\/\//i.test(url)) {
    const u = new URL(url);
    const database = decodeURIComponent(u.pathname.replace(/^\//, ''));
    if (!database) throw new Error('DATABASE_URL must name a database: mysql://user:pass@host:port/db');
    return {
      kind: 'mysql',
      host: u.hostname || '127.0.0.1',
      port: u.port ? Number(u.port) : 3306,
      user: decodeURIComponent(u.username || 'root'),
      password: decodeURIComponent(u.password),
      database,
    };
  }
  const filename = url.replace(/^(sqlite|file):(\/\/)?/i, '');
  if (!filename) throw new Error('DATABASE_URL names no SQLite file');
  return { kind: 'sqlite', filename };
}

/** Builds the knex configuration of a target. */
export function knexConfigOf(target: DatabaseTarget): Knex.Config {
  if (target.kind === 'sqlite') {
    return {
      // knex's better-sqlite3 client, keeping prepared statements (see sqlite-client.ts)
      client: CachedBetterSqlite3Client as unknown as Knex.Config['client'],
      connection: { filename: target.filename },
      useNullAsDefault: true,
      pool: {
        min: 1,
        max: 1,
        afterCreate(conn: { pragma(sql: string): unknown }, done: (err: Error | null, conn: unknown) => void) {
          conn.pragma('journal_mode = WAL');
          // WAL with NORMAL: no fsync per commit (SQLite's advice for WAL: still never corrupt;
          // a power loss may drop the last commits). Commits happen on the server's thread.
          conn.pragma('synchronous = NORMAL');
          conn.pragma('foreign_keys = ON');
          conn.pragma('busy_timeout = 5000');
          done(null, conn);
        },
      },
    };
  }
  return {
    client: 'mysql2',
    connection: {
      host: target.host,
      port: target.port,
      user: target.user,
      password: target.password,
      database: target.database,
      charset: 'utf8mb4',
      timezone: 'Z',
      supportBigNumbers: true,
    },
    pool: { min: 0, max: 10 },
  };
}

/**
 * The database handle services receive. Wraps knex and carries the current transaction in
 * async context: inside `transaction(fn)` (or a route behind the `transaction` middleware),
 * `executor()` returns the transaction, so repositories join it without passing it around.
 */
export class Database {
  readonly knex: Knex;
  readonly kind: DatabaseKind;
  private readonly scope = new AsyncLocalStorage<Knex.Transaction>();

  /**
   * The SQLite file (absolute) when the target is a file, else null: a component that writes
   * heavily may open its own connection to it off the main thread (WAL lets one writer and any
   * readers share it).
   */
  readonly sqliteFile: string | null;

  constructor(knex: Knex, kind: DatabaseKind, sqliteFile: string | null = null) {
    this.knex = knex;
    this.kind = kind;
    this.sqliteFile = sqliteFile;
  }

  /** Opens the database of a `DATABASE_URL`; creates the SQLite file's folder when needed. */
  static open(url: string): Database {
    const target = parseDatabaseUrl(url);
    if (target.kind === 'sqlite' && target.filename !== ':memory:') {
      fs.mkdirSync(path.dirname(path.resolve(target.filename)), { recursive: true });
    }
    const file = target.kind === 'sqlite' && target.filename !== ':memory:' ? path.resolve(target.filename) : null;
    return new Database(knexFactory(knexConfigOf(target)), target.kind, file);
  }

  /** The current transaction if one is open in this async context, else the pool. */
  executor(): Knex {
    return this.scope.getStore() ?? this.knex;
  }

  /**
   * Runs `fn` in a transaction (joins the current one when nested). Commits when `fn` resolves,
   * rolls back and rethrows when it rejects.
   */
  async transaction<T>(fn: (trx: Knex.Transaction) => Promise<T>): Promise<T> {
    const current = this.scope.getStore();
    if (current) return fn(current);
    return this.knex.transaction((trx) => this.scope.run(trx, () => fn(trx)));
  }

  /** Checks the connection; resolves `true` when a trivial query answers. */
  async ping(): Promise<boolean> {
    try {
      await this.knex.raw('select 1');
      return true;
    } catch {
      return false;
    }
  }

  /** Closes every pooled connection. */
  async close(): Promise<void> {
    await this.knex.destroy();
  }
}
