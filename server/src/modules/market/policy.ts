import { AppError } from '@decisio/domain';
import type { AuthUser } from '../../http/context';
import { grants } from '../access/service';

/** What the market calls do. */
export type MarketAction = 'market:read' | 'market:publish' | 'market:import';

/**
 * The market belongs to the project area: every call needs `projects:use` (publishing and
 * importing also need edit rights on the project, checked by the service; publishing to every
 * tenant needs `market:public`, also checked there, as it depends on the request).
 * @throws AppError `userNotPermission`.
 */
export function authorize(actor: AuthUser, _action: MarketAction): void {
  if (!grants(actor.permissions, 'projects:use')) throw new AppError('userNotPermission');
}
