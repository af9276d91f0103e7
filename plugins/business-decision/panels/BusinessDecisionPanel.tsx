import { useState } from 'react';
import { AnchorButton, Button, ButtonGroup, Callout, NonIdealState, ProgressBar, Tag, type Intent } from '@blueprintjs/core';
import type { BusinessDecisionState } from '@decisio/domain';
import { BusyButton, useNotify, useProjectLink, fieldErrorsOf, isTrained, policyGain, useFailureNotice, ChoiceField, DataTable, ListBody, PanelPage, RowForm } from '@decisio/sdk-plugin';
import { businessDecisionApi } from '../api';
import { useBusinessDecisionT } from '../i18n';
import { useSolutionPolicies } from '@decisio/sdk-plugin/trainings/pickers';

const INTENT: Record<BusinessDecisionState, Intent> = { running: 'primary', success: 'success', failure: 'danger' };

/**
 * Business decision (`/project/business-decision?projectId=`): a trained policy decides every
 * row of a business dataset in the background; progress, then the result csv to download.
 */
export function BusinessDecisionPanel() {
  const { t, locale } = useBusinessDecisionT();
  const notify = useNotify();
  const fail = useFailureNotice();
  const link = useProjectLink();
  const projectId = link.params.projectId;
  const { picker, policies } = useSolutionPolicies(projectId);
  const datasets = businessDecisionApi.endpoints['business-decision/datasets'].useQuery({ projectId: projectId ?? '' }, { skip: !projectId });
  const [polling, setPolling] = useState(false);
  const runs = businessDecisionApi.endpoints['business-decision/list'].useQuery({ projectId: projectId ?? '', page: 1, pageSize: 50 }, { skip: !projectId, pollingInterval: polling ? 1000 : 0 });
  const [create, { isLoading }] = businessDecisionApi.endpoints['business-decision/create'].useMutation();
  const [remove] = businessDecisionApi.endpoints['business-decision/delete'].useMutation();
  const [policyId, setPolicyId] = useState(link.params.policyId ?? '');
  const [datasetId, setDatasetId] = useState('');
  const [touched, setTouched] = useState(false);
  const [errors, setErrors] = useState<Record<string, string>>({});
  // Another project starts the form's checks afresh (its choices are filtered below).
  const [formProject, setFormProject] = useState(projectId);
  if (formProject !== projectId) {
    setFormProject(projectId);
    setTouched(false);
    setErrors({});
  }
  // This project's answers only (`currentData`): the previous project's policies, datasets and runs
  // are never offered here while this one's load.
  const rows = runs.currentData?.rows ?? [];
  const running = rows.some((r) => r.state === 'running');
  if (running !== polling) setPolling(running);

  if (!projectId) return <NonIdealState icon="projects" title={t('noProject.title')} description={t('noProject.description')} />;
  const trained = (policies.currentData?.rows ?? []).filter(isTrained);
  const sets = datasets.currentData?.rows ?? [];
  // A choice counts only while it is among this solution's and project's offers (another solution
  // picked above, or a policy not trained yet, leaves it unchosen).
  const policy = trained.some((p) => p.id === policyId) ? policyId : '';
  const dataset = sets.some((d) => d.tableId === datasetId) ? datasetId : '';
  const gain = policyGain(trained.find((p) => p.id === policy) ?? {});

  const submit = async () => {
    setTouched(true);
    if (!policy || !dataset) return;
    try {
      await create({ policyId: policy, datasetId: dataset }).unwrap();
      setErrors({});
      setTouched(false);
      notify({ message: t('business.started'), intent: 'success' });
    } catch (err) {
      setErrors(fieldErrorsOf(err));
      fail(err, t('business.failed'));
    }
  };
  const policyError = touched && !policy ? t('business.required') : errors.policyId;
  const datasetError = touched && !dataset ? t('business.required') : errors.datasetId;

  const history = (
    <ListBody
      query={runs}
      current
      failed={t('business.loadFailed')}
      retry={t('business.retry')}
      empty={rows.length === 0 && <NonIdealState icon="th-derived" title={t('business.emptyTitle')} description={t('business.emptyDescription')} />}
    >
      <DataTable
        testId="business-rows"
        columns={[t('business.policy'), t('business.dataset'), t('business.progress'), t('business.rows'), t('business.rowsFailed'), t('business.created'), t('business.actions')]}
      >
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
                        (err: unknown) => fail(err, t('report.actionFailed')),
                      )
                  }
                />
              </ButtonGroup>
            </td>
          </tr>
        ))}
      </DataTable>
    </ListBody>
  );

  return (
    <PanelPage intro={t('business.intro')}>
      <RowForm onSubmit={() => void submit()}>
        {picker}
        <ChoiceField
          id="business-policy"
          label={t('business.policy')}
          required
          error={policyError}
          value={policy}
          onChange={setPolicyId}
          placeholder={trained.length ? t('business.choosePolicy') : t('business.noPolicies')}
          choices={trained.map((p) => ({ value: p.id, label: p.name }))}
        />
        <ChoiceField
          id="business-dataset"
          label={t('business.dataset')}
          required
          error={datasetError}
          value={dataset}
          onChange={setDatasetId}
          placeholder={sets.length ? t('business.chooseDataset') : t('business.noDatasets')}
          choices={sets.map((d) => ({ value: d.tableId, label: d.name }))}
        />
        <BusyButton type="submit" intent="primary" icon="play" loading={isLoading} text={t('business.start')} style={{ marginTop: 22 }} />
      </RowForm>
      {gain?.behind && (
        <Callout intent="warning" icon="warning-sign" data-testid="business-policy-behind">
          {t('business.behind', { reward: gain.reward.toPrecision(4), behaviour: gain.behaviour.toPrecision(4) })}
        </Callout>
      )}
      <h4 style={{ margin: 0 }}>{t('business.history')}</h4>
      {history}
    </PanelPage>
  );
}
