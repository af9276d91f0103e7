import { Button, DialogBody, DialogFooter, Icon } from '@blueprintjs/core';
import { DIALOG_WIDTH, type ProjectItem } from '@decisio/domain';
import { BusyButton, Dialog, useNotify } from '@decisio/sdk-plugin';
import { projectsApi } from '../api';
import { useProjectsT } from '../i18n';
import { DIALOG_PORTAL, describeFailure } from './errors';

/**
 * Confirms deleting a project (the server refuses while trainings or services run, or while it is
 * locked). It opens with the focus on Cancel, as the SDK's Alert does, not on Delete.
 */
export function DeleteProjectAlert({ project, onClose, onDeleted }: { project: ProjectItem; onClose(): void; onDeleted?(): void }) {
  const { t } = useProjectsT();
  const notify = useNotify();
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
    <Dialog isOpen portalClassName={DIALOG_PORTAL} onClose={onClose} title={t('delete.title')} icon="trash" style={{ width: DIALOG_WIDTH.sm }}>
      <DialogBody>
        <p data-testid="project-delete-body">
          <Icon icon="warning-sign" intent="danger" /> {t('delete.body', { name: project.name })}
        </p>
      </DialogBody>
      <DialogFooter
        actions={
          <>
            <Button onClick={onClose}>{t('delete.cancel')}</Button>
            {/* No autoFocus: the SDK Dialog opens on Cancel (the footer's first button), so a stray Enter deletes nothing. */}
            <BusyButton intent="danger" loading={state.isLoading} onClick={() => void confirm()} data-testid="project-delete-confirm">
              {t('delete.confirm')}
            </BusyButton>
          </>
        }
      />
    </Dialog>
  );
}
