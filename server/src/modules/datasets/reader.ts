import type { Knex } from 'knex';
import { AppError, type DatasetColumn } from '@decisio/domain';
import type { BlobStore } from '../storage/blob-store';
import { isNumericType, sqlIdent, sqlString, withDuck } from './duck';

/** A dataset loaded into memory, column by column. */
export interface DatasetTable {
  /** Every column in dataset order: numbers (ints, floats, booleans as 0/1) or text (the rest, dates as ISO-like text). */
  columns: { name: string; type: 'number' | 'string' }[];
  rows: number;
  /** A column's values: `Float64Array` for numbers (missing values are NaN), `string[]` for text (missing values are ''). Throws `tableFieldsMismatch` for an unknown name. */
  column(name: string): Float64Array | string[];
}

/**
 * Reads a dataset's columnar copy (Parquet via DuckDB) fully into memory, columns by name (for
 * training and other jobs). `tenantId` restricts the lookup to one tenant; `limit` reads only the
 * first rows. Throws `AppError('tableNotFound')` when the dataset does not exist (in that tenant).
 */
export async function loadDatasetTable(
  knex: Knex,
  blobs: BlobStore,
  datasetId: string,
  options: { tenantId?: string; limit?: number } = {},
): Promise<DatasetTable> {
  const q = knex('datasets').where({ id: datasetId });
  if (options.tenantId) q.where({ tenant_id: options.tenantId });
  const row = (await q.first('blob_key', 'columns')) as { blob_key: string; columns: string } | undefined;
  if (!row) throw new AppError('tableNotFound');
  const meta = JSON.parse(row.columns) as DatasetColumn[];
  const columns = meta.map((c) => ({
    name: c.name,
    type: (isNumericType(c.type) || c.type.toUpperCase() === 'BOOLEAN' ? 'number' : 'string') as 'number' | 'string',
  }));
  const select = columns
    .map((c) => (c.type === 'number' ? `CAST(${sqlIdent(c.name)} AS DOUBLE)` : `CAST(${sqlIdent(c.name)} AS VARCHAR)`) + ` AS ${sqlIdent(c.name)}`)
    .join(', ');
  const limit = options.limit !== undefined ? ` LIMIT ${Math.max(0, Math.floor(options.limit))}` : '';
  const data = new Map<string, Float64Array | string[]>();
  let rows = 0;
  if (columns.length > 0) {
    await withDuck(async (c) => {
      const r = await c.runAndReadAll(`SELECT ${select} FROM read_parquet(${sqlString(blobs.pathOf(row.blob_key))})${limit}`);
      const cols = r.getColumnsJS();
      rows = r.currentRowCount;
      columns.forEach((col, i) => {
        const values = cols[i] ?? [];
        if (col.type === 'number') {
          const out = new Float64Array(values.length);
          for (let k = 0; k < values.length; k++) {
            const v = values[k];
            out[k] = typeof v === 'number' ? v : Number.NaN;
          }
          data.set(col.name, out);
        } else {
          data.set(
            col.name,
            values.map((v) => (v === null || v === undefined ? '' : String(v))),
          );
        }
      });
    });
  }
  return {
    columns,
    rows,
    column(name: string) {
      const v = data.get(name);
      if (!v) throw new AppError('tableFieldsMismatch', { fields: name });
      return v;
    },
  };
}
