import { AppError, ROUTE_PERMISSIONS, SELF_SERVICE_PATHS, routeSegment } from '@decisio/domain';
import { grants } from '../modules/access/service';
import type { AppContext, AppMiddleware } from './context';

/**
 * Calls a user whose password an admin reset may still make: read who they are, change the
 * password, sign out. Every other signed-in call answers `passwordChangeRequired`.
 */
const WHILE_PASSWORD_RESET = new Set(['/api/user/getUser', '/api/user/checkToken', '/api/user/signOut', '/api/user/modifyPassword', '/api/users/getUserInfo']);

/**
 * The central permission check of every signed-in call, keyed by the route table
 * (`ROUTE_PERMISSIONS` of `@decisio/domain`, by the call's first path segment). Segments that
 * server plugins mount are added with `allowSegment` (a plugin checks its own permissions with
 * `requirePermission`). A segment in neither is refused: a new module must say who may call it.
 */
export class RoutePermissions {
  private readonly extra = new Map<string, readonly string[] | null>();

  /** Lets signed-in users call `/api/<segment>/...` when they hold one of `permissions` (`null`: anyone). */
  allowSegment(segment: string, permissions: readonly string[] | null = null): void {
    if (!(segment in ROUTE_PERMISSIONS)) this.extra.set(segment, permissions);
  }

  /** Permissions (any one of them) a call path needs; `null`: any signed-in user; `undefined`: unknown segment. */
  needed(path: string): readonly string[] | null | undefined {
    if (SELF_SERVICE_PATHS.has(path)) return null;
    const segment = routeSegment(path);
    if (Object.prototype.hasOwnProperty.call(ROUTE_PERMISSIONS, segment)) return ROUTE_PERMISSIONS[segment];
    return this.extra.has(segment) ? this.extra.get(segment)! : undefined;
  }

  /** The check, run right after the caller is known (`auth`). */
  check(ctx: AppContext): void {
    const user = ctx.state.user;
    if (!user) throw new AppError('unauthorized');
    const route = (ctx as unknown as { _matchedRoute?: string })._matchedRoute ?? ctx.path;
    if (user.mustChangePassword && !WHILE_PASSWORD_RESET.has(route)) throw new AppError('passwordChangeRequired');
    const needed = this.needed(route);
    if (needed === null) return;
    if (needed === undefined || !needed.some((p) => grants(user.permissions, p))) throw new AppError('userNotPermission');
  }
}

/** `auth` followed by the route table's check: what `kit.auth` is. */
export function authWithRouteCheck(auth: AppMiddleware, routes: RoutePermissions): AppMiddleware {
  return (ctx, next) =>
    auth(ctx, async () => {
      routes.check(ctx);
      await next();
    });
}
