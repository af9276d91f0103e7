/**
 * Decisions from an uploaded csv (spec workflow §5: up to 2 GB, comma or semicolon): read from
 * the blob store line by line, decided 1024 rows per forward pass, written as a result csv (the
 * input columns, one column per decision field, and `error` for a row whose input is not valid)
 * with progress in `model_service_batches`. Each batch is also one call record, `running` until
 * it ends. Runs in the server process; a batch whose process stopped is reported as failed.
 */
import { createInterface } from 'node:readline';
import { PassThrough } from 'node:stream';
import { AppError, LIMITS, type Locale, type ModelServiceBatch } from '@decisio/domain';
import type { Clock } from '../../clock';
import type { Database } from '../../db/database';
import { newId } from '../../db/ids';
import type { Logger } from '../../logger';
import type { BlobStore } from '../storage/blob-store';
import { StorageService } from '../storage/service';
import type { ServingIO } from './io';
import type { ServingRuntime } from './runtime';
import type { ServiceRecord } from './service';

const CHUNK_ROWS = 1024;
const PROGRESS_MS = 1000;
/** A running batch not updated for this long belongs to a process that stopped. */
const STALE_MS = 60_000;

/** A `model_service_batches` row. */
interface BatchRow {
  id: string;
  service_id: string;
  tenant_id: string;
  user_id: string;
  file_id: string;
  file_name: string;
  delimiter: ',' | ';';
  state: 'running' | 'success' | 'failure';
  bytes_total: number | string;
  bytes_done: number | string;
  rows_done: number | string;
  rows_failed: number | string;
  result_key: string | null;
  result_size: number | string | null;
  error: string | null;
  created_at: unknown;
  updated_at: unknown;
  ended_at: unknown;
}

const toDate = (v: unknown): Date => (v instanceof Date ? v : new Date(typeof v === 'string' && /^\d+$/.test(v) ? Number(v) : (v as string | number)));

/** Splits one csv line (quotes with doubled quotes inside; no line breaks inside a cell). */
export function splitCsvLine(line: string, delimiter: string): string[] {
  const out: string[] = [];
  let cur = '';
  let quoted = false;
  for (let i = 0; i < line.length; i++) {
    const c = line[i]!;
    if (quoted) {
      if (c === '"') {
        if (line[i + 1] === '"') {
          cur += '"';
          i++;
        } else quoted = false;
      } else cur += c;
    } else if (c === '"' && cur === '') quoted = true;
    else if (c === delimiter) {
      out.push(cur);
      cur = '';
    } else cur += c;
  }
  out.push(cur);
  return out;
}

function csvCell(v: string, delimiter: string): string {
  return v.includes(delimiter) || v.includes('"') || v.includes('\n') ? `"${v.replace(/"/g, '""')}"` : v;
}

/** Background decisions over uploaded csv files. */
export class BatchDecisions {
  private readonly active = new Map<string, Promise<void>>();
  private stopping = false;

  constructor(
    private readonly db: Database,
    private readonly blobs: BlobStore,
    private readonly runtime: ServingRuntime,
    private readonly clock: Clock,
    private readonly logger: Logger,
  ) {}

  /**
   * Starts a batch on a running service with a csv file of the caller.
   * @throws AppError `deployNotRunning`, `fileNotFound`, `deployInputInvalid` (file over 2 GB).
   */
  async create(user: { id: string; tenantId: string }, service: ServiceRecord, fileId: string, delimiter: ',' | ';', locale: Locale): Promise<ModelServiceBatch> {
    if (service.status !== 'running') throw new AppError('deployNotRunning');
    const file = await new StorageService(this.db, this.blobs, this.clock).fileRow({ tenantId: user.tenantId, userId: user.id }, fileId);
    if (Number(file.size) > LIMITS.csvMaxBytes) throw new AppError('deployInputInvalid', { fileId: locale === 'en-US' ? 'The csv file is over 2 GB' : 'csv 文件超过 2 GB' });
    const io = await this.runtime.loadPolicy(service.id, service.tenantId, service.policyId);
    const id = newId();
    const now = this.clock.now();
    await this.db.knex('model_service_batches').insert({
      id,
      service_id: service.id,
      tenant_id: service.tenantId,
      user_id: user.id,
      file_id: file.id,
      file_name: file.name.slice(0, 255),
      delimiter,
      state: 'running',
      bytes_total: Number(file.size),
      bytes_done: 0,
      rows_done: 0,
      rows_failed: 0,
      result_key: null,
      result_size: null,
      error: null,
      created_at: now,
      updated_at: now,
      ended_at: null,
    });
    // The batch is one call record, `running` until it ends.
    await this.db.knex('model_service_records').insert({
      id,
      service_id: service.id,
      tenant_id: service.tenantId,
      started_at: now,
      ended_at: null,
      duration_ms: null,
      ip: null,
      result: 'running',
      row_count: 0,
      error_code: null,
    });
    const job = this.run(id, service, io, file.blob_key, delimiter, locale, now).finally(() => this.active.delete(id));
    this.active.set(id, job);
    return this.get(user.tenantId, id) as Promise<ModelServiceBatch>;
  }

  private async run(id: string, service: ServiceRecord, io: ServingIO, key: string, delimiter: string, locale: Locale, startedAt: Date): Promise<void> {
    const resultKey = `t/${service.tenantId}/deploy/${service.id}/batches/${id}.csv`;
    let bytes = 0;
    let rows = 0;
    let failed = 0;
    let lastProgress = Date.now();
    const out = new PassThrough();
    const stored = this.blobs.put(resultKey, out);
    stored.catch(() => undefined);
    const write = async (text: string) => {
      if (!out.write(text)) await new Promise((r) => out.once('drain', r));
    };
    try {
      const input = this.blobs.openRead(key);
      input.on('data', (c: Buffer | string) => (bytes += c.length));
      const lines = createInterface({ input, crlfDelay: Infinity });
      let header: string[] | null = null;
      let columns: number[] = [];
      let names: string[] = [];
      let chunk: string[] = [];
      const flush = async () => {
        const objects = chunk.map((line) => {
          const cells = splitCsvLine(line, delimiter);
          const row: Record<string, unknown> = {};
          columns.forEach((c, i) => {
            const cell = (cells[c] ?? '').trim();
            row[names[i]!] = cell === '' ? undefined : Number(cell);
          });
          return row;
        });
        const results = io.decideEach(objects, locale);
        let text = '';
        results.forEach((r, i) => {
          const outputs = 'decision' in r ? io.outputNames().map((n) => String(r.decision[n])) : io.outputNames().map(() => '');
          const error = 'errors' in r ? Object.entries(r.errors).map(([f, m]) => `${f}: ${m}`).join('; ') : '';
          if ('errors' in r) failed++;
          text += `${chunk[i]}${delimiter}${outputs.join(delimiter)}${delimiter}${csvCell(error, delimiter)}\n`;
        });
        rows += chunk.length;
        chunk = [];
        await write(text);
        if (Date.now() - lastProgress > PROGRESS_MS) {
          lastProgress = Date.now();
          await this.db.knex('model_service_batches').where('id', id).update({ bytes_done: bytes, rows_done: rows, rows_failed: failed, updated_at: this.clock.now() });
        }
      };
      for await (const raw of lines) {
        if (this.stopping) throw new Error(locale === 'en-US' ? 'Interrupted: the server stopped' : '服务器停止，批量决策中断');
        const line = raw.replace(/^\uFEFF/, '');
        if (!header) {
          header = splitCsvLine(line, delimiter).map((h) => h.trim());
          const fields = io.describeInputs();
          const history = fields.filter((f) => f.frames > 1).map((f) => f.name);
          if (history.length) throw new Error(`${locale === 'en-US' ? 'History fields cannot come from a csv' : '历史帧字段不支持 csv 输入'}: ${history.join(', ')}`);
          const missing = fields.filter((f) => !header!.includes(f.name)).map((f) => f.name);
          if (missing.length) throw new Error(`${locale === 'en-US' ? 'Missing columns' : '缺少列'}: ${missing.join(', ')}`);
          names = fields.map((f) => f.name);
          columns = names.map((n) => header!.indexOf(n));
          await write(`${line}${delimiter}${io.outputNames().map((n) => csvCell(n, delimiter)).join(delimiter)}${delimiter}error\n`);
          continue;
        }
        if (line.trim() === '') continue;
        chunk.push(line);
        if (chunk.length >= CHUNK_ROWS) await flush();
      }
      if (!header) throw new Error(locale === 'en-US' ? 'The csv file is empty' : 'csv 文件为空');
      if (chunk.length) await flush();
      out.end();
      const { size } = await stored;
      const end = this.clock.now();
      await this.db.knex('model_service_batches').where('id', id).update({
        state: 'success',
        bytes_done: bytes,
        rows_done: rows,
        rows_failed: failed,
        result_key: resultKey,
        result_size: size,
        updated_at: end,
        ended_at: end,
      });
      await this.endRecord(id, startedAt, end, 'success', rows, null);
    } catch (err) {
      out.destroy();
      await stored.catch(() => undefined);
      await this.blobs.remove(resultKey).catch(() => undefined);
      const end = this.clock.now();
      const message = (err instanceof Error ? err.message : String(err)).slice(0, 500);
      if (!(err instanceof Error)) this.logger.error('batch decision failed', { batchId: id, err });
      await this.db
        .knex('model_service_batches')
        .where('id', id)
        .update({ state: 'failure', error: message, bytes_done: bytes, rows_done: rows, rows_failed: failed, updated_at: end, ended_at: end })
        .catch((e: unknown) => this.logger.error('batch decision state write failed', { batchId: id, err: e }));
      await this.endRecord(id, startedAt, end, 'failure', rows, 9009).catch(() => undefined);
    }
  }

  private endRecord(id: string, startedAt: Date, end: Date, result: 'success' | 'failure', rows: number, code: number | null) {
    return this.db
      .knex('model_service_records')
      .where('id', id)
      .update({ ended_at: end, duration_ms: end.getTime() - startedAt.getTime(), result, row_count: rows, error_code: code });
  }

  /** A batch as shown; a `running` batch of a stopped process is marked failed first. */
  private async present(r: BatchRow): Promise<ModelServiceBatch> {
    if (r.state === 'running' && !this.active.has(r.id) && this.clock.now().getTime() - toDate(r.updated_at).getTime() > STALE_MS) {
      const end = this.clock.now();
      r = { ...r, state: 'failure', error: 'Interrupted: the server process stopped', ended_at: end };
      await this.db.knex('model_service_batches').where({ id: r.id, state: 'running' }).update({ state: 'failure', error: r.error, updated_at: end, ended_at: end });
      await this.endRecord(r.id, toDate(r.created_at), end, 'failure', Number(r.rows_done), 9009);
    }
    const total = Number(r.bytes_total);
    return {
      batchId: r.id,
      serviceId: r.service_id,
      fileId: r.file_id,
      fileName: r.file_name,
      delimiter: r.delimiter,
      state: r.state,
      progress: r.state === 'success' ? 1 : total > 0 ? Math.min(1, Number(r.bytes_done) / total) : 0,
      rows: Number(r.rows_done),
      failedRows: Number(r.rows_failed),
      resultSize: r.result_size === null ? null : Number(r.result_size),
      downloadUrl: r.state === 'success' ? `/api/modeldeploy/downloadBatchDecision?batchId=${r.id}` : null,
      error: r.error,
      createdAt: toDate(r.created_at).toISOString(),
      endedAt: r.ended_at ? toDate(r.ended_at).toISOString() : null,
    };
  }

  /** The row of a batch of the tenant, or `undefined`. */
  async row(tenantId: string, batchId: string): Promise<BatchRow | undefined> {
    return (await this.db.executor()('model_service_batches').where({ id: batchId, tenant_id: tenantId }).first()) as BatchRow | undefined;
  }

  /** A batch of the tenant, or `undefined`. */
  async get(tenantId: string, batchId: string): Promise<ModelServiceBatch | undefined> {
    const r = await this.row(tenantId, batchId);
    return r ? this.present(r) : undefined;
  }

  /** The batches of a service, newest first. */
  async page(serviceId: string, page: number, pageSize: number) {
    const base = this.db.executor()('model_service_batches').where('service_id', serviceId);
    const countRow = (await base.clone().count({ n: '*' }).first()) as { n: number | string };
    const rows = (await base.clone().orderBy([{ column: 'created_at', order: 'desc' }, { column: 'id' }]).offset((page - 1) * pageSize).limit(pageSize)) as BatchRow[];
    return { rows: await Promise.all(rows.map((r) => this.present(r))), total: Number(countRow.n), page, pageSize };
  }

  /** Resolves when every batch started so far has ended. */
  async settle(): Promise<void> {
    while (this.active.size > 0) await Promise.allSettled([...this.active.values()]);
  }

  /** Stops the running batches (they end as failed) and waits for them. */
  async close(): Promise<void> {
    this.stopping = true;
    await this.settle();
  }
}
