import type { Router } from '@koa/router';
import { AppError, scheduleCheckRequestSchema, scheduleHistoryRequestSchema, scheduleIdRequestSchema, schedulePageRequestSchema, scheduleSaveRequestSchema } from '@decisio/domain';
import type { AppContext, AppState } from '../../http/context';
import { reply, type RouteKit } from '../../http/route';
import type { Database } from '../../db/database';
import { authorize } from './policy';
import { checkRefreshParams } from './refresh';
import { checkPolicyUpdateParams } from './policy-update';
import type { DeployService } from '../deploy/service';
import type { SchedulesService } from './service';

/**
 * Scheduled jobs (spec platform §7 "Admin": `jobs/page`, `saveOrUpdate`, `delete`, `trigger`,
 * `pause`, `resume`, `check`) and `jobs/history` (the runs, with their job's state and report).
 * All POST with JSON.
 */
export function schedulesRoutes(router: Router<AppState>, kit: RouteKit, { schedules, db, deploy }: { schedules: SchedulesService; db: Database; /** Checks the service of a `policies.update` schedule. */ deploy: DeployService }): void {
  const read = [kit.auth, kit.tenant, kit.requirePermission('jobs:read')] as const;
  const write = [kit.auth, kit.tenant, kit.requirePermission('jobs:write')] as const;

  const pageBody = kit.validate(schedulePageRequestSchema);
  router.post(
    '/jobs/page',
    ...read,
    pageBody,
    reply((ctx: AppContext) => {
      authorize(ctx.state.user!, 'jobs:read');
      return schedules.page(ctx.state.tenantId!, pageBody.input(ctx));
    }),
  );

  const checkBody = kit.validate(scheduleCheckRequestSchema);
  router.post(
    '/jobs/check',
    ...read,
    checkBody,
    reply((ctx: AppContext) => {
      authorize(ctx.state.user!, 'jobs:read');
      const { cron, timezone } = checkBody.input(ctx);
      return schedules.check(cron, timezone);
    }),
  );

  const historyBody = kit.validate(scheduleHistoryRequestSchema);
  router.post(
    '/jobs/history',
    ...read,
    historyBody,
    reply(async (ctx: AppContext) => {
      const user = ctx.state.user!;
      const q = historyBody.input(ctx);
      if (q.id) {
        const target = await schedules.resource(q.id);
        if (!target) throw new AppError('scheduleNotFound');
        authorize(user, 'jobs:read', target);
      } else authorize(user, 'jobs:read');
      return schedules.runs(ctx.state.tenantId!, q);
    }),
  );

  const saveBody = kit.validate(scheduleSaveRequestSchema);
  router.post(
    '/jobs/saveOrUpdate',
    ...write,
    saveBody,
    kit.transaction,
    reply(async (ctx: AppContext) => {
      const user = ctx.state.user!;
      const input = saveBody.input(ctx);
      const actor = { id: user.id, username: user.username, tenantId: ctx.state.tenantId! };
      if (!input.id) {
        authorize(user, 'jobs:write', { tenantId: actor.tenantId, kind: input.kind });
        if (input.kind === 'datasets.refresh') await checkRefreshParams(db, actor, input.params.datasetId);
        if (input.kind === 'policies.update') await checkPolicyUpdateParams(db, deploy, user, input.params.serviceId);
        return schedules.save(actor, input);
      }
      const target = await schedules.resource(input.id);
      if (!target) throw new AppError('scheduleNotFound');
      authorize(user, 'jobs:write', target);
      // Turning a schedule into a host-wide kind needs the same right as creating one.
      authorize(user, 'jobs:write', { tenantId: target.tenantId, kind: input.kind });
      if (input.kind === 'datasets.refresh') await checkRefreshParams(db, actor, input.params.datasetId);
      if (input.kind === 'policies.update') await checkPolicyUpdateParams(db, deploy, user, input.params.serviceId);
      return schedules.save(actor, input, target.row);
    }),
  );

  const idBody = kit.validate(scheduleIdRequestSchema);
  /** The schedule of the body, checked for the caller. */
  const target = async (ctx: AppContext) => {
    const found = await schedules.resource(idBody.input(ctx).id);
    if (!found) throw new AppError('scheduleNotFound');
    authorize(ctx.state.user!, 'jobs:write', found);
    return found.row;
  };
  router.post(
    '/jobs/delete',
    ...write,
    idBody,
    kit.transaction,
    reply(async (ctx: AppContext) => {
      const row = await target(ctx);
      await schedules.delete(row.id);
      return { id: row.id };
    }),
  );
  router.post('/jobs/pause', ...write, idBody, kit.transaction, reply(async (ctx: AppContext) => schedules.pause(await target(ctx))));
  router.post('/jobs/resume', ...write, idBody, kit.transaction, reply(async (ctx: AppContext) => schedules.resume(await target(ctx))));
  // No transaction: the run row and the job are written on the pool (the queue's own writes).
  router.post(
    '/jobs/trigger',
    ...write,
    idBody,
    reply(async (ctx: AppContext) => {
      const row = await target(ctx);
      const user = ctx.state.user!;
      return schedules.fire(row, 'manual', new Date(), { id: user.id, username: user.username, tenantId: ctx.state.tenantId! });
    }),
  );
}
