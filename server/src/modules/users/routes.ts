import type { Router } from '@koa/router';
import {
  AppError,
  addUserRequestSchema,
  adminUserListRequestSchema,
  checkNameAndPhoneRequestSchema,
  updateUserRequestSchema,
  userIdRequestSchema,
  type UserStatus,
} from '@decisio/domain';
import type { AppContext, AppState } from '../../http/context';
import { reply, type RouteKit } from '../../http/route';
import type { SignInThrottle } from '../account/throttle';
import type { UserManagement } from './manage';
import { authorize } from './policy';
import { presentUserListItem, presentUserStatus } from './presenters';
import type { UsersService } from './service';

/**
 * Admin user management: `users/getUserList` (GET query or POST body; filters keyword, status,
 * role, organisation and, for system admins, tenant), `users/addUser`, `users/updateUser`,
 * `users/deleteUser`, `users/resetPassword`, `users/checkNameAndPhone`, `users/stopUser`,
 * `users/startUser`, `users/unlockUser` (clears the sign-in lock and failure count of an account).
 */
export function usersRoutes(
  router: Router<AppState>,
  kit: RouteKit,
  { users, throttle, manage }: { users: UsersService; throttle: SignInThrottle; manage: UserManagement },
): void {
  const listQuery = kit.validate(adminUserListRequestSchema, 'query');
  const listBody = kit.validate(adminUserListRequestSchema);
  const idBody = kit.validate(userIdRequestSchema);

  const list = (input: typeof listQuery) =>
    reply(async (ctx: AppContext) => {
      const actor = ctx.state.user!;
      authorize(actor, 'users:read');
      const query = input.input(ctx);
      if (query.tenantId && query.tenantId !== actor.tenantId && !actor.isSystemRole) throw new AppError('authorizationFailed');
      const tenantId = query.tenantId ?? ctx.state.tenantId!;
      await users.assertFilters(tenantId, query);
      const page = await users.list(tenantId, query);
      const locks = await throttle.lockedAccounts(page.rows.map((u) => u.id));
      return { ...page, rows: page.rows.map((u) => presentUserListItem(u, locks.get(u.id) ?? null)) };
    });
  router.get('/users/getUserList', kit.auth, kit.tenant, kit.requirePermission('users:read'), listQuery, list(listQuery));
  router.post('/users/getUserList', kit.auth, kit.tenant, kit.requirePermission('users:read'), listBody, list(listBody));

  const setStatus = (status: UserStatus) =>
    reply(async (ctx: AppContext) => {
      const { userId } = idBody.input(ctx);
      const target = await users.resource(userId);
      if (!target) throw new AppError('userNotFound');
      authorize(ctx.state.user!, 'users:write', target);
      await users.setStatus(userId, status);
      return presentUserStatus(userId, status);
    });
  const write = [kit.auth, kit.tenant, kit.requirePermission('users:write'), idBody, kit.transaction] as const;
  router.post('/users/stopUser', ...write, setStatus('disabled'));
  router.post('/users/startUser', ...write, setStatus('enabled'));
  router.post(
    '/users/unlockUser',
    ...write,
    reply(async (ctx: AppContext) => {
      const { userId } = idBody.input(ctx);
      const target = await users.resource(userId);
      if (!target) throw new AppError('userNotFound');
      authorize(ctx.state.user!, 'users:write', target);
      await throttle.unlockAccount(userId);
      return { userId, unlocked: true };
    }),
  );
  /** The account an id names, checked against the caller (`userNotFound` for other tenants). */
  const target = async (ctx: AppContext, userId: string) => {
    const found = await users.resource(userId);
    if (!found) throw new AppError('userNotFound');
    authorize(ctx.state.user!, 'users:write', found);
  };
  const writeChain = [kit.auth, kit.tenant, kit.requirePermission('users:write')] as const;

  const checkBody = kit.validate(checkNameAndPhoneRequestSchema);
  router.post(
    '/users/checkNameAndPhone',
    kit.auth,
    kit.tenant,
    kit.requirePermission('users:read'),
    checkBody,
    reply((ctx: AppContext) => manage.checkNameAndPhone(checkBody.input(ctx))),
  );

  const addBody = kit.validate(addUserRequestSchema);
  router.post(
    '/users/addUser',
    ...writeChain,
    addBody,
    kit.transaction,
    reply(async (ctx: AppContext) => {
      authorize(ctx.state.user!, 'users:write');
      return manage.add(ctx.state.user!, addBody.input(ctx));
    }),
  );

  const updateBody = kit.validate(updateUserRequestSchema);
  router.post(
    '/users/updateUser',
    ...writeChain,
    updateBody,
    kit.transaction,
    reply(async (ctx: AppContext) => {
      const input = updateBody.input(ctx);
      await target(ctx, input.userId);
      await manage.update(ctx.state.user!, input);
      return { userId: input.userId };
    }),
  );

  const deleteUser = reply(async (ctx: AppContext) => {
    const { userId } = idBody.input(ctx);
    // One's own account goes from the user centre (its deletion checks the password), not here.
    if (userId === ctx.state.user!.id) throw new AppError('deleteAccountFailed');
    await target(ctx, userId);
    await manage.remove(userId);
    return { userId, deleted: true };
  });
  router.post('/users/deleteUser', ...write, deleteUser);

  router.post(
    '/users/resetPassword',
    ...write,
    reply(async (ctx: AppContext) => {
      const { userId } = idBody.input(ctx);
      await target(ctx, userId);
      return manage.resetPassword(userId);
    }),
  );
}
