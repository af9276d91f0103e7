/**
 * A route's pipeline: the steps a module's routes are built from (`RouteKit`, wired once in
 * `app.ts`), the checks they run (the route table's permission check inside `kit.auth`, the
 * caller's tenant), and the envelope the last step answers with. A route reads as its chain:
 * `router.post('/users/stopUser', kit.auth, kit.tenant, kit.requirePermission('users:write'),
 * body, kit.transaction, reply(handler))`; `postCalls` mounts that chain for a module's JSON calls.
 * Authentication (`auth.ts`) and body validation (`validate.ts`) are their own files.
 */
import type { Router } from '@koa/router';
import type { z } from 'zod';
import {
  AppError,
  ErrorCode,
  ROUTE_PERMISSIONS,
  SELF_SERVICE_PATHS,
  httpStatusOf,
  messageOf,
  routeSegment,
  type Envelope,
  type ErrorCodeName,
} from '@decisio/domain';
import type { Database } from '../db/database';
import { grants } from '../modules/access/service';
import type { LogType } from '../modules/logs/models';
import { TenantModel } from '../modules/tenancy/models';
import { tenantStatusSeenByAuth } from './auth';
import type { AppContext, AppMiddleware, AppState, AuthUser } from './context';
import type { validate } from './validate';

/** The steps of a route chain. */
export interface RouteKit {
  /** Session token -> `ctx.state.user`, then the route table's permission check (`authWithRouteCheck`). */
  auth: AppMiddleware;
  /** The caller's tenant must exist -> `ctx.state.tenantId` (`createTenantScope`). */
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

// --- the caller's tenant -------------------------------------------------------------------

/**
 * Checks that the caller's tenant exists and is enabled (`tenantNotExists` otherwise) and sets
 * `ctx.state.tenantId`, the scope every tenant-owned query of the call must use. After `auth`,
 * which reads the tenant's status in its own statement (no second query).
 */
export function createTenantScope(db: Database): AppMiddleware {
  return async (ctx, next) => {
    const user = ctx.state.user;
    if (!user) throw new AppError('unauthorized');
    // `auth` read the tenant's status with the caller in this call; read it here only when it did not.
    const seen = tenantStatusSeenByAuth(user);
    const status = seen !== undefined ? seen : (await TenantModel.query(db.executor()).findById(user.tenantId))?.status;
    if (status !== 'enabled') throw new AppError('tenantNotExists');
    ctx.state.tenantId = user.tenantId;
    await next();
  };
}

// --- the route table's permission check ----------------------------------------------------

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

// --- the envelope --------------------------------------------------------------------------

/** Answers `{code: 0, data, message}` with HTTP 200. */
export function ok<T>(ctx: AppContext, data: T): void {
  ctx.status = 200;
  ctx.body = { code: ErrorCode.success, data, message: messageOf('success', ctx.state.locale) } satisfies Envelope<T>;
}

/** Answers a catalogue code with its HTTP status, translated message and optional field errors. */
export function fail(ctx: AppContext, name: ErrorCodeName, errors?: Record<string, string>): void {
  const code = ErrorCode[name];
  ctx.status = httpStatusOf(code);
  const body: Envelope<null> = { code, data: null, message: messageOf(name, ctx.state.locale) };
  if (errors && Object.keys(errors).length > 0) body.errors = errors;
  ctx.body = body;
}

/**
 * The last step of a route chain: runs `fn` and answers its result as the envelope's `data`.
 * Errors propagate to the error middleware.
 */
export function reply<T>(fn: (ctx: AppContext) => Promise<T> | T): AppMiddleware {
  return async (ctx) => {
    ok(ctx, await fn(ctx));
  };
}

// --- a module's JSON calls -----------------------------------------------------------------

/** Mounts one `POST` call with its request schema; `fn` gets the checked body and the caller. */
export type PostRoute = <S extends z.ZodType>(path: string, schema: S, fn: (input: z.output<S>, user: AuthUser, ctx: AppContext) => Promise<unknown>) => void;

/**
 * The usual chain of a signed-in JSON call on `router`: `kit.auth` (with the route table's
 * check), `kit.tenant`, the body checked by `schema`, `reply(fn)`.
 */
export function postCalls(router: Router<AppState>, kit: RouteKit): PostRoute {
  return (path, schema, fn) => {
    const body = kit.validate(schema);
    router.post(path, kit.auth, kit.tenant, body, reply((ctx) => fn(body.input(ctx), ctx.state.user!, ctx)));
  };
}
