/**
 * What the scheme form starts from (issue 17 item 6): the fields of a solution's correlation
 * table and the time range of its datetime field, answered by `solution/getTableCorrelation`
 * with `withTable`. The field names are the ones the scheme data processing sees: the join of
 * `engine/join.ts` run on the tables' column names alone (no rows read), so a related table's
 * column whose name is taken shows as `<table>_<column>` exactly as processing names it. The
 * range is computed over every row of the primary table: in DuckDB for a dataset (its columnar
 * copy), in memory for an uploaded csv file; times are read as the processing reads them
 * (`parseTime`).
 */
import type { Knex } from 'knex';
import { AppError, type CorrelationField, type CorrelationTable, type DatasetColumn } from '@decisio/domain';
import type { TableColumns } from '@decisio/learning';
import { isNumericType, sqlIdent, sqlString, withDuck } from '../datasets/duck';
import { checkCsv } from '../datasets/ingest';
import type { BlobStore } from '../storage/blob-store';
import { loadTable, type Correlation } from './engine/data';
import { joinTables, type JoinTable } from './engine/join';
import { parseTime } from './engine/scheme';

interface TableMeta {
  id: string;
  name: string;
  columns: Array<Omit<CorrelationField, 'name' | 'table' | 'column'> & { name: string }>;
  rows: number;
  /** Dataset: its columnar copy; null for an uploaded csv file (whose `rows` is then unknown, -1). */
  parquet: string | null;
}

async function tableMeta(knex: Knex, blobs: BlobStore, tenantId: string, id: string): Promise<TableMeta> {
  const ds = (await knex('datasets').where({ id, tenant_id: tenantId }).first('id', 'name', 'columns', 'amount', 'blob_key')) as { id: string; name: string; columns: string; amount: number | string; blob_key: string } | undefined;
  if (ds) {
    const columns = (JSON.parse(ds.columns) as DatasetColumn[]).map((c) => ({ name: c.name, type: c.type, kind: c.kind, min: c.min ?? null, max: c.max ?? null }));
    return { id, name: String(ds.name), columns, rows: Number(ds.amount), parquet: blobs.pathOf(ds.blob_key) };
  }
  const file = (await knex('storage_files').where({ id, tenant_id: tenantId }).whereNull('deleted_at').first('blob_key', 'name')) as { blob_key: string; name: string } | undefined;
  if (!file) throw new AppError('tableNotFound', { table: id });
  const header = await checkCsv(blobs.pathOf(file.blob_key)).then(
    (r) => r.header,
    () => [] as string[],
  );
  return { id, name: String(file.name).replace(/\.csv$/i, ''), columns: header.map((name) => ({ name, type: 'VARCHAR', kind: null, min: null, max: null })), rows: -1, parquet: null };
}

/** First and last time of `field` over every row of the table (null when none reads as a time); `loaded`: an uploaded csv file's columns, read once. */
async function timeRange(t: TableMeta, field: string, loaded: TableColumns | null): Promise<{ min: string; max: string } | null> {
  const col = t.columns.find((c) => c.name === field);
  if (!col) return null;
  let lo = Infinity;
  let hi = -Infinity;
  const see = (v: unknown) => {
    const ms = parseTime(v);
    if (Number.isFinite(ms)) {
      if (ms < lo) lo = ms;
      if (ms > hi) hi = ms;
    }
  };
  if (t.parquet) {
    const from = `read_parquet(${sqlString(t.parquet)})`;
    const c = sqlIdent(field);
    await withDuck(async (duck) => {
      if (/TIMESTAMP|DATE/i.test(col.type)) {
        // Printed as databases print times (`2026-01-01 06:00:00`, `...+00`), read as UTC where no offset is given.
        const r = (await duck.runAndReadAll(`SELECT min(${c})::VARCHAR AS lo, max(${c})::VARCHAR AS hi FROM ${from}`)).getRowObjectsJS()[0]!;
        see(r.lo);
        see(r.hi);
      } else if (isNumericType(col.type)) {
        const r = (await duck.runAndReadAll(`SELECT min(${c})::DOUBLE AS lo, max(${c})::DOUBLE AS hi FROM ${from}`)).getRowObjectsJS()[0]!;
        see(r.lo);
        see(r.hi);
      } else {
        // Text: every distinct value, read as the processing reads it (mixed formats sort wrongly as text).
        const r = await duck.runAndReadAll(`SELECT DISTINCT CAST(${c} AS VARCHAR) AS v FROM ${from} WHERE ${c} IS NOT NULL`);
        for (const row of r.getRowObjectsJS()) see(row.v);
      }
    });
  } else {
    const values = loaded?.[field];
    if (values) for (let i = 0; i < values.length; i++) see(values[i]);
  }
  return Number.isFinite(lo) ? { min: new Date(lo).toISOString(), max: new Date(hi).toISOString() } : null;
}

/**
 * The correlation's table as the scheme form shows it (see the module comment). Throws what the
 * join throws for a correlation that no longer fits its tables (`tableNotFound`,
 * `tableFieldsMismatch`, `tableParamError`).
 */
export async function describeCorrelationTable(knex: Knex, blobs: BlobStore, tenantId: string, c: Correlation): Promise<CorrelationTable> {
  const primaryId = c.datasetId ?? c.primaryTableId;
  const primaryIds = new Set([primaryId, c.primaryTableId]);
  const relations = Array.isArray(c.relations) ? c.relations : [];
  const primary = await tableMeta(knex, blobs, tenantId, primaryId);
  const metas = new Map<string, TableMeta>([[primaryId, primary]]);
  for (const r of relations) {
    for (const id of [r.from, r.to]) if (id && !primaryIds.has(id) && !metas.has(id)) metas.set(id, await tableMeta(knex, blobs, tenantId, id));
  }
  const asJoin = (m: TableMeta): JoinTable => ({ id: m.id, name: m.name, columns: Object.fromEntries(m.columns.map((col) => [col.name, [] as string[]])) });
  const others = [...metas.values()].filter((m) => m !== primary);
  const { report } = joinTables(asJoin(primary), others.map(asJoin), relations, [...primaryIds]);
  const fields: CorrelationField[] = primary.columns.map((col) => ({ ...col, table: primary.name, column: col.name }));
  for (const step of report.steps) {
    const m = metas.get(step.id)!;
    const original = new Map(Object.entries(step.renamed).map(([from, to]) => [to, from]));
    for (const name of step.added) {
      const column = original.get(name) ?? name;
      const col = m.columns.find((x) => x.name === column)!;
      fields.push({ ...col, name, table: m.name, column });
    }
  }
  // An uploaded csv file has no row count or columnar copy: read once for both.
  const loaded = primary.parquet ? null : (await loadTable(knex, blobs, tenantId, primary.id)).columns;
  const rows = loaded ? (Object.values(loaded)[0]?.length ?? 0) : primary.rows;
  const field = c.datetimeField;
  const range = field ? await timeRange(primary, field, loaded) : null;
  return { primary: primary.name, rows, fields, dateRange: field && range ? { field, ...range } : null };
}
