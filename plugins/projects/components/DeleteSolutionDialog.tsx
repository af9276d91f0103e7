import { useState, type FormEvent } from 'react';
import { Button, Callout, DialogBody, DialogFooter, FormGroup, InputGroup } from '@blueprintjs/core';
import { DIALOG_WIDTH, SOLUTION_DELETE_CONFIRMATIONS, type SolutionItem } from '@decisio/domain';
import { BusyButton, Dialog, useNotify } from '@decisio/sdk-plugin';
import { projectsApi } from '../api';
import { useProjectsT } from '../i18n';
import { DIALOG_PORTAL, describeFailure } from './errors';

type Phrase = (typeof SOLUTION_DELETE_CONFIRMATIONS)[number];

/** Deleting a solution needs the "I am sure" confirmation typed in (spec platform §5). */
export function DeleteSolutionDialog({ solution, onClose }: { solution: SolutionItem; onClose(): void }) {
  const { t } = useProjectsT();
  const notify = useNotify();
  const phrase = t('solutionDelete.phrase');
  const [typed, setTyped] = useState('');
  const [failure, setFailure] = useState<string | null>(null);
  const [remove, state] = projectsApi.endpoints['projects/deleteSolution'].useMutation();
  const matches = typed.trim() === phrase && (SOLUTION_DELETE_CONFIRMATIONS as readonly string[]).includes(phrase);

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (!matches) return;
    try {
      await remove({ projectId: solution.projectId, solutionId: solution.solutionId, confirm: phrase as Phrase }).unwrap();
      notify({ message: t('solutionDelete.done'), intent: 'success', icon: 'tick-circle' });
      onClose();
    } catch (err) {
      setFailure(describeFailure(err, t('solutionDelete.failed')).message ?? t('solutionDelete.failed'));
    }
  };

  return (
    <Dialog isOpen portalClassName={DIALOG_PORTAL} onClose={onClose} title={t('solutionDelete.title')} style={{ width: DIALOG_WIDTH.sm }}>
      <form onSubmit={submit} noValidate data-testid="solution-delete-form">
        <DialogBody>
          <p>{t('solutionDelete.body', { name: solution.name })}</p>
          <FormGroup label={t('solutionDelete.typeToConfirm', { phrase })} labelFor="solution-delete-confirm">
            <InputGroup id="solution-delete-confirm" autoFocus value={typed} onValueChange={setTyped} data-testid="solution-delete-confirm" />
          </FormGroup>
          {failure && (
            <Callout intent="danger" icon="error">
              {failure}
            </Callout>
          )}
        </DialogBody>
        <DialogFooter
          actions={
            <>
              <Button onClick={onClose}>{t('solutionDelete.cancel')}</Button>
              <BusyButton type="submit" intent="danger" disabled={!matches} loading={state.isLoading} data-testid="solution-delete-submit">
                {t('solutionDelete.confirm')}
              </BusyButton>
            </>
          }
        />
      </form>
    </Dialog>
  );
}
