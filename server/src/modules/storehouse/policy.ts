import { AppError } from '@decisio/domain';
import type { AuthUser } from '../../http/context';
import { grants } from '../access/service';

/** What the storehouse calls do. */
export type StorehouseAction = 'storehouse:read' | 'storehouse:recognize' | 'storehouse:createProject';

/**
 * The storehouse is part of the template area: every call needs `templates:use`; creating a
 * project also needs `projects:use` (the project area's calls open it afterwards). A user's
 * recognitions are theirs alone (the service scopes them to the caller and the tenant).
 * @throws AppError `userNotPermission`.
 */
export function authorize(actor: AuthUser, action: StorehouseAction): void {
  if (!grants(actor.permissions, 'templates:use')) throw new AppError('userNotPermission');
  if (action === 'storehouse:createProject' && !grants(actor.permissions, 'projects:use')) throw new AppError('userNotPermission');
}
