import type { Router } from '@koa/router';
import { AppError, marketImportSchema, marketListSchema, marketModelIdSchema, marketPublishSchema, marketUnpublishSchema, marketVersionIdSchema } from '@decisio/domain';
import type { Clock } from '../../clock';
import type { Database } from '../../db/database';
import type { AppContext, AppState } from '../../http/context';
import { reply, type RouteKit } from '../../http/route';
import type { JobQueue } from '../../jobs/queue';
import { ModellingRecords } from '../modelling/records';
import type { SolutionsService } from '../solutions/service';
import type { BlobStore } from '../storage/blob-store';
import { sendBlob } from '../storage/routes';
import { authorize } from './policy';
import { MarketService } from './service';

/**
 * The model market (issue 20 item 5): `market/list`, `market/get`, `market/publish`,
 * `market/unpublish`, `market/import`, `market/getOnnxDownloadUrl` and
 * `GET market/download/:versionId` (the ONNX file of a policy version).
 */
export function marketRoutes(
  router: Router<AppState>,
  kit: RouteKit,
  deps: { db: Database; blobs: BlobStore; clock: Clock; jobs: JobQueue; solutions: SolutionsService },
): MarketService {
  const market = new MarketService({
    db: deps.db,
    blobs: deps.blobs,
    clock: deps.clock,
    solutions: deps.solutions,
    records: new ModellingRecords({ db: deps.db, jobs: deps.jobs, blobs: deps.blobs }),
  });
  const user = (ctx: AppContext) => ctx.state.user!;
  const chain = [kit.auth, kit.tenant, kit.requirePermission('projects:use')] as const;

  const listBody = kit.validate(marketListSchema);
  router.post(
    '/market/list',
    ...chain,
    listBody,
    reply((ctx) => {
      authorize(user(ctx), 'market:read');
      return market.list(user(ctx), listBody.input(ctx));
    }),
  );
  const modelBody = kit.validate(marketModelIdSchema);
  router.post(
    '/market/get',
    ...chain,
    modelBody,
    reply((ctx) => {
      authorize(user(ctx), 'market:read');
      return market.get(user(ctx), modelBody.input(ctx).modelId);
    }),
  );
  const publishBody = kit.validate(marketPublishSchema);
  router.post(
    '/market/publish',
    ...chain,
    publishBody,
    // No `kit.transaction`: the service runs its own, so that it can remove the copied files once a failure has rolled the rows back.
    reply((ctx) => {
      authorize(user(ctx), 'market:publish');
      return market.publish(user(ctx), publishBody.input(ctx));
    }),
  );
  const unpublishBody = kit.validate(marketUnpublishSchema);
  router.post(
    '/market/unpublish',
    ...chain,
    unpublishBody,
    reply((ctx) => {
      authorize(user(ctx), 'market:publish');
      return market.unpublish(user(ctx), unpublishBody.input(ctx));
    }),
  );
  const importBody = kit.validate(marketImportSchema);
  router.post(
    '/market/import',
    ...chain,
    importBody,
    reply((ctx) => {
      authorize(user(ctx), 'market:import');
      return market.import(user(ctx), importBody.input(ctx), ctx.state.locale);
    }),
  );
  const versionBody = kit.validate(marketVersionIdSchema);
  router.post(
    '/market/getOnnxDownloadUrl',
    ...chain,
    versionBody,
    reply(async (ctx) => {
      authorize(user(ctx), 'market:read');
      const { url, name, size } = await market.onnx(user(ctx), versionBody.input(ctx).versionId);
      return { url, name, size };
    }),
  );
  router.get('/market/download/:versionId', ...chain, async (ctx) => {
    authorize(user(ctx), 'market:read');
    const id = String(ctx.params.versionId ?? '');
    if (!/^[0-9a-f]{32}$/.test(id)) throw new AppError('marketVersionNotFound');
    const file = await market.onnx(user(ctx), id);
    await sendBlob(ctx, deps.blobs, { blobKey: file.blobKey, name: file.name, size: file.size });
  });
  return market;
}
