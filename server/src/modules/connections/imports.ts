import fs from 'node:fs';
import path from 'node:path';
import { AppError, messageOf, type ImportState, type ImportStatus, type Page, type StartImportRequest } from '@decisio/domain';
import type { ServerCallUser } from '@decisio/sdk-plugin/server';
import type { Clock } from '../../clock';
import type { Database } from '../../db/database';
import { newId } from '../../db/ids';
import type { Logger } from '../../logger';
import type { DatasetsService } from '../datasets/service';
import { describeRemoteError, listRemoteTables, withRemote } from './connector';
import { checkQuery, copyToParquet, type CopySource } from './copy';
import type { ConnectionsService } from './service';

interface ImportRow {
  id: string;
  tenant_id: string;
  owner_id: string;
  connection_id: string;
  connection_name: string;
  source_kind: 'table' | 'sql';
  source_schema: string | null;
  source: string;
  name: string;
  dataset_type: string;
  project_id: string | null;
  state: ImportState;
  rows_copied: number | string;
  rows_expected: number | string | null;
  error_code: string | null;
  error: string | null;
  dataset_id: string | null;
  created_at: Date | string | number;
  ended_at: Date | string | number | null;
}

const iso = (d: Date | string | number) =>
  new Date(typeof d === 'string' && !/^\d+$/.test(d) ? d.replace(' ', 'T') + (d.endsWith('Z') ? '' : 'Z') : Number(d instanceof Date ? d.getTime() : d)).toISOString();

/** Options of the importer. */
export interface ImportOptions {
  /** Where partial Parquet files are written before they become a dataset. */
  tmpDir: string;
  /** Longest copy, ms (default 30 minutes): then the import fails with `importTimeout`. */
  timeoutMs?: number;
  /** Checks the caller may put a dataset into a project (edit right). */
  assertProject?: (user: ServerCallUser, projectId: string) => Promise<void>;
}

/**
 * Copies a table or a query of a data connection into a new dataset in the background
 * (`metadata/startImport`), with a status to poll (`getCopyStatusByTableId`). The copy goes to a
 * temporary Parquet file; only a complete copy becomes a dataset (`DatasetsService.adoptParquet`,
 * which also charges the storage quota), so a failed, timed-out or interrupted import leaves no
 * dataset. Imports a restart interrupted are marked failed at start-up.
 */
export class ImportService {
  private readonly running = new Map<string, { abort: AbortController; done: Promise<void> }>();

  constructor(
    private readonly db: Database,
    private readonly clock: Clock,
    private readonly connections: ConnectionsService,
    private readonly datasets: DatasetsService,
    private readonly logger: Logger,
    private readonly options: ImportOptions,
  ) {}

  /** Marks imports left `waiting`/`copying` by a previous run as failed. */
  async recover(): Promise<number> {
    const mine = [...this.running.keys()];
    const q = this.db.knex('data_imports').whereIn('state', ['waiting', 'copying']);
    if (mine.length) q.whereNotIn('id', mine);
    return q.update({
      state: 'failed',
      error_code: 'importFailed',
      error: 'interrupted by a server restart',
      ended_at: this.clock.now(),
      updated_at: this.clock.now(),
    });
  }

  async start(user: ServerCallUser, input: StartImportRequest & { type: string }): Promise<ImportStatus> {
    if (input.projectId) await this.options.assertProject?.(user, input.projectId);
    const target = await this.connections.target(user, input.connectionId);
    const source: CopySource = input.sql ? { sql: checkQuery(input.sql) } : { table: input.table!, ...(input.schema ? { schema: input.schema } : {}) };
    const id = newId();
    const now = this.clock.now();
    await this.db.knex('data_imports').insert({
      id,
      tenant_id: user.tenantId,
      owner_id: user.id,
      connection_id: target.id,
      connection_name: target.name,
      source_kind: 'sql' in source ? 'sql' : 'table',
      source_schema: 'schema' in source ? (source.schema ?? null) : null,
      source: 'sql' in source ? source.sql : source.table,
      name: input.name,
      dataset_type: input.type,
      project_id: input.projectId ?? null,
      state: 'waiting',
      rows_copied: 0,
      created_at: now,
      updated_at: now,
    });
    const abort = new AbortController();
    const timer = setTimeout(() => abort.abort(), this.options.timeoutMs ?? 30 * 60_000);
    timer.unref?.();
    const done = this.run(id, user, target, source, input, abort.signal)
      .catch((err: unknown) => this.logger.error('import failed unexpectedly', { importId: id, err }))
      .finally(() => {
        clearTimeout(timer);
        this.running.delete(id);
      });
    this.running.set(id, { abort, done });
    return this.status(user, id);
  }

  private async update(id: string, patch: Record<string, unknown>): Promise<void> {
    await this.db.knex('data_imports').where('id', id).update({ ...patch, updated_at: this.clock.now() });
  }

  private async run(
    id: string,
    user: ServerCallUser,
    target: Awaited<ReturnType<ConnectionsService['target']>>,
    source: CopySource,
    input: StartImportRequest & { type: string },
    signal: AbortSignal,
  ): Promise<void> {
    fs.mkdirSync(this.options.tmpDir, { recursive: true });
    const tmp = path.join(this.options.tmpDir, `${id}.parquet`);
    try {
      await this.update(id, { state: 'copying' });
      let lastWrite = 0;
      await withRemote(target, async (remote) => {
        if ('table' in source) {
          const est = (await listRemoteTables(remote, target.type)).find((t) => t.name === source.table && (!source.schema || t.schema === source.schema));
          if (est?.estimatedRows != null) await this.update(id, { rows_expected: est.estimatedRows });
        }
        await copyToParquet(remote, target.type, source, tmp, {
          signal,
          onProgress: async (rows) => {
            const now = Date.now();
            if (now - lastWrite < 500) return;
            lastWrite = now;
            await this.update(id, { rows_copied: rows });
          },
        });
      });
      if (signal.aborted) throw new AppError('importTimeout');
      const { rows } = await this.countRows(tmp);
      const datasetId = await this.datasets.adoptParquet({ tenantId: user.tenantId, userId: user.id }, tmp, {
        name: input.name,
        type: input.type as 'business',
        fileType: 'sql' as never,
        fileName: `${target.name}: ${'sql' in source ? 'query' : source.schema ? `${source.schema}.${source.table}` : source.table}`.slice(0, 200),
        projectId: input.projectId ?? null,
      });
      await this.update(id, { state: 'successful', rows_copied: rows, dataset_id: datasetId, ended_at: this.clock.now() });
    } catch (err) {
      const app = err instanceof AppError ? err : signal.aborted ? new AppError('importTimeout') : null;
      const code = app?.codeName ?? 'importFailed';
      const detail = app ? [messageOf(app.codeName, 'en-US'), ...Object.values(app.details ?? {})].filter(Boolean).join(': ') : describeRemoteError(err, target);
      await this.update(id, { state: 'failed', error_code: code, error: detail.slice(0, 2000), ended_at: this.clock.now() });
    } finally {
      fs.rmSync(tmp, { force: true });
    }
  }

  private async countRows(file: string): Promise<{ rows: number }> {
    const { withDuck, sqlString } = await import('../datasets/duck');
    return withDuck(async (c) => ({ rows: Number((await c.runAndReadAll(`SELECT count(*)::DOUBLE AS n FROM read_parquet(${sqlString(file)})`)).getRowObjectsJS()[0]!.n) }));
  }

  private present(r: ImportRow): ImportStatus {
    return {
      tableId: r.id,
      connectionId: r.connection_id,
      connectionName: r.connection_name,
      source: r.source_kind === 'sql' ? { sql: r.source } : { table: r.source, ...(r.source_schema ? { schema: r.source_schema } : {}) },
      name: r.name,
      type: r.dataset_type,
      projectId: r.project_id,
      state: r.state,
      rowsCopied: Number(r.rows_copied),
      rowsExpected: r.rows_expected == null ? null : Number(r.rows_expected),
      datasetId: r.dataset_id,
      errorCode: r.error_code,
      error: r.error,
      createdAt: iso(r.created_at),
      endedAt: r.ended_at == null ? null : iso(r.ended_at),
    };
  }

  /** One import of the caller (tenant admins: of the tenant). */
  async status(user: ServerCallUser, id: string): Promise<ImportStatus> {
    const q = this.db.executor()('data_imports').where({ id, tenant_id: user.tenantId });
    if (!(user.isSystemRole || user.permissions.includes('*'))) q.andWhere('owner_id', user.id);
    const row = (await q.first()) as ImportRow | undefined;
    if (!row) throw new AppError('tableNotFound');
    return this.present(row);
  }

  /** The caller's imports, newest first. */
  async list(user: ServerCallUser, page: number, pageSize: number): Promise<Page<ImportStatus>> {
    const base = this.db.executor()('data_imports').where({ tenant_id: user.tenantId, owner_id: user.id });
    const [{ n }] = (await base.clone().count({ n: '*' })) as [{ n: number | string }];
    const rows = (await base.clone().orderBy([{ column: 'created_at', order: 'desc' }, { column: 'id' }]).offset((page - 1) * pageSize).limit(pageSize)) as ImportRow[];
    return { rows: rows.map((r) => this.present(r)), total: Number(n), page, pageSize };
  }

  /** Waits for an import to end (tests, shutdown). */
  async settled(id?: string): Promise<void> {
    if (id) await this.running.get(id)?.done;
    else await Promise.all([...this.running.values()].map((r) => r.done));
  }

  /** Aborts running imports (they end as failed) and waits for them. */
  async close(): Promise<void> {
    for (const r of this.running.values()) r.abort.abort();
    await this.settled();
  }
}
