/**
 * The call-record writer thread of an embedded (SQLite) server (see recorder.ts): its own
 * connection to the database file, WAL like the server's, inserting the batches the serving
 * thread posts as cached multi-row statements, one transaction per batch. Plain JavaScript, so
 * that the thread needs no TypeScript loader.
 *
 * In: `{ seq, count, values }` (`values`: `count` rows of `workerData.columns.length` bindings,
 * flat; dates already as epoch milliseconds, as knex binds them on SQLite). Out: `{ seq, ok,
 * error? }` once the batch is committed or has failed.
 */
import { createRequire } from 'node:module';
import { parentPort, workerData } from 'node:worker_threads';

const require = createRequire(import.meta.url);
const BetterSqlite3 = require('better-sqlite3');

const { filename, table, columns, chunk } = workerData;
const db = new BetterSqlite3(filename);
db.pragma('journal_mode = WAL');
db.pragma('synchronous = NORMAL');
db.pragma('busy_timeout = 5000');

const width = columns.length;
const tuple = `(${columns.map(() => '?').join(',')})`;
const statements = new Map();
function insertOf(rows) {
  let st = statements.get(rows);
  if (!st) {
    st = db.prepare(`insert into ${table} (${columns.join(',')}) values ${Array.from({ length: rows }, () => tuple).join(',')}`);
    statements.set(rows, st);
  }
  return st;
}

const insertBatch = db.transaction((count, values) => {
  for (let row = 0; row < count; row += chunk) {
    const rows = Math.min(chunk, count - row);
    insertOf(rows).run(values.slice(row * width, (row + rows) * width));
  }
});

parentPort.on('message', (m) => {
  if (m === 'close') {
    db.close();
    parentPort.close();
    return;
  }
  try {
    insertBatch(m.count, m.values);
    parentPort.postMessage({ seq: m.seq, ok: true });
  } catch (err) {
    parentPort.postMessage({ seq: m.seq, ok: false, error: err instanceof Error ? err.message : String(err) });
  }
});
