import type { AppMiddleware } from './context';

/**
 * Cross-origin isolation on every response: the compute core uses SharedArrayBuffer in the
 * browser, which needs COOP `same-origin` and COEP `require-corp`.
 */
export function crossOriginIsolation(): AppMiddleware {
  return async (ctx, next) => {
    ctx.set('Cross-Origin-Opener-Policy', 'same-origin');
    ctx.set('Cross-Origin-Embedder-Policy', 'require-corp');
    ctx.set('Cross-Origin-Resource-Policy', 'same-origin');
    ctx.set('X-Content-Type-Options', 'nosniff');
    await next();
  };
}
