import type { Router } from '@koa/router';
import { z } from 'zod';
import { AppError, createServiceManagementSchema, reviewServiceManagementSchema, serviceManagementListSchema } from '@decisio/domain';
import type { AppContext, AppState } from '../../http/context';
import { reply, type RouteKit } from '../../http/route';
import { grants } from '../access/service';
import type { ServiceManagementService } from './service';

/**
 * Authorisation service calls: `userCenter/createServiceManagement`,
 * `userCenter/getServiceManagementList` (own, with the user key's state; `scope: 'all'` needs
 * `licences:write`), `userCenter/reviewServiceManagement` (`licences:write`) and
 * `userCenter/createUserPrivateKey`.
 */
export function serviceManagementRoutes(router: Router<AppState>, kit: RouteKit, { services }: { services: ServiceManagementService }): void {
  const create = kit.validate(createServiceManagementSchema);
  const list = kit.validate(serviceManagementListSchema);
  const review = kit.validate(reviewServiceManagementSchema);
  const none = kit.validate(z.object({}).strict());
  const actor = (ctx: AppContext) => ({ id: ctx.state.user!.id, tenantId: ctx.state.tenantId! });

  router.post('/userCenter/createServiceManagement', kit.auth, kit.tenant, create, kit.transaction, reply(async (ctx) => services.create(actor(ctx), create.input(ctx))));
  router.post(
    '/userCenter/getServiceManagementList',
    kit.auth,
    kit.tenant,
    list,
    reply(async (ctx) => {
      const input = list.input(ctx);
      if (input.scope === 'all' && !grants(ctx.state.user!.permissions, 'licences:write')) throw new AppError('userNotPermission');
      return services.list(actor(ctx), input);
    }),
  );
  router.post(
    '/userCenter/reviewServiceManagement',
    kit.auth,
    kit.tenant,
    kit.requirePermission('licences:write'),
    review,
    kit.transaction,
    reply(async (ctx) => {
      const { id, approve, opinion } = review.input(ctx);
      return services.review(actor(ctx), id, approve, opinion);
    }),
  );
  router.post('/userCenter/createUserPrivateKey', kit.auth, kit.tenant, none, kit.transaction, reply(async (ctx) => services.createKey(ctx.state.user!.id)));
}
