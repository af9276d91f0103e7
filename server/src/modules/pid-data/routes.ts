import type { Router } from '@koa/router';
import { AppError, pidDataCreateSchema, pidDataIdSchema, pidDataListSchema, pidDownloadRecordSchema } from '@decisio/domain';
import type { Clock } from '../../clock';
import type { Database } from '../../db/database';
import type { AppContext, AppState } from '../../http/context';
import { reply, type RouteKit } from '../../http/route';
import { authorize } from './policy';
import { PidDataService } from './service';

/**
 * The feedback-control trial calls (spec workflow §7 `pidData`): `createPidData` (save a result
 * the browser computed), `getPidDataList`, `getPidResult`, `saveDownloadRecord` (note a local
 * download). The trial file never reaches the server. Rights: the route table's `projects:use`,
 * then ownership (`policy.ts`).
 */
export function pidDataRoutes(router: Router<AppState>, kit: RouteKit, deps: { db: Database; clock: Clock }): PidDataService {
  const service = new PidDataService(deps.db, deps.clock);
  const signedIn = [kit.auth, kit.tenant] as const;
  const create = kit.validate(pidDataCreateSchema);
  const list = kit.validate(pidDataListSchema);
  const byId = kit.validate(pidDataIdSchema);
  const download = kit.validate(pidDownloadRecordSchema);

  router.post(
    '/pidData/createPidData',
    ...signedIn,
    create,
    kit.transaction,
    reply(async (ctx: AppContext) => {
      authorize(ctx.state.user!, 'pidData:create');
      return service.create(ctx.state.user!, create.input(ctx));
    }),
  );
  router.post(
    '/pidData/getPidDataList',
    ...signedIn,
    list,
    reply(async (ctx: AppContext) => {
      authorize(ctx.state.user!, 'pidData:read');
      return service.list(ctx.state.user!, list.input(ctx));
    }),
  );
  router.post(
    '/pidData/getPidResult',
    ...signedIn,
    byId,
    reply(async (ctx: AppContext) => {
      const found = await service.resource(byId.input(ctx).id);
      if (!found) throw new AppError('pidDataNotFound');
      authorize(ctx.state.user!, 'pidData:read', found);
      return service.detail(found.row);
    }),
  );
  router.post(
    '/pidData/saveDownloadRecord',
    ...signedIn,
    download,
    kit.transaction,
    reply(async (ctx: AppContext) => {
      const input = download.input(ctx);
      if (input.pidDataId) {
        const found = await service.resource(input.pidDataId);
        if (!found) throw new AppError('pidDataNotFound');
        authorize(ctx.state.user!, 'pidData:download', found);
      }
      return service.recordDownload(ctx.state.user!, input);
    }),
  );
  return service;
}
