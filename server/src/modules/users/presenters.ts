import type { AdminUserListItem, UserStatus, UserStatusResponse } from '@decisio/domain';
import type { UserModel } from './models';

/** One row of `users/getUserList`. */
export function presentUserListItem(user: UserModel, signInLockedUntil: Date | null = null): AdminUserListItem {
  return {
    userId: user.id,
    username: user.username,
    nickname: user.nickname,
    email: user.email,
    mobile: user.mobile,
    status: user.status,
    tenantId: user.tenantId,
    roleList: (user.roles ?? []).map((r) => ({ id: r.id, code: r.code, name: r.name })),
    createdAt: user.createdAt.toISOString(),
    signInLockedUntil: signInLockedUntil?.toISOString() ?? null,
    orgId: user.orgId,
    mustChangePassword: user.mustChangePassword,
  };
}

/** Reply of `users/stopUser` and `users/startUser`. */
export function presentUserStatus(userId: string, status: UserStatus): UserStatusResponse {
  return { userId, status };
}
