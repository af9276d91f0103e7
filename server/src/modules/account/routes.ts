import type { Router } from '@koa/router';
import { emptySchema, signInRequestSchema, signUpRequestSchema } from '@decisio/domain';
import type { AppContext, AppState, AuthUser } from '../../http/context';
import { reply, auditAs, type RouteKit } from '../../http/route';
import { clientAddress } from '../../http/proxy';
import { clearSessionCookie, setSessionCookie } from '../../http/session-cookie';
import type { TransportKeys } from './keys';
import { authorize } from './policy';
import type { AccountService } from './service';

/** Dependencies of the account routes. */
export interface AccountRouteDeps {
  account: AccountService;
  keys: TransportKeys;
}

function caller(ctx: AppContext): AuthUser {
  return ctx.state.user!;
}

/**
 * `index/getPublicKey`, `index/signUp`, `index/signIn`, `user/signOut`, `user/checkToken`,
 * `user/getUser` (spec platform §7 "Sign-in and account").
 */
export function accountRoutes(router: Router<AppState>, kit: RouteKit, { account, keys }: AccountRouteDeps): void {
  const noPayload = kit.validate(emptySchema);
  const signUpBody = kit.validate(signUpRequestSchema);
  const signInBody = kit.validate(signInRequestSchema);

  router.post('/index/getPublicKey', noPayload, reply(() => keys.publicKey()));

  router.post(
    '/index/signUp',
    auditAs('login', 'index/signUp'),
    signUpBody,
    reply(async (ctx) => {
      const result = await account.signUp(signUpBody.input(ctx));
      Object.assign(ctx.state.audit, { userId: result.userId, username: result.username });
      return result;
    }),
  );

  router.post(
    '/index/signIn',
    auditAs('login', 'index/signIn'),
    signInBody,
    reply(async (ctx) => {
      ctx.state.audit.username = signInBody.input(ctx).username;
      const { response, user } = await account.signIn(signInBody.input(ctx), {
        // The throttle counts against it: X-Forwarded-For only from a trusted proxy (TRUST_PROXY).
        ip: clientAddress(ctx),
        userAgent: ctx.get('user-agent'),
      });
      Object.assign(ctx.state.audit, { userId: user.id, username: user.username, tenantId: user.tenantId });
      setSessionCookie(ctx, response.accessToken, new Date(response.expiresAt));
      return response;
    }),
  );

  router.post(
    '/user/signOut',
    auditAs('login', 'user/signOut'),
    kit.auth,
    noPayload,
    reply(async (ctx) => {
      const user = caller(ctx);
      authorize(user, 'account:signOut', { userId: user.id });
      await account.signOut(user);
      clearSessionCookie(ctx);
      return null;
    }),
  );

  router.post('/user/checkToken', kit.auth, noPayload, reply((ctx) => account.checkToken(caller(ctx))));

  router.post(
    '/user/getUser',
    kit.auth,
    kit.tenant,
    noPayload,
    reply((ctx) => {
      const user = caller(ctx);
      authorize(user, 'account:read', { userId: user.id });
      return account.currentUser(user);
    }),
  );
}
