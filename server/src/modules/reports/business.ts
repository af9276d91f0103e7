import { PassThrough } from 'node:stream';
import { getBackend } from '@decisio/compute';
import { AppError, type BusinessDecision, type BusinessDecisionState, type DatasetColumn, type Locale, type Page } from '@decisio/domain';
import type { ServerCallUser } from '@decisio/sdk-plugin/server';
import type { Clock } from '../../clock';
import type { Database } from '../../db/database';
import { newId } from '../../db/ids';
import type { Logger } from '../../logger';
import { loadDatasetTable } from '../datasets/reader';
import { DatasetsService } from '../datasets/service';
import { ServingIO } from '../deploy/io';
import { StoredPolicySource, findPolicy } from '../deploy/policy-source';
import { assertProjectAccess, type ProjectRight } from '../projects/access';
import type { BlobStore } from '../storage/blob-store';
import { StorageService } from '../storage/service';

type Row = Record<string, any>;

const CHUNK_ROWS = 1024;
const PROGRESS_MS = 1000;
const HEARTBEAT_MS = 5000;
const STALE_MS = 60_000;

const iso = (v: unknown): string => (v instanceof Date ? v : typeof v === 'number' || /^\d+$/.test(String(v)) ? new Date(Number(v)) : new Date(String(v))).toISOString();

/** A csv cell, quoted when it holds the delimiter, a quote or a line break. */
function csvCell(v: string): string {
  return /[",\r\n]/.test(v) ? `"${v.replace(/"/g, '""')}"` : v;
}

/**
 * Business decisions: the deploy module's decision machinery (`StoredPolicySource` +
 * `ServingIO.decideEach`) run over every row of a dataset (read with `loadDatasetTable`),
 * in the background, into a result csv in the blob store.
 */
export class BusinessDecisions {
  private readonly tasks = new Set<Promise<void>>();
  private stopping = false;
  private readonly running = new Set<string>();
  private readonly datasets: DatasetsService;
  private readonly source: StoredPolicySource;

  constructor(
    private readonly db: Database,
    private readonly blobs: BlobStore,
    private readonly clock: Clock,
    private readonly logger: Logger,
  ) {
    this.datasets = new DatasetsService(db, blobs, clock, new StorageService(db, blobs, clock));
    this.source = new StoredPolicySource(db, blobs);
  }

  /** Resolves when every run started so far has ended. */
  async settle(): Promise<void> {
    while (this.tasks.size > 0) await Promise.allSettled([...this.tasks]);
  }

  /** Shutdown: running runs stop at their next chunk and end as failed. */
  async close(): Promise<void> {
    this.stopping = true;
    await this.settle();
  }

  async create(user: ServerCallUser, input: { policyId: string; datasetId: string }, locale: Locale): Promise<BusinessDecision> {
    const policy = await findPolicy(this.db, user.tenantId, input.policyId);
    if (!policy) throw new AppError('policyNotFound');
    await assertProjectAccess(this.db.executor(), user, policy.projectId, 'edit');
    const dataset = await this.datasets.row(user, input.datasetId);
    const en = locale === 'en-US';
    getBackend();
    let io: ServingIO;
    try {
      io = new ServingIO((await this.source.load(user.tenantId, policy.id)).runner);
    } catch (err) {
      if (err instanceof AppError) throw err;
      throw new AppError('paramInvalid', { policyId: en ? 'The policy has no trained model to decide with' : '该策略没有可用于决策的训练结果' });
    }
    const fields = io.describeInputs();
    const history = fields.filter((f) => f.frames > 1).map((f) => f.name);
    if (history.length) throw new AppError('paramInvalid', { policyId: `${en ? 'History fields cannot come from a dataset' : '历史帧字段不支持数据集输入'}: ${history.join(', ')}` });
    const columns = (JSON.parse(String(dataset.columns)) as DatasetColumn[]).map((c) => c.name);
    const missing = fields.filter((f) => !columns.includes(f.name)).map((f) => f.name);
    if (missing.length) throw new AppError('tableFieldsMismatch', { datasetId: `${en ? 'Missing columns' : '缺少列'}: ${missing.join(', ')}` });

    const id = newId();
    const now = this.clock.now();
    await this.db.knex('business_decisions').insert({
      id,
      tenant_id: user.tenantId,
      project_id: policy.projectId,
      solution_id: policy.solutionId,
      user_id: user.id,
      policy_id: policy.id,
      policy_name: policy.name.slice(0, 64),
      dataset_id: dataset.id,
      dataset_name: String(dataset.name).slice(0, 64),
      state: 'running',
      rows_total: Number(dataset.amount) || 0,
      rows_done: 0,
      rows_failed: 0,
      created_at: now,
      updated_at: now,
    });
    this.running.add(id);
    const p = this.run(id, user.tenantId, dataset.id, io, locale)
      .catch((err: unknown) => this.logger.error('business decision failed', { id, err }))
      .finally(() => this.running.delete(id));
    this.tasks.add(p);
    void p.finally(() => this.tasks.delete(p));
    return this.present((await this.db.knex('business_decisions').where({ id }).first())!);
  }

  private async run(id: string, tenantId: string, datasetId: string, io: ServingIO, locale: Locale): Promise<void> {
    const resultKey = `t/${tenantId}/business/${id}.csv`;
    const out = new PassThrough();
    const stored = this.blobs.put(resultKey, out);
    stored.catch(() => undefined);
    const write = async (text: string) => {
      if (!out.write(text)) await new Promise((r) => out.once('drain', r));
    };
    let done = 0;
    let failed = 0;
    // Heartbeat: a `running` row not updated for a minute belongs to a process that died.
    const beat = setInterval(() => void this.db.knex('business_decisions').where({ id, state: 'running' }).update({ updated_at: this.clock.now() }).catch(() => undefined), HEARTBEAT_MS);
    try {
      const table = await loadDatasetTable(this.db.knex, this.blobs, datasetId, { tenantId });
      await this.db.knex('business_decisions').where({ id }).update({ rows_total: table.rows, updated_at: this.clock.now() });
      const inputs = io.describeInputs().map((f) => f.name);
      const outputs = io.outputNames();
      const data = table.columns.map((c) => table.column(c.name));
      const inputData = inputs.map((n) => table.column(n));
      await write(`${[...table.columns.map((c) => c.name), ...outputs, 'error'].map(csvCell).join(',')}\n`);
      let last = Date.now();
      for (let start = 0; start < table.rows; start += CHUNK_ROWS) {
        if (this.stopping) throw new Error(locale === 'en-US' ? 'Interrupted: the server stopped' : '服务器停止，业务决策中断');
        const end = Math.min(table.rows, start + CHUNK_ROWS);
        const rows: Record<string, number | undefined>[] = [];
        for (let r = start; r < end; r++) {
          const row: Record<string, number | undefined> = {};
          inputs.forEach((n, i) => {
            const v = inputData[i]![r];
            const num = typeof v === 'number' ? v : v === '' || v === undefined ? NaN : Number(v);
            row[n] = Number.isNaN(num) ? undefined : num;
          });
          rows.push(row);
        }
        const results = io.decideEach(rows, locale);
        let text = '';
        results.forEach((res, k) => {
          const r = start + k;
          const cells = data.map((col) => {
            const v = col[r];
            return typeof v === 'number' ? (Number.isNaN(v) ? '' : String(v)) : csvCell(v ?? '');
          });
          if ('decision' in res) cells.push(...outputs.map((n) => csvCell(String(res.decision[n])))), cells.push('');
          else {
            failed++;
            cells.push(...outputs.map(() => ''), csvCell(Object.entries(res.errors).map(([f, m]) => `${f}: ${m}`).join('; ')));
          }
          text += `${cells.join(',')}\n`;
        });
        await write(text);
        done = end;
        if (Date.now() - last > PROGRESS_MS) {
          last = Date.now();
          await this.db.knex('business_decisions').where({ id }).update({ rows_done: done, rows_failed: failed, updated_at: this.clock.now() });
        }
      }
      out.end();
      const { size } = await stored;
      const now = this.clock.now();
      await this.db.knex('business_decisions').where({ id }).update({ state: 'success', rows_total: table.rows, rows_done: done, rows_failed: failed, result_key: resultKey, result_size: size, updated_at: now, ended_at: now });
    } catch (err) {
      out.destroy();
      await stored.catch(() => undefined);
      await this.blobs.remove(resultKey).catch(() => undefined);
      const now = this.clock.now();
      const message = (err instanceof AppError ? err.codeName : err instanceof Error ? err.message : String(err)).slice(0, 500);
      await this.db.knex('business_decisions').where({ id }).update({ state: 'failure', error: message, rows_done: done, rows_failed: failed, updated_at: now, ended_at: now });
    } finally {
      clearInterval(beat);
    }
  }

  /** Stores as failed the `running` runs of a project whose process died (no heartbeat for a minute). */
  private async expireStale(projectId: string): Promise<void> {
    const now = this.clock.now();
    await this.db
      .executor()('business_decisions')
      .where({ project_id: projectId, state: 'running' })
      .where('updated_at', '<', new Date(now.getTime() - STALE_MS))
      .whereNotIn('id', [...this.running])
      .update({ state: 'failure', error: 'Interrupted: the server process stopped', updated_at: now, ended_at: now });
  }

  /** The run after checking the caller's right on its project; `fileNotFound` otherwise. */
  async access(user: ServerCallUser, id: string, need: ProjectRight): Promise<Row> {
    const row = await this.db.executor()('business_decisions').where({ id, tenant_id: user.tenantId }).first();
    if (!row) throw new AppError('fileNotFound');
    try {
      await assertProjectAccess(this.db.executor(), user, row.project_id, need);
    } catch (err) {
      if (err instanceof AppError && err.codeName === 'projectNotFound') throw new AppError('fileNotFound');
      throw err;
    }
    return row;
  }

  async list(user: ServerCallUser, input: { projectId: string; page: number; pageSize: number }): Promise<Page<BusinessDecision>> {
    const knex = this.db.executor();
    await assertProjectAccess(knex, user, input.projectId, 'view');
    await this.expireStale(input.projectId);
    const q = knex('business_decisions').where({ tenant_id: user.tenantId, project_id: input.projectId });
    const [{ total }] = (await q.clone().count({ total: '*' })) as [{ total: number | string }];
    const rows = await q
      .select('*')
      .orderBy([{ column: 'created_at', order: 'desc' }, { column: 'id', order: 'desc' }])
      .limit(input.pageSize)
      .offset((input.page - 1) * input.pageSize);
    return { rows: rows.map((r: Row) => this.present(r)), total: Number(total), page: input.page, pageSize: input.pageSize };
  }

  async remove(user: ServerCallUser, id: string): Promise<void> {
    const row = await this.access(user, id, 'edit');
    if (row.state === 'running') throw new AppError('paramInvalid', { id: 'validation.invalid' });
    await this.db.executor()('business_decisions').where({ id: row.id }).delete();
    if (row.result_key) await this.blobs.remove(row.result_key).catch(() => undefined);
  }

  present(row: Row): BusinessDecision {
    const total = Number(row.rows_total) || 0;
    const done = Number(row.rows_done) || 0;
    const state = row.state as BusinessDecisionState;
    return {
      id: row.id,
      projectId: row.project_id,
      solutionId: row.solution_id,
      policyId: row.policy_id,
      policyName: row.policy_name,
      datasetId: row.dataset_id,
      datasetName: row.dataset_name,
      state,
      progress: state === 'success' ? 1 : total > 0 ? Math.min(1, done / total) : 0,
      rowsTotal: total,
      rowsDone: done,
      rowsFailed: Number(row.rows_failed) || 0,
      error: row.error ?? null,
      downloadUrl: state === 'success' && row.result_key ? `/api/businessDecision/download?id=${row.id}` : null,
      createdAt: iso(row.created_at),
      endedAt: row.ended_at ? iso(row.ended_at) : null,
    };
  }
}
