import type { Router } from '@koa/router';
import { deleteUserRequestSchema, editUserInfoRequestSchema, emptySchema, signInRecordRequestSchema, updateUserCenterRequestSchema } from '@decisio/domain';
import type { AppContext, AppState } from '../../http/context';
import { clearSessionCookie } from '../../http/session-cookie';
import { reply, auditAs, type RouteKit } from '../../http/route';
import { authorize } from '../account/policy';
import type { UserCentreService } from './service';

/**
 * The user centre (spec platform §7): `users/getUserInfo`, `user/editUserInfo`,
 * `users/updateUserCenter`, `user/getLastSignInRecord`, `user/getDeleteImpact`, `user/deleteUser`.
 * Each acts on the caller's own account (`authorize` of the account policy).
 */
export function userCentreRoutes(router: Router<AppState>, kit: RouteKit, { centre }: { centre: UserCentreService }): void {
  const self = (ctx: AppContext, action: 'account:read' | 'account:write') => {
    const user = ctx.state.user!;
    authorize(user, action, { userId: user.id });
    return user;
  };
  const noPayload = kit.validate(emptySchema);
  router.post('/users/getUserInfo', kit.auth, kit.tenant, noPayload, reply((ctx) => centre.info(self(ctx, 'account:read').id)));

  const edit = kit.validate(editUserInfoRequestSchema);
  router.post('/user/editUserInfo', kit.auth, kit.tenant, edit, reply((ctx) => centre.edit(self(ctx, 'account:write'), edit.input(ctx))));

  const update = kit.validate(updateUserCenterRequestSchema);
  router.post(
    '/users/updateUserCenter',
    auditAs('login', 'users/updateUserCenter'),
    kit.auth,
    kit.tenant,
    update,
    reply((ctx) => centre.update(self(ctx, 'account:write'), update.input(ctx))),
  );

  const records = kit.validate(signInRecordRequestSchema);
  router.post('/user/getLastSignInRecord', kit.auth, kit.tenant, records, reply((ctx) => centre.signInRecords(self(ctx, 'account:read'), records.input(ctx).limit)));

  router.post('/user/getDeleteImpact', kit.auth, kit.tenant, noPayload, reply((ctx) => centre.deleteImpact(self(ctx, 'account:read').id)));

  const remove = kit.validate(deleteUserRequestSchema);
  router.post(
    '/user/deleteUser',
    auditAs('login', 'user/deleteUser'),
    kit.auth,
    kit.tenant,
    remove,
    reply(async (ctx) => {
      const result = await centre.deleteAccount(self(ctx, 'account:write'), remove.input(ctx).confirm);
      clearSessionCookie(ctx);
      return result;
    }),
  );
}
