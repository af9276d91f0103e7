import type { Router } from '@koa/router';
import {
  SIGNED_IN_PURPOSES,
  emptySchema,
  expirationTimeRequestSchema,
  generateEmailCodeRequestSchema,
  generateSmsCodeRequestSchema,
  outboxListRequestSchema,
  verifyEmailCodeRequestSchema,
  verifySmsCodeRequestSchema,
  type CodeChannel,
  type CodePurpose,
  type VerifyCodeResponse,
} from '@decisio/domain';
import type { Database } from '../../db/database';
import type { AppContext, AppMiddleware, AppState } from '../../http/context';
import { reply, auditAs, type RouteKit } from '../../http/route';
import { clientAddress } from '../../http/proxy';
import { addressKey } from '../account/throttle';
import type { CaptchaService } from './captcha';
import type { Outbox } from './outbox';
import { assertCodeAllowed } from './rules';
import type { VerificationCodes } from './service';

/** Dependencies of the code routes. */
export interface CodesRouteDeps {
  db: Database;
  codes: VerificationCodes;
  captcha: CaptchaService;
  outbox: Outbox;
}

/**
 * `captcha/captchaImage`, `index/generateEmailCode`, `index/generateSmsCode`,
 * `index/verifyEmailCode`, `index/verifySmsCode`, `index/expirationTime` (spec platform §7), and
 * `outbox/getOutboxList` for administrators (permission `outbox:read`).
 *
 * Codes for `signUp` and `resetPassword` are asked without a session; codes for
 * `changeContact` and `student` need one (401 without) and are bound to that account.
 */
export function codesRoutes(router: Router<AppState>, kit: RouteKit, { db, codes, captcha, outbox }: CodesRouteDeps): void {
  /** Runs `auth` when the body's purpose needs a session. */
  const authForPurpose: AppMiddleware = async (ctx, next) => {
    const purpose = (ctx.state.input as { purpose?: CodePurpose } | undefined)?.purpose;
    if (purpose && SIGNED_IN_PURPOSES.includes(purpose)) return kit.auth(ctx, next);
    await next();
  };
  const clientKey = (ctx: AppContext) => addressKey(clientAddress(ctx));

  router.post('/captcha/captchaImage', kit.validate(emptySchema), reply(() => captcha.issue()));

  const generate = (channel: CodeChannel, schema: typeof generateEmailCodeRequestSchema | typeof generateSmsCodeRequestSchema) => {
    const body = kit.validate(schema);
    router.post(
      `/index/generate${channel === 'email' ? 'Email' : 'Sms'}Code`,
      auditAs('login', `index/generate${channel === 'email' ? 'Email' : 'Sms'}Code`),
      body,
      authForPurpose,
      reply(async (ctx) => {
        const input = body.input(ctx) as { purpose: CodePurpose; captchaId: string; captchaCode: string; email?: string; mobile?: string };
        const target = { channel, recipient: (input.email ?? input.mobile)!, purpose: input.purpose, userId: ctx.state.user?.id ?? null };
        await captcha.check(input.captchaId, input.captchaCode);
        await assertCodeAllowed(db, target);
        return codes.send(target, clientKey(ctx), ctx.state.locale);
      }),
    );
  };
  generate('email', generateEmailCodeRequestSchema);
  generate('sms', generateSmsCodeRequestSchema);

  const verify = (channel: CodeChannel, schema: typeof verifyEmailCodeRequestSchema | typeof verifySmsCodeRequestSchema) => {
    const body = kit.validate(schema);
    router.post(
      `/index/verify${channel === 'email' ? 'Email' : 'Sms'}Code`,
      body,
      authForPurpose,
      reply(async (ctx): Promise<VerifyCodeResponse> => {
        const input = body.input(ctx) as { purpose: CodePurpose; code: string; email?: string; mobile?: string };
        const target = { channel, recipient: (input.email ?? input.mobile)!, purpose: input.purpose, userId: ctx.state.user?.id ?? null };
        const { expiresAt } = await codes.check(target, input.code);
        return { valid: true, expiresAt: expiresAt.toISOString() };
      }),
    );
  };
  verify('email', verifyEmailCodeRequestSchema);
  verify('sms', verifySmsCodeRequestSchema);

  const expiration = kit.validate(expirationTimeRequestSchema);
  router.post(
    '/index/expirationTime',
    expiration,
    reply((ctx) => {
      const { channel, recipient } = expiration.input(ctx);
      return codes.expiration(channel, recipient);
    }),
  );

  const list = kit.validate(outboxListRequestSchema);
  router.post('/outbox/getOutboxList', kit.auth, kit.tenant, kit.requirePermission('outbox:read'), list, reply((ctx) => outbox.list(list.input(ctx))));
}
