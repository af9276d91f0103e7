import { AppError } from '@decisio/domain';
import { rightCovers, type ProjectRight } from './access';

/** What the calls of this module do to a project. */
export type ProjectAction = 'read' | 'edit' | 'delete' | 'collaborate' | 'share';

/** The right each action needs: reading needs view; editing edit; deleting, collaboration and share links the owner. */
export const RIGHT_OF: Record<ProjectAction, ProjectRight> = {
  read: 'view',
  edit: 'edit',
  delete: 'owner',
  collaborate: 'owner',
  share: 'owner',
};

/**
 * Project policy beyond the right: a locked project (a training or service holds it) refuses
 * every change.
 * @throws AppError `projectNoRight` without the right, `projectLocked` for a change to a locked project.
 */
export function authorize(right: ProjectRight, action: ProjectAction, project: { locked: boolean }): void {
  if (!rightCovers(right, RIGHT_OF[action])) throw new AppError('projectNoRight');
  if (action !== 'read' && project.locked) throw new AppError('projectLocked');
}
