import { useState, type FormEvent } from 'react';
import { Button, Callout, Checkbox, DialogBody, DialogFooter, FormGroup, InputGroup } from '@blueprintjs/core';
import { DIALOG_WIDTH, LIMITS, type SolutionItem } from '@decisio/domain';
import { BusyButton, Dialog, useNotify } from '@decisio/sdk-plugin';
import { projectsApi } from '../api';
import { useProjectsT } from '../i18n';
import { DIALOG_PORTAL, describeFailure } from './errors';

/**
 * Copying a solution (`solution/copy`): an optional name (the server numbers "<name> (copy)"
 * when left empty) and, on request, its trained models (`withModels`).
 */
export function CopySolutionDialog({ solution, onClose }: { solution: SolutionItem; onClose(): void }) {
  const { t } = useProjectsT();
  const notify = useNotify();
  const [name, setName] = useState('');
  const [withModels, setWithModels] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const [copy, state] = projectsApi.endpoints['projects/copySolution'].useMutation();

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setFailure(null);
    try {
      const trimmed = name.trim();
      await copy({ solutionId: solution.solutionId, ...(trimmed ? { name: trimmed } : {}), ...(withModels ? { withModels: true } : {}) }).unwrap();
      notify({ message: t('solutions.copied'), intent: 'success', icon: 'tick-circle' });
      onClose();
    } catch (err) {
      const f = describeFailure(err, t('solutionCopy.failed'));
      // A code the workbench already showed as a toast leaves no message here.
      setFailure(f.fields.name ?? f.message);
    }
  };

  return (
    <Dialog isOpen portalClassName={DIALOG_PORTAL} onClose={onClose} title={t('solutionCopy.title')} style={{ width: DIALOG_WIDTH.sm }}>
      <form onSubmit={submit} noValidate data-testid="solution-copy-form">
        <DialogBody>
          <p>{t('solutionCopy.body', { name: solution.name })}</p>
          <FormGroup label={t('solutionCopy.name')} labelFor="solution-copy-name">
            <InputGroup
              id="solution-copy-name"
              autoFocus
              maxLength={LIMITS.solutionNameMax}
              placeholder={t('solutionCopy.namePlaceholder', { name: solution.name })}
              value={name}
              onValueChange={setName}
              data-testid="solution-copy-name"
            />
          </FormGroup>
          <FormGroup helperText={t('solutionCopy.withModelsHelp')}>
            <Checkbox checked={withModels} onChange={(e) => setWithModels(e.currentTarget.checked)} label={t('solutionCopy.withModels')} data-testid="solution-copy-models" />
          </FormGroup>
          {failure && (
            <Callout intent="danger" icon="error" data-testid="solution-copy-error">
              {failure}
            </Callout>
          )}
        </DialogBody>
        <DialogFooter
          actions={
            <>
              <Button onClick={onClose}>{t('solutionCopy.cancel')}</Button>
              <BusyButton type="submit" intent="primary" loading={state.isLoading} data-testid="solution-copy-submit">
                {t('solutionCopy.confirm')}
              </BusyButton>
            </>
          }
        />
      </form>
    </Dialog>
  );
}
