import { HEADER, resolveLocale } from '@decisio/domain';
import type { AppMiddleware } from './context';

/** Picks the reply language from `Accept-Language` (zh-CN default, en-US). */
export function locale(): AppMiddleware {
  return async (ctx, next) => {
    ctx.state.locale = resolveLocale(ctx.get(HEADER.language));
    await next();
  };
}
