import { AppError, type Permission } from '@decisio/domain';
import type { AuthUser } from '../../http/context';
import { grants } from '../access/service';

/** What the system-log calls do. */
export type LogsAction = 'logs:read' | 'logs:write';

/** Which rows a caller reaches: every tenant's (system roles) or one tenant's. */
export interface LogScope {
  /** Null: every tenant. */
  tenantId: string | null;
}

/**
 * System log: the permission of the action; tenant administrators reach their tenant's rows,
 * system roles every tenant's. Changing the retention (host-wide) needs a system role.
 * @throws AppError `userNotPermission`.
 */
export function authorize(actor: AuthUser, action: LogsAction | 'logs:retention'): LogScope {
  const permission: Permission = action === 'logs:retention' ? 'logs:write' : action;
  if (!grants(actor.permissions, permission)) throw new AppError('userNotPermission');
  if (action === 'logs:retention' && !actor.isSystemRole) throw new AppError('userNotPermission');
  return { tenantId: actor.isSystemRole ? null : actor.tenantId };
}
