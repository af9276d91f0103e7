import fsp from 'node:fs/promises';
import path from 'node:path';
import type { Knex } from 'knex';
import type { DuckDBConnection } from '@duckdb/node-api';
import {
  AppError,
  uploadFileType,
  type ColumnStats,
  type CreateDatasetRequest,
  type Dataset,
  type DatasetColumn,
  type DatasetListRequest,
  type DatasetPreview,
  type DatasetType,
  type ErrorCodeName,
  type FieldKind,
  type FieldSetting,
  type Page,
} from '@decisio/domain';
import type { ServerCallUser } from '@decisio/sdk-plugin/server';
import type { Clock } from '../../clock';
import type { Database } from '../../db/database';
import { newId } from '../../db/ids';
import { assertProjectAccess } from '../projects/access';
import type { BlobOwner, BlobStore } from '../storage/blob-store';
import { chargeStorage, releaseStorage } from '../storage/quota';
import { toDate, type StorageService } from '../storage/service';
import { isNumericType, sqlIdent, sqlString, withDuck } from './duck';
import { environmentUsingDataset, live, lockDatasets } from './in-use';
import { checkCsv, ingestFile } from './ingest';

/** A row of `datasets`. */
export interface DatasetRow {
  id: string;
  tenant_id: string;
  user_id: string;
  project_id: string | null;
  name: string;
  type: DatasetType;
  file_type: 'csv' | 'npz' | 'h5' | 'sql';
  file_name: string;
  delimiter: string | null;
  source_file_id: string | null;
  blob_key: string;
  amount: number | string;
  size: number | string;
  columnar_size: number | string;
  columns: string;
  status: string;
  /** Raised by `table/revokeAccessKeys`: access keys issued under an older epoch stop reading. */
  access_epoch?: number | string;
  created_at: unknown;
  updated_at: unknown;
}

/** A guard's refusal: an error name (e.g. `tableInUse`), with details naming what uses the dataset. */
export type DatasetUseRefusal = ErrorCodeName | { name: ErrorCodeName; details: Record<string, string> };

/**
 * Checks other modules add before a dataset is deleted (a solution's data access, a training,
 * a deduction using it): return an error name (e.g. `tableInUse`), or one with details, to refuse.
 */
export type DatasetUseGuard = (
  deps: { knex: Knex; blobs: BlobStore },
  dataset: { id: string; tenantId: string; projectId: string | null },
) => Promise<DatasetUseRefusal | null>;
export const datasetUseGuards: DatasetUseGuard[] = [
  // A solution's data access (table correlation) naming the dataset: ids are unique 32-hex strings
  // (a deleted solution's, or a deleted project's, no longer counts).
  async ({ knex }, dataset) => {
    const used = await live(knex('modelling_patterns'), 'modelling_patterns').where({ tenant_id: dataset.tenantId }).where('correlation', 'like', `%${dataset.id}%`).first('solution_id');
    return used ? 'tableInUse' : null;
  },
  // A stored environment whose update appended the dataset's rows (it reads them each time it is loaded).
  async ({ knex, blobs }, dataset) => {
    const env = await environmentUsingDataset(knex, blobs, dataset);
    return env ? { name: 'tableInUse', details: { environment: env.name } } : null;
  },
];

/** Default field settings of a column from its DuckDB type. */
export function defaultColumn(name: string, type: string): DatasetColumn {
  const t = type.toUpperCase();
  let kind: FieldKind = 'string';
  if (/^(TINYINT|SMALLINT|INTEGER|BIGINT|HUGEINT|UTINYINT|USMALLINT|UINTEGER|UBIGINT|UHUGEINT)$/.test(t)) kind = 'int';
  else if (isNumericType(t)) kind = 'float';
  else if (/^(DATE|TIMESTAMP.*|TIME.*)$/.test(t)) kind = 'datetime';
  else if (t === 'BOOLEAN') kind = 'bool';
  return {
    name,
    type,
    kind,
    dataType: kind === 'int' || kind === 'float' || kind === 'datetime' ? 'continuous' : 'category',
    min: null,
    max: null,
    discreteNumber: null,
    values: null,
    hidden: false,
  };
}

/** A DuckDB value as JSON: bigints as numbers (strings beyond 2^53), dates as ISO text. */
export function jsonCell(v: unknown): number | string | boolean | null {
  if (v === null || v === undefined) return null;
  if (typeof v === 'number') return Number.isFinite(v) ? v : String(v);
  if (typeof v === 'boolean' || typeof v === 'string') return v;
  if (typeof v === 'bigint') return Number.isSafeInteger(Number(v)) ? Number(v) : v.toString();
  if (v instanceof Date) return Number.isNaN(v.getTime()) ? null : v.toISOString();
  return String(v);
}

function iso(v: unknown): string {
  return toDate(v)?.toISOString() ?? '';
}

/** Datasets and tables: creation from an upload (DuckDB ingest), list, preview, field settings, delete. */
export class DatasetsService {
  constructor(
    private readonly db: Database,
    private readonly blobs: BlobStore,
    private readonly clock: Clock,
    private readonly storage: StorageService,
  ) {}

  private get knex() {
    return this.db.executor();
  }

  /** Creates a dataset from a completed upload: checks, ingest into Parquet, quota, then the row. */
  async create(user: ServerCallUser, input: CreateDatasetRequest): Promise<Dataset> {
    const owner: BlobOwner = { tenantId: user.tenantId, userId: user.id };
    const file = await this.storage.fileRow(owner, input.fileId);
    if (file.kind !== 'upload') throw new AppError('tableFileFormatError', { fileId: 'not an uploaded file' });
    const fileType = uploadFileType(file.name);
    if (!fileType) throw new AppError('tableFileFormatError', { fileId: 'csv, npz or h5 only' });
    const used = await this.knex('datasets').where({ source_file_id: file.id }).first('id');
    if (used) throw new AppError('tableInUse');

    const id = newId();
    const tmp = `${this.blobs.tempPathOf(`u/${owner.userId}/ds/${id}.parquet`)}.parquet`;
    try {
      if (input.projectId) await assertProjectAccess(this.knex, user, input.projectId, 'edit');
      await this.assertNameFree(owner, input.name);
      await fsp.mkdir(path.dirname(tmp), { recursive: true });
      const result = await ingestFile(this.blobs.pathOf(file.blob_key), fileType, tmp);
      await this.adoptParquet(owner, tmp, {
        id,
        name: input.name,
        type: input.type,
        fileType,
        fileName: file.name,
        delimiter: result.delimiter,
        sourceFileId: file.id,
        size: file.size,
        projectId: input.projectId ?? null,
      });
    } catch (err) {
      // a taken name keeps the file: the caller may name the dataset again with the same upload
      // (the template service does; the upload dialog checks the name before it uploads)
      if (err instanceof AppError && err.codeName !== 'tableNameUsed') await this.discardDatasetUpload(owner, file);
      throw err;
    } finally {
      await fsp.rm(tmp, { force: true });
    }
    return this.get(user, id);
  }

  /**
   * A file uploaded to become a dataset (`purpose: 'dataset'`) whose `table/create` was refused
   * (no right on the project, unreadable content, no space; not a taken name): it is deleted and its
   * space freed, as a refused dataset upload is when it completes, so that each try does not
   * leave one more copy counting against the quota. A general upload (`purpose: 'file'`) stays.
   */
  private async discardDatasetUpload(owner: BlobOwner, file: Awaited<ReturnType<StorageService['fileRow']>>): Promise<void> {
    if (!file.upload_id) return;
    const upload = (await this.knex('uploads').where({ id: file.upload_id }).first('purpose')) as { purpose: string } | undefined;
    if (upload?.purpose !== 'dataset') return;
    const used = await this.knex('datasets').where({ source_file_id: file.id }).first('id');
    if (!used) await this.storage.removeFileRow(owner, file);
  }

  /**
   * Registers a Parquet file as a dataset of `owner` (used by `create`, and by imports from
   * database connections with `fileType: 'sql'`): reads its columns and rows, charges its size to
   * the quota and inserts the row in one transaction, then moves the file into the blob store.
   * On failure nothing remains (the caller removes `parquet`). Resolves with the dataset id.
   */
  async adoptParquet(
    owner: BlobOwner,
    parquet: string,
    meta: {
      id?: string;
      name: string;
      type: DatasetType;
      fileType: DatasetRow['file_type'];
      fileName: string;
      delimiter?: string | null;
      sourceFileId?: string | null;
      /** Bytes of the original data (defaults to the Parquet size). */
      size?: number;
      projectId?: string | null;
    },
  ): Promise<string> {
    const id = meta.id ?? newId();
    const key = `u/${owner.userId}/ds/${id}.parquet`;
    const described = await withDuck(async (c) => {
      const from = `read_parquet(${sqlString(parquet)})`;
      const cols = (await c.runAndReadAll(`DESCRIBE SELECT * FROM ${from}`)).getRowObjectsJS().map((r) => ({ name: String(r.column_name), type: String(r.column_type) }));
      const rows = Number((await c.runAndReadAll(`SELECT count(*)::DOUBLE AS n FROM ${from}`)).getRowObjectsJS()[0]!.n);
      return { cols, rows };
    });
    if (described.rows === 0) throw new AppError('datasetEmpty');
    const columnarSize = (await fsp.stat(parquet)).size;
    const columns = await this.withRanges(parquet, described.cols.map((c) => defaultColumn(c.name, c.type)));
    const now = this.clock.now();
    try {
      await this.db.transaction(async () => {
        await this.assertNameFree(owner, meta.name);
        await chargeStorage(this.knex, owner, columnarSize);
        await this.knex('datasets').insert({
          id,
          tenant_id: owner.tenantId,
          user_id: owner.userId,
          project_id: meta.projectId ?? null,
          name: meta.name,
          type: meta.type,
          file_type: meta.fileType,
          file_name: meta.fileName,
          delimiter: meta.delimiter ?? null,
          source_file_id: meta.sourceFileId ?? null,
          blob_key: key,
          amount: described.rows,
          size: meta.size ?? columnarSize,
          columnar_size: columnarSize,
          columns: JSON.stringify(columns),
          status: 'ready',
          created_at: now,
          updated_at: now,
        });
        await this.blobs.adopt(key, parquet);
      });
    } catch (err) {
      // The rename happened but the commit failed: the file must not stay.
      await this.blobs.remove(key);
      throw err;
    }
    return id;
  }

  private async assertNameFree(owner: BlobOwner, name: string): Promise<void> {
    // Case-insensitive on both databases (MariaDB's collation is; SQLite's is not).
    const clash = await this.knex('datasets')
      .where({ tenant_id: owner.tenantId, user_id: owner.userId })
      .whereRaw('lower(name) = ?', [name.toLowerCase()])
      .first('id');
    if (clash) throw new AppError('tableNameUsed');
  }

  /** Fills min/max of numeric columns from the Parquet copy. */
  async withRanges(file: string, columns: DatasetColumn[]): Promise<DatasetColumn[]> {
    const numeric = columns.filter((c) => c.kind === 'int' || c.kind === 'float');
    if (numeric.length === 0) return columns;
    return withDuck(async (c) => {
      const sel = numeric.map((col, i) => `min(${sqlIdent(col.name)})::DOUBLE AS mn${i}, max(${sqlIdent(col.name)})::DOUBLE AS mx${i}`).join(', ');
      const row = (await c.runAndReadAll(`SELECT ${sel} FROM read_parquet(${sqlString(file)})`)).getRowObjectsJS()[0]!;
      numeric.forEach((col, i) => {
        const mn = row[`mn${i}`];
        const mx = row[`mx${i}`];
        col.min = typeof mn === 'number' && Number.isFinite(mn) ? mn : null;
        col.max = typeof mx === 'number' && Number.isFinite(mx) ? mx : null;
      });
      return columns;
    });
  }

  /** A dataset row the user may read (own, or of a project the user may view), else `tableNotFound`. */
  async row(user: ServerCallUser, tableId: string, need: 'view' | 'owner' = 'view'): Promise<DatasetRow> {
    const row = (await this.knex('datasets').where({ id: tableId, tenant_id: user.tenantId }).first()) as DatasetRow | undefined;
    if (!row) throw new AppError('tableNotFound');
    if (row.user_id === user.id) return row;
    if (need === 'view' && row.project_id) {
      try {
        await assertProjectAccess(this.knex, user, row.project_id, 'view');
        return row;
      } catch {
        /* fall through */
      }
    }
    throw new AppError('tableNotFound');
  }

  private async present(row: DatasetRow): Promise<Dataset> {
    const creator = (await this.knex('users').where({ id: row.user_id }).first('username')) as { username: string } | undefined;
    return presentDataset(row, creator?.username ?? null);
  }

  async get(user: ServerCallUser, tableId: string): Promise<Dataset> {
    return this.present(await this.row(user, tableId));
  }

  /** The caller's datasets (or a project's, for its members), newest first. */
  async list(user: ServerCallUser, q: DatasetListRequest): Promise<Page<Dataset>> {
    const base = this.knex('datasets').where({ tenant_id: user.tenantId });
    if (q.projectId) {
      await assertProjectAccess(this.knex, user, q.projectId, 'view');
      base.where({ project_id: q.projectId });
    } else base.where({ user_id: user.id });
    if (q.type) base.where({ type: q.type });
    if (q.keyword) base.whereRaw("lower(name) like ? escape '!'", [`%${q.keyword.toLowerCase().replace(/[!%_]/g, (c) => '!' + c)}%`]);
    const total = (await base.clone().count({ n: '*' }).first()) as { n: number | string };
    const rows = (await base
      .clone()
      .orderBy([{ column: 'created_at', order: 'desc' }, { column: 'id' }])
      .offset((q.page - 1) * q.pageSize)
      .limit(q.pageSize)) as DatasetRow[];
    const users = (await this.knex('users').whereIn('id', [...new Set(rows.map((r) => r.user_id))]).select('id', 'username')) as {
      id: string;
      username: string;
    }[];
    const names = new Map(users.map((u) => [u.id, u.username]));
    return { rows: rows.map((r) => presentDataset(r, names.get(r.user_id) ?? null)), total: Number(total.n), page: q.page, pageSize: q.pageSize };
  }

  /**
   * Deletes a dataset (its creator only), unless a guard says it is in use (`tableInUse`: a
   * solution's data access, or a stored environment that an update trained on it). Its Parquet
   * copy's space is freed. The guards and the delete run in one transaction that first locks
   * the row (`in-use.ts lockDatasets`): an environment update naming the dataset at the same
   * moment either commits first (and the delete is refused) or finds it gone.
   */
  async drop(user: ServerCallUser, tableId: string): Promise<void> {
    const row = await this.db.transaction(async () => {
      await lockDatasets(this.knex, [tableId], { tenantId: user.tenantId });
      const row = await this.row(user, tableId, 'owner');
      for (const guard of datasetUseGuards) {
        const refusal = await guard({ knex: this.knex, blobs: this.blobs }, { id: row.id, tenantId: row.tenant_id, projectId: row.project_id });
        if (typeof refusal === 'string') throw new AppError(refusal);
        if (refusal) throw new AppError(refusal.name, refusal.details);
      }
      await this.knex('datasets').where({ id: row.id }).delete();
      await releaseStorage(this.knex, { tenantId: row.tenant_id, userId: row.user_id }, Number(row.columnar_size));
      return row;
    });
    await this.blobs.remove(row.blob_key);
  }

  /** Sets field settings; a name that is not a column answers `tableFieldsMismatch`. */
  async setFields(user: ServerCallUser, tableId: string, fields: FieldSetting[]): Promise<Dataset> {
    const row = await this.row(user, tableId, 'owner');
    const columns = JSON.parse(row.columns) as DatasetColumn[];
    const unknown = fields.filter((f) => !columns.some((c) => c.name === f.name)).map((f) => f.name);
    if (unknown.length > 0) throw new AppError('tableFieldsMismatch', { fields: unknown.join(', ') });
    for (const f of fields) {
      const col = columns.find((c) => c.name === f.name)!;
      if (f.kind !== undefined) col.kind = f.kind;
      if (f.dataType !== undefined) col.dataType = f.dataType;
      if (f.min !== undefined) col.min = f.min;
      if (f.max !== undefined) col.max = f.max;
      if (f.discreteNumber !== undefined) col.discreteNumber = f.discreteNumber;
      if (f.values !== undefined) col.values = f.values;
      if (f.hidden !== undefined) col.hidden = f.hidden;
      if (col.min != null && col.max != null && !(col.min < col.max)) throw new AppError('paramInvalid', { [`${f.name}.max`]: 'validation.invalid' });
      if (col.dataType === 'category' && col.values != null && col.values.length === 0) {
        throw new AppError('paramInvalid', { [`${f.name}.values`]: 'validation.required' });
      }
    }
    await this.knex('datasets').where({ id: row.id }).update({ columns: JSON.stringify(columns), updated_at: this.clock.now() });
    return this.get(user, tableId);
  }

  /** The FROM clause of a preview: a dataset's Parquet copy or an uploaded csv (checked first). */
  private async source(user: ServerCallUser, ref: { tableId?: string; fileId?: string }): Promise<string> {
    if (ref.tableId) {
      const row = await this.row(user, ref.tableId);
      return `read_parquet(${sqlString(this.blobs.pathOf(row.blob_key))})`;
    }
    const file = await this.storage.fileRow({ tenantId: user.tenantId, userId: user.id }, ref.fileId!);
    if (uploadFileType(file.name) !== 'csv') throw new AppError('tableFileFormatError', { fileId: 'csv only' });
    const p = this.blobs.pathOf(file.blob_key);
    const { header } = await checkCsv(p);
    const names = `[${header.map(sqlString).join(', ')}]`;
    return `read_csv(${sqlString(p)}, delim = ',', quote = '"', escape = '"', header = true, names = ${names}, auto_detect = true)`;
  }

  private async query<T>(fn: (c: DuckDBConnection) => Promise<T>): Promise<T> {
    try {
      return await withDuck(fn);
    } catch (err) {
      if (err instanceof AppError) throw err;
      throw new AppError('tableFileFormatError', { file: (err instanceof Error ? err.message : String(err)).split('\n')[0]!.slice(0, 300) });
    }
  }

  /** Rows `[offset, offset + limit)` with the columns; with `stats`, statistics of every column over all rows. */
  async preview(user: ServerCallUser, ref: { tableId?: string; fileId?: string }, offset: number, limit: number, stats: boolean): Promise<DatasetPreview> {
    const from = await this.source(user, ref);
    return this.query(async (c) => {
      const r = await c.runAndReadAll(`SELECT * FROM ${from} LIMIT ${limit} OFFSET ${offset}`);
      const columns = r.columnNames().map((name, i) => ({ name, type: r.columnTypes()[i]!.toString() }));
      const rows = r.getRowsJS().map((row) => row.map(jsonCell));
      const total = Number((await c.runAndReadAll(`SELECT count(*)::DOUBLE AS n FROM ${from}`)).getRowObjectsJS()[0]!.n);
      const out: DatasetPreview = { columns, rows, total, offset };
      if (stats) out.stats = await columnStats(c, from, columns);
      return out;
    });
  }

  /** Distinct values of a column (at most `limit`), most frequent first. */
  async columnValues(user: ServerCallUser, tableId: string, column: string, limit: number): Promise<{ values: (number | string | boolean | null)[] }> {
    const row = await this.row(user, tableId);
    const columns = JSON.parse(row.columns) as DatasetColumn[];
    if (!columns.some((c) => c.name === column)) throw new AppError('tableFieldsMismatch', { fields: column });
    const from = `read_parquet(${sqlString(this.blobs.pathOf(row.blob_key))})`;
    return this.query(async (c) => {
      const col = sqlIdent(column);
      const r = await c.runAndReadAll(`SELECT ${col} AS v, count(*) AS n FROM ${from} GROUP BY 1 ORDER BY n DESC, 1 LIMIT ${limit}`);
      return { values: r.getRowObjectsJS().map((x) => jsonCell(x.v)) };
    });
  }

  /** The source file of a dataset (for its download address). */
  async sourceFile(user: ServerCallUser, tableId: string): Promise<{ fileId: string; name: string; size: number }> {
    const row = await this.row(user, tableId);
    const file = row.source_file_id
      ? ((await this.knex('storage_files').where({ id: row.source_file_id }).whereNull('deleted_at').first()) as
          | { id: string; name: string; size: number | string; user_id: string }
          | undefined)
      : undefined;
    if (!file) throw new AppError('fileNotFound');
    return { fileId: file.id, name: file.name, size: Number(file.size) };
  }
}

/** Statistics of every column over all rows (count, nulls, distinct, min, max, mean). */
export async function columnStats(c: DuckDBConnection, from: string, columns: { name: string; type: string }[]): Promise<ColumnStats[]> {
  if (columns.length === 0) return [];
  const parts = columns.map((col, i) => {
    const id = sqlIdent(col.name);
    const numeric = isNumericType(col.type);
    return [
      `count(${id})::DOUBLE AS c${i}`,
      `(count(*) - count(${id}))::DOUBLE AS z${i}`,
      `approx_count_distinct(${id})::DOUBLE AS d${i}`,
      numeric ? `min(${id})::DOUBLE AS mn${i}` : `min(${id})::VARCHAR AS mn${i}`,
      numeric ? `max(${id})::DOUBLE AS mx${i}` : `max(${id})::VARCHAR AS mx${i}`,
      numeric ? `avg(${id})::DOUBLE AS av${i}` : `NULL AS av${i}`,
    ].join(', ');
  });
  const row = (await c.runAndReadAll(`SELECT ${parts.join(', ')} FROM ${from}`)).getRowObjectsJS()[0]!;
  return columns.map((col, i) => ({
    name: col.name,
    type: col.type,
    count: Number(row[`c${i}`]),
    nulls: Number(row[`z${i}`]),
    distinct: Number(row[`d${i}`]),
    min: jsonCell(row[`mn${i}`]) as number | string | null,
    max: jsonCell(row[`mx${i}`]) as number | string | null,
    mean: typeof row[`av${i}`] === 'number' ? (row[`av${i}`] as number) : null,
  }));
}

/** A dataset row as the calls show it. */
export function presentDataset(r: DatasetRow, creatorName: string | null): Dataset {
  return {
    tableId: r.id,
    id: r.id,
    datasetId: r.id,
    name: r.name,
    type: r.type,
    fileType: r.file_type,
    fileName: r.file_name,
    delimiter: r.delimiter,
    amount: Number(r.amount),
    size: Number(r.size),
    columns: JSON.parse(r.columns) as DatasetColumn[],
    projectId: r.project_id,
    creatorId: r.user_id,
    creatorName,
    createdAt: iso(r.created_at),
    updatedAt: iso(r.updated_at),
  };
}
