import { AppError } from '@decisio/domain';
import { grants } from '../modules/access/service';
import type { AppMiddleware } from './context';

/**
 * Requires a permission of the caller's roles; answers `userNotPermission` (403) otherwise.
 * Put after `auth`.
 */
export function requirePermission(permission: string): AppMiddleware {
  return async (ctx, next) => {
    const user = ctx.state.user;
    if (!user) throw new AppError('unauthorized');
    if (!grants(user.permissions, permission)) throw new AppError('userNotPermission');
    await next();
  };
}
