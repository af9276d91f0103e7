/**
 * The `datasets.refresh` scheduled kind: copies again the table or query a dataset was imported
 * from (its latest successful `data_imports` row: connection, schema, table or SQL) and replaces
 * the dataset's rows with the same-columns rule of `table/updateTableFileUrl`
 * (`swapDatasetData`): refused while a stored environment reads the rows (`tableInUse`), or when
 * the source's columns changed (`tableFieldsMismatch`). The run reports rows before and after.
 */
import fs from 'node:fs';
import path from 'node:path';
import { AppError } from '@decisio/domain';
import type { Clock } from '../../clock';
import type { Database } from '../../db/database';
import { SecretBox } from '../../db/secrets';
import { DEFAULT_CONNECT_MS, withRemote } from '../connections/connector';
import { copyToParquet } from '../connections/copy';
import { DEFAULT_IMPORT_MAX_ROWS, DEFAULT_IMPORT_TIMEOUT_MS, connectionTarget, copySourceOf, type ImportConnectionSettings, type ImportRow } from '../connections/job';
import { HostGuard } from '../../net/host-guard';
import type { DatasetRow } from '../datasets/service';
import { DatasetsService } from '../datasets/service';
import { swapDatasetData } from '../datasets/table-ops';
import type { BlobStore } from '../storage/blob-store';
import { StorageService } from '../storage/service';

/** The import a dataset was made by (the newest successful one), or undefined. */
export async function importOfDataset(db: Database, tenantId: string, datasetId: string): Promise<ImportRow | undefined> {
  return (await db
    .executor()('data_imports')
    .where({ tenant_id: tenantId, dataset_id: datasetId, state: 'successful' })
    .orderBy([{ column: 'created_at', order: 'desc' }, { column: 'id', order: 'desc' }])
    .first()) as ImportRow | undefined;
}

/**
 * Checks the parameters of a `datasets.refresh` schedule when it is saved: the dataset is the
 * author's own (others answer `tableNotFound`, as `table/updateTableFileUrl` does) and was made
 * by an import from a data connection (`datasetNotImported`).
 */
export async function checkRefreshParams(db: Database, actor: { id: string; tenantId: string }, datasetId: string): Promise<void> {
  const row = (await db.executor()('datasets').where({ id: datasetId, tenant_id: actor.tenantId }).first('id', 'user_id')) as { id: string; user_id: string } | undefined;
  if (!row || row.user_id !== actor.id) throw new AppError('tableNotFound', { datasetId: 'validation.invalid' });
  if (!(await importOfDataset(db, actor.tenantId, datasetId))) throw new AppError('datasetNotImported', { datasetId: 'validation.invalid' });
}

/** What the refresh needs besides the database and blob store. */
export interface RefreshDeps {
  db: Database;
  blobs: BlobStore;
  clock: Clock;
  /** How outside servers are reached (`CONNECTION_ALLOW` ...); default: public hosts only. */
  connections?: Partial<ImportConnectionSettings>;
}

/** One refresh of `datasetId` in `tenantId`; `log` receives progress lines. */
export async function refreshDataset(
  deps: RefreshDeps,
  tenantId: string,
  datasetId: string,
  opts: { signal: AbortSignal; log: (line: string) => Promise<void> },
): Promise<{ rowsBefore: number; rowsAfter: number; rowsCopied: number }> {
  const { db, blobs, clock } = deps;
  const row = (await db.knex('datasets').where({ id: datasetId, tenant_id: tenantId }).first()) as DatasetRow | undefined;
  if (!row) throw new AppError('tableNotFound');
  const imp = await importOfDataset(db, tenantId, datasetId);
  if (!imp) throw new AppError('datasetNotImported');
  const target = await connectionTarget(db, new SecretBox(db, clock), tenantId, imp.connection_id);
  const source = copySourceOf(imp);
  // Next to the dataset's blobs, as `table/updateTableFileUrl` does (removed whatever happens).
  const tmp = `${blobs.tempPathOf(`u/${row.user_id}/ds/${row.id}`)}.parquet`;
  fs.mkdirSync(path.dirname(tmp), { recursive: true });
  try {
    await opts.log(`Copying ${'sql' in source ? 'a query' : source.schema ? `${source.schema}.${source.table}` : source.table} of ${imp.connection_name} again`);
    const copied = await withRemote(
      target,
      { guard: new HostGuard(deps.connections?.allow ?? []), connectMs: deps.connections?.connectMs ?? DEFAULT_CONNECT_MS, queryMs: DEFAULT_IMPORT_TIMEOUT_MS },
      (knex) => copyToParquet(knex, target.type, source, tmp, { signal: opts.signal, maxRows: deps.connections?.maxRows ?? DEFAULT_IMPORT_MAX_ROWS }),
    );
    if (copied.rows === 0) throw new AppError('datasetEmpty');
    const datasets = new DatasetsService(db, blobs, clock, new StorageService(db, blobs, clock));
    const reread = async () => {
      const again = (await db.executor()('datasets').where({ id: datasetId, tenant_id: tenantId }).first()) as DatasetRow | undefined;
      if (!again) throw new AppError('tableNotFound');
      return again;
    };
    const swapped = await swapDatasetData({ db, blobs, clock, datasets }, row, tmp, { mode: 'replace', reread });
    return { ...swapped, rowsCopied: copied.rows };
  } finally {
    fs.rmSync(tmp, { force: true });
  }
}
