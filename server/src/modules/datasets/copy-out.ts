import type { Knex } from 'knex';
import { AppError, type CopyTableResult, type DatasetColumn } from '@decisio/domain';
import type { ServerCallUser } from '@decisio/sdk-plugin/server';
import { RemoteConnectError, withRemote, type ConnectorOptions, type RemoteTarget } from '../connections/connector';
import { isNumericType, sqlString, withDuck } from './duck';
import { jsonCell, type DatasetsService } from './service';
import type { BlobStore } from '../storage/blob-store';

/**
 * `table/copyTableToDataSource`: a dataset's rows written into a NEW table on a data connection's
 * database (never into an existing one: `tableNameUsed`), with the connection's own account,
 * through the host guard. The table is created, filled in batches inside one transaction, and
 * dropped again if anything fails, so the outside database holds all the rows or no table.
 */

/** Rows per INSERT. */
const BATCH = 500;

/** The column type on the outside database for a DuckDB type. */
function columnType(t: Knex.CreateTableBuilder, name: string, duckType: string): void {
  const u = duckType.toUpperCase();
  if (/^(TINYINT|SMALLINT|INTEGER|BIGINT|UTINYINT|USMALLINT|UINTEGER)$/.test(u)) t.bigInteger(name);
  else if (isNumericType(u)) t.double(name);
  else if (u === 'BOOLEAN') t.boolean(name);
  else if (u === 'DATE') t.date(name);
  else if (u.startsWith('TIMESTAMP')) t.datetime(name, { precision: 6 });
  else t.text(name);
}

export class CopyOut {
  constructor(
    private readonly datasets: DatasetsService,
    private readonly blobs: BlobStore,
    private readonly connector: ConnectorOptions,
    private readonly target: (user: ServerCallUser, dataSourceId: string, password?: string | null) => Promise<RemoteTarget & { id: string }>,
    private readonly maxRows: number,
  ) {}

  async copy(user: ServerCallUser, input: { tableId: string; dataSourceId: string; targetTable: string; password?: string }): Promise<CopyTableResult> {
    const row = await this.datasets.row(user, input.tableId);
    const columns = JSON.parse(row.columns) as DatasetColumn[];
    if (Number(row.amount) > this.maxRows) throw new AppError('importTooManyRows', { rows: String(row.amount), max: String(this.maxRows) });
    const target = await this.target(user, input.dataSourceId, input.password ?? null);
    const from = `read_parquet(${sqlString(this.blobs.pathOf(row.blob_key))})`;
    let written = 0;
    try {
      await withRemote(target, { ...this.connector, writable: true }, async (remote) => {
        if (await remote.schema.hasTable(input.targetTable)) throw new AppError('tableNameUsed', { targetTable: input.targetTable });
        await remote.schema.createTable(input.targetTable, (t) => {
          for (const col of columns) columnType(t, col.name, col.type);
        });
        try {
          await remote.transaction(async (trx) => {
            await withDuck(async (c) => {
              for (let offset = 0; offset < Number(row.amount); offset += BATCH) {
                const r = await c.runAndReadAll(`SELECT * FROM ${from} LIMIT ${BATCH} OFFSET ${offset}`);
                const names = r.columnNames();
                const records = r.getRowsJS().map((cells) => Object.fromEntries(cells.map((v, i) => [names[i]!, remoteValue(v)])));
                if (records.length === 0) break;
                await trx(input.targetTable).insert(records);
                written += records.length;
              }
            });
          });
        } catch (err) {
          await remote.schema.dropTableIfExists(input.targetTable).catch(() => undefined);
          throw err;
        }
      });
    } catch (err) {
      if (err instanceof AppError) throw err;
      if (err instanceof RemoteConnectError) throw new AppError('dataSourceUnreachable');
      // The outside server refused a statement (rights, a name, a value): its first line, no more.
      throw new AppError('tableCopyFailed', { reason: (err instanceof Error ? err.message : String(err)).split('\n')[0]!.slice(0, 300) });
    }
    return { dataSourceId: target.id, targetTable: input.targetTable, rows: written, columns: columns.map((c) => ({ name: c.name, type: c.type })) };
  }
}

/** A DuckDB value as the drivers take it: dates as Date, big integers as text. */
function remoteValue(v: unknown): unknown {
  if (v instanceof Date) return v;
  return jsonCell(v);
}
