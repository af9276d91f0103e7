import { useState } from 'react';
import { AnchorButton, Button, ButtonGroup, Callout, FormGroup, HTMLSelect, HTMLTable, NonIdealState, ProgressBar, Spinner, Tag, type Intent } from '@blueprintjs/core';
import type { BusinessDecisionState } from '@decisio/domain';
import { useNotify, useProjectLink } from '@decisio/sdk-plugin';
import { deployApi } from '../api';
import { useDeployT } from '../i18n';
import { failureMessage } from './common';
import { useSolutionChoice } from './pickers';

const INTENT: Record<BusinessDecisionState, Intent> = { running: 'primary', success: 'success', failure: 'danger' };

/**
 * Business decision (`/project/business-decision?projectId=`): a trained policy decides every
 * row of a business dataset in the background; progress, then the result csv to download.
 */
export function BusinessDecisionPanel() {
  const { t, locale } = useDeployT();
  const notify = useNotify();
  const link = useProjectLink();
  const projectId = link.params.projectId;
  const { solutionId, picker } = useSolutionChoice(projectId);
  const policies = deployApi.endpoints['deploy/policies'].useQuery({ solutionId: solutionId ?? '' }, { skip: !solutionId });
  const datasets = deployApi.endpoints['deploy/datasets'].useQuery({ projectId: projectId ?? '' }, { skip: !projectId });
  const [polling, setPolling] = useState(false);
  const runs = deployApi.endpoints['deploy/businessList'].useQuery({ projectId: projectId ?? '', page: 1, pageSize: 50 }, { skip: !projectId, pollingInterval: polling ? 1000 : 0 });
  const [create, { isLoading }] = deployApi.endpoints['deploy/businessCreate'].useMutation();
  const [remove] = deployApi.endpoints['deploy/businessDelete'].useMutation();
  const [policyId, setPolicyId] = useState(link.params.policyId ?? '');
  const [datasetId, setDatasetId] = useState('');
  const [touched, setTouched] = useState(false);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const rows = runs.data?.rows ?? [];
  const running = rows.some((r) => r.state === 'running');
  if (running !== polling) setPolling(running);

  if (!projectId) return <NonIdealState icon="projects" title={t('noProject.title')} description={t('noProject.description')} />;
  const trained = (policies.data?.rows ?? []).filter((p) => p.state === 'successful' || p.state === 'successful by manual stop');
  const sets = datasets.data?.rows ?? [];

  const submit = async () => {
    setTouched(true);
    if (!policyId || !datasetId) return;
    try {
      await create({ policyId, datasetId }).unwrap();
      setErrors({});
      setTouched(false);
      notify({ message: t('business.started'), intent: 'success' });
    } catch (err) {
      const e = typeof err === 'object' && err !== null && 'errors' in err ? (err as { errors: Record<string, string> }).errors : {};
      setErrors(e ?? {});
      const message = failureMessage(err, t('business.failed'));
      if (message) notify({ message, intent: 'danger', icon: 'error' });
    }
  };
  const policyError = touched && !policyId ? t('business.required') : errors.policyId;
  const datasetError = touched && !datasetId ? t('business.required') : errors.datasetId;

  let history;
  if (runs.isLoading) history = <Spinner size={32} />;
  else if (runs.isError)
    history = (
      <Callout intent="danger" title={t('business.loadFailed')}>
        <Button text={t('business.retry')} onClick={() => void runs.refetch()} />
      </Callout>
    );
  else if (rows.length === 0) history = <NonIdealState icon="th-derived" title={t('business.emptyTitle')} description={t('business.emptyDescription')} />;
  else
    history = (
      <HTMLTable striped compact style={{ width: '100%' }}>
        <thead>
          <tr>
            <th>{t('business.policy')}</th>
            <th>{t('business.dataset')}</th>
            <th>{t('business.progress')}</th>
            <th>{t('business.rows')}</th>
            <th>{t('business.rowsFailed')}</th>
            <th>{t('business.created')}</th>
            <th>{t('business.actions')}</th>
          </tr>
        </thead>
        <tbody data-testid="business-rows">
          {rows.map((r) => (
            <tr key={r.id}>
              <td>{r.policyName}</td>
              <td>{r.datasetName}</td>
              <td style={{ minWidth: 160 }}>
                <Tag intent={INTENT[r.state]} minimal round>
                  {t(`business.state.${r.state}`)}
                </Tag>
                {r.state === 'running' && <ProgressBar value={r.progress} intent="primary" />}
                {r.error && <div className="bp6-text-muted">{r.error}</div>}
              </td>
              <td>
                {r.rowsDone.toLocaleString(locale)} / {r.rowsTotal.toLocaleString(locale)}
              </td>
              <td>{r.rowsFailed.toLocaleString(locale)}</td>
              <td>{new Date(r.createdAt).toLocaleString(locale)}</td>
              <td>
                <ButtonGroup variant="minimal">
                  {r.downloadUrl && <AnchorButton icon="download" text={t('business.download')} href={r.downloadUrl} />}
                  <Button
                    icon="trash"
                    intent="danger"
                    text={t('business.delete')}
                    disabled={r.state === 'running'}
                    onClick={() =>
                      void remove({ id: r.id })
                        .unwrap()
                        .then(
                          () => notify({ message: t('business.deleted'), intent: 'success' }),
                          (err: unknown) => {
                            const message = failureMessage(err, t('report.actionFailed'));
                            if (message) notify({ message, intent: 'danger', icon: 'error' });
                          },
                        )
                    }
                  />
                </ButtonGroup>
              </td>
            </tr>
          ))}
        </tbody>
      </HTMLTable>
    );

  return (
    <div style={{ padding: 12, display: 'flex', flexDirection: 'column', gap: 12 }}>
      <p className="bp6-text-muted" style={{ margin: 0 }}>
        {t('business.intro')}
      </p>
      <form
        style={{ display: 'flex', gap: 12, alignItems: 'flex-start', flexWrap: 'wrap' }}
        onSubmit={(e) => {
          e.preventDefault();
          void submit();
        }}
      >
        {picker}
        <FormGroup label={t('business.policy')} labelFor="business-policy" labelInfo="*" intent={policyError ? 'danger' : 'none'} helperText={policyError}>
          <HTMLSelect id="business-policy" value={policyId} onChange={(e) => setPolicyId(e.currentTarget.value)}>
            <option value="">{trained.length ? t('business.choosePolicy') : t('business.noPolicies')}</option>
            {trained.map((p) => (
              <option key={p.id} value={p.id}>
                {p.name}
              </option>
            ))}
          </HTMLSelect>
        </FormGroup>
        <FormGroup label={t('business.dataset')} labelFor="business-dataset" labelInfo="*" intent={datasetError ? 'danger' : 'none'} helperText={datasetError}>
          <HTMLSelect id="business-dataset" value={datasetId} onChange={(e) => setDatasetId(e.currentTarget.value)}>
            <option value="">{sets.length ? t('business.chooseDataset') : t('business.noDatasets')}</option>
            {sets.map((d) => (
              <option key={d.tableId} value={d.tableId}>
                {d.name}
              </option>
            ))}
          </HTMLSelect>
        </FormGroup>
        <Button type="submit" intent="primary" icon="play" loading={isLoading} text={t('business.start')} style={{ marginTop: 22 }} />
      </form>
      <h4 style={{ margin: 0 }}>{t('business.history')}</h4>
      {history}
    </div>
  );
}
