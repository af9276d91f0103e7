import fs from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { Database } from './database';

const require = createRequire(import.meta.url);
const BetterSqlite3 = require('better-sqlite3') as new (file: string) => {
  pragma(s: string): unknown;
  prepare(sql: string): { run(...args: unknown[]): unknown };
  close(): void;
};

describe('SQLite transactions with another writer on the file', () => {
  const dirs: string[] = [];
  afterEach(() => {
    for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true });
  });

  it('take the write lock at their start, so a read-then-write transaction never fails on a write made in between', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'decisio-sqlite-tx-'));
    dirs.push(dir);
    const file = path.join(dir, 'db.sqlite');
    const db = Database.open(`sqlite:${file}`);
    await db.knex.schema.createTable('t', (t) => {
      t.integer('n');
    });
    await db.knex('t').insert({ n: 1 });
    // another connection to the same file (a job thread, the record writer) that does not wait
    const other = new BetterSqlite3(file);
    other.pragma('journal_mode = WAL');
    other.pragma('busy_timeout = 0');
    let otherWrite: unknown = null;
    await db.transaction(async (trx) => {
      const before = await trx('t').count({ c: '*' }).first();
      expect(Number(before!.c)).toBe(1);
      // a deferred transaction would let this commit and then fail its own insert (SQLITE_BUSY)
      try {
        other.prepare('insert into t (n) values (2)').run();
      } catch (err) {
        otherWrite = err;
      }
      await trx('t').insert({ n: 3 });
    });
    expect((otherWrite as { code?: string } | null)?.code).toMatch(/^SQLITE_BUSY/);
    other.prepare('insert into t (n) values (2)').run();
    expect((await db.knex('t').orderBy('n').pluck('n')) as number[]).toEqual([1, 2, 3]);
    other.close();
    await db.knex.destroy();
  });
});
