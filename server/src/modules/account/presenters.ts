import type { GetUserResponse, MenuNode } from '@decisio/domain';
import type { RoleModel } from '../access/models';
import type { UserModel } from '../users/models';

/** Shapes the `user/getUser` reply (the domain's `CurrentUser` plus permissions and menus). */
export function presentCurrentUser(
  user: UserModel,
  roles: readonly RoleModel[],
  permissions: string[],
  menus: MenuNode[],
  menuPaths: string[] = [],
): GetUserResponse {
  return {
    userId: user.id,
    username: user.username,
    nickname: user.nickname,
    tenantId: user.tenantId,
    avatarUrl: user.avatar,
    email: user.email,
    mobile: user.mobile,
    menuGroupId: null,
    roleList: roles.map((r) => ({ id: r.id, code: r.code, name: r.name })),
    isSystemRole: roles.some((r) => r.isSystem),
    // A certified student whose certification (campus e-mail code, user centre) is still valid.
    isStudent: user.studentUntil !== null && user.studentUntil !== undefined && user.studentUntil.getTime() > Date.now(),
    studentUntil: user.studentUntil?.toISOString() ?? null,
    isOperation: roles.some((r) => r.code === 'operation'),
    occupation: user.occupation,
    createdAt: user.createdAt.toISOString(),
    mustChangePassword: Boolean(user.mustChangePassword),
    permissions,
    menus,
    menuPaths,
  };
}
