import { AppError, HEADER, TOKEN_COOKIE } from '@decisio/domain';
import type { Database } from '../db/database';
import type { AccessService } from '../modules/access/service';
import { hashToken, type SessionService } from '../modules/sessions/service';
import type { AppContext, AppMiddleware, AuthUser } from './context';

/** The session token of a request: `Authorization` (raw or `Bearer x`), else the `token` cookie. */
export function tokenOf(ctx: AppContext): string | null {
  const header = ctx.get(HEADER.authorization).trim();
  if (header) {
    const m = /^Bearer\s+(.+)$/i.exec(header);
    return (m ? m[1]! : header).trim() || null;
  }
  return ctx.cookies.get(TOKEN_COOKIE) || null;
}

/** What the auth middleware needs. */
export interface AuthDeps {
  db: Database;
  sessions: SessionService;
  access: AccessService;
}

/**
 * Everything one call's auth needs, in one statement: the session of a token hash, its user, the
 * user's tenant status and the user's roles (one row per role, ordered as `AccessService.rolesOf`;
 * one row with null role columns for a user without roles; user columns null for a deleted user).
 * Plain SQL: no query building and no model hydration on the path every signed-in call takes.
 */
const CALLER_SQL = `select s.id as session_id, s.expires_at, s.revoked_at,
  u.id as user_id, u.username, u.nickname, u.tenant_id, u.status, u.must_change_password,
  t.status as tenant_status,
  r.id as role_id, r.code as role_code, r.name as role_name, r.is_system as role_is_system, r.permissions as role_permissions
from sessions s
left join users u on u.id = s.user_id
left join tenants t on t.id = u.tenant_id
left join user_roles ur on ur.user_id = u.id
left join roles r on r.id = ur.role_id
where s.token_hash = ?
order by r.sort, r.code`;

interface CallerRow {
  session_id: string;
  expires_at: unknown;
  revoked_at: unknown;
  user_id: string | null;
  username: string | null;
  nickname: string | null;
  tenant_id: string | null;
  status: string | null;
  must_change_password: unknown;
  tenant_status: string | null;
  role_id: string | null;
  role_code: string | null;
  role_name: string | null;
  role_is_system: unknown;
  role_permissions: unknown;
}

/** A date column as `Date`: SQLite keeps epoch ms, MySQL answers a `Date` (or a UTC string). */
function dateOf(value: unknown): Date | null {
  if (value === null || value === undefined) return null;
  if (value instanceof Date) return value;
  if (typeof value === 'number' || (typeof value === 'string' && /^\d+$/.test(value))) return new Date(Number(value));
  const text = String(value);
  return new Date(text.includes('T') ? text : text.replace(' ', 'T') + 'Z');
}

/** Parsed role permission lists by their JSON text (a few distinct roles; pure, so never stale). */
const parsedPermissions = new Map<string, readonly string[]>();

function permissionsOfColumn(value: unknown): readonly string[] {
  if (Array.isArray(value)) return value as string[];
  if (typeof value !== 'string') return [];
  let list = parsedPermissions.get(value);
  if (!list) {
    const parsed: unknown = JSON.parse(value);
    list = Array.isArray(parsed) ? (parsed as string[]) : [];
    if (parsedPermissions.size >= 1000) parsedPermissions.clear();
    parsedPermissions.set(value, list);
  }
  return list;
}

/**
 * The tenant status the auth step read with the caller (`null`: no such tenant), by the
 * `ctx.state.user` object it made; `tenant` uses it instead of reading the tenant again.
 */
const tenantStatusOfCaller = new WeakMap<AuthUser, string | null>();

/** The caller's tenant status as read by `auth` in this call, or `undefined` when `auth` did not read it. */
export function tenantStatusSeenByAuth(user: AuthUser): string | null | undefined {
  return tenantStatusOfCaller.get(user);
}

/**
 * Resolves the caller from the session token into `ctx.state.user`.
 * Answers `unauthorized` without a token; `tokenInvalid` for an unknown token, a deleted user or
 * a `UserId` header naming someone else; `userBanned` for a disabled account (also on its revoked
 * tokens); `tokenInvalid` for a revoked token, `tokenExpired` after expiry; `mustHaveRole` for an
 * account without roles.
 * Nothing is cached: the session, the user's status, the tenant's status and the user's roles are
 * read on every call, in one statement, so stopping an account, revoking a token or taking a role
 * away (in this process, another one, or straight in the database) takes effect on the next call.
 */
export function createAuth({ db, sessions, access }: AuthDeps): AppMiddleware {
  return async (ctx, next) => {
    const token = tokenOf(ctx);
    if (!token) throw new AppError('unauthorized');
    const executor = db.executor();
    const result: unknown = await executor.raw(CALLER_SQL, [hashToken(token)]);
    // mysql2 answers [rows, fields]; better-sqlite3 the rows.
    const rows = (db.kind === 'mysql' ? (result as unknown[])[0] : result) as CallerRow[];
    const first = rows[0];
    if (!first) throw new AppError('tokenInvalid');
    if (!first.user_id) throw new AppError('tokenInvalid');
    const claimed = ctx.get(HEADER.userId).trim();
    if (claimed && claimed !== first.user_id) throw new AppError('tokenInvalid');
    // A stopped account's sessions are revoked; its holder learns why rather than "invalid".
    if (first.status !== 'enabled') throw new AppError('userBanned');
    const expiresAt = dateOf(first.expires_at)!;
    sessions.assertLive({ revokedAt: dateOf(first.revoked_at), expiresAt });
    const roleRows = rows.filter((r) => r.role_id !== null);
    if (roleRows.length === 0) throw new AppError('mustHaveRole');
    const roles = roleRows.map((r) => ({
      id: r.role_id!,
      code: r.role_code!,
      name: r.role_name!,
      isSystem: Boolean(r.role_is_system),
      permissions: permissionsOfColumn(r.role_permissions),
    }));
    const user: AuthUser = {
      id: first.user_id,
      username: first.username!,
      nickname: first.nickname,
      tenantId: first.tenant_id!,
      roles: roles.map((r) => r.code),
      permissions: access.permissionsOf(roles),
      isSystemRole: roles.some((r) => r.isSystem),
      sessionId: first.session_id,
      expiresAt,
      roleList: roles.map((r) => ({ id: r.id, code: r.code, name: r.name, isSystem: r.isSystem })),
      mustChangePassword: Boolean(first.must_change_password),
    };
    tenantStatusOfCaller.set(user, first.tenant_status);
    ctx.state.user = user;
    await next();
  };
}
