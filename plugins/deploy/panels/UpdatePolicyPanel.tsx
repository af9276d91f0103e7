import { useState } from 'react';
import { Button, Callout, FormGroup, HTMLSelect, HTMLTable, NonIdealState, NumericInput, ProgressBar, Spinner, Tag } from '@blueprintjs/core';
import { useNotify, useProjectLink } from '@decisio/sdk-plugin';
import { deployApi } from '../api';
import { useDeployT } from '../i18n';
import { failureMessage } from './common';
import { useSolutionChoice } from './pickers';

const ACTIVE = ['waiting', 'processing', 'restoring', 'stopping', 'debugging'];

/**
 * Policy update (`/project/update-policy?projectId=`): the training runs of a policy
 * (`train/getTrainUpdateListPage`) and a further training from its last checkpoint
 * (`train/createTrainUpdate`).
 */
export function UpdatePolicyPanel() {
  const { t, locale } = useDeployT();
  const notify = useNotify();
  const link = useProjectLink();
  const projectId = link.params.projectId;
  const { solutionId, picker } = useSolutionChoice(projectId);
  const policies = deployApi.endpoints['deploy/policies'].useQuery({ solutionId: solutionId ?? '' }, { skip: !solutionId });
  const [picked, setPicked] = useState(link.params.policyId ?? '');
  const [epochs, setEpochs] = useState(5);
  const [polling, setPolling] = useState(false);
  const runs = deployApi.endpoints['deploy/trainRuns'].useQuery({ id: picked, kind: 'policy', page: 1, pageSize: 50 }, { skip: !picked, pollingInterval: polling ? 2000 : 0 });
  const [update, { isLoading }] = deployApi.endpoints['deploy/trainUpdate'].useMutation();
  const rows = runs.data?.rows ?? [];
  const active = rows.some((r) => ACTIVE.includes(r.state));
  if (active !== polling) setPolling(active);

  if (!projectId) return <NonIdealState icon="projects" title={t('noProject.title')} description={t('noProject.description')} />;
  const list = policies.data?.rows ?? [];
  const epochsValid = Number.isInteger(epochs) && epochs >= 1 && epochs < 10_000;
  const time = (v: string | null) => (v ? new Date(v).toLocaleString(locale) : '—');

  let body;
  if (!picked) body = <NonIdealState icon="refresh" title={t('update.emptyTitle')} description={t('update.emptyDescription')} />;
  else if (runs.isLoading) body = <Spinner size={32} />;
  else if (runs.isError)
    body = (
      <Callout intent="danger" title={t('update.loadFailed')}>
        <Button text={t('update.retry')} onClick={() => void runs.refetch()} />
      </Callout>
    );
  else if (rows.length === 0) body = <NonIdealState icon="refresh" title={t('update.emptyTitle')} />;
  else
    body = (
      <HTMLTable striped compact style={{ width: '100%' }}>
        <thead>
          <tr>
            <th>{t('update.job')}</th>
            <th>{t('update.reasonLabel')}</th>
            <th>{t('update.state')}</th>
            <th>{t('update.startTime')}</th>
            <th>{t('update.endTime')}</th>
            <th>{t('update.error')}</th>
          </tr>
        </thead>
        <tbody data-testid="update-rows">
          {rows.map((r) => (
            <tr key={r.jobId}>
              <td className="bp6-monospace-text">{r.jobId.slice(0, 8)}</td>
              <td>{t(`update.reason.${r.reason}`)}</td>
              <td style={{ minWidth: 140 }}>
                <Tag minimal round intent={r.state === 'successful' ? 'success' : r.state === 'failure' ? 'danger' : 'primary'}>
                  {r.state}
                </Tag>
                {ACTIVE.includes(r.state) && <ProgressBar value={r.progress} />}
              </td>
              <td>{time(r.startTime)}</td>
              <td>{time(r.endTime)}</td>
              <td>{r.error ?? ''}</td>
            </tr>
          ))}
        </tbody>
      </HTMLTable>
    );

  return (
    <div style={{ padding: 12, display: 'flex', flexDirection: 'column', gap: 12 }}>
      <p className="bp6-text-muted" style={{ margin: 0 }}>
        {t('update.intro')}
      </p>
      <form
        style={{ display: 'flex', gap: 12, alignItems: 'flex-start', flexWrap: 'wrap' }}
        onSubmit={(e) => {
          e.preventDefault();
          if (!picked || !epochsValid) return;
          void update({ id: picked, kind: 'policy', hyperparameters: { epochs } })
            .unwrap()
            .then(
              () => notify({ message: t('update.started'), intent: 'success' }),
              (err: unknown) => {
                const message = failureMessage(err, t('update.failed'));
                if (message) notify({ message, intent: 'danger', icon: 'error' });
              },
            );
        }}
      >
        {picker}
        <FormGroup label={t('update.policy')} labelFor="update-policy">
          <HTMLSelect id="update-policy" value={picked} onChange={(e) => setPicked(e.currentTarget.value)}>
            <option value="">{list.length ? t('update.choosePolicy') : t('update.noPolicies')}</option>
            {list.map((p) => (
              <option key={p.id} value={p.id}>
                {p.name}
              </option>
            ))}
          </HTMLSelect>
        </FormGroup>
        <FormGroup label={t('update.epochs')} labelFor="update-epochs" intent={epochsValid ? 'none' : 'danger'} helperText={epochsValid ? undefined : t('update.epochsInvalid')}>
          <NumericInput id="update-epochs" min={1} max={9999} value={epochs} onValueChange={(v) => setEpochs(v)} intent={epochsValid ? 'none' : 'danger'} />
        </FormGroup>
        <Button type="submit" intent="primary" icon="refresh" loading={isLoading} disabled={!picked || !epochsValid || active} text={t('update.start')} style={{ marginTop: 22 }} />
      </form>
      {body}
    </div>
  );
}
