import type { Router } from '@koa/router';
import { z } from 'zod';
import {
  AppError,
  businessDecisionCreateSchema,
  businessDecisionIdSchema,
  businessDecisionListSchema,
  analysisReportCreateSchema,
  analysisReportIdSchema,
  analysisReportListSchema,
  analysisReportRenameSchema,
} from '@decisio/domain';
import type { Clock } from '../../clock';
import type { Database } from '../../db/database';
import type { AppContext, AppState } from '../../http/context';
import { reply, type RouteKit } from '../../http/route';
import type { Logger } from '../../logger';
import type { BlobStore } from '../storage/blob-store';
import { sendBlob } from '../storage/routes';
import { BusinessDecisions } from './business';
import { ReportsService } from './service';

/**
 * The Report calls of spec workflow §7 and the business decision calls (view right to read,
 * edit right to change).
 */
export function reportsRoutes(
  router: Router<AppState>,
  kit: RouteKit,
  deps: { db: Database; blobs: BlobStore; clock: Clock; logger: Logger },
): { reports: ReportsService; business: BusinessDecisions; close(): Promise<void> } {
  const reports = new ReportsService(deps.db, deps.clock, deps.logger);
  const business = new BusinessDecisions(deps.db, deps.blobs, deps.clock, deps.logger);
  const signedIn = [kit.auth, kit.tenant] as const;
  const create = kit.validate(analysisReportCreateSchema);
  const byId = kit.validate(analysisReportIdSchema);
  const rename = kit.validate(analysisReportRenameSchema);
  const list = kit.validate(analysisReportListSchema);

  router.post('/report/createAnalysisReport', ...signedIn, create, reply(async (ctx: AppContext) => reports.create(ctx.state.user!, create.input(ctx))));
  router.post(
    '/report/deleteAnalysisReport',
    ...signedIn,
    byId,
    reply(async (ctx: AppContext) => {
      await reports.remove(ctx.state.user!, byId.input(ctx).id);
      return null;
    }),
  );
  router.post(
    '/report/getAnalysisReportView',
    ...signedIn,
    byId,
    reply(async (ctx: AppContext) => reports.view(await reports.access(ctx.state.user!, byId.input(ctx).id, 'view'))),
  );
  router.post(
    '/report/getAnalysisReportDetail',
    ...signedIn,
    byId,
    reply(async (ctx: AppContext) => reports.present(await reports.access(ctx.state.user!, byId.input(ctx).id, 'view'))),
  );
  router.post('/report/getAnalysisReportList', ...signedIn, list, reply(async (ctx: AppContext) => reports.list(ctx.state.user!, list.input(ctx))));
  router.post(
    '/report/updateAnalysisReportName',
    ...signedIn,
    rename,
    reply(async (ctx: AppContext) => {
      const input = rename.input(ctx);
      return reports.rename(ctx.state.user!, input.id, input.name);
    }),
  );

  const bCreate = kit.validate(businessDecisionCreateSchema);
  const bId = kit.validate(businessDecisionIdSchema);
  const bList = kit.validate(businessDecisionListSchema);
  const bQuery = kit.validate(z.object({ id: z.string().regex(/^[0-9a-f]{32}$/) }), 'query');
  router.post(
    '/businessDecision/create',
    ...signedIn,
    bCreate,
    reply(async (ctx: AppContext) => business.create(ctx.state.user!, bCreate.input(ctx), ctx.state.locale)),
  );
  router.post('/businessDecision/list', ...signedIn, bList, reply(async (ctx: AppContext) => business.list(ctx.state.user!, bList.input(ctx))));
  router.post(
    '/businessDecision/get',
    ...signedIn,
    bId,
    reply(async (ctx: AppContext) => business.present(await business.access(ctx.state.user!, bId.input(ctx).id, 'view'))),
  );
  router.post(
    '/businessDecision/delete',
    ...signedIn,
    bId,
    reply(async (ctx: AppContext) => {
      await business.remove(ctx.state.user!, bId.input(ctx).id);
      return null;
    }),
  );
  router.get('/businessDecision/download', ...signedIn, bQuery, async (ctx: AppContext) => {
    const row = await business.access(ctx.state.user!, bQuery.input(ctx).id, 'view');
    if (row.state !== 'success' || !row.result_key) throw new AppError('fileNotFound');
    await sendBlob(ctx, deps.blobs, { blobKey: row.result_key, name: `${String(row.dataset_name)}-decisions.csv`, size: Number(row.result_size) });
  });
  return {
    reports,
    business,
    async close() {
      await business.close();
      await reports.settle();
    },
  };
}
