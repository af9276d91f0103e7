import { useState } from 'react';
import { HTMLSelect, InputGroup } from '@blueprintjs/core';
import { MODELLING_LIMITS } from '@decisio/domain';
import { CrudFormDialog } from '../crud';
import { useNotify } from '../index';
import { trainingsApi, usableRewards } from './api';
import { useTrainingsT } from './i18n';
import { DatasetOptions, Field, serverErrors, STOPPED_MANUALLY, useProjectId, useProjectVersion, workerRefusal, type FormErrors } from './shared';

const DONE = new Set(['successful', STOPPED_MANUALLY]);

/** A deduction (simulation or decision) form, as typed. */
export interface DeductionForm {
  kind: 'simulation' | 'decision';
  name: string;
  simulatorId: string;
  policyId: string;
  objectiveId: string;
  stepSize: string;
  /** The initial dataset (empty: the environment's data). */
  datasetId?: string;
  workerId: string;
}

/** Checks a deduction form (keys of the kit's `errors.*`); an empty object means it can be sent. */
export function validateDeduction(f: DeductionForm): FormErrors {
  const e: FormErrors = {};
  if (!f.name.trim()) e.name = 'errors.required';
  else if (f.name.trim().length > MODELLING_LIMITS.trainingName) e.name = 'errors.nameTooLong';
  if (!f.simulatorId) e.simulatorId = 'errors.required';
  if (f.kind === 'decision' && !f.policyId) e.policyId = 'errors.required';
  const n = f.stepSize.trim() === '' ? NaN : Number(f.stepSize);
  if (f.stepSize.trim() === '') e.stepSize = 'errors.required';
  else if (!/^\d+$/.test(f.stepSize.trim()) || n < 1 || n > MODELLING_LIMITS.deductionStepMax) e.stepSize = 'errors.stepRange';
  return e;
}

/**
 * Creation of a simulation or decision deduction: step size 1..10000 (all of them are rolled),
 * the initial dataset (a dataset of the project, else the environment's data), and for a
 * decision deduction a reward that is not marked broken.
 */
export function DeductionDialog({ kind, solutionId, onClose }: { kind: DeductionForm['kind']; solutionId: string; onClose: () => void }) {
  const { t } = useTrainingsT();
  const notify = useNotify();
  const [form, setForm] = useState<DeductionForm>({ kind, name: '', simulatorId: '', policyId: '', objectiveId: '', stepSize: '100', datasetId: '', workerId: '' });
  const [errors, setErrors] = useState<FormErrors>({});
  const set = <K extends keyof DeductionForm>(k: K, v: DeductionForm[K]) => setForm((f) => ({ ...f, [k]: v }));
  const sims = trainingsApi.endpoints['trainings/trainings'].useQuery({ solutionId, area: 'trainSimulator' });
  const policies = trainingsApi.endpoints['trainings/trainings'].useQuery({ solutionId, area: 'trainPolicy' }, { skip: kind !== 'decision' });
  const objectives = trainingsApi.endpoints['trainings/objectives'].useQuery({ solutionId });
  const workers = trainingsApi.endpoints['trainings/workers'].useQuery();
  const projectId = useProjectId();
  const version = useProjectVersion();
  const datasets = trainingsApi.endpoints['trainings/datasets'].useQuery({ projectId: projectId ?? '' }, { skip: !projectId });
  const [create, creating] = trainingsApi.endpoints['trainings/deduction'].useMutation();

  const submit = async () => {
    const e = validateDeduction(form);
    setErrors(e);
    if (Object.keys(e).length) return;
    try {
      await create({
        kind,
        solutionId,
        name: form.name.trim(),
        simulatorId: form.simulatorId,
        stepSize: Number(form.stepSize),
        ...(form.policyId ? { policyId: form.policyId } : {}),
        ...(form.objectiveId ? { objectiveId: form.objectiveId } : {}),
        ...(form.datasetId ? { datasetId: form.datasetId } : {}),
        ...(form.workerId ? { workerId: form.workerId } : {}),
      }).unwrap();
      notify({ message: t('common.created'), intent: 'success', icon: 'tick-circle' });
      onClose();
    } catch (err) {
      setErrors(serverErrors(err));
    }
  };
  const id = (n: string) => `deduction-${n}`;
  const chooser = (name: 'simulatorId' | 'policyId' | 'objectiveId' | 'workerId', label: string, rows: { id: string; name: string }[], emptyLabel = t('train.choose')) => (
    <Field label={label} id={id(name)} name={name} errors={errors}>
      <HTMLSelect id={id(name)} fill value={form[name]} onChange={(e) => set(name, e.target.value)} data-testid={`deduction-${name}`}>
        <option value="">{emptyLabel}</option>
        {rows.map((r) => (
          <option key={r.id} value={r.id}>
            {r.name}
          </option>
        ))}
      </HTMLSelect>
    </Field>
  );

  return (
    <CrudFormDialog
      title={t('deduction.new')}
      width={560}
      formId="deduction-form"
      noValidate
      onClose={onClose}
      onSubmit={() => void submit()}
      saving={creating.isLoading}
      saveTestId="deduction-submit"
      labels={{ cancel: t('common.cancel'), save: t('common.create') }}
      formError={errors._form}
    >
      <Field label={t('common.name')} id={id('name')} name="name" errors={errors}>
        <InputGroup id={id('name')} autoFocus value={form.name} onChange={(e) => set('name', e.target.value)} data-testid="deduction-name" />
      </Field>
      {chooser('simulatorId', t('train.environment'), (sims.data?.rows ?? []).filter((r) => DONE.has(r.state)))}
      {kind === 'decision' && chooser('policyId', t('deduction.policy'), (policies.data?.rows ?? []).filter((r) => DONE.has(r.state)))}
      {chooser('objectiveId', t('train.reward'), usableRewards(objectives.data?.rows ?? []), t('common.none'))}
      {/* Only the online machines of the project's engine version (any online machine when it has none). */}
      {chooser('workerId', t('train.worker'), (workers.data?.rows ?? []).filter((w) => workerRefusal(w, version) === null), version ? t('train.anyOfVersion', { version }) : t('common.any'))}
      <Field label={t('deduction.stepSize')} id={id('step')} name="stepSize" errors={errors}>
        <InputGroup id={id('step')} inputMode="numeric" value={form.stepSize} onChange={(e) => set('stepSize', e.target.value)} data-testid="deduction-step" />
      </Field>
      <Field label={t('deduction.initialDataset')} id={id('dataset')} name="datasetId" errors={errors}>
        <HTMLSelect id={id('dataset')} fill value={form.datasetId ?? ''} onChange={(e) => set('datasetId', e.target.value)} data-testid="deduction-datasetId">
          <DatasetOptions rows={datasets.data?.rows ?? []} emptyLabel={t('deduction.environmentData')} />
        </HTMLSelect>
      </Field>
      <p className="bp6-text-muted">{t('deduction.initialDatasetHint')}</p>
    </CrudFormDialog>
  );
}
