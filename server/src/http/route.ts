import type { LogType } from '../modules/logs/models';
import type { AppMiddleware } from './context';
import type { validate } from './validate';

/**
 * The steps a module's routes are built from, wired once in `app.ts`. A route reads as its
 * chain: `router.post('/users/stopUser', kit.auth, kit.tenant, kit.requirePermission('users:write'),
 * body, kit.transaction, reply(handler))`.
 */
export interface RouteKit {
  /** Session token -> `ctx.state.user`. */
  auth: AppMiddleware;
  /** The caller's tenant must exist -> `ctx.state.tenantId`. */
  tenant: AppMiddleware;
  /** The rest of the chain in one transaction. */
  transaction: AppMiddleware;
  requirePermission(permission: string): AppMiddleware;
  validate: typeof validate;
}

/** Sets how the call appears in the system log (title and/or type). */
export function auditAs(type: LogType, title?: string): AppMiddleware {
  return async (ctx, next) => {
    ctx.state.audit.type = type;
    if (title) ctx.state.audit.title = title;
    await next();
  };
}
