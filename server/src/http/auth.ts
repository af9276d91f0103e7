import { AppError, HEADER, TOKEN_COOKIE } from '@decisio/domain';
import type { Database } from '../db/database';
import type { AccessService } from '../modules/access/service';
import type { SessionService } from '../modules/sessions/service';
import { UserModel } from '../modules/users/models';
import type { AppContext, AppMiddleware } from './context';

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
 * Resolves the caller from the session token into `ctx.state.user`.
 * Answers `unauthorized` without a token; `tokenInvalid` for an unknown token, a deleted user or
 * a `UserId` header naming someone else; `userBanned` for a disabled account (also on its revoked
 * tokens); `tokenInvalid` for a revoked token, `tokenExpired` after expiry; `mustHaveRole` for an
 * account without roles.
 * The user's status is read on every call, so stopping an account takes effect at once.
 */
export function createAuth({ db, sessions, access }: AuthDeps): AppMiddleware {
  return async (ctx, next) => {
    const token = tokenOf(ctx);
    if (!token) throw new AppError('unauthorized');
    const session = await sessions.find(token);
    if (!session) throw new AppError('tokenInvalid');
    const user = await UserModel.query(db.executor()).findById(session.userId);
    if (!user) throw new AppError('tokenInvalid');
    const claimed = ctx.get(HEADER.userId).trim();
    if (claimed && claimed !== user.id) throw new AppError('tokenInvalid');
    // A stopped account's sessions are revoked; its holder learns why rather than "invalid".
    if (user.status !== 'enabled') throw new AppError('userBanned');
    sessions.assertLive(session);
    const roles = await access.rolesOf(user.id);
    if (roles.length === 0) throw new AppError('mustHaveRole');
    const permissions = access.permissionsOf(roles);
    ctx.state.user = {
      id: user.id,
      username: user.username,
      nickname: user.nickname,
      tenantId: user.tenantId,
      roles: roles.map((r) => r.code),
      permissions,
      isSystemRole: roles.some((r) => r.isSystem),
      sessionId: session.id,
      expiresAt: session.expiresAt,
      roleList: roles.map((r) => ({ id: r.id, code: r.code, name: r.name, isSystem: r.isSystem })),
    };
    await next();
  };
}
