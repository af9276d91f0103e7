import { AppError } from '@decisio/domain';
import type { AuthUser } from '../../http/context';

/** What the pidData calls do. */
export type PidDataAction = 'pidData:create' | 'pidData:read' | 'pidData:download';

/** A saved trial result. */
export interface PidDataResource {
  tenantId: string;
  userId: string;
}

/**
 * Saved trial results belong to the user who saved them (the route table already required the
 * console's `projects:use`): reading another user's result, even in the same tenant, answers
 * `pidDataNotFound`, so that ids of others are not revealed.
 * @throws AppError `pidDataNotFound`.
 */
export function authorize(actor: AuthUser, _action: PidDataAction, resource?: PidDataResource): void {
  if (!resource) return;
  if (resource.tenantId !== actor.tenantId || resource.userId !== actor.id) throw new AppError('pidDataNotFound');
}
