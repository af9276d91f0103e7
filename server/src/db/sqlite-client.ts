/**
 * knex's better-sqlite3 client with prepared statements kept per connection. knex prepares every
 * query again (`connection.prepare(sql)` on each call), which was the largest single cost of a
 * simple API call on the embedded database (about an eighth of its CPU time); the same few
 * hundred SQL texts repeat, so the statements are kept in a small LRU map per connection.
 * SQLite re-prepares a kept statement by itself when the schema changes (migrations).
 *
 * Transactions begin IMMEDIATE (knex says `BEGIN;`, a deferred one): the database file has other
 * writers besides the server's connection (embedded job threads, the call-record writer thread).
 * A deferred transaction that read first and writes later fails at once with SQLITE_BUSY when
 * another connection committed in between (no busy wait can help it); an immediate one takes
 * the write lock at its start, waiting for it like any other write (busy_timeout).
 */
import { createRequire } from 'node:module';

interface Statement {
  reader: boolean;
  all(bindings: unknown[]): unknown;
  run(bindings: unknown[]): { lastInsertRowid: number | bigint; changes: number };
}
interface Connection {
  prepare(sql: string): Statement;
}
interface QueryObject {
  sql?: string;
  bindings?: unknown[];
  options?: Record<string, unknown>;
  response?: unknown;
  context?: unknown;
}
interface BaseClient {
  _query(connection: Connection, obj: QueryObject): Promise<QueryObject>;
  _formatBindings(bindings: unknown[] | undefined): unknown[];
  _optSafeIntegers(options: unknown): boolean | undefined;
}

const require = createRequire(import.meta.url);
const BetterSqlite3Client = require('knex/lib/dialects/better-sqlite3/index.js') as new (config: unknown) => BaseClient;

/** Statements kept per connection. */
const STATEMENTS_MAX = 500;
const kept = new WeakMap<Connection, Map<string, Statement>>();

function statementOf(connection: Connection, sql: string): Statement {
  let map = kept.get(connection);
  if (!map) kept.set(connection, (map = new Map()));
  let st = map.get(sql);
  if (st) {
    // most recently used last
    map.delete(sql);
    map.set(sql, st);
    return st;
  }
  st = connection.prepare(sql);
  if (map.size >= STATEMENTS_MAX) map.delete(map.keys().next().value!);
  map.set(sql, st);
  return st;
}

/** See the module comment. */
export class CachedBetterSqlite3Client extends BetterSqlite3Client {
  override async _query(connection: Connection, obj: QueryObject): Promise<QueryObject> {
    if (!obj.sql) throw new Error('The query is empty');
    if (obj.sql === 'BEGIN;') obj.sql = 'BEGIN IMMEDIATE;';
    if (!connection) throw new Error('No connection provided');
    // Per-query integer modes change a statement: those go the plain way.
    if (this._optSafeIntegers(obj.options) !== undefined) return super._query(connection, obj);
    const statement = statementOf(connection, obj.sql);
    const bindings = this._formatBindings(obj.bindings);
    if (statement.reader) {
      obj.response = statement.all(bindings);
      return obj;
    }
    const response = statement.run(bindings);
    obj.response = response;
    obj.context = { lastID: response.lastInsertRowid, changes: response.changes };
    return obj;
  }
}
