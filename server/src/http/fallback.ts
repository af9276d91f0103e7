import { randomUUID } from 'node:crypto';
import type Koa from 'koa';
import { AppError, ErrorCode, HEADER, httpStatusOf, messageOf, resolveLocale, type ErrorCodeName } from '@decisio/domain';
import type { Logger } from '../logger';
import type { AppContext, AppState } from './context';
import { applySecurityHeaders } from './security-headers';

/** Error codes of a client that went away mid-request or mid-response: not a server fault. */
const CLIENT_GONE = new Set(['ERR_STREAM_PREMATURE_CLOSE', 'ECONNRESET', 'EPIPE', 'ECONNABORTED']);

/** The HTTP status an error carries (`http-errors` style `status` / `statusCode`), else 500. */
function statusOf(err: Error): number {
  const s = (err as { status?: unknown; statusCode?: unknown }).status ?? (err as { statusCode?: unknown }).statusCode;
  return typeof s === 'number' && s >= 400 && s <= 599 ? s : 500;
}

/** The catalogue code of an error that escaped the envelope middleware. */
export function codeNameOf(err: Error): ErrorCodeName {
  if (err instanceof AppError) return err.codeName;
  const status = statusOf(err);
  if (status === 413) return 'bodyTooLarge';
  if (status === 404) return 'notFound';
  if (status < 500) return 'paramInvalid';
  return 'internalError';
}

/**
 * Replaces Koa's `ctx.onerror`, the last stop of every error no middleware caught (one thrown
 * ahead of or around the envelope middleware, a body stream that fails before its headers went
 * out, a static file that cannot be read): instead of Koa's bare `text/plain` answer, the
 * `{code, data, message}` envelope with the code's status, the security headers and the request
 * id; every 5xx is logged with the request id. After the headers went out nothing can be
 * answered: the failure is logged (a client that went away only at debug level).
 */
export function installErrorFallback(app: Koa<AppState>, logger: Logger): void {
  app.context.onerror = function onerror(this: AppContext, raw: unknown): void {
    if (raw === null || raw === undefined) return;
    const ctx = this;
    const err = raw instanceof Error ? raw : new Error(`non-error thrown: ${String(raw)}`);
    const state = (ctx.state ?? {}) as Partial<AppState>;
    const requestId = state.requestId ?? randomUUID().replace(/-/g, '');
    const where = { requestId, method: ctx.method, path: ctx.path };
    const code = (err as { code?: unknown }).code;
    if (ctx.headerSent || !ctx.writable) {
      if (typeof code === 'string' && CLIENT_GONE.has(code)) logger.debug('client went away', { ...where, code });
      else logger.error('response failed after its headers were sent', { ...where, err });
      return;
    }
    const name = codeNameOf(err);
    const status = httpStatusOf(ErrorCode[name]);
    if (status >= 500) logger.error('unhandled error', { ...where, err });
    const res = ctx.res;
    for (const header of res.getHeaderNames()) res.removeHeader(header);
    ctx.set(HEADER.requestId, requestId);
    applySecurityHeaders(ctx);
    if (name === 'bodyTooLarge') ctx.set('Connection', 'close');
    const body = JSON.stringify({ code: ErrorCode[name], data: null, message: messageOf(name, state.locale ?? resolveLocale(ctx.get(HEADER.language))) });
    ctx.status = status;
    ctx.type = 'application/json; charset=utf-8';
    ctx.length = Buffer.byteLength(body);
    res.end(body);
  };
}
