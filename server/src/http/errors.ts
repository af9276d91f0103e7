import { AppError, validationMessage } from '@decisio/domain';
import type { Logger } from '../logger';
import type { AppMiddleware } from './context';
import { fail } from './route';
import { codeNameOf } from './fallback';
import { ValidationFailure, zodFieldErrors } from './validate';

/**
 * Turns every failure under `/api/` into the envelope: `AppError` -> its code (field details
 * translated when they are `validation.*` keys), validation failures -> `paramInvalid` with
 * field errors, unknown routes -> `notFound`, an HTTP error of a library -> its meaning (413 ->
 * `bodyTooLarge`), anything else -> `internalError` (logged with the request id; no stack or
 * message reaches the caller). What escapes (or fails ahead of) this middleware is answered by
 * the fallback of `fallback.ts`.
 */
export function errorEnvelope(logger: Logger): AppMiddleware {
  return async (ctx, next) => {
    try {
      await next();
      if (ctx.status === 404 && ctx.body === undefined && ctx.path.startsWith('/api/')) fail(ctx, 'notFound');
    } catch (err) {
      const locale = ctx.state.locale;
      if (err instanceof AppError) {
        const details = err.details
          ? Object.fromEntries(
              Object.entries(err.details).map(([k, v]) => [k, v.startsWith('validation.') ? validationMessage(v, locale) : v]),
            )
          : undefined;
        fail(ctx, err.codeName, details);
      } else if (err instanceof ValidationFailure) {
        fail(ctx, err.codeName, zodFieldErrors(err.zodError, locale, err.input));
      } else {
        // An HTTP error of a library (e.g. 413 from a body reader) keeps its meaning; the rest is ours.
        const name = err instanceof Error ? codeNameOf(err) : 'internalError';
        if (name === 'internalError') logger.error('unhandled error', { requestId: ctx.state.requestId, method: ctx.method, path: ctx.path, err });
        fail(ctx, name);
      }
      // A body over a limit is not read to its end: the client must not send its next request on this connection.
      if (ctx.status === 413) ctx.set('Connection', 'close');
    }
  };
}
