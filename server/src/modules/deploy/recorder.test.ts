import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { Database } from '../../db/database';
import { orderedId } from '../../db/ids';
import { migrateLatest } from '../../db/migrator';
import type { Logger } from '../../logger';
import { CallRecorder, type CallRecordRow } from './recorder';

const logs: Array<{ level: string; message: string }> = [];
const logger = {
  error: (message: string) => logs.push({ level: 'error', message }),
  warn: (message: string) => logs.push({ level: 'warn', message }),
  info: () => undefined,
  debug: () => undefined,
} as unknown as Logger;

const row = (i: number): CallRecordRow => {
  const at = new Date(Date.UTC(2026, 10, 23, 12, 0, 0) + i);
  return {
    id: orderedId(at.getTime()),
    service_id: 's'.repeat(32),
    tenant_id: 't'.repeat(32),
    started_at: at,
    ended_at: at,
    duration_ms: 0.25,
    ip: '127.0.0.1',
    result: i % 10 === 0 ? 'failure' : 'success',
    row_count: 1,
    error_code: i % 10 === 0 ? 9009 : null,
    inputs: i % 10 === 0 ? null : JSON.stringify({ price: i }),
    decisions: i % 10 === 0 ? null : JSON.stringify({ discount: 0.1 }),
  };
};

describe('call recorder on an SQLite file', () => {
  const opened: Array<{ db: Database; dir: string }> = [];
  const open = async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'decisio-recorder-'));
    const db = Database.open(`sqlite:${path.join(dir, 'decisio.sqlite')}`);
    await migrateLatest(db);
    opened.push({ db, dir });
    return db;
  };
  afterEach(async () => {
    for (const { db, dir } of opened.splice(0)) {
      await db.knex.destroy();
      fs.rmSync(dir, { recursive: true, force: true });
    }
    logs.length = 0;
  });

  const stored = async (db: Database) =>
    (await db.knex('model_service_records').orderBy('id').select('id', 'started_at', 'result', 'error_code', 'inputs')) as Array<Record<string, unknown>>;

  it('writes batches from its own thread, readable at once by the server connection, the same as written in-thread', async () => {
    const viaThread = await open();
    const direct = await open();
    const a = new CallRecorder(viaThread, logger, { batchSize: 200 });
    const b = new CallRecorder(direct, logger, { batchSize: 200, writerThread: false });
    const rows = Array.from({ length: 1234 }, (_, i) => row(i));
    for (const r of rows) {
      a.record({ ...r });
      b.record({ ...r });
    }
    await Promise.all([a.flush(), b.flush()]);
    const got = await stored(viaThread);
    expect(got).toHaveLength(1234);
    expect(got).toEqual(await stored(direct));
    expect(Number(got[0]!.started_at)).toBe(rows[0]!.started_at.getTime());
    // the date reads back as knex writes it on SQLite
    const back = (await viaThread.knex('model_service_records').where('id', rows[5]!.id).first()) as Record<string, unknown>;
    expect(new Date(back.started_at as number).toISOString()).toBe(rows[5]!.started_at.toISOString());
    await Promise.all([a.close(), b.close()]);
    expect(logs).toEqual([]);
  });

  it('falls back to the server connection when the thread is gone, losing and doubling nothing', async () => {
    const db = await open();
    const rec = new CallRecorder(db, logger, { batchSize: 100 });
    for (let i = 0; i < 150; i++) rec.record(row(i));
    await rec.flush();
    // the thread ends underneath the recorder
    await (rec as unknown as { thread: { close(): Promise<void> } }).thread.close();
    for (let i = 150; i < 400; i++) rec.record(row(i));
    await rec.flush();
    const ids = (await stored(db)).map((r) => r.id);
    expect(ids).toHaveLength(400);
    expect(new Set(ids).size).toBe(400);
    expect(logs.some((l) => l.level === 'warn' && /record writer thread/.test(l.message))).toBe(true);
    await rec.close();
  });

  it('retries a failed batch once and then drops it with an error, never into the caller', async () => {
    const db = await open();
    const rec = new CallRecorder(db, logger, { batchSize: 1000 });
    const first = row(1);
    rec.record(first);
    await rec.flush();
    rec.record({ ...first }); // same id: the primary key refuses it
    rec.record(row(2));
    await expect(rec.flush()).resolves.toBeUndefined();
    expect((await stored(db)).map((r) => r.id)).toEqual([first.id]);
    expect(logs.filter((l) => l.level === 'error')).toHaveLength(1);
    await rec.close();
  });
});
