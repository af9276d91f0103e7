import type { Router } from '@koa/router';
import { z } from 'zod';
import {
  AppError,
  idSchema,
  menuCreateSchema,
  menuTreePageRequestSchema,
  menuUpdateSchema,
  roleCreateSchema,
  roleListRequestSchema,
  rolePermissionRequestSchema,
  roleUpdateSchema,
} from '@decisio/domain';
import type { AppContext, AppState } from '../../http/context';
import { reply, type RouteKit } from '../../http/route';
import type { MenusService } from './menus';
import { presentRole, type RolesService } from './roles';

const idParam = z.object({ id: idSchema });

/** The `{id}` of a REST path, validated (`paramInvalid` otherwise). */
export function pathId(ctx: AppContext): string {
  const parsed = idParam.safeParse((ctx as unknown as { params?: Record<string, string> }).params ?? {});
  if (!parsed.success) throw new AppError('paramInvalid', { id: 'validation.invalid' });
  return parsed.data.id;
}

/**
 * Roles (`GET roles/list`, `POST roles/getRoleList`, `POST roles`, `PUT roles/{id}`,
 * `DELETE roles/{id}`, `PUT roles/permission`, `GET roles/menuIds/{id}`) and menus (`GET
 * menus/tree`, `GET menus/treePage`, `GET menus/list`, `POST menus`, `PUT menus/{id}`,
 * `DELETE menus/{id}`). Reads need `<x>:read` (checked by the route table), writes `<x>:write`.
 */
export function accessRoutes(router: Router<AppState>, kit: RouteKit, { roles, menus }: { roles: RolesService; menus: MenusService }): void {
  const read = (p: string) => [kit.auth, kit.tenant, kit.requirePermission(p)] as const;
  const write = (p: string) => [kit.auth, kit.tenant, kit.requirePermission(p)] as const;

  router.get('/roles/list', ...read('roles:read'), reply((ctx: AppContext) => roles.list(ctx.state.user!)));
  const rolePage = kit.validate(roleListRequestSchema);
  router.post('/roles/getRoleList', ...read('roles:read'), rolePage, reply((ctx: AppContext) => roles.page(ctx.state.user!, rolePage.input(ctx))));
  router.get(
    '/roles/menuIds/:id',
    ...read('roles:read'),
    reply((ctx: AppContext) => roles.menuIds(ctx.state.user!, pathId(ctx))),
  );
  const permissionBody = kit.validate(rolePermissionRequestSchema);
  router.put(
    '/roles/permission',
    ...write('roles:write'),
    permissionBody,
    kit.transaction,
    reply((ctx: AppContext) => roles.setPermission(ctx.state.user!, permissionBody.input(ctx))),
  );
  const roleBody = kit.validate(roleCreateSchema);
  router.post('/roles', ...write('roles:write'), roleBody, kit.transaction, reply((ctx: AppContext) => roles.create(ctx.state.user!, roleBody.input(ctx))));
  const roleUpdate = kit.validate(roleUpdateSchema);
  router.put(
    '/roles/:id',
    ...write('roles:write'),
    roleUpdate,
    kit.transaction,
    reply((ctx: AppContext) => roles.update(ctx.state.user!, pathId(ctx), roleUpdate.input(ctx))),
  );
  router.delete(
    '/roles/:id',
    ...write('roles:write'),
    kit.transaction,
    reply(async (ctx: AppContext) => {
      const id = pathId(ctx);
      await roles.remove(ctx.state.user!, id);
      return { id, deleted: true };
    }),
  );
  router.get('/roles/:id', ...read('roles:read'), reply(async (ctx: AppContext) => presentRole(await roles.get(ctx.state.user!, pathId(ctx)))));

  router.get('/menus/tree', ...read('menus:read'), reply(() => menus.tree()));
  router.get('/menus/list', ...read('menus:read'), reply(() => menus.list()));
  const treePage = kit.validate(menuTreePageRequestSchema, 'query');
  router.get('/menus/treePage', ...read('menus:read'), treePage, reply((ctx: AppContext) => menus.treePage(treePage.input(ctx))));
  const menuBody = kit.validate(menuCreateSchema);
  router.post('/menus', ...write('menus:write'), menuBody, kit.transaction, reply((ctx: AppContext) => menus.create(menuBody.input(ctx))));
  const menuUpdate = kit.validate(menuUpdateSchema);
  router.put('/menus/:id', ...write('menus:write'), menuUpdate, kit.transaction, reply((ctx: AppContext) => menus.update(pathId(ctx), menuUpdate.input(ctx))));
  router.delete(
    '/menus/:id',
    ...write('menus:write'),
    kit.transaction,
    reply(async (ctx: AppContext) => {
      const id = pathId(ctx);
      await menus.remove(id);
      return { id, deleted: true };
    }),
  );
}
