import type { Router } from '@koa/router';
import { modifyPasswordRequestSchema, resetPasswordRequestSchema } from '@decisio/domain';
import type { AppState } from '../../http/context';
import { reply, auditAs, type RouteKit } from '../../http/route';
import type { PasswordChanges } from './password-changes';
import { authorize } from './policy';

/** `index/resetPassword` (a code to the account's e-mail or mobile) and `user/modifyPassword` (old password). */
export function passwordRoutes(router: Router<AppState>, kit: RouteKit, { passwords }: { passwords: PasswordChanges }): void {
  const resetBody = kit.validate(resetPasswordRequestSchema);
  router.post(
    '/index/resetPassword',
    auditAs('login', 'index/resetPassword'),
    resetBody,
    reply(async (ctx) => {
      const result = await passwords.reset(resetBody.input(ctx));
      ctx.state.audit.userId = result.userId;
      return result;
    }),
  );

  const modifyBody = kit.validate(modifyPasswordRequestSchema);
  router.post(
    '/user/modifyPassword',
    auditAs('login', 'user/modifyPassword'),
    kit.auth,
    kit.tenant,
    modifyBody,
    reply(async (ctx) => {
      const user = ctx.state.user!;
      authorize(user, 'account:write', { userId: user.id });
      return passwords.modify(user, modifyBody.input(ctx));
    }),
  );
}
