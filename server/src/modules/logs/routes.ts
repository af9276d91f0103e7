import type { Router } from '@koa/router';
import { logDeleteRequestSchema, logFilterSchema, logPageRequestSchema, logRetentionRequestSchema } from '@decisio/domain';
import type { AppContext, AppState } from '../../http/context';
import { reply, type RouteKit } from '../../http/route';
import { authorize } from './policy';
import type { LogsService } from './service';

/**
 * The system log (spec platform §7 "Admin": `POST logs/page`, `DELETE logs/delete`), plus
 * `GET logs/export` (the filtered rows as CSV; the token may come from the cookie so that a
 * plain download link works), `GET logs/getRetention` and `POST logs/setRetention` (system
 * roles: rows older than this are removed by the `logs.retention` scheduled job).
 */
export function logsRoutes(router: Router<AppState>, kit: RouteKit, { logs }: { logs: LogsService }): void {
  const read = [kit.auth, kit.tenant, kit.requirePermission('logs:read')] as const;
  const write = [kit.auth, kit.tenant, kit.requirePermission('logs:write')] as const;

  const pageBody = kit.validate(logPageRequestSchema);
  router.post(
    '/logs/page',
    ...read,
    pageBody,
    reply((ctx: AppContext) => logs.page(authorize(ctx.state.user!, 'logs:read'), pageBody.input(ctx))),
  );

  const exportQuery = kit.validate(logFilterSchema, 'query');
  router.get('/logs/export', ...read, exportQuery, async (ctx: AppContext) => {
    const scope = authorize(ctx.state.user!, 'logs:read');
    const stamp = new Date().toISOString().slice(0, 19).replace(/[-:T]/g, '');
    ctx.set('Content-Disposition', `attachment; filename="system-log-${stamp}.csv"`);
    ctx.set('Cache-Control', 'no-store');
    ctx.type = 'text/csv; charset=utf-8';
    ctx.body = logs.exportCsv(scope, exportQuery.input(ctx));
  });

  const deleteBody = kit.validate(logDeleteRequestSchema);
  router.delete(
    '/logs/delete',
    ...write,
    deleteBody,
    kit.transaction,
    reply(async (ctx: AppContext) => ({ deleted: await logs.delete(authorize(ctx.state.user!, 'logs:write'), deleteBody.input(ctx)) })),
  );

  router.get(
    '/logs/getRetention',
    ...read,
    reply((ctx: AppContext) => {
      authorize(ctx.state.user!, 'logs:read');
      return logs.retention();
    }),
  );
  const retentionBody = kit.validate(logRetentionRequestSchema);
  router.post(
    '/logs/setRetention',
    ...write,
    retentionBody,
    reply((ctx: AppContext) => {
      const user = ctx.state.user!;
      authorize(user, 'logs:retention');
      return logs.setRetention(retentionBody.input(ctx).days, user.username);
    }),
  );
}
