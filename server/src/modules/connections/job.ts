/**
 * The `data.import` job kind: copies a table or a query of a data connection into a new dataset
 * (`metadata/startImport` queues it). It runs wherever the job queue runs handlers: a job thread
 * of the server (embedded mode), a `npm run worker` process (Redis), or the main thread
 * (`jobs.threads: false`). Everything it needs is in the database (the `data_imports` row, the
 * connection with its sealed password) and under the server's `DATA_DIR` (the temporary Parquet
 * file, the blob store the dataset lands in).
 */
import fs from 'node:fs';
import path from 'node:path';
import { AppError, messageOf, type ConnectionType, type ImportState } from '@decisio/domain';
import { systemClock, type Clock } from '../../clock';
import type { Database } from '../../db/database';
import { SecretBox } from '../../db/secrets';
import type { JobContext, JobKind } from '../../jobs/queue';
import { createLogger, type Logger } from '../../logger';
import { HostGuard } from '../../net/host-guard';
import { DatasetsService } from '../datasets/service';
import type { BlobStore } from '../storage/blob-store';
import { StorageService } from '../storage/service';
import { DEFAULT_CONNECT_MS, RemoteConnectError, describeRemoteError, isStatementTimeout, listRemoteTables, withRemote, type RemoteTarget } from './connector';
import { copyToParquet, type CopySource } from './copy';

/** Name of the job kind. */
export const IMPORT_JOB_KIND = 'data.import';

/** Payload of a `data.import` job. */
export interface ImportJobPayload {
  /** The `data_imports` row. */
  importId: string;
  /** Longest copy, ms: then the import fails with `importTimeout`. */
  timeoutMs: number;
}

/** Longest copy unless told otherwise: 30 minutes. */
export const DEFAULT_IMPORT_TIMEOUT_MS = 30 * 60_000;
/** Most rows one import copies unless told otherwise (`IMPORT_MAX_ROWS`). */
export const DEFAULT_IMPORT_MAX_ROWS = 10_000_000;

/** How imports reach outside servers (plain data: it crosses to job threads). */
export interface ImportConnectionSettings {
  /** `CONNECTION_ALLOW` entries (`net/host-guard.ts`). */
  allow: readonly string[];
  /** Connect time limit, ms. */
  connectMs: number;
  /** Row limit of one import: more fails it with `importTooManyRows`. */
  maxRows: number;
}

/** Where partial Parquet files of imports are written (under the server's `DATA_DIR`, next to the blob store). */
export function importTmpDir(dataDir: string): string {
  return path.join(dataDir, 'tmp', 'imports');
}

/** Import states that no longer change. */
export const FINAL_IMPORT_STATES = ['successful', 'failed', 'stopped'] as const;
/** Import states of an import whose job may still run. */
export const ACTIVE_IMPORT_STATES = ['waiting', 'copying'] as const;

/** How often progress is written (rows copied on the import row, progress on the job row), ms. */
const PROGRESS_EVERY_MS = 500;

/** A `data_imports` row as the database holds it (read by the job and by `ImportService`). */
export interface ImportRow {
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
  job_id: string | null;
  created_at: Date | string | number;
  ended_at: Date | string | number | null;
}

/** What an import copies: its table (with schema) or its query. */
export function copySourceOf(row: Pick<ImportRow, 'source_kind' | 'source' | 'source_schema'>): CopySource {
  return row.source_kind === 'sql' ? { sql: row.source } : { table: row.source, ...(row.source_schema ? { schema: row.source_schema } : {}) };
}

/** The outside server of a tenant's data connection, its password opened. @throws AppError `dataSourceNotFound`. */
export async function connectionTarget(db: Database, secrets: SecretBox, tenantId: string, connectionId: string): Promise<RemoteTarget> {
  const conn = (await db.knex('data_connections').where({ id: connectionId, tenant_id: tenantId }).first()) as
    | { type: ConnectionType; url: string; database_name: string; username: string; password_enc: string }
    | undefined;
  if (!conn) throw new AppError('dataSourceNotFound');
  return { type: conn.type, url: conn.url, database: conn.database_name, username: conn.username, password: await secrets.open(conn.password_enc) };
}

/** Removes the partial files earlier attempts of an import left (a crashed thread or worker). */
function removePartials(dir: string, importId: string): void {
  let names: string[] = [];
  try {
    names = fs.readdirSync(dir);
  } catch {
    return;
  }
  for (const n of names) if (n.startsWith(`${importId}-`) && n.endsWith('.parquet')) fs.rmSync(path.join(dir, n), { force: true });
}

/** The end an aborted handler gives the import: a stop request, or the worker being halted. */
async function stopRequested(db: Database, jobId: string): Promise<boolean> {
  try {
    const row = (await db.knex('jobs').where('id', jobId).first('state')) as { state: string } | undefined;
    return row?.state === 'stopping' || row?.state === 'successful by manual stop';
  } catch {
    // The database is going away with the worker: a halt, the job is restored elsewhere.
    return false;
  }
}

/**
 * The job kind. `tmpDir` must be the server's (`importTmpDir(DATA_DIR)`); `blobs` the server's
 * blob store. Each attempt copies from the start (a copy cannot resume mid-stream): an attempt
 * after a lost worker removes the partial file of the earlier one first.
 */
export function importJobKind(deps: {
  db: Database;
  blobs: BlobStore;
  tmpDir: string;
  clock?: Clock;
  /** Default: only public hosts, 5 s to connect, `DEFAULT_IMPORT_MAX_ROWS`. */
  connections?: Partial<ImportConnectionSettings>;
  /** Where the drivers' reasons of failures go (users only see the catalogue's message). */
  logger?: Logger;
}): JobKind<ImportJobPayload> {
  const clock = deps.clock ?? systemClock;
  const { db } = deps;
  const guard = new HostGuard(deps.connections?.allow ?? []);
  const connectMs = deps.connections?.connectMs ?? DEFAULT_CONNECT_MS;
  const maxRows = deps.connections?.maxRows ?? DEFAULT_IMPORT_MAX_ROWS;
  const logger = deps.logger ?? createLogger('warn');
  let datasets: DatasetsService | null = null;
  let secrets: SecretBox | null = null;

  /** Writes the import row while it is still in progress (never over a final state). */
  const update = (id: string, patch: Record<string, unknown>) =>
    db
      .knex('data_imports')
      .where('id', id)
      .whereIn('state', [...ACTIVE_IMPORT_STATES])
      .update({ ...patch, updated_at: clock.now() });

  return {
    kind: IMPORT_JOB_KIND,
    description: 'Copies a table or a query of a data connection into a new dataset',
    async run(ctx: JobContext<ImportJobPayload>) {
      const { importId } = ctx.payload;
      const row = (await db.knex('data_imports').where({ id: importId, tenant_id: ctx.tenantId }).first()) as ImportRow | undefined;
      if (!row) throw new Error(`Import ${importId} not found`);
      if (!(ACTIVE_IMPORT_STATES as readonly string[]).includes(row.state)) {
        await ctx.log(`The import is already ${row.state}`);
        return;
      }
      datasets ??= new DatasetsService(db, deps.blobs, clock, new StorageService(db, deps.blobs, clock));
      secrets ??= new SecretBox(db, clock);
      fs.mkdirSync(deps.tmpDir, { recursive: true });
      removePartials(deps.tmpDir, importId);
      const tmp = path.join(deps.tmpDir, `${importId}-${ctx.attempt}.parquet`);
      const timeout = new AbortController();
      const timer = setTimeout(() => timeout.abort(), Math.max(1, ctx.payload.timeoutMs || DEFAULT_IMPORT_TIMEOUT_MS));
      timer.unref?.();
      const signal = AbortSignal.any([ctx.signal, timeout.signal]);
      const source = copySourceOf(row);
      let target: RemoteTarget | null = null;
      try {
        await update(importId, { state: 'copying', rows_copied: 0, job_id: ctx.jobId });
        if (ctx.attempt > 1) await ctx.log(`Copying again from the start (attempt ${ctx.attempt})`);
        target = await connectionTarget(db, secrets, ctx.tenantId, row.connection_id);
        const remote = target;
        let expected: number | null = null;
        let lastWrite = 0;
        // The outside server limits the import's statements to the import's own time limit too.
        const timeoutMs = Math.max(1, ctx.payload.timeoutMs || DEFAULT_IMPORT_TIMEOUT_MS);
        const copied = await withRemote(remote, { guard, connectMs, queryMs: timeoutMs }, async (knex) => {
          if ('table' in source) {
            const est = (await listRemoteTables(knex, remote.type)).find((t) => t.name === source.table && (!source.schema || t.schema === source.schema));
            if (est?.estimatedRows != null) {
              expected = est.estimatedRows;
              await update(importId, { rows_expected: expected });
            }
          }
          await ctx.log(`Copying ${'sql' in source ? 'a query' : source.schema ? `${source.schema}.${source.table}` : source.table} of ${row.connection_name}`);
          return copyToParquet(knex, remote.type, source, tmp, {
            signal,
            maxRows,
            onProgress: async (rows) => {
              const now = Date.now();
              if (now - lastWrite < PROGRESS_EVERY_MS) return;
              lastWrite = now;
              await update(importId, { state: 'copying', rows_copied: rows });
              await ctx.reportMetrics(expected ? Math.min(0.99, rows / Math.max(1, expected)) : 0, { rowsCopied: rows });
            },
          });
        });
        if (signal.aborted) throw new AppError('importTimeout');
        await ctx.log(`Copied ${copied.rows} rows; making the dataset`);
        const datasetId = await datasets.adoptParquet({ tenantId: row.tenant_id, userId: row.owner_id }, tmp, {
          name: row.name,
          type: row.dataset_type as 'business',
          fileType: 'sql',
          fileName: `${row.connection_name}: ${'sql' in source ? 'query' : source.schema ? `${source.schema}.${source.table}` : source.table}`.slice(0, 200),
          projectId: row.project_id,
        });
        await update(importId, { state: 'successful', rows_copied: copied.rows, dataset_id: datasetId, ended_at: clock.now() });
        await ctx.reportMetrics(1, { rowsCopied: copied.rows });
        await ctx.log(`Dataset ${datasetId} made`);
      } catch (err) {
        if (ctx.signal.aborted) {
          if (await stopRequested(db, ctx.jobId)) {
            // The queue's stop: the job ends `successful by manual stop`, the import `stopped`.
            await update(importId, { state: 'stopped', ended_at: clock.now() });
            await ctx.log('Stopped on request; no dataset was made');
            return;
          }
          // The worker is halted (shutdown, lost): the queue restores the job, which copies again.
          throw err;
        }
        const app =
          err instanceof AppError
            ? err
            : timeout.signal.aborted || isStatementTimeout(err)
              ? new AppError('importTimeout')
              : err instanceof RemoteConnectError
                ? new AppError('dataSourceUnreachable')
                : new AppError('importFailed');
        const code = app.codeName;
        // The driver's text stays in the server's log: the import and its job say only what failed.
        if (!(err instanceof AppError)) logger.warn('data connection: import failed', { importId, jobId: ctx.jobId, code, reason: describeRemoteError(err, target ?? undefined) });
        const detail = [messageOf(app.codeName, 'en-US'), ...Object.values(app.details ?? {})].filter(Boolean).join(': ');
        await update(importId, { state: 'failed', error_code: code, error: detail.slice(0, 2000), ended_at: clock.now() });
        throw new Error(detail, { cause: err });
      } finally {
        clearTimeout(timer);
        fs.rmSync(tmp, { force: true });
      }
    },
  };
}
