import { randomUUID } from 'node:crypto';
import { HEADER } from '@decisio/domain';
import type { AppMiddleware } from './context';

const SAFE_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/**
 * Reads the caller's `RequestId` header (kept when it is 1-128 safe characters) or makes one,
 * keeps it in `ctx.state.requestId` and echoes it in the `RequestId` response header.
 */
export function requestId(): AppMiddleware {
  return async (ctx, next) => {
    const given = ctx.get(HEADER.requestId);
    const id = given && SAFE_ID.test(given) ? given : randomUUID().replace(/-/g, '');
    ctx.state.requestId = id;
    ctx.set(HEADER.requestId, id);
    await next();
  };
}
