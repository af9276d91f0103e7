import { useState } from 'react';
import { Callout, Checkbox, HTMLSelect, InputGroup, Switch, TextArea } from '@blueprintjs/core';
import { emptyTrainForm, toTrainRequest, trainFormField, trainFormMessage, validateTrainForm, type TrainForm, type TrainKind } from '@decisio/domain';
import { CrudFormDialog } from '../crud';
import { useNotify } from '../index';
import { trainingsApi, usableRewards } from './api';
import { useTrainingsT } from './i18n';
import { AlgorithmOptions, DatasetOptions, Field, serverErrors, STOPPED_MANUALLY, useProjectId, useProjectVersion, workerRefusal, type FormErrors } from './shared';

const CREATE = {
  environment: 'trainings/trainSimulator',
  policy: 'trainings/trainPolicy',
  parameter: 'trainings/trainParameter',
} as const;

/**
 * The training form of an environment, a policy or a parameter search (spec workflow §5
 * "Training"): the form, its checks, its create body and where a server error stands are the
 * domain's (`core/domain` `modelling/training.ts`, beside the schemas the body must satisfy).
 */
export function TrainFormDialog({ kind, solutionId, onClose, initial }: { kind: TrainKind; solutionId: string; onClose: () => void; initial?: Partial<TrainForm> }) {
  const { t } = useTrainingsT();
  const notify = useNotify();
  const [form, setForm] = useState<TrainForm>({ ...emptyTrainForm(kind), ...initial });
  const [errors, setErrors] = useState<FormErrors>({});
  const [hyperSet, setHyperSet] = useState('');
  const set = <K extends keyof TrainForm>(k: K, v: TrainForm[K]) => setForm((f) => ({ ...f, [k]: v }));
  const setStop = (patch: Partial<TrainForm['stop']>) => setForm((f) => ({ ...f, stop: { ...f.stop, ...patch } }));

  const workers = trainingsApi.endpoints['trainings/workers'].useQuery();
  const hypers = trainingsApi.endpoints['trainings/hypers'].useQuery({ trainType: kind });
  const schemes = trainingsApi.endpoints['trainings/schemes'].useQuery({ solutionId }, { skip: kind !== 'environment' });
  const sims = trainingsApi.endpoints['trainings/trainings'].useQuery({ solutionId, area: 'trainSimulator' }, { skip: kind === 'environment' });
  const objectives = trainingsApi.endpoints['trainings/objectives'].useQuery({ solutionId }, { skip: kind === 'environment' });
  const projectId = useProjectId();
  const version = useProjectVersion();
  const datasets = trainingsApi.endpoints['trainings/datasets'].useQuery({ projectId: projectId ?? '' }, { skip: kind !== 'parameter' || !projectId });
  const [trainParams] = trainingsApi.endpoints['trainings/hyperTrainParams'].useMutation();
  const [create, creating] = trainingsApi.endpoints[CREATE[kind]].useMutation();

  const pickHyperSet = async (id: string) => {
    setHyperSet(id);
    if (!id) return;
    try {
      const r = await trainParams({ id }).unwrap();
      set('hyperparameters', JSON.stringify(r.hyperparameters, null, 2));
    } catch (err) {
      setErrors(serverErrors(err));
    }
  };

  const submit = async () => {
    const e = validateTrainForm(form);
    setErrors(e);
    if (Object.keys(e).length) return;
    try {
      await create(toTrainRequest(form, solutionId) as never).unwrap();
      notify({ message: t('common.created'), intent: 'success', icon: 'tick-circle' });
      onClose();
    } catch (err) {
      const se = serverErrors(err);
      setErrors(Object.fromEntries(Object.entries(se).map(([k, v]) => [trainFormField(k), trainFormMessage(k, v ?? '')])));
    }
  };

  const id = (n: string) => `train-${n}`;
  const doneSims = (sims.data?.rows ?? []).filter((r) => r.state === 'successful' || r.state === STOPPED_MANUALLY);

  return (
    <CrudFormDialog
      title={t('train.new')}
      width={720}
      formId="train-form"
      formTestId="train-form"
      noValidate
      onClose={onClose}
      onSubmit={() => void submit()}
      saving={creating.isLoading}
      saveTestId="train-submit"
      labels={{ cancel: t('common.cancel'), save: t('train.submit') }}
      formError={errors._form}
    >
      <div className="modelling-form-grid">
        <Field label={t('train.name')} id={id('name')} name="name" errors={errors}>
          <InputGroup id={id('name')} value={form.name} onChange={(e) => set('name', e.target.value)} data-testid="train-name" autoFocus />
        </Field>
        <Field label={t('train.worker')} id={id('worker')} name="workerId" errors={errors} hint={version ? t('train.projectVersion', { version }) : undefined}>
          <HTMLSelect id={id('worker')} fill value={form.workerId} onChange={(e) => set('workerId', e.target.value)} data-testid="train-worker">
            <option value="">{version ? t('train.anyOfVersion', { version }) : t('common.any')}</option>
            {(workers.data?.rows ?? []).map((w) => {
              const refusal = workerRefusal(w, version);
              const label = w.cores !== null && w.memory !== null ? `${w.name} (${w.cores} / ${Math.round(w.memory / 1024 ** 3)} GB)` : `${w.name}${w.gpuAdapter ? ' (GPU)' : ''}`;
              return (
                <option key={w.id} value={w.id} disabled={refusal !== null}>
                  {refusal === 'otherVersion' ? `${label}: ${t('train.otherVersion', { version: w.engineVersion ?? '?' })}` : label}
                </option>
              );
            })}
          </HTMLSelect>
        </Field>
        {kind === 'environment' && (
          <Field label={t('train.scheme')} id={id('scheme')} name="schemeId" errors={errors}>
            <HTMLSelect id={id('scheme')} fill value={form.schemeId} onChange={(e) => set('schemeId', e.target.value)} data-testid="train-scheme">
              <option value="">{t('train.choose')}</option>
              {(schemes.data?.rows ?? []).map((s) => (
                <option key={s.id} value={s.id}>
                  {s.name}
                </option>
              ))}
            </HTMLSelect>
          </Field>
        )}
        {kind !== 'environment' && (
          <>
            <Field label={t('train.environment')} id={id('sim')} name="simulatorId" errors={errors}>
              <HTMLSelect id={id('sim')} fill value={form.simulatorId} onChange={(e) => set('simulatorId', e.target.value)} data-testid="train-simulator">
                <option value="">{t('train.choose')}</option>
                {doneSims.map((s) => (
                  <option key={s.id} value={s.id}>
                    {s.name}
                  </option>
                ))}
              </HTMLSelect>
            </Field>
            <Field label={t('train.reward')} id={id('obj')} name="objectiveId" errors={errors}>
              <HTMLSelect id={id('obj')} fill value={form.objectiveId} onChange={(e) => set('objectiveId', e.target.value)} data-testid="train-objective">
                <option value="">{t('train.choose')}</option>
                {usableRewards(objectives.data?.rows ?? []).map((o) => (
                  <option key={o.id} value={o.id}>
                    {o.name}
                  </option>
                ))}
              </HTMLSelect>
            </Field>
            {kind === 'parameter' && (
              <Field label={t('train.initialSearchDataset')} id={id('dataset')} name="datasetId" errors={errors}>
                <HTMLSelect id={id('dataset')} fill value={form.datasetId ?? ''} onChange={(e) => set('datasetId', e.target.value)} data-testid="train-datasetId">
                  <DatasetOptions rows={datasets.data?.rows ?? []} emptyLabel={t('deduction.environmentData')} />
                </HTMLSelect>
              </Field>
            )}
          </>
        )}
        <Field label={t('train.algorithm')} id={id('algo')} name="algorithm" errors={errors}>
          <HTMLSelect id={id('algo')} fill value={form.algorithm} onChange={(e) => set('algorithm', e.target.value)} data-testid="train-algorithm">
            <AlgorithmOptions kind={kind} graphDefault />
          </HTMLSelect>
        </Field>
      </div>
      {kind === 'environment' && form.algorithm !== 'bc' && (
        <Callout intent="warning" icon="lightbulb" style={{ marginBottom: 12 }} data-testid="train-algorithm-advice">
          {t('train.adversarialAdvice')}
        </Callout>
      )}

      {kind === 'parameter' && (
        <div className="modelling-form-grid">
          <Field label={t('train.searchCount')} id={id('count')} name="searchCount" errors={errors}>
            <InputGroup id={id('count')} inputMode="numeric" value={form.searchCount} onChange={(e) => set('searchCount', e.target.value)} data-testid="train-search-count" />
          </Field>
          <Field label={t('train.searchStep')} id={id('step')} name="searchStep" errors={errors}>
            <InputGroup id={id('step')} inputMode="decimal" value={form.searchStep} onChange={(e) => set('searchStep', e.target.value)} data-testid="train-search-step" />
          </Field>
        </div>
      )}

      {kind !== 'parameter' && (
        <>
          <Switch label={t('train.autoSearch')} checked={form.autoSearch} onChange={(e) => set('autoSearch', e.currentTarget.checked)} />
          {form.autoSearch && (
            <div className="modelling-form-grid">
              <Field label={t('train.searchAlgorithm')} id={id('salgo')} name="searchAlgorithm" errors={errors}>
                <HTMLSelect id={id('salgo')} fill value={form.searchAlgorithm} onChange={(e) => set('searchAlgorithm', e.target.value)}>
                  {['random', 'zoopt'].map((a) => (
                    <option key={a} value={a}>
                      {t(`algorithms.${a}` as Parameters<typeof t>[0])}
                    </option>
                  ))}
                </HTMLSelect>
              </Field>
              <Field label={t('train.trials')} id={id('trials')} name="trials" errors={errors}>
                <InputGroup id={id('trials')} inputMode="numeric" value={form.trials} onChange={(e) => set('trials', e.target.value)} data-testid="train-trials" />
              </Field>
            </div>
          )}
        </>
      )}

      <Field label={t('train.hyperSet')} id={id('hyperset')} name="hyperSet" errors={errors}>
        <HTMLSelect id={id('hyperset')} fill value={hyperSet} onChange={(e) => void pickHyperSet(e.target.value)}>
          <option value="">{t('train.hyperSetNone')}</option>
          {(hypers.data?.rows ?? []).map((h) => (
            <option key={h.id} value={h.id}>
              {h.name} ({h.algorithm})
            </option>
          ))}
        </HTMLSelect>
      </Field>
      <Field label={t('train.hyperparameters')} id={id('hyper')} name="hyperparameters" errors={errors} hint={kind === 'parameter' ? undefined : t(`train.hyperHint.${kind}`)}>
        <TextArea id={id('hyper')} className="modelling-code" style={{ minHeight: 80 }} fill value={form.hyperparameters} onChange={(e) => set('hyperparameters', e.target.value)} data-testid="train-hyper" spellCheck={false} />
      </Field>

      <Field label={t('train.stop')} id={id('stop')} name="stop" errors={errors}>
        <div id={id('stop')} role="group" data-testid="train-stop">
          <Checkbox label={t('train.system')} checked={form.stop.system} onChange={(e) => setStop({ system: e.currentTarget.checked })} data-testid="stop-system" />
          <Checkbox label={t('train.durationOn')} checked={form.stop.durationOn} onChange={(e) => setStop({ durationOn: e.currentTarget.checked })} data-testid="stop-duration" />
          {form.stop.durationOn && (
            <Field label="" id={id('days')} name="duration" errors={errors}>
              <div style={{ display: 'flex', gap: 8 }}>
                {(['days', 'hours', 'minutes'] as const).map((u) => (
                  <InputGroup key={u} id={id(u)} inputMode="numeric" aria-label={t(`train.${u}`)} rightElement={<span className="bp6-text-muted" style={{ padding: '6px 8px' }}>{t(`train.${u}`)}</span>} value={form.stop[u]} onChange={(e) => setStop({ [u]: e.target.value })} data-testid={`stop-${u}`} />
                ))}
              </div>
            </Field>
          )}
          <Checkbox label={kind === 'environment' ? t('train.expectedScore') : t('train.expectedReward')} checked={form.stop.expectedOn} onChange={(e) => setStop({ expectedOn: e.currentTarget.checked })} data-testid="stop-expected-on" />
          {form.stop.expectedOn && (
            <Field label="" id={id('expected')} name="expected" errors={errors}>
              <InputGroup id={id('expected')} inputMode="decimal" value={form.stop.expected} onChange={(e) => setStop({ expected: e.target.value })} data-testid="stop-expected" />
            </Field>
          )}
        </div>
      </Field>

      <Switch label={t('train.git')} checked={form.gitOn} onChange={(e) => set('gitOn', e.currentTarget.checked)} data-testid="train-git" />
      {form.gitOn && (
        <div className="modelling-form-grid">
          <Field label={t('train.gitUrl')} id={id('gurl')} name="gitUrl" errors={errors}>
            <InputGroup id={id('gurl')} value={form.gitUrl} onChange={(e) => set('gitUrl', e.target.value)} data-testid="git-url" />
          </Field>
          <Field label={t('train.gitCommit')} id={id('gcommit')} name="gitCommit" errors={errors}>
            <InputGroup id={id('gcommit')} value={form.gitCommit} onChange={(e) => set('gitCommit', e.target.value)} data-testid="git-commit" />
          </Field>
          <Field label={t('train.gitUser')} id={id('guser')} name="gitUser" errors={errors}>
            <InputGroup id={id('guser')} value={form.gitUser} autoComplete="off" onChange={(e) => set('gitUser', e.target.value)} />
          </Field>
          <Field label={t('train.gitPassword')} id={id('gpass')} name="gitPassword" errors={errors}>
            <InputGroup id={id('gpass')} type="password" autoComplete="new-password" value={form.gitPassword} onChange={(e) => set('gitPassword', e.target.value)} />
          </Field>
        </div>
      )}
      <Switch label={t('train.debug')} checked={form.debug} onChange={(e) => set('debug', e.currentTarget.checked)} data-testid="train-debug" />
    </CrudFormDialog>
  );
}
