import { AppError, isHostWideKind } from '@decisio/domain';
import type { AuthUser } from '../../http/context';
import { grants } from '../access/service';

/** What the scheduled-job calls do. */
export type SchedulesAction = 'jobs:read' | 'jobs:write';

/** The schedule a call acts on. */
export interface ScheduleResource {
  tenantId: string;
  kind: string;
}

/**
 * Scheduled jobs: the permission of the action; schedules of the caller's tenant only (others
 * answer `scheduleNotFound`, so their ids are not revealed); host-wide kinds (they act on every
 * tenant) are changed and run by system roles only.
 * @throws AppError `userNotPermission` or `scheduleNotFound`.
 */
export function authorize(actor: AuthUser, action: SchedulesAction, resource?: ScheduleResource): void {
  if (!grants(actor.permissions, action)) throw new AppError('userNotPermission');
  if (!resource) return;
  if (resource.tenantId !== actor.tenantId) throw new AppError('scheduleNotFound');
  if (action === 'jobs:write' && isHostWideKind(resource.kind) && !actor.isSystemRole) throw new AppError('userNotPermission');
}
