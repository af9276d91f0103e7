import { useState, type FormEvent } from 'react';
import { Button, Callout, DialogBody, DialogFooter, FormGroup, InputGroup, Radio, RadioGroup, TextArea } from '@blueprintjs/core';
import {
  DIALOG_WIDTH,
  LIMITS,
  SOLUTION_DATA_TYPES,
  SOLUTION_GOAL_TYPES,
  createSolutionRequestSchema,
  editSolutionRequestSchema,
  type SolutionDataType,
  type SolutionGoalType,
  type SolutionItem,
} from '@decisio/domain';
import { BusyButton, Dialog, isApiError, useNotify } from '@decisio/sdk-plugin';
import { projectsApi } from '../api';
import { useProjectsT } from '../i18n';
import { checkForm } from '../model/form-errors';
import { DIALOG_PORTAL, describeFailure } from './errors';

interface Props {
  projectId: string;
  /** The solution to rename; absent to create one. */
  solution?: SolutionItem;
  onClose(): void;
}

/** Create a solution (name 50, data and goal types, description) or rename one. */
export function SolutionDialog({ projectId, solution, onClose }: Props) {
  const { t, locale } = useProjectsT();
  const notify = useNotify();
  const [name, setName] = useState(solution?.name ?? '');
  const [description, setDescription] = useState(solution?.description ?? '');
  const [dataType, setDataType] = useState<SolutionDataType>(solution?.dataType ?? 'data_driven');
  const [goalType, setGoalType] = useState<SolutionGoalType>(solution?.goalType ?? 'policy_search');
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [failure, setFailure] = useState<string | null>(null);
  const [create, created] = projectsApi.endpoints['projects/createSolution'].useMutation();
  const [edit, edited] = projectsApi.endpoints['projects/editSolution'].useMutation();

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setFailure(null);
    try {
      if (solution) {
        const checked = checkForm(editSolutionRequestSchema, { solutionId: solution.solutionId, name, description: description || null }, locale);
        if (!checked.ok) return setErrors(checked.errors);
        setErrors({});
        await edit(checked.value).unwrap();
      } else {
        const checked = checkForm(createSolutionRequestSchema, { projectId, name, dataType, goalType, description: description || null }, locale);
        if (!checked.ok) return setErrors(checked.errors);
        setErrors({});
        await create(checked.value).unwrap();
      }
      notify({ message: t(solution ? 'solutionForm.saved' : 'solutionForm.created'), intent: 'success', icon: 'tick-circle' });
      onClose();
    } catch (err) {
      if (isApiError(err) && err.codeName === 'solutionNameUsed') return setErrors({ name: err.message });
      const f = describeFailure(err, t('solutionForm.failed'));
      setErrors(f.fields);
      setFailure(f.message);
    }
  };
  const field = (key: string) => ({ intent: errors[key] ? ('danger' as const) : ('none' as const), helperText: errors[key] });

  return (
    <Dialog isOpen portalClassName={DIALOG_PORTAL} onClose={onClose} title={t(solution ? 'solutionForm.editTitle' : 'solutionForm.createTitle')} style={{ width: DIALOG_WIDTH.sm }}>
      <form onSubmit={submit} noValidate data-testid="solution-form">
        <DialogBody>
          {failure && (
            <Callout intent="danger" icon="error" className="dc-gap">
              {failure}
            </Callout>
          )}
          <FormGroup label={t('solutionForm.name')} labelFor="solution-name" labelInfo={t('form.count', { count: name.trim().length, max: LIMITS.solutionNameMax })} {...field('name')}>
            <InputGroup
              id="solution-name"
              autoFocus
              placeholder={t('solutionForm.namePlaceholder')}
              value={name}
              onValueChange={setName}
              intent={field('name').intent}
              data-testid="solution-name"
            />
          </FormGroup>
          {!solution && (
            <>
              <RadioGroup label={t('solutionType.dataType')} inline selectedValue={dataType} onChange={(e) => setDataType(e.currentTarget.value as SolutionDataType)}>
                {SOLUTION_DATA_TYPES.map((v) => (
                  <Radio key={v} value={v} label={t(`solutionType.${v}`)} />
                ))}
              </RadioGroup>
              <RadioGroup label={t('solutionType.goalType')} inline selectedValue={goalType} onChange={(e) => setGoalType(e.currentTarget.value as SolutionGoalType)}>
                {SOLUTION_GOAL_TYPES.map((v) => (
                  <Radio key={v} value={v} label={t(`solutionType.${v}`)} />
                ))}
              </RadioGroup>
            </>
          )}
          <FormGroup label={t('solutionForm.description')} labelFor="solution-description" {...field('description')}>
            <TextArea id="solution-description" fill rows={2} value={description} onChange={(e) => setDescription(e.currentTarget.value)} />
          </FormGroup>
        </DialogBody>
        <DialogFooter
          actions={
            <>
              <Button onClick={onClose}>{t('solutionForm.cancel')}</Button>
              <BusyButton type="submit" intent="primary" loading={created.isLoading || edited.isLoading} data-testid="solution-submit">
                {t(solution ? 'solutionForm.save' : 'solutionForm.create')}
              </BusyButton>
            </>
          }
        />
      </form>
    </Dialog>
  );
}
