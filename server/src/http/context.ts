import type { ParameterizedContext, Middleware } from 'koa';
import type { Locale } from '@decisio/domain';
import type { ServerCallUser } from '@decisio/sdk-plugin/server';
import type { LogType } from '../modules/logs/models';

/** The signed-in caller, resolved by the `auth` middleware. */
export interface AuthUser extends ServerCallUser {
  nickname: string | null;
  /** Session the token belongs to. */
  sessionId: string;
  /** Expiry of the session token. */
  expiresAt: Date;
  roleList: { id: string; code: string; name: string; isSystem: boolean }[];
  /** An admin reset the password: only the password change and sign-out are allowed. */
  mustChangePassword?: boolean;
}

/** Per-request state (`ctx.state`). */
export interface AppState {
  requestId: string;
  locale: Locale;
  /** Set by `auth`. */
  user: AuthUser | null;
  /** Set by `tenant`: the caller's tenant id, checked to exist. */
  tenantId: string | null;
  /** Validated input of the route, set by `validate`. */
  input: unknown;
  /** How the call is written to the system log. */
  audit: { title?: string; type?: LogType; skip?: boolean; userId?: string; username?: string; tenantId?: string };
}

/** Koa context of this server. */
export type AppContext = ParameterizedContext<AppState>;
/** Koa middleware of this server. */
export type AppMiddleware = Middleware<AppState>;

/** Gives every request the same starting state (no user, no tenant, no input). */
export function initState(): AppMiddleware {
  return async (ctx, next) => {
    ctx.state.user = null;
    ctx.state.tenantId = null;
    ctx.state.input = undefined;
    ctx.state.audit = {};
    await next();
  };
}
