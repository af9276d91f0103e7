import { once } from 'node:events';
import { Worker } from 'node:worker_threads';
import { AppError, type Locale } from '@decisio/domain';
import type { Knex } from 'knex';
import type { Database } from '../../db/database';
import type { Logger } from '../../logger';

/** A call record as written (snake_case columns of `model_service_records`). */
export interface CallRecordRow {
  id: string;
  service_id: string;
  tenant_id: string;
  started_at: Date;
  ended_at: Date | null;
  duration_ms: number | null;
  ip: string | null;
  result: 'success' | 'failure' | 'running';
  row_count: number;
  error_code: number | null;
  /** The call's body as sent and its decisions (JSON), when the service keeps them. */
  inputs: string | null;
  decisions: string | null;
}

/** Options of the recorder. */
export interface CallRecorderOptions {
  /** Rows that trigger an immediate write (default 500). */
  batchSize?: number;
  /** Longest time a row waits in memory, ms (default 250). */
  flushIntervalMs?: number;
  /**
   * On an SQLite file, write from a thread of its own (default true): the serving thread then
   * spends no time in SQLite and never waits for a commit or a WAL checkpoint.
   */
  writerThread?: boolean;
}

const CHUNK = 100;

/** Columns of a record, in insert order. */
const COLUMNS = ['id', 'service_id', 'tenant_id', 'started_at', 'ended_at', 'duration_ms', 'ip', 'result', 'row_count', 'error_code', 'inputs', 'decisions'] as const;

/** `insert into model_service_records (...) values (?,...),(...)` for `rows` rows (cached per count). */
const insertSql = new Map<number, string>();
function insertOf(rows: number): string {
  let sql = insertSql.get(rows);
  if (!sql) {
    const tuple = `(${COLUMNS.map(() => '?').join(',')})`;
    sql = `insert into model_service_records (${COLUMNS.join(',')}) values ${Array.from({ length: rows }, () => tuple).join(',')}`;
    insertSql.set(rows, sql);
  }
  return sql;
}

/**
 * The writer thread of an SQLite file (`record-writer.mjs`): batches go as flat bindings, each
 * answered once committed. Referenced (keeps the process alive) only while a batch is on its way.
 */
class RecordWriterThread {
  private readonly worker: Worker;
  private seq = 0;
  private readonly pending = new Map<number, { resolve: () => void; reject: (err: Error) => void }>();
  /** Why the thread can no longer be used (it exited or failed). */
  dead: Error | null = null;

  constructor(filename: string) {
    this.worker = new Worker(new URL('./record-writer.mjs', import.meta.url), {
      workerData: { filename, table: 'model_service_records', columns: COLUMNS, chunk: CHUNK },
    });
    this.worker.unref();
    this.worker.on('message', (m: { seq: number; ok: boolean; error?: string }) => {
      const p = this.pending.get(m.seq);
      if (!p) return;
      this.pending.delete(m.seq);
      if (this.pending.size === 0) this.worker.unref();
      if (m.ok) p.resolve();
      else p.reject(new Error(m.error ?? 'record write failed'));
    });
    this.worker.on('error', (err: Error) => this.fail(err));
    this.worker.on('exit', (code) => this.fail(new Error(`the record writer thread exited (${code})`)));
  }

  write(batch: readonly CallRecordRow[]): Promise<void> {
    if (this.dead) return Promise.reject(this.dead);
    const values: unknown[] = new Array(batch.length * COLUMNS.length);
    let i = 0;
    for (const r of batch) {
      for (const c of COLUMNS) {
        const v = r[c];
        values[i++] = v instanceof Date ? v.getTime() : v; // as knex binds dates on SQLite
      }
    }
    const seq = ++this.seq;
    return new Promise<void>((resolve, reject) => {
      this.pending.set(seq, { resolve, reject });
      this.worker.ref();
      this.worker.postMessage({ seq, count: batch.length, values });
    });
  }

  private fail(err: Error): void {
    this.dead ??= err;
    for (const p of this.pending.values()) p.reject(this.dead);
    this.pending.clear();
  }

  async close(): Promise<void> {
    if (this.dead) return;
    const exited = once(this.worker, 'exit');
    this.worker.postMessage('close');
    await Promise.race([exited, new Promise((r) => setTimeout(r, 2000).unref())]);
    if (!this.dead) await this.worker.terminate();
  }
}

/**
 * Writes decision-call records in batches off the request path: `record` only queues; rows are
 * inserted when `batchSize` are waiting or `flushIntervalMs` has passed, in one transaction per
 * batch. `flush()` writes what is queued (tests, shutdown). A failed batch is retried once on the
 * next flush, then logged and dropped, never thrown into a request. On an SQLite file the
 * batches are written by a thread of their own (`record-writer.mjs`, its own connection); should
 * that thread fail, the recorder writes through the server's connection from then on.
 */
export class CallRecorder {
  private queue: CallRecordRow[] = [];
  private timer: NodeJS.Timeout | null = null;
  private writing: Promise<void> = Promise.resolve();
  private readonly batchSize: number;
  private readonly flushIntervalMs: number;
  private readonly useThread: boolean;
  private thread: RecordWriterThread | null = null;
  private threadLost = false;
  /** Rows queued since start (tests and the bench compare it with the table). */
  recorded = 0;

  constructor(
    private readonly db: Database,
    private readonly logger: Logger,
    options: CallRecorderOptions = {},
  ) {
    this.batchSize = options.batchSize ?? 500;
    this.flushIntervalMs = options.flushIntervalMs ?? 250;
    this.useThread = options.writerThread !== false && db.kind === 'sqlite' && db.sqliteFile !== null;
  }

  /** Writes what is queued and ends the writer thread. */
  async close(): Promise<void> {
    await this.flush();
    const thread = this.thread;
    this.thread = null;
    await thread?.close();
  }

  /** Queues one row. */
  record(row: CallRecordRow): void {
    this.recorded++;
    this.queue.push(row);
    if (this.queue.length >= this.batchSize) void this.flush();
    else if (!this.timer) {
      this.timer = setTimeout(() => void this.flush(), this.flushIntervalMs);
      this.timer.unref();
    }
  }

  /** Writes every queued row; resolves when they (and earlier batches) are in the database. */
  flush(): Promise<void> {
    if (this.timer) {
      clearTimeout(this.timer);
      this.timer = null;
    }
    const batch = this.queue;
    this.queue = [];
    if (batch.length > 0) {
      this.writing = this.writing.then(() => this.write(batch, 1));
    }
    return this.writing;
  }

  /**
   * Keeps the outcome of a successful call (`outcome`: one object, or one per row of a batch call).
   * A record still queued is written first.
   * @throws AppError `deployDecisionNotFound`, `paramInvalid` (`outcome`: not one per row).
   */
  async attachOutcome(serviceId: string, decisionId: string, outcome: unknown, at: Date, locale: Locale): Promise<void> {
    if (this.queue.some((r) => r.id === decisionId)) await this.flush();
    else await this.writing;
    const knex = this.db.knex;
    const row = (await knex('model_service_records').where({ id: decisionId, service_id: serviceId }).first('result', 'row_count')) as { result: string; row_count: number | string } | undefined;
    if (!row || row.result !== 'success') throw new AppError('deployDecisionNotFound');
    const rows = Number(row.row_count);
    const perRow = Array.isArray(outcome);
    if ((perRow && (outcome as unknown[]).length !== rows) || (!perRow && rows !== 1)) {
      throw new AppError('paramInvalid', { outcome: locale === 'en-US' ? `One outcome per decided row: ${rows}` : `每个决策行一个结果：共 ${rows} 行` });
    }
    await knex('model_service_records').where({ id: decisionId, service_id: serviceId }).update({ outcome: JSON.stringify(outcome), outcome_at: at });
  }

  private async write(batch: CallRecordRow[], triesLeft: number): Promise<void> {
    if (this.useThread) {
      const thread = (this.thread ??= new RecordWriterThread(this.db.sqliteFile!));
      if (!thread.dead) {
        try {
          return await thread.write(batch);
        } catch (err) {
          if (!thread.dead) {
            if (triesLeft > 0) return this.write(batch, triesLeft - 1);
            this.logger.error('decision call records write failed', { rows: batch.length, err });
            return;
          }
        }
      }
      if (!this.threadLost) {
        this.threadLost = true;
        this.logger.warn('record writer thread failed: writing through the server connection', { err: thread.dead });
      }
    }
    try {
      // Always the pool, never a request's transaction.
      await this.db.knex.transaction(async (trx) => {
        // A cached multi-row statement: knex's query builder cost more than the insert itself.
        for (let i = 0; i < batch.length; i += CHUNK) {
          const part = batch.slice(i, i + CHUNK);
          const bindings: unknown[] = [];
          for (const r of part) for (const c of COLUMNS) bindings.push(r[c]);
          await trx.raw(insertOf(part.length), bindings as Knex.RawBinding[]);
        }
      });
    } catch (err) {
      if (triesLeft > 0) return this.write(batch, triesLeft - 1);
      this.logger.error('decision call records write failed', { rows: batch.length, err });
    }
  }
}
