import { ErrorCode, httpStatusOf, messageOf, type Envelope, type ErrorCodeName } from '@decisio/domain';
import type { AppContext, AppMiddleware } from './context';

/** Answers `{code: 0, data, message}` with HTTP 200. */
export function ok<T>(ctx: AppContext, data: T): void {
  ctx.status = 200;
  ctx.body = { code: ErrorCode.success, data, message: messageOf('success', ctx.state.locale) } satisfies Envelope<T>;
}

/** Answers a catalogue code with its HTTP status, translated message and optional field errors. */
export function fail(ctx: AppContext, name: ErrorCodeName, errors?: Record<string, string>): void {
  const code = ErrorCode[name];
  ctx.status = httpStatusOf(code);
  const body: Envelope<null> = { code, data: null, message: messageOf(name, ctx.state.locale) };
  if (errors && Object.keys(errors).length > 0) body.errors = errors;
  ctx.body = body;
}

/**
 * The last step of a route chain: runs `fn` and answers its result as the envelope's `data`.
 * Errors propagate to the error middleware.
 */
export function reply<T>(fn: (ctx: AppContext) => Promise<T> | T): AppMiddleware {
  return async (ctx) => {
    ok(ctx, await fn(ctx));
  };
}
