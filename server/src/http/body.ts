import type { IncomingMessage } from 'node:http';
import { AppError } from '@decisio/domain';
import type { AppContext, AppMiddleware } from './context';

declare module 'koa' {
  interface Request {
    /** Parsed JSON body; `{}` when the request has none. */
    body?: unknown;
  }
}

/**
 * Reads the whole request body, refusing it with `bodyTooLarge` (HTTP 413) as soon as it is
 * known to be over `limitBytes`: a declared `Content-Length` before any byte is read, a chunked
 * body once its bytes pass the limit. On refusal the request stops being read (the rest is
 * drained by Node after the answer) and the answer asks the client to close the connection, so
 * the envelope reaches the client instead of a reset socket.
 */
export function readBodyLimited(ctx: AppContext, limitBytes: number): Promise<Buffer> {
  const req: IncomingMessage = ctx.req;
  const tooLarge = () => {
    ctx.set('Connection', 'close');
    return new AppError('bodyTooLarge');
  };
  const declared = Number(ctx.get('content-length') || 0);
  if (declared > limitBytes) return Promise.reject(tooLarge());
  return new Promise<Buffer>((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const cleanup = () => {
      req.off('data', onData);
      req.off('end', onEnd);
      req.off('error', onError);
      req.off('aborted', onAborted);
    };
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size > limitBytes) {
        cleanup();
        req.pause();
        reject(tooLarge());
      } else chunks.push(chunk);
    };
    const onEnd = () => {
      cleanup();
      resolve(chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks));
    };
    const onError = (err: Error) => {
      cleanup();
      reject(err);
    };
    const onAborted = () => {
      cleanup();
      reject(Object.assign(new Error('request aborted'), { code: 'ECONNRESET' }));
    };
    req.on('data', onData);
    req.on('end', onEnd);
    req.on('error', onError);
    req.on('aborted', onAborted);
  });
}

/**
 * Reads a JSON body up to `limitBytes` into `ctx.request.body` (for POST, PUT, PATCH and DELETE).
 * A body over the limit (declared or chunked) answers `bodyTooLarge` (HTTP 413); malformed JSON
 * or a non-JSON content type answer `paramInvalid`.
 */
export function jsonBody(limitBytes: number): AppMiddleware {
  return async (ctx, next) => {
    ctx.request.body = {};
    const method = ctx.method;
    if (method === 'GET' || method === 'HEAD' || method === 'OPTIONS') return next();
    const text = (await readBodyLimited(ctx, limitBytes)).toString('utf8');
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
