import type { Router } from '@koa/router';
import { z } from 'zod';
import {
  AppError,
  modelServiceBatchCreateSchema,
  modelServiceBatchPageSchema,
  modelServiceCreateSchema,
  modelServiceDecisionSchema,
  modelServiceIdSchema,
  modelServiceMonitorSchema,
  modelServicePageSchema,
  modelServiceRecordDeleteSchema,
  modelServiceRecordsDatasetSchema,
  modelServiceRecordsPageSchema,
  modelServiceRotateTokenSchema,
  modelServiceUpdateSchema,
} from '@decisio/domain';
import type { Clock } from '../../clock';
import type { Database } from '../../db/database';
import type { AppContext, AppMiddleware, AppState } from '../../http/context';
import { reply, type RouteKit } from '../../http/route';
import type { Logger } from '../../logger';
import type { DatasetsService } from '../datasets/service';
import type { BlobStore } from '../storage/blob-store';
import { sendBlob } from '../storage/routes';
import { accessAddressHandler, accessAddressMiddleware, type RawHandler } from './access-address';
import { BatchDecisions } from './batch';
import { registerDeployGuards } from './guards';
import { StoredPolicySource, type PolicySource } from './policy-source';
import { presentDetail, presentRecord, presentService, presentServiceWithToken } from './presenters';
import { CallRecorder, type CallRecorderOptions } from './recorder';
import { RecordRetention } from './retention';
import { ServingRuntime, type ServingRuntimeOptions } from './runtime';
import { DeployService } from './service';
import { clientAddress, requestProtocol } from '../../http/proxy';

/** What `createDeployModule` needs. */
export interface DeployModuleDeps {
  db: Database;
  blobs: BlobStore;
  logger: Logger;
  clock: Clock;
  /** Replaces the default policy source (the `policies` row + blob store). */
  source?: PolicySource;
  recorder?: CallRecorderOptions;
  runtime?: ServingRuntimeOptions;
  /** Largest decision body, bytes (default 1 MiB, as the API). */
  bodyLimitBytes?: number;
  /** Where `createDatasetFromRecords` makes its dataset. */
  datasets: DatasetsService;
  /** Days call records are kept (0: for ever; default 90). */
  recordRetentionDays?: number;
  /** True while the server shuts down. */
  closing?: () => boolean;
}

/** The deploy module as wired into the app. */
export interface DeployModule {
  service: DeployService;
  runtime: ServingRuntime;
  recorder: CallRecorder;
  batches: BatchDecisions;
  /**
   * The access address `POST /api/decide/<serviceId>` as a plain request handler (see
   * access-address.ts): the server's request listener tries it before Koa.
   */
  decisionHandler: RawHandler;
  /** The same address as Koa middleware (delegates to `decisionHandler`). */
  accessAddress: AppMiddleware;
  /** Deletes call records past their retention. */
  retention: RecordRetention;
  /** Writes queued call records. */
  flush(): Promise<void>;
  /** Waits for background transitions, then writes queued call records. */
  close(): Promise<void>;
}

/** `http(s)://host[:port]` of the request (what callers of the access address use; https behind a trusted proxy). */
function originOf(ctx: AppContext): string {
  return `${requestProtocol(ctx)}://${ctx.host}`;
}

/**
 * `modeldeploy/*` (session token, project rights) and the access address
 * `POST /api/decide/<serviceId>` (service access token).
 */
export function createDeployModule(router: Router<AppState>, kit: RouteKit, deps: DeployModuleDeps): DeployModule {
  registerDeployGuards();
  const recorder = new CallRecorder(deps.db, deps.logger, deps.recorder);
  const source = deps.source ?? new StoredPolicySource(deps.db, deps.blobs);
  const runtime = new ServingRuntime(deps.db, source, recorder, deps.clock, deps.logger, deps.runtime);
  const service = new DeployService(deps.db, runtime, deps.clock, deps.logger);
  const batches = new BatchDecisions(deps.db, deps.blobs, runtime, deps.clock, deps.logger);
  const retention = new RecordRetention(deps.db, deps.clock, deps.logger, deps.recordRetentionDays ?? 90);
  retention.start();
  const decisionHandler = accessAddressHandler(runtime, deps.logger, { limit: deps.bodyLimitBytes ?? 1024 * 1024, ...(deps.closing ? { closing: deps.closing } : {}) });

  const signedIn = [kit.auth, kit.tenant] as const;
  const now = () => deps.clock.now().getTime();
  const create = kit.validate(modelServiceCreateSchema);
  const update = kit.validate(modelServiceUpdateSchema);
  const byId = kit.validate(modelServiceIdSchema);
  const rotateToken = kit.validate(modelServiceRotateTokenSchema);
  const page = kit.validate(modelServicePageSchema);
  const records = kit.validate(modelServiceRecordsPageSchema);
  const deleteRecords = kit.validate(modelServiceRecordDeleteSchema);
  const monitor = kit.validate(modelServiceMonitorSchema);
  const decision = kit.validate(modelServiceDecisionSchema);
  const batchCreate = kit.validate(modelServiceBatchCreateSchema);
  const batchPage = kit.validate(modelServiceBatchPageSchema);
  const recordsDataset = kit.validate(modelServiceRecordsDatasetSchema);
  const batchQuery = kit.validate(z.object({ batchId: z.string().regex(/^[0-9a-f]{32}$/) }), 'query');

  router.post(
    '/modeldeploy/create',
    ...signedIn,
    create,
    reply(async (ctx: AppContext) => {
      const { service: s, token } = await service.create(ctx.state.user!, create.input(ctx));
      return presentServiceWithToken(s, token, originOf(ctx), now());
    }),
  );
  router.post(
    '/modeldeploy/update',
    ...signedIn,
    update,
    reply(async (ctx: AppContext) => presentService(await service.update(ctx.state.user!, update.input(ctx)), originOf(ctx), now())),
  );
  router.post(
    '/modeldeploy/start',
    ...signedIn,
    byId,
    reply(async (ctx: AppContext) => presentService(await service.start(ctx.state.user!, byId.input(ctx).id), originOf(ctx), now())),
  );
  router.post(
    '/modeldeploy/stop',
    ...signedIn,
    byId,
    reply(async (ctx: AppContext) => presentService(await service.stop(ctx.state.user!, byId.input(ctx).id), originOf(ctx), now())),
  );
  router.post(
    '/modeldeploy/delete',
    ...signedIn,
    byId,
    reply(async (ctx: AppContext) => {
      await service.remove(ctx.state.user!, byId.input(ctx).id);
      return null;
    }),
  );
  router.post(
    '/modeldeploy/rotateToken',
    ...signedIn,
    rotateToken,
    reply(async (ctx: AppContext) => {
      const { service: s, token } = await service.rotate(ctx.state.user!, rotateToken.input(ctx));
      return presentServiceWithToken(s, token, originOf(ctx), now());
    }),
  );
  router.post(
    '/modeldeploy/queryDetail',
    ...signedIn,
    byId,
    reply(async (ctx: AppContext) => {
      const s = await service.access(ctx.state.user!, byId.input(ctx).id, 'view');
      const [io, totals] = await Promise.all([service.fields(s), service.totals(s.id)]);
      return presentDetail(s, io, totals, originOf(ctx), now());
    }),
  );
  router.post(
    '/modeldeploy/queryPage',
    ...signedIn,
    page,
    reply(async (ctx: AppContext) => {
      const p = await service.page(ctx.state.user!, page.input(ctx));
      const at = now();
      return { ...p, rows: p.rows.map((s) => presentService(s, originOf(ctx), at)) };
    }),
  );
  router.post(
    '/modeldeploy/queryModelServiceRecordsPage',
    ...signedIn,
    records,
    reply(async (ctx: AppContext) => {
      const p = await service.records(ctx.state.user!, records.input(ctx));
      return { ...p, rows: p.rows.map(presentRecord) };
    }),
  );
  router.post(
    '/modeldeploy/deleteModelServiceRecord',
    ...signedIn,
    deleteRecords,
    reply(async (ctx: AppContext) => ({ deleted: await service.deleteRecords(ctx.state.user!, deleteRecords.input(ctx)) })),
  );
  router.post(
    '/modeldeploy/createDatasetFromRecords',
    ...signedIn,
    recordsDataset,
    reply(async (ctx: AppContext) => {
      await recorder.flush();
      return { tableId: await service.datasetFromRecords(ctx.state.user!, recordsDataset.input(ctx), deps.datasets) };
    }),
  );
  router.post(
    '/modeldeploy/queryMonitor',
    ...signedIn,
    monitor,
    reply(async (ctx: AppContext) => service.monitor(ctx.state.user!, monitor.input(ctx))),
  );
  router.post(
    '/modeldeploy/decision',
    ...signedIn,
    decision,
    reply(async (ctx: AppContext) => {
      const input = decision.input(ctx);
      await service.access(ctx.state.user!, input.id, 'view');
      return runtime.decideTrusted(input.id, input.inputs, clientAddress(ctx), ctx.state.locale);
    }),
  );

  router.post(
    '/modeldeploy/createBatchDecision',
    ...signedIn,
    batchCreate,
    reply(async (ctx: AppContext) => {
      const input = batchCreate.input(ctx);
      const s = await service.access(ctx.state.user!, input.id, 'edit');
      return batches.create(ctx.state.user!, s, input.fileId, input.delimiter, ctx.state.locale);
    }),
  );
  router.post(
    '/modeldeploy/queryBatchDecisionPage',
    ...signedIn,
    batchPage,
    reply(async (ctx: AppContext) => {
      const input = batchPage.input(ctx);
      const s = await service.access(ctx.state.user!, input.id, 'view');
      return batches.page(s.id, input.page, input.pageSize);
    }),
  );
  router.get('/modeldeploy/downloadBatchDecision', ...signedIn, batchQuery, async (ctx: AppContext) => {
    const row = await batches.row(ctx.state.user!.tenantId, batchQuery.input(ctx).batchId);
    if (!row) throw new AppError('fileNotFound');
    await service.access(ctx.state.user!, row.service_id, 'view');
    if (row.state !== 'success' || !row.result_key) throw new AppError('fileNotFound');
    const name = `${row.file_name.replace(/\.csv$/i, '')}-decisions.csv`;
    await sendBlob(ctx, deps.blobs, { blobKey: row.result_key, name, size: Number(row.result_size) });
  });

  return {
    service,
    runtime,
    batches,
    recorder,
    decisionHandler,
    accessAddress: accessAddressMiddleware(decisionHandler),
    flush: () => recorder.flush(),
    retention,
    async close() {
      await retention.stop();
      await batches.close();
      await service.settle();
      await recorder.close();
    },
  };
}
