import type { Router } from '@koa/router';
import {
  columnValuesSchema,
  createDatasetSchema,
  datasetListSchema,
  previewChunkSchema,
  previewSchema,
  setFieldsSchema,
  tableIdSchema,
  type DownloadUrl,
} from '@decisio/domain';
import type { Clock } from '../../clock';
import type { Database } from '../../db/database';
import type { AppState } from '../../http/context';
import { reply, type RouteKit } from '../../http/route';
import type { BlobStore } from '../storage/blob-store';
import { downloadUrlOf } from '../storage/routes';
import { StorageService } from '../storage/service';
import { DatasetsService } from './service';

/**
 * Datasets and tables: `table/*` with their `dataSource/*` names, `metadata/getColumnsValue`,
 * and the previews and source download of `file/*`.
 */
export function datasetsRoutes(router: Router<AppState>, kit: RouteKit, deps: { db: Database; blobs: BlobStore; clock: Clock }): DatasetsService {
  const datasets = new DatasetsService(deps.db, deps.blobs, deps.clock, new StorageService(deps.db, deps.blobs, deps.clock));
  const guard = [kit.auth, kit.tenant] as const;

  const create = kit.validate(createDatasetSchema);
  const createHandler = reply(async (ctx) => datasets.create(ctx.state.user!, create.input(ctx)));
  router.post('/table/create', ...guard, create, createHandler);
  router.post('/dataSource/saveDataSourceTable', ...guard, create, createHandler);

  const id = kit.validate(tableIdSchema);
  const getHandler = reply(async (ctx) => datasets.get(ctx.state.user!, id.input(ctx).tableId));
  router.post('/table/get', ...guard, id, getHandler);
  router.post('/dataSource/queryDataSourceTableDetail', ...guard, id, getHandler);

  const list = kit.validate(datasetListSchema);
  const listHandler = reply(async (ctx) => datasets.list(ctx.state.user!, list.input(ctx)));
  router.post('/table/list', ...guard, list, listHandler);
  router.post('/dataSource/queryDataSourceTableList', ...guard, list, listHandler);

  const dropHandler = reply(async (ctx) => {
    await datasets.drop(ctx.state.user!, id.input(ctx).tableId);
    return null;
  });
  router.post('/table/drop', ...guard, id, dropHandler);
  router.post('/dataSource/delDataSourceTableById', ...guard, id, dropHandler);

  const fields = kit.validate(setFieldsSchema);
  const fieldsHandler = reply(async (ctx) => {
    const input = fields.input(ctx);
    return datasets.setFields(ctx.state.user!, input.tableId, input.fields);
  });
  router.post('/table/setFields', ...guard, fields, fieldsHandler);
  router.post('/table/alterFields', ...guard, fields, fieldsHandler);

  const values = kit.validate(columnValuesSchema);
  router.post(
    '/metadata/getColumnsValue',
    ...guard,
    values,
    reply(async (ctx) => {
      const input = values.input(ctx);
      return datasets.columnValues(ctx.state.user!, input.tableId, input.column, input.limit);
    }),
  );

  const preview = kit.validate(previewSchema);
  router.post(
    '/file/previewCSV',
    ...guard,
    preview,
    reply(async (ctx) => {
      const input = preview.input(ctx);
      return datasets.preview(ctx.state.user!, input, 0, input.rows, true);
    }),
  );
  const chunk = kit.validate(previewChunkSchema);
  router.post(
    '/file/previewchunkcsv',
    ...guard,
    chunk,
    reply(async (ctx) => {
      const input = chunk.input(ctx);
      return datasets.preview(ctx.state.user!, input, input.offset, input.limit, false);
    }),
  );
  router.post(
    '/file/getDataSourceDownloadUrl',
    ...guard,
    id,
    reply(async (ctx): Promise<DownloadUrl> => {
      const f = await datasets.sourceFile(ctx.state.user!, id.input(ctx).tableId);
      return { url: downloadUrlOf(f.fileId), name: f.name, size: f.size };
    }),
  );
  return datasets;
}
