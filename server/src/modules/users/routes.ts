import type { Router } from '@koa/router';
import { AppError, userIdRequestSchema, userListRequestSchema, type UserStatus } from '@decisio/domain';
import type { AppContext, AppState } from '../../http/context';
import { reply } from '../../http/envelope';
import type { RouteKit } from '../../http/route';
import type { SignInThrottle } from '../account/throttle';
import { authorize } from './policy';
import { presentUserListItem, presentUserStatus } from './presenters';
import type { UsersService } from './service';

/**
 * Admin user management: `users/getUserList` (GET query or POST body), `users/stopUser`,
 * `users/startUser`, `users/unlockUser` (clears the sign-in lock and failure count of an account).
 */
export function usersRoutes(router: Router<AppState>, kit: RouteKit, { users, throttle }: { users: UsersService; throttle: SignInThrottle }): void {
  const listQuery = kit.validate(userListRequestSchema, 'query');
  const listBody = kit.validate(userListRequestSchema);
  const idBody = kit.validate(userIdRequestSchema);

  const list = (input: typeof listQuery) =>
    reply(async (ctx: AppContext) => {
      authorize(ctx.state.user!, 'users:read');
      const page = await users.list(ctx.state.tenantId!, input.input(ctx));
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
}
