import type { Router } from '@koa/router';
import {
  AppError,
  orgCreateSchema,
  orgListRequestSchema,
  orgUpdateSchema,
  tenantCreateSchema,
  tenantPageRequestSchema,
  tenantUpdateSchema,
} from '@decisio/domain';
import type { AppContext, AppState } from '../../http/context';
import { reply, type RouteKit } from '../../http/route';
import { pathId } from '../access/routes';
import { orgTenantOf, type OrgsService } from './orgs';
import type { TenantsService } from './tenants';

/**
 * Organisations (`GET orgs/tree`, `GET orgs/list`, `POST orgs`, `PUT orgs/{id}`,
 * `DELETE orgs/{id}`) and tenants (`GET tenant/list`, `POST tenant/page`, `POST tenant/addTenant`,
 * `POST tenant/uplTenant`, `DELETE tenant/{id}`). Creating, editing and deleting tenants is for
 * system admins (`tenants:write` and the system role).
 */
export function tenancyRoutes(router: Router<AppState>, kit: RouteKit, { orgs, tenants }: { orgs: OrgsService; tenants: TenantsService }): void {
  const chain = (p: string) => [kit.auth, kit.tenant, kit.requirePermission(p)] as const;

  const orgQuery = kit.validate(orgListRequestSchema, 'query');
  router.get('/orgs/tree', ...chain('orgs:read'), orgQuery, reply((ctx: AppContext) => orgs.tree(orgTenantOf(ctx.state.user!, orgQuery.input(ctx).tenantId))));
  router.get('/orgs/list', ...chain('orgs:read'), orgQuery, reply((ctx: AppContext) => orgs.list(orgTenantOf(ctx.state.user!, orgQuery.input(ctx).tenantId))));
  const orgBody = kit.validate(orgCreateSchema);
  router.post('/orgs', ...chain('orgs:write'), orgBody, kit.transaction, reply((ctx: AppContext) => orgs.create(ctx.state.user!, orgBody.input(ctx))));
  const orgUpdate = kit.validate(orgUpdateSchema);
  router.put('/orgs/:id', ...chain('orgs:write'), orgUpdate, kit.transaction, reply((ctx: AppContext) => orgs.update(ctx.state.user!, pathId(ctx), orgUpdate.input(ctx))));
  router.delete(
    '/orgs/:id',
    ...chain('orgs:write'),
    kit.transaction,
    reply(async (ctx: AppContext) => {
      const id = pathId(ctx);
      await orgs.remove(ctx.state.user!, id);
      return { id, deleted: true };
    }),
  );

  /** Tenant changes: system admins only (a tenant admin's `tenants:write` would not do). */
  const systemOnly = async (ctx: AppContext, next: () => Promise<unknown>) => {
    if (!ctx.state.user?.isSystemRole) throw new AppError('userNotPermission');
    await next();
  };
  router.get('/tenant/list', ...chain('tenants:read'), reply((ctx: AppContext) => tenants.list(ctx.state.user!)));
  const pageBody = kit.validate(tenantPageRequestSchema);
  router.post('/tenant/page', ...chain('tenants:read'), pageBody, reply((ctx: AppContext) => tenants.page(ctx.state.user!, pageBody.input(ctx))));
  const createBody = kit.validate(tenantCreateSchema);
  router.post('/tenant/addTenant', ...chain('tenants:write'), systemOnly, createBody, kit.transaction, reply((ctx: AppContext) => tenants.create(createBody.input(ctx))));
  const updateBody = kit.validate(tenantUpdateSchema);
  router.post('/tenant/uplTenant', ...chain('tenants:write'), systemOnly, updateBody, kit.transaction, reply((ctx: AppContext) => tenants.update(ctx.state.user!, updateBody.input(ctx))));
  router.delete(
    '/tenant/:id',
    ...chain('tenants:write'),
    systemOnly,
    kit.transaction,
    reply(async (ctx: AppContext) => {
      const id = pathId(ctx);
      await tenants.remove(ctx.state.user!, id);
      return { id, deleted: true };
    }),
  );
  router.get('/tenant/:id', ...chain('tenants:read'), reply((ctx: AppContext) => tenants.get(ctx.state.user!, pathId(ctx))));
}
