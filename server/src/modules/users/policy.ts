import { AppError, type Permission } from '@decisio/domain';
import type { AuthUser } from '../../http/context';
import { grants } from '../access/service';

/** What the user-management calls do. */
export type UsersAction = 'users:read' | 'users:write';

/** The account a call acts on, when there is one. */
export interface UserResource {
  id: string;
  tenantId: string;
  isSystemRole: boolean;
}

/**
 * User management: the permission of the action; accounts of the caller's tenant only, except for
 * system admins (others answer `userNotFound`, so ids of other tenants are not revealed); nobody changes their own
 * status, and only a system role changes the status of a system-role account.
 * @throws AppError `userNotPermission`, `userNotFound` or `authorizationFailed`.
 */
export function authorize(actor: AuthUser, action: UsersAction, resource?: UserResource): void {
  if (!grants(actor.permissions, action satisfies Permission)) throw new AppError('userNotPermission');
  if (!resource) return;
  // System admins manage every tenant's accounts; others only their tenant's.
  if (resource.tenantId !== actor.tenantId && !actor.isSystemRole) throw new AppError('userNotFound');
  if (action === 'users:write') {
    if (resource.id === actor.id) throw new AppError('authorizationFailed');
    if (resource.isSystemRole && !actor.isSystemRole) throw new AppError('authorizationFailed');
  }
}
