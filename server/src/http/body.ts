import { AppError } from '@decisio/domain';
import type { AppMiddleware } from './context';

declare module 'koa' {
  interface Request {
    /** Parsed JSON body; `{}` when the request has none. */
    body?: unknown;
  }
}

/**
 * Reads a JSON body up to `limitBytes` into `ctx.request.body` (for POST, PUT, PATCH and DELETE).
 * Malformed JSON, a body over the limit or a non-JSON content type answer `paramInvalid`.
 */
export function jsonBody(limitBytes: number): AppMiddleware {
  return async (ctx, next) => {
    ctx.request.body = {};
    const method = ctx.method;
    if (method === 'GET' || method === 'HEAD' || method === 'OPTIONS') return next();
    const declared = Number(ctx.get('content-length') || 0);
    if (declared > limitBytes) throw new AppError('paramInvalid', { _: 'validation.invalid' }, 'Request body too large');
    const chunks: Buffer[] = [];
    let size = 0;
    for await (const chunk of ctx.req as AsyncIterable<Buffer>) {
      size += chunk.length;
      if (size > limitBytes) throw new AppError('paramInvalid', { _: 'validation.invalid' }, 'Request body too large');
      chunks.push(chunk);
    }
    const text = Buffer.concat(chunks).toString('utf8');
    if (text.trim() === '') return next();
    if (!ctx.is('application/json', '+json')) {
      throw new AppError('paramInvalid', { _: 'validation.invalid' }, 'Unsupported content type');
    }
    try {
      ctx.request.body = JSON.parse(text) as unknown;
    } catch {
      throw new AppError('paramInvalid', { _: 'validation.invalid' }, 'Malformed JSON');
    }
    await next();
  };
}
