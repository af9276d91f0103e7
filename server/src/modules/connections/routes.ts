import type { Router } from '@koa/router';
import {
  AppError,
  messageOf,
  connectionColumnsSchema,
  connectionIdSchema,
  connectionPageSchema,
  connectionTablesSchema,
  createConnectionSchema,
  importListSchema,
  importStatusSchema,
  queryColumnsSchema,
  startImportSchema,
  stopImportSchema,
  testConnectionSchema,
  updateConnectionSchema,
} from '@decisio/domain';
import type { AppContext, AppState } from '../../http/context';
import { reply, type RouteKit } from '../../http/route';
import type { TransportKeys } from '../account/keys';
import type { Logger } from '../../logger';
import { RemoteConnectError, describeRemoteError, listRemoteColumns, listRemoteTables, testRemote, withRemote, type ConnectorOptions, type RemoteTarget } from './connector';
import { checkQuery, inferKinds } from './copy';
import type { ImportService } from './imports';
import type { SecretBox } from '../../db/secrets';
import type { ConnectionsService } from './service';

/**
 * `jobJdbcDatasource/*` (spec platform §7): list, page, detail, create, update, delete, test,
 * plus `tables` and `columns` of a saved connection (what the import dialog browses).
 * Passwords arrive encrypted with the transport key, like sign-in. Every outside connection goes
 * through the host guard (`connector`); every failure to connect answers the same
 * `dataSourceUnreachable` after the same time, and the driver's reason only reaches the server's
 * log (with the request id).
 */
export function connectionsRoutes(
  router: Router<AppState>,
  kit: RouteKit,
  deps: { connections: ConnectionsService; keys: TransportKeys; secrets: SecretBox; imports: ImportService; connector: ConnectorOptions; logger: Logger },
): void {
  const { connections, keys, secrets, imports, connector, logger } = deps;
  /** The driver's reason of a failure, for the server's log only. */
  const logFailure = (ctx: AppContext, what: string, err: unknown, target: RemoteTarget) =>
    logger.warn(`data connection: ${what} failed`, { requestId: ctx.state.requestId, userId: ctx.state.user?.id, reason: describeRemoteError(err, target) });
  const base = [kit.auth, kit.tenant] as const;
  const pageBody = kit.validate(connectionPageSchema);
  const idBody = kit.validate(connectionIdSchema);
  const createBody = kit.validate(createConnectionSchema);
  const updateBody = kit.validate(updateConnectionSchema);
  const testBody = kit.validate(testConnectionSchema);
  const tablesBody = kit.validate(connectionTablesSchema);
  const columnsBody = kit.validate(connectionColumnsSchema);
  const user = (ctx: AppContext) => ctx.state.user!;
  const decrypt = async (cipher: string | null | undefined) => (cipher ? keys.decrypt(cipher, 'password') : cipher);
  /** Both keys are read (or made) on the pool, so before the transaction opens (SQLite has one connection). */
  const keysReady = async (_ctx: AppContext, next: () => Promise<unknown>) => {
    await Promise.all([secrets.ready(), keys.publicKey()]);
    await next();
  };

  router.post('/jobJdbcDatasource/all', ...base, reply((ctx) => connections.all(user(ctx))));
  router.post('/jobJdbcDatasource/queryListByPage', ...base, pageBody, reply((ctx) => connections.page(user(ctx), pageBody.input(ctx))));
  router.post('/jobJdbcDatasource/queryDetailById', ...base, idBody, reply((ctx) => connections.get(user(ctx), idBody.input(ctx).id)));
  router.post(
    '/jobJdbcDatasource/createDataSourceLink',
    ...base,
    createBody,
    keysReady,
    kit.transaction,
    reply(async (ctx) => {
      const { password, ...fields } = createBody.input(ctx);
      return connections.create(user(ctx), fields, (await decrypt(password)) ?? '');
    }),
  );
  router.post(
    '/jobJdbcDatasource/updateDataSourceLink',
    ...base,
    updateBody,
    keysReady,
    kit.transaction,
    reply(async (ctx) => {
      const { id, password, ...fields } = updateBody.input(ctx);
      return connections.update(user(ctx), id, fields, await decrypt(password));
    }),
  );
  router.post(
    '/jobJdbcDatasource/deleteDataSourceLink',
    ...base,
    idBody,
    kit.transaction,
    reply(async (ctx) => {
      const { id } = idBody.input(ctx);
      await connections.remove(user(ctx), id);
      return { id };
    }),
  );
  router.post(
    '/jobJdbcDatasource/test',
    ...base,
    testBody,
    reply(async (ctx) => {
      const input = testBody.input(ctx);
      let target: RemoteTarget;
      if ('id' in input) target = await connections.target(user(ctx), input.id, await decrypt(input.password));
      else target = { type: input.type, url: input.url, database: input.database, username: input.username, password: (await decrypt(input.password)) ?? '' };
      const { result, cause } = await testRemote(target, connector);
      if (result.ok) return result;
      logFailure(ctx, 'test', cause, target);
      return { ...result, error: messageOf('dataSourceUnreachable', ctx.state.locale) };
    }),
  );

  /**
   * Runs `fn` against a saved connection. Failing to connect answers `dataSourceUnreachable`, a
   * failing statement `failed` (both without the driver's text, which is logged).
   */
  const onRemote = async <T>(ctx: AppContext, id: string, fn: Parameters<typeof withRemote<T>>[2], failed: () => AppError = () => new AppError('dataSourceUnreachable')) => {
    const target = await connections.target(user(ctx), id);
    try {
      return await withRemote(target, connector, fn);
    } catch (err) {
      if (err instanceof AppError) throw err;
      logFailure(ctx, err instanceof RemoteConnectError ? 'connect' : 'statement', err, target);
      throw err instanceof RemoteConnectError ? new AppError('dataSourceUnreachable') : failed();
    }
  };
  const tablesHandler = reply(async (ctx: AppContext) => {
    const { id } = tablesBody.input(ctx);
    const target = await connections.target(user(ctx), id);
    return onRemote(ctx, id, (db) => listRemoteTables(db, target.type));
  });
  router.post('/jobJdbcDatasource/tables', ...base, tablesBody, tablesHandler);
  router.post('/metadata/getTables', ...base, tablesBody, tablesHandler);
  const columnsHandler = reply(async (ctx: AppContext) => {
    const { id, table, schema } = columnsBody.input(ctx);
    const target = await connections.target(user(ctx), id);
    const columns = await onRemote(ctx, id, (db) => listRemoteColumns(db, target.type, table, schema));
    if (columns.length === 0) throw new AppError('tableNotFound', { table: 'validation.invalid' });
    return columns;
  });
  router.post('/jobJdbcDatasource/columns', ...base, columnsBody, columnsHandler);
  router.post('/metadata/getColumns', ...base, columnsBody, columnsHandler);
  router.post('/metadata/getColumnsType', ...base, columnsBody, columnsHandler);

  const queryBody = kit.validate(queryColumnsSchema);
  router.post(
    '/metadata/getColumnsByQuerySql',
    ...base,
    queryBody,
    reply(async (ctx) => {
      const { id, sql } = queryBody.input(ctx);
      const query = checkQuery(sql);
      const target = await connections.target(user(ctx), id);
      return onRemote(ctx, id, async (db) => {
        const res = (await db.raw(`select * from (${query}) decisio_q limit 100`)) as unknown;
        const rows = (Array.isArray(res) ? (res[0] as Record<string, unknown>[]) : (res as { rows: Record<string, unknown>[]; fields?: { name: string }[] }).rows) ?? [];
        const fields = Array.isArray(res)
          ? ((res[1] as { name: string }[] | undefined) ?? []).map((f) => f.name)
          : ((res as { fields?: { name: string }[] }).fields ?? []).map((f) => f.name);
        const names = fields.length ? fields : Object.keys(rows[0] ?? {});
        const kinds = inferKinds(names, rows);
        return names.map((name, i) => ({ name, dataType: kinds[i]!, kind: kinds[i]!, nullable: true }));
      }, () => new AppError('tableParamError', { sql: 'validation.invalid' }, 'The query failed on the outside server'));
    }),
  );

  const startBody = kit.validate(startImportSchema);
  router.post('/metadata/startImport', ...base, startBody, reply((ctx) => imports.start(user(ctx), startBody.input(ctx))));
  const statusBody = kit.validate(importStatusSchema);
  router.post('/metadata/getCopyStatusByTableId', ...base, statusBody, reply((ctx) => imports.status(user(ctx), statusBody.input(ctx).tableId)));
  const stopBody = kit.validate(stopImportSchema);
  router.post('/metadata/stopImport', ...base, stopBody, reply((ctx) => imports.stop(user(ctx), stopBody.input(ctx).tableId)));
  const importPage = kit.validate(importListSchema);
  router.post(
    '/metadata/getImportList',
    ...base,
    importPage,
    reply((ctx) => {
      const { page, pageSize } = importPage.input(ctx);
      return imports.list(user(ctx), page, pageSize);
    }),
  );
}
