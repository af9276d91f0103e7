import { useId } from 'react';
import { H5 } from '@blueprintjs/core';
import type { ProjectItem } from '@decisio/domain';
import { Alert, useNotify } from '@decisio/sdk-plugin';
import { projectsApi } from '../api';
import { useProjectsT } from '../i18n';
import { describeFailure } from './errors';

/**
 * Confirms deleting a project (the server refuses while trainings or services run, or while it is
 * locked), in the SDK's `Alert`, rendered only while open: it opens with the focus on Cancel (a
 * stray Enter deletes nothing), shows Delete busy while the call runs, and, removed, gives the focus
 * back to what opened it (the row's More button, the menu item being gone). Escape cancels. (Its
 * portal sits above the dock as every Blueprint portal does, workbench.css; an Alert takes no
 * `portalClassName`.)
 */
export function DeleteProjectAlert({ project, onClose, onDeleted }: { project: ProjectItem; onClose(): void; onDeleted?(): void }) {
  const { t } = useProjectsT();
  const notify = useNotify();
  const titleId = useId();
  const [remove, state] = projectsApi.endpoints['projects/delete'].useMutation();
  const confirm = async () => {
    try {
      await remove({ projectId: project.projectId }).unwrap();
      notify({ message: t('delete.done'), intent: 'success', icon: 'tick-circle' });
      onDeleted?.();
      onClose();
    } catch (err) {
      const f = describeFailure(err, t('delete.failed'));
      if (f.message) notify({ message: f.message, intent: 'danger', icon: 'error' });
      onClose();
    }
  };
  return (
    <Alert
      isOpen
      intent="danger"
      icon="trash"
      loading={state.isLoading}
      confirmButtonText={t('delete.confirm')}
      cancelButtonText={t('delete.cancel')}
      canEscapeKeyCancel
      onCancel={onClose}
      onConfirm={() => void confirm()}
      aria-labelledby={titleId}
    >
      <H5 id={titleId}>{t('delete.title')}</H5>
      <p data-testid="project-delete-body">{t('delete.body', { name: project.name })}</p>
    </Alert>
  );
}
