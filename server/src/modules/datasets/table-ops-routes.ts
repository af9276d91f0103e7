import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import type { Router } from '@koa/router';
import {
  AppError,
  copyTableToDataSourceSchema,
  TABLE_DATA_READS_PER_WINDOW,
  TABLE_DATA_WINDOW_MS,
  tableAccessKeySchema,
  tableFileSchema,
  tableFilterSchema,
  tableRevokeAccessKeysSchema,
} from '@decisio/domain';
import type { ServerCallUser } from '@decisio/sdk-plugin/server';
import type { Clock } from '../../clock';
import type { Database } from '../../db/database';
import type { SecretBox } from '../../db/secrets';
import type { AppState } from '../../http/context';
import { reply, type RouteKit } from '../../http/route';
import { clientAddress } from '../../http/proxy';
import { RateWindow } from '../../http/rate-window';
import type { ConnectorOptions, RemoteTarget } from '../connections/connector';
import type { BlobStore } from '../storage/blob-store';
import { sendBlob } from '../storage/routes';
import { StorageService } from '../storage/service';
import { CopyOut } from './copy-out';
import type { DatasetsService } from './service';
import { TableOps } from './table-ops';

/** What the table calls beyond the basic ones need. */
export interface TableOpsDeps {
  db: Database;
  blobs: BlobStore;
  clock: Clock;
  datasets: DatasetsService;
  secrets: SecretBox;
  connector: ConnectorOptions;
  /** A data connection of the caller with its password (`connections.target`). */
  target: (user: ServerCallUser, dataSourceId: string, password?: string | null) => Promise<RemoteTarget & { id: string }>;
  /** Most rows one copy to a data connection writes (`IMPORT_MAX_ROWS`). */
  maxRows: number;
}

/**
 * `table/filter`, `table/getAccessKey` (+ `GET /api/table/data?accessKey=`, rate-limited per address),
 * `table/revokeAccessKeys`, `table/append`,
 * `table/updateTableFileUrl`, `table/copyTableToDataSource`.
 */
export function tableOpsRoutes(router: Router<AppState>, kit: RouteKit, deps: TableOpsDeps): TableOps {
  const storage = new StorageService(deps.db, deps.blobs, deps.clock);
  const ops = new TableOps(deps.db, deps.blobs, deps.clock, deps.datasets, storage, deps.secrets);
  const copyOut = new CopyOut(deps.datasets, deps.blobs, deps.connector, deps.target, deps.maxRows);
  const guard = [kit.auth, kit.tenant] as const;

  const filter = kit.validate(tableFilterSchema);
  router.post('/table/filter', ...guard, filter, reply(async (ctx) => ops.filter(ctx.state.user!, filter.input(ctx))));

  const key = kit.validate(tableAccessKeySchema);
  router.post(
    '/table/getAccessKey',
    ...guard,
    key,
    reply(async (ctx) => {
      const input = key.input(ctx);
      return ops.accessKey(ctx.state.user!, input.tableId, input.ttlSeconds);
    }),
  );

  const revoke = kit.validate(tableRevokeAccessKeysSchema);
  router.post('/table/revokeAccessKeys', ...guard, revoke, reply(async (ctx) => ops.revokeAccessKeys(ctx.state.user!, revoke.input(ctx).tableId)));

  const file = kit.validate(tableFileSchema);
  router.post(
    '/table/append',
    ...guard,
    file,
    reply(async (ctx) => {
      const input = file.input(ctx);
      return ops.append(ctx.state.user!, input.tableId, input.fileId);
    }),
  );
  router.post(
    '/table/updateTableFileUrl',
    ...guard,
    file,
    reply(async (ctx) => {
      const input = file.input(ctx);
      return ops.updateFile(ctx.state.user!, input.tableId, input.fileId);
    }),
  );

  const copy = kit.validate(copyTableToDataSourceSchema);
  router.post('/table/copyTableToDataSource', ...guard, copy, reply(async (ctx) => copyOut.copy(ctx.state.user!, copy.input(ctx))));

  // The key is the credential: no session. Parquet (the server's copy) or csv. Reads are counted
  // per address before the key is opened, so guessing keys or scraping costs the same.
  const reads = new RateWindow(deps.db, deps.clock, { bucket: 'table-data', max: TABLE_DATA_READS_PER_WINDOW, windowMs: TABLE_DATA_WINDOW_MS });
  router.get('/table/data', async (ctx) => {
    await reads.hit(clientAddress(ctx));
    const accessKey = typeof ctx.query.accessKey === 'string' ? ctx.query.accessKey : '';
    if (!accessKey) throw new AppError('accessKeyFailed');
    const row = await ops.byAccessKey(accessKey);
    const stem = row.name.replace(/[\\/:*?"<>|]+/g, '_');
    if (ctx.query.format !== 'csv') {
      const size = (await fsp.stat(deps.blobs.pathOf(row.blob_key))).size;
      await sendBlob(ctx, deps.blobs, { blobKey: row.blob_key, name: `${stem}.parquet`, size });
      return;
    }
    const tmp = `${deps.blobs.tempPathOf(`csv/${row.id}-${randomBytes(6).toString('hex')}`)}.csv`;
    await fsp.mkdir(path.dirname(tmp), { recursive: true });
    try {
      await ops.writeCsv(row, tmp);
    } catch (err) {
      await fsp.rm(tmp, { force: true });
      throw err;
    }
    const size = (await fsp.stat(tmp)).size;
    const stream = fs.createReadStream(tmp);
    stream.on('close', () => void fsp.rm(tmp, { force: true }));
    ctx.set('Content-Disposition', `attachment; filename*=UTF-8''${encodeURIComponent(`${stem}.csv`)}`);
    ctx.type = 'text/csv; charset=utf-8';
    ctx.state.audit.type = 'query';
    ctx.length = size;
    ctx.body = stream;
  });
  return ops;
}
