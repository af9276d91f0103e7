import { randomBytes } from 'node:crypto';
import fsp from 'node:fs/promises';
import path from 'node:path';
import {
  AppError,
  uploadFileType,
  type Dataset,
  type DatasetColumn,
  type DatasetPreview,
  type FilterCondition,
  type TableAccessKey,
  type TableFilterRequest,
} from '@decisio/domain';
import type { ServerCallUser } from '@decisio/sdk-plugin/server';
import type { Clock } from '../../clock';
import type { Database } from '../../db/database';
import type { SecretBox } from '../../db/secrets';
import type { BlobStore } from '../storage/blob-store';
import { chargeStorage, releaseStorage } from '../storage/quota';
import type { StorageService } from '../storage/service';
import { isNumericType, sqlIdent, sqlString, withDuck } from './duck';
import { environmentUsingDataset, lockDatasets } from './in-use';
import { ingestFile } from './ingest';
import { defaultColumn, jsonCell, type DatasetRow, type DatasetsService } from './service';

/**
 * `table/filter`, `table/getAccessKey`, `table/append` and `table/updateTableFileUrl`: reading a
 * dataset's rows by conditions, a signed key that reads it without signing in, and changing its
 * data with another upload (same columns). `table/copyTableToDataSource` is in `copy-out.ts`.
 */

/** What an access key holds (sealed with the server's secret key, so it cannot be forged or read). */
interface AccessClaims {
  t: string;
  n: string;
  e: number;
  /** The dataset's `access_epoch` when issued (absent: 0); a revocation raises the epoch. */
  v?: number;
}

const ACCESS_PREFIX = 'tak1.';

function duckMessage(err: unknown): string {
  return (err instanceof Error ? err.message : String(err)).split('\n')[0]!.slice(0, 300);
}

/** A literal of `value` for a column of DuckDB type `type`, or `paramInvalid` naming the field. */
function literal(field: string, type: string, value: number | string | boolean): string {
  if (isNumericType(type)) {
    const n = typeof value === 'number' ? value : typeof value === 'string' && value.trim() !== '' ? Number(value) : NaN;
    if (!Number.isFinite(n)) throw new AppError('paramInvalid', { [field]: 'validation.invalid' }, `"${field}" holds numbers`);
    return String(n);
  }
  if (typeof value === 'boolean') return value ? 'true' : 'false';
  return sqlString(String(value));
}

/** The SQL of one condition; `field` has been checked to be a column of type `type`. */
export function conditionSql(c: FilterCondition, type: string): string {
  const col = sqlIdent(c.field);
  switch (c.op) {
    case 'isNull':
      return `${col} IS NULL`;
    case 'notNull':
      return `${col} IS NOT NULL`;
    case 'contains':
      return `contains(lower(CAST(${col} AS VARCHAR)), ${sqlString(String(c.value).toLowerCase())})`;
    case 'in':
      return `${col} IN (${(c.value as (number | string | boolean)[]).map((v) => literal(c.field, type, v)).join(', ')})`;
    default: {
      const op = { eq: '=', ne: '<>', lt: '<', le: '<=', gt: '>', ge: '>=' }[c.op];
      return `${col} ${op} ${literal(c.field, type, c.value as number | string | boolean)}`;
    }
  }
}

/** The columns of `incoming` must be those of `current` (any order), with numbers staying numbers. */
export function checkSameColumns(current: readonly DatasetColumn[], incoming: readonly { name: string; type: string }[]): void {
  const have = new Map(current.map((c) => [c.name, c]));
  const got = new Map(incoming.map((c) => [c.name, c]));
  const missing = current.filter((c) => !got.has(c.name)).map((c) => c.name);
  const extra = incoming.filter((c) => !have.has(c.name)).map((c) => c.name);
  const changed = incoming
    .filter((c) => have.has(c.name))
    .filter((c) => isNumericType(c.type) !== isNumericType(have.get(c.name)!.type))
    .map((c) => c.name);
  if (missing.length + extra.length + changed.length === 0) return;
  const details: Record<string, string> = {};
  if (missing.length) details.missing = missing.join(', ');
  if (extra.length) details.extra = extra.join(', ');
  if (changed.length) details.types = changed.join(', ');
  throw new AppError('tableFieldsMismatch', details);
}

export class TableOps {
  constructor(
    private readonly db: Database,
    private readonly blobs: BlobStore,
    private readonly clock: Clock,
    private readonly datasets: DatasetsService,
    private readonly storage: StorageService,
    private readonly secrets: SecretBox,
  ) {}

  private get knex() {
    return this.db.executor();
  }

  private parquetOf(row: DatasetRow): string {
    return `read_parquet(${sqlString(this.blobs.pathOf(row.blob_key))})`;
  }

  /** Rows of a dataset matching every condition, `[offset, offset + limit)`, with the matching total. */
  async filter(user: ServerCallUser, q: TableFilterRequest): Promise<DatasetPreview> {
    const row = await this.datasets.row(user, q.tableId);
    const columns = JSON.parse(row.columns) as DatasetColumn[];
    const typeOf = new Map(columns.map((c) => [c.name, c.type]));
    const unknown = [...q.conditions.map((c) => c.field), ...(q.columns ?? []), ...(q.orderBy ? [q.orderBy.field] : [])].filter((f) => !typeOf.has(f));
    if (unknown.length > 0) throw new AppError('tableFieldsMismatch', { fields: [...new Set(unknown)].join(', ') });
    const where = q.conditions.length ? `WHERE ${q.conditions.map((c) => conditionSql(c, typeOf.get(c.field)!)).join(' AND ')}` : '';
    const select = q.columns ? q.columns.map(sqlIdent).join(', ') : '*';
    const order = q.orderBy ? `ORDER BY ${sqlIdent(q.orderBy.field)} ${q.orderBy.desc ? 'DESC' : 'ASC'} NULLS LAST` : '';
    const from = this.parquetOf(row);
    try {
      return await withDuck(async (c) => {
        const r = await c.runAndReadAll(`SELECT ${select} FROM ${from} ${where} ${order} LIMIT ${q.limit} OFFSET ${q.offset}`);
        const cols = r.columnNames().map((name, i) => ({ name, type: r.columnTypes()[i]!.toString() }));
        const rows = r.getRowsJS().map((x) => x.map(jsonCell));
        const total = Number((await c.runAndReadAll(`SELECT count(*)::DOUBLE AS n FROM ${from} ${where}`)).getRowObjectsJS()[0]!.n);
        return { columns: cols, rows, total, offset: q.offset };
      });
    } catch (err) {
      if (err instanceof AppError) throw err;
      // A comparison DuckDB cannot make (e.g. text that is not a date against a date column).
      throw new AppError('paramInvalid', { conditions: duckMessage(err) });
    }
  }

  /** A key reading the dataset for `ttlSeconds` without signing in (whoever holds it reads the data). */
  async accessKey(user: ServerCallUser, tableId: string, ttlSeconds: number): Promise<TableAccessKey> {
    const row = await this.datasets.row(user, tableId);
    const expires = this.clock.now().getTime() + ttlSeconds * 1000;
    const claims: AccessClaims = { t: row.id, n: row.tenant_id, e: expires, v: Number(row.access_epoch ?? 0) };
    const sealed = await this.secrets.seal(JSON.stringify(claims));
    const accessKey = ACCESS_PREFIX + Buffer.from(sealed, 'utf8').toString('base64url');
    const url = `/api/table/data?accessKey=${encodeURIComponent(accessKey)}`;
    return { accessKey, url, csvUrl: `${url}&format=csv`, expiresAt: new Date(expires).toISOString() };
  }

  /** The dataset an access key opens, or `accessKeyFailed` (unknown, forged or expired key; deleted dataset). */
  async byAccessKey(accessKey: string): Promise<DatasetRow> {
    let claims: AccessClaims;
    try {
      if (!accessKey.startsWith(ACCESS_PREFIX)) throw new Error('prefix');
      claims = JSON.parse(await this.secrets.open(Buffer.from(accessKey.slice(ACCESS_PREFIX.length), 'base64url').toString('utf8'))) as AccessClaims;
    } catch {
      throw new AppError('accessKeyFailed');
    }
    if (!(claims.e > this.clock.now().getTime())) throw new AppError('accessKeyFailed', { accessKey: 'expired' });
    const row = (await this.knex('datasets').where({ id: claims.t, tenant_id: claims.n }).first()) as DatasetRow | undefined;
    if (!row) throw new AppError('accessKeyFailed');
    if (Number(row.access_epoch ?? 0) !== (claims.v ?? 0)) throw new AppError('accessKeyFailed', { accessKey: 'revoked' });
    return row;
  }

  /** Every access key of the dataset issued so far stops reading (owner only). */
  async revokeAccessKeys(user: ServerCallUser, tableId: string): Promise<{ tableId: string; revokedAt: string }> {
    const row = await this.datasets.row(user, tableId, 'owner');
    await this.knex('datasets').where({ id: row.id }).increment('access_epoch', 1);
    return { tableId: row.id, revokedAt: this.clock.now().toISOString() };
  }

  /** Writes a dataset as csv into `out` (the Parquet copy is sent as is). */
  async writeCsv(row: DatasetRow, out: string): Promise<void> {
    await withDuck(async (c) => {
      await c.run(`COPY (SELECT * FROM ${this.parquetOf(row)}) TO ${sqlString(out)} (FORMAT csv, HEADER true)`);
    });
  }

  /** Ingests an upload of the caller into a temporary Parquet file; the caller removes it. */
  private async ingestUpload(user: ServerCallUser, fileId: string, tmp: string) {
    const file = await this.storage.fileRow({ tenantId: user.tenantId, userId: user.id }, fileId);
    if (file.kind !== 'upload') throw new AppError('tableFileFormatError', { fileId: 'not an uploaded file' });
    const fileType = uploadFileType(file.name);
    if (!fileType) throw new AppError('tableFileFormatError', { fileId: 'csv, npz or h5 only' });
    const result = await ingestFile(this.blobs.pathOf(file.blob_key), fileType, tmp);
    return { file, fileType, result };
  }

  private tmpPath(row: DatasetRow): string {
    return `${this.blobs.tempPathOf(`u/${row.user_id}/ds/${row.id}-${randomBytes(6).toString('hex')}`)}.parquet`;
  }

  /**
   * Adds the rows of another upload (same columns) to a dataset. Column settings stay; numeric
   * ranges widen to the new rows. Refused (`tableInUse`) while a stored environment reads the
   * dataset's rows again each time it loads (an environment update appended it).
   */
  async append(user: ServerCallUser, tableId: string, fileId: string): Promise<Dataset> {
    return this.replaceData(user, tableId, fileId, 'append');
  }

  /** Replaces a dataset's data by another upload with the same columns (its source file becomes that upload). */
  async updateFile(user: ServerCallUser, tableId: string, fileId: string): Promise<Dataset> {
    return this.replaceData(user, tableId, fileId, 'replace');
  }

  private async replaceData(user: ServerCallUser, tableId: string, fileId: string, mode: 'append' | 'replace'): Promise<Dataset> {
    const before = await this.datasets.row(user, tableId, 'owner');
    if (mode === 'replace' && before.source_file_id !== fileId) {
      const used = await this.knex('datasets').where({ source_file_id: fileId }).first('id');
      if (used) throw new AppError('tableInUse', { fileId: 'another dataset was made from this file' });
    }
    const incoming = this.tmpPath(before);
    await fsp.mkdir(path.dirname(incoming), { recursive: true });
    try {
      const { file, fileType, result } = await this.ingestUpload(user, fileId, incoming);
      await swapDatasetData(
        { db: this.db, blobs: this.blobs, clock: this.clock, datasets: this.datasets },
        before,
        incoming,
        { mode, source: { file, fileType, delimiter: result.delimiter }, reread: () => this.datasets.row(user, tableId, 'owner') },
      );
    } finally {
      await fsp.rm(incoming, { force: true });
    }
    return this.datasets.get(user, tableId);
  }
}

/** What `swapDatasetData` works with. */
export interface DataSwapDeps {
  db: Database;
  blobs: BlobStore;
  clock: Clock;
  datasets: DatasetsService;
}

/** Where the new rows came from: an upload (its file becomes the dataset's source), or nothing to record (a re-import). */
export interface DataSwapSource {
  file: { id: string; name: string; size: number };
  fileType: string;
  delimiter: string | null;
}

/**
 * Replaces (`replace`) or extends (`append`) the data of dataset `before` with the rows of the
 * Parquet file `incoming`, under the same-columns rule (`checkSameColumns`; `tableFieldsMismatch`):
 * column settings stay, numeric ranges follow the new rows (widen on append). Then, in one
 * transaction with the dataset locked: `reread` (the caller's access check) finds it unchanged,
 * no stored environment reads its rows (`tableInUse`), the quota is charged or released by the
 * size change, and the data is swapped. Used by `table/append`, `table/updateTableFileUrl` and
 * the scheduled refresh from a data connection. The caller removes `incoming`.
 */
export async function swapDatasetData(
  deps: DataSwapDeps,
  before: DatasetRow,
  incoming: string,
  opts: { mode: 'append' | 'replace'; source?: DataSwapSource; reread: () => Promise<DatasetRow> },
): Promise<{ rowsBefore: number; rowsAfter: number }> {
  const { db, blobs, clock, datasets } = deps;
  const { mode, source } = opts;
  const merged = `${blobs.tempPathOf(`u/${before.user_id}/ds/${before.id}-${randomBytes(6).toString('hex')}`)}.parquet`;
  await fsp.mkdir(path.dirname(merged), { recursive: true });
  try {
    const current = JSON.parse(before.columns) as DatasetColumn[];
    const incomingColumns = await withDuck(async (c) =>
      (await c.runAndReadAll(`DESCRIBE SELECT * FROM read_parquet(${sqlString(incoming)})`)).getRowObjectsJS().map((r) => ({ name: String(r.column_name), type: String(r.column_type) })),
    );
    checkSameColumns(current, incomingColumns);
    const names = current.map((c) => sqlIdent(c.name)).join(', ');
    await withDuck(async (c) => {
      const fresh = `SELECT ${names} FROM read_parquet(${sqlString(incoming)})`;
      const sql = mode === 'append' ? `SELECT ${names} FROM read_parquet(${sqlString(blobs.pathOf(before.blob_key))}) UNION ALL BY NAME ${fresh}` : fresh;
      try {
        await c.run(`COPY (${sql}) TO ${sqlString(merged)} (FORMAT parquet, COMPRESSION zstd)`);
      } catch (err) {
        throw new AppError('tableFieldsMismatch', { types: duckMessage(err) });
      }
    });
    const { rows, described } = await withDuck(async (c) => {
      const from = `read_parquet(${sqlString(merged)})`;
      const described = (await c.runAndReadAll(`DESCRIBE SELECT * FROM ${from}`)).getRowObjectsJS().map((r) => ({ name: String(r.column_name), type: String(r.column_type) }));
      const rows = Number((await c.runAndReadAll(`SELECT count(*)::DOUBLE AS n FROM ${from}`)).getRowObjectsJS()[0]!.n);
      return { rows, described };
    });
    const ranged = await datasets.withRanges(merged, described.map((d) => defaultColumn(d.name, d.type)));
    const columns = current.map((col) => {
      const fresh = ranged.find((r) => r.name === col.name)!;
      const next: DatasetColumn = { ...col, type: fresh.type };
      if (fresh.min !== null && fresh.max !== null && (col.kind === 'int' || col.kind === 'float')) {
        next.min = mode === 'append' && col.min !== null ? Math.min(col.min, fresh.min) : fresh.min;
        next.max = mode === 'append' && col.max !== null ? Math.max(col.max, fresh.max) : fresh.max;
      }
      return next;
    });
    const columnarSize = (await fsp.stat(merged)).size;
    const key = `u/${before.user_id}/ds/${before.id}-${randomBytes(6).toString('hex')}.parquet`;
    const knex = () => db.executor();
    const owner = { tenantId: before.tenant_id, userId: before.user_id };
    let rowsBefore = Number(before.amount);
    try {
      await db.transaction(async () => {
        await lockDatasets(knex(), [before.id], { tenantId: before.tenant_id });
        const row = await opts.reread();
        if (row.blob_key !== before.blob_key) throw new AppError('tableInUse', { tableId: 'changed meanwhile, try again' });
        const env = await environmentUsingDataset(knex(), blobs, { id: row.id, tenantId: row.tenant_id, projectId: row.project_id });
        if (env) throw new AppError('tableInUse', { environment: env.name });
        rowsBefore = Number(row.amount);
        const growth = columnarSize - Number(row.columnar_size);
        if (growth > 0) await chargeStorage(knex(), owner, growth);
        else if (growth < 0) await releaseStorage(knex(), owner, -growth);
        const size = source ? (mode === 'append' ? Number(row.size) + Number(source.file.size) : Number(source.file.size)) : mode === 'append' ? Number(row.size) + columnarSize : columnarSize;
        await knex()('datasets')
          .where({ id: row.id })
          .update({
            blob_key: key,
            amount: rows,
            columnar_size: columnarSize,
            size,
            columns: JSON.stringify(columns),
            ...(mode === 'replace' && source ? { source_file_id: source.file.id, file_name: source.file.name, file_type: source.fileType, delimiter: source.delimiter } : {}),
            updated_at: clock.now(),
          });
        await blobs.adopt(key, merged);
      });
    } catch (err) {
      await blobs.remove(key);
      throw err;
    }
    // Readers that opened the old copy keep it until they close it.
    await blobs.remove(before.blob_key);
    return { rowsBefore, rowsAfter: rows };
  } finally {
    await fsp.rm(merged, { force: true });
  }
}
