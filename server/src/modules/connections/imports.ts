import { AppError, type ImportStatus, type Page, type StartImportRequest } from '@decisio/domain';
import type { ServerCallUser } from '@decisio/sdk-plugin/server';
import type { Clock } from '../../clock';
import type { Database } from '../../db/database';
import { newId } from '../../db/ids';
import type { Logger } from '../../logger';
import { JobNotStoppableError, type JobQueue } from '../../jobs/queue';
import { checkQuery, type CopySource } from './copy';
import { ACTIVE_IMPORT_STATES, DEFAULT_IMPORT_TIMEOUT_MS, FINAL_IMPORT_STATES, IMPORT_JOB_KIND, type ImportJobPayload, type ImportRow } from './job';
import { isTenantAdmin, type ConnectionsService } from './service';

const iso = (d: Date | string | number) =>
  new Date(typeof d === 'string' && !/^\d+$/.test(d) ? d.replace(' ', 'T') + (d.endsWith('Z') ? '' : 'Z') : Number(d instanceof Date ? d.getTime() : d)).toISOString();

const isActive = (state: string) => (ACTIVE_IMPORT_STATES as readonly string[]).includes(state);

/** An import without a job this long after it was made lost its job (the server died queueing it). */
const UNQUEUED_GRACE_MS = 60_000;

/** Options of the importer. */
export interface ImportOptions {
  /** Longest copy, ms (default 30 minutes): then the import fails with `importTimeout`. */
  timeoutMs?: number;
  /** Checks the caller may put a dataset into a project (edit right). */
  assertProject?: (user: ServerCallUser, projectId: string) => Promise<void>;
  /** How long `stop` waits for the job to end before it answers, ms (default 5 s). */
  stopWaitMs?: number;
}

/**
 * Imports from data connections (`metadata/startImport`, `getCopyStatusByTableId`,
 * `getImportList`, `stopImport`). Each import is a `data_imports` row and a `data.import` job
 * (`job.ts`) of the job queue, which copies to a temporary Parquet file and only then makes the
 * dataset (`DatasetsService.adoptParquet`, which also charges the storage quota), so a failed,
 * stopped or timed-out import leaves no dataset. The job writes the row as it goes; the job's own
 * state settles what it could not write (a worker lost for good, a stop before it started): the
 * row is read together with its job and brought in line (`settle`).
 */
export class ImportService {
  constructor(
    private readonly db: Database,
    private readonly clock: Clock,
    private readonly connections: ConnectionsService,
    private readonly jobs: JobQueue,
    private readonly logger: Logger,
    private readonly options: ImportOptions = {},
  ) {}

  /** Settles every import still `waiting`/`copying` whose job ended (or that never got one); resolves with how many. */
  async recover(): Promise<number> {
    const rows = (await this.db.knex('data_imports').whereIn('state', [...ACTIVE_IMPORT_STATES])) as ImportRow[];
    const before = rows.map((r) => r.state);
    const after = await this.settle(rows);
    return after.filter((r, i) => r.state !== before[i]).length;
  }

  async start(user: ServerCallUser, input: StartImportRequest & { type: string }): Promise<ImportStatus> {
    if (input.projectId) await this.options.assertProject?.(user, input.projectId);
    const target = await this.connections.target(user, input.connectionId);
    const source: CopySource = input.sql ? { sql: checkQuery(input.sql) } : { table: input.table!, ...(input.schema ? { schema: input.schema } : {}) };
    const id = newId();
    const now = this.clock.now();
    // The row first: the job reads it, and may start before `enqueue` returns.
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
    const payload: ImportJobPayload = { importId: id, timeoutMs: this.options.timeoutMs ?? DEFAULT_IMPORT_TIMEOUT_MS };
    try {
      const job = await this.jobs.enqueue(IMPORT_JOB_KIND, payload, { tenantId: user.tenantId, userId: user.id, name: `import ${input.name}` });
      await this.db.knex('data_imports').where('id', id).update({ job_id: job.id });
    } catch (err) {
      this.logger.error('import could not be queued', { importId: id, err });
      await this.db
        .knex('data_imports')
        .where('id', id)
        .update({ state: 'failed', error_code: 'importFailed', error: 'The import could not be queued', ended_at: this.clock.now(), updated_at: this.clock.now() });
      throw new AppError('importFailed');
    }
    return this.status(user, id);
  }

  /**
   * Brings rows still `waiting`/`copying` in line with their jobs: a job that ended `failure`
   * (its worker was lost for good, or it failed before it could write) fails the import with
   * the job's reason; one stopped before it ran stops it; a job the queue took back (`waiting`,
   * `restoring`) shows the import `waiting` until another worker copies again. Returns the rows
   * as they now are.
   */
  private async settle(rows: ImportRow[]): Promise<ImportRow[]> {
    const open = rows.filter((r) => isActive(r.state));
    if (open.length === 0) return rows;
    const jobIds = open.map((r) => r.job_id).filter((x): x is string => !!x);
    const jobs = new Map<string, { state: string; error: string | null }>();
    if (jobIds.length) {
      for (const j of (await this.db.knex('jobs').whereIn('id', jobIds).select('id', 'state', 'error')) as { id: string; state: string; error: string | null }[]) {
        jobs.set(j.id, { state: j.state, error: j.error });
      }
    }
    const now = this.clock.now();
    const out: ImportRow[] = [];
    for (const r of rows) {
      if (!isActive(r.state)) {
        out.push(r);
        continue;
      }
      const job = r.job_id ? jobs.get(r.job_id) : undefined;
      let end: Partial<ImportRow> | null = null;
      if (!r.job_id) {
        // Made by a server that died before queueing it (or by the earlier in-process importer).
        if (now.getTime() - new Date(iso(r.created_at)).getTime() > UNQUEUED_GRACE_MS) end = { state: 'failed', error_code: 'importFailed', error: 'interrupted by a server restart' };
      } else if (!job) end = { state: 'failed', error_code: 'importFailed', error: 'The job of the import no longer exists' };
      else if (job.state === 'failure') end = { state: 'failed', error_code: 'importFailed', error: (job.error ?? 'The job of the import failed').slice(0, 2000) };
      else if (job.state === 'successful by manual stop') end = { state: 'stopped' };
      else if (job.state === 'successful') end = { state: 'failed', error_code: 'importFailed', error: 'The job of the import ended without a dataset' };
      else if ((job.state === 'waiting' || job.state === 'restoring') && r.state === 'copying') {
        out.push({ ...r, state: 'waiting' });
        continue;
      }
      if (!end) {
        out.push(r);
        continue;
      }
      const n = await this.db
        .knex('data_imports')
        .where('id', r.id)
        .whereIn('state', [...ACTIVE_IMPORT_STATES])
        .update({ ...end, ended_at: now, updated_at: now });
      if (n === 0) {
        // The job wrote its own end in between: read it.
        const fresh = (await this.db.knex('data_imports').where('id', r.id).first()) as ImportRow | undefined;
        out.push(fresh ?? r);
      } else out.push({ ...r, ...end, ended_at: now } as ImportRow);
    }
    return out;
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
      jobId: r.job_id,
    };
  }

  /** The import row if the caller may see it: their own, or any of the tenant for tenant admins. */
  private async visibleRow(user: ServerCallUser, id: string): Promise<ImportRow | undefined> {
    const q = this.db.knex('data_imports').where({ id, tenant_id: user.tenantId });
    if (!isTenantAdmin(user)) q.andWhere('owner_id', user.id);
    return (await q.first()) as ImportRow | undefined;
  }

  /** One import of the caller (tenant admins: of the tenant). */
  async status(user: ServerCallUser, id: string): Promise<ImportStatus> {
    const row = await this.visibleRow(user, id);
    if (!row) throw new AppError('tableNotFound');
    const [settled] = await this.settle([row]);
    return this.present(settled!);
  }

  /** The caller's imports, newest first. */
  async list(user: ServerCallUser, page: number, pageSize: number): Promise<Page<ImportStatus>> {
    const base = this.db.knex('data_imports').where({ tenant_id: user.tenantId, owner_id: user.id });
    const [{ n }] = (await base.clone().count({ n: '*' })) as [{ n: number | string }];
    const rows = (await base.clone().orderBy([{ column: 'created_at', order: 'desc' }, { column: 'id' }]).offset((page - 1) * pageSize).limit(pageSize)) as ImportRow[];
    return { rows: (await this.settle(rows)).map((r) => this.present(r)), total: Number(n), page, pageSize };
  }

  /**
   * `metadata/stopImport`: stops the import's job (the queue's stop). The import ends `stopped`:
   * its handler removes the partial file and makes no dataset, so nothing is charged. Allowed to
   * the import's owner, tenant admins, and users with the edit right on the import's project.
   * Waits a moment for the job to end, then answers the import as it is.
   *
   * @throws AppError `tableNotFound` when the caller may not see the import, `projectNoRight`
   *   without the edit right on its project, `importNotRunning` when it is no longer running.
   */
  async stop(user: ServerCallUser, id: string): Promise<ImportStatus> {
    let row = (await this.db.knex('data_imports').where({ id, tenant_id: user.tenantId }).first()) as ImportRow | undefined;
    if (!row) throw new AppError('tableNotFound');
    if (row.owner_id !== user.id && !isTenantAdmin(user)) {
      if (!row.project_id || !this.options.assertProject) throw new AppError('tableNotFound');
      await this.options.assertProject(user, row.project_id);
    }
    [row] = (await this.settle([row])) as [ImportRow];
    if (!isActive(row.state) || !row.job_id) throw new AppError('importNotRunning');
    let job;
    try {
      job = await this.jobs.stop(row.job_id, { tenantId: user.tenantId });
    } catch (err) {
      if (err instanceof JobNotStoppableError) throw new AppError('importNotRunning');
      throw err;
    }
    if (job.state === 'successful by manual stop') {
      // Stopped before a worker took it: nothing ran, nothing to clean.
      await this.settle([row]);
    } else {
      const until = Date.now() + (this.options.stopWaitMs ?? 5000);
      while (Date.now() < until) {
        const now = (await this.db.knex('data_imports').where('id', id).first('state')) as { state: string } | undefined;
        if (!now || !isActive(now.state)) break;
        await new Promise((r) => setTimeout(r, 100));
      }
    }
    return this.present(((await this.db.knex('data_imports').where('id', id).first()) as ImportRow | undefined) ?? row);
  }

  /** Waits for an import to end (tests): polls its row, settling it with its job. */
  async settled(id: string, timeoutMs = 120_000): Promise<ImportStatus> {
    const until = Date.now() + timeoutMs;
    for (;;) {
      const row = (await this.db.knex('data_imports').where('id', id).first()) as ImportRow | undefined;
      if (!row) throw new AppError('tableNotFound');
      const [now] = await this.settle([row]);
      if ((FINAL_IMPORT_STATES as readonly string[]).includes(now!.state)) return this.present(now!);
      if (Date.now() > until) throw new Error(`Import ${id} still ${now!.state} after ${timeoutMs} ms`);
      await new Promise((r) => setTimeout(r, 100));
    }
  }
}
