import { AppError } from '@decisio/domain';
import type { AuthUser } from '../../http/context';

/** What the account calls do; each concerns the caller's own account. */
export type AccountAction = 'account:read' | 'account:write' | 'account:signOut';

/**
 * Account calls act on the caller's own account only.
 * @throws AppError `userNotPermission` when `resource` is someone else's account.
 */
export function authorize(user: AuthUser, _action: AccountAction, resource: { userId: string }): void {
  if (resource.userId !== user.id) throw new AppError('userNotPermission');
}
