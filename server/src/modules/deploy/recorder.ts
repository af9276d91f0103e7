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
 * Writes decision-call records in batches off the request path: `record` only queues; rows are
 * inserted when `batchSize` are waiting or `flushIntervalMs` has passed, in one transaction per
 * batch. `flush()` writes what is queued (tests, shutdown). A failed batch is retried once on the
 * next flush, then logged and dropped, never thrown into a request.
 */
export class CallRecorder {
  private queue: CallRecordRow[] = [];
  private timer: NodeJS.Timeout | null = null;
  private writing: Promise<void> = Promise.resolve();
  private readonly batchSize: number;
  private readonly flushIntervalMs: number;
  /** Rows queued since start (tests and the bench compare it with the table). */
  recorded = 0;

  constructor(
    private readonly db: Database,
    private readonly logger: Logger,
    options: CallRecorderOptions = {},
  ) {
    this.batchSize = options.batchSize ?? 500;
    this.flushIntervalMs = options.flushIntervalMs ?? 250;
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
