import { useEffect, useState } from 'react';
import { Checkbox, FormGroup, NonIdealState, ProgressBar, Tag } from '@blueprintjs/core';
import { NumericInput, BusyButton, useNotify, useProjectLink, useFailureNotice, ChoiceField, DataTable, ListBody, PanelPage, RowForm } from '@decisio/sdk-plugin';
import { policyUpdateApi } from '../api';
import { usePolicyUpdateT } from '../i18n';
import { useSolutionPolicies } from '@decisio/sdk-plugin/trainings/pickers';
import { useJobEvents } from '@decisio/sdk-plugin/trainings/events';

const ACTIVE = ['waiting', 'processing', 'restoring', 'stopping', 'debugging'];
/** The fallback poll of the runs, only while a running job's live stream is not open. */
const POLL_MS = 2000;

/**
 * Policy update (`/project/update-policy?projectId=`): the training runs of a policy
 * (`train/getTrainUpdateListPage`) and a further training from its last checkpoint
 * (`train/createTrainUpdate`). With datasets of the project ticked (e.g. made from a service's
 * calls), the policy's environment is updated with them first (`kind: 'environment'`,
 * `datasetIds`), and the policy update starts once that run has succeeded.
 *
 * The running run (and the environment update waited for) is followed through its job's live
 * stream (`useJobEvents`): its progress as it comes, the runs read again when its state changes;
 * the runs are polled only while that stream is not open.
 */
export function UpdatePolicyPanel() {
  const { t, locale } = usePolicyUpdateT();
  const notify = useNotify();
  const fail = useFailureNotice();
  const link = useProjectLink();
  const projectId = link.params.projectId;
  const { picker, policies } = useSolutionPolicies(projectId);
  const [picked, setPicked] = useState(link.params.policyId ?? '');
  const [epochs, setEpochs] = useState(5);
  const [poll, setPoll] = useState(0);
  const [envPoll, setEnvPoll] = useState(0);
  const [datasetIds, setDatasetIds] = useState<string[]>([]);
  /** The environment update the policy update waits for. */
  const [chain, setChain] = useState<{ envId: string; jobId: string; policyId: string; epochs: number } | null>(null);
  const datasets = policyUpdateApi.endpoints['policy-update/datasets'].useQuery({ projectId: projectId ?? '' }, { skip: !projectId });
  const envRuns = policyUpdateApi.endpoints['policy-update/runs'].useQuery({ id: chain?.envId ?? '', kind: 'environment', page: 1, pageSize: 20 }, { skip: !chain, pollingInterval: envPoll });
  // A choice counts only while it is among the chosen solution's policies and the project's
  // datasets (another project or solution leaves it unchosen).
  const list = policies.currentData?.rows ?? [];
  const policy = list.some((p) => p.id === picked) ? picked : '';
  const tables = datasets.currentData?.rows ?? [];
  const ticked = datasetIds.filter((id) => tables.some((d) => d.tableId === id));
  const runs = policyUpdateApi.endpoints['policy-update/runs'].useQuery({ id: policy, kind: 'policy', page: 1, pageSize: 50 }, { skip: !policy, pollingInterval: poll });
  const [update, { isLoading }] = policyUpdateApi.endpoints['policy-update/update'].useMutation();
  const rows = runs.currentData?.rows ?? [];
  const running = rows.filter((r) => ACTIVE.includes(r.state));
  const active = running.length > 0;
  // The running run's job, followed live (a policy runs one job at a time; with more the runs poll).
  const [liveRun, setLiveRun] = useState<{ jobId: string; state: string; progress: number } | null>(null);
  const followed = running[0]?.jobId ?? null;
  const live = useJobEvents(followed, active, {
    onState: (view) => {
      if (followed) setLiveRun({ jobId: followed, state: view.state, progress: view.progress });
      if (running[0]?.state !== view.state) void runs.refetch();
    },
  });
  useEffect(() => setPoll(active && !(live && running.length === 1) ? POLL_MS : 0), [active, live, running.length]);
  const envRun = chain ? envRuns.currentData?.rows.find((r) => r.jobId === chain.jobId) : undefined;
  const envLive = useJobEvents(chain?.jobId, chain !== null, {
    onState: (view) => {
      if (envRun?.state !== view.state) void envRuns.refetch();
    },
  });
  useEffect(() => setEnvPoll(chain && !envLive ? POLL_MS : 0), [chain, envLive]);
  const progressOf = (r: (typeof rows)[number]) => (liveRun && liveRun.jobId === r.jobId && liveRun.state === r.state ? liveRun.progress : r.progress);
  useEffect(() => {
    if (!chain || !envRun || ACTIVE.includes(envRun.state)) return;
    setChain(null);
    if (envRun.state !== 'successful') {
      notify({ message: t('update.envFailed'), intent: 'danger' });
      return;
    }
    void update({ id: chain.policyId, kind: 'policy', hyperparameters: { epochs: chain.epochs } })
      .unwrap()
      .then(
        () => notify({ message: t('update.started'), intent: 'success' }),
        (err: unknown) => fail(err, t('update.failed')),
      );
  }, [chain, envRun, update, notify, fail, t]);

  if (!projectId) return <NonIdealState icon="projects" title={t('noProject.title')} description={t('noProject.description')} />;
  const simulatorId = list.find((p) => p.id === policy)?.simulatorId;
  const epochsValid = Number.isInteger(epochs) && epochs >= 1 && epochs < 10_000;
  const time = (v: string | null) => (v ? new Date(v).toLocaleString(locale) : '—');

  const body = !policy ? (
    <NonIdealState icon="refresh" title={t('update.emptyTitle')} description={t('update.emptyDescription')} />
  ) : (
    <ListBody query={runs} current failed={t('update.loadFailed')} retry={t('update.retry')} empty={rows.length === 0 && <NonIdealState icon="refresh" title={t('update.emptyTitle')} />}>
      <DataTable testId="update-rows" columns={[t('update.job'), t('update.reasonLabel'), t('update.state'), t('update.startTime'), t('update.endTime'), t('update.error')]}>
        {rows.map((r) => (
          <tr key={r.jobId}>
            <td className="bp6-monospace-text">{r.jobId.slice(0, 8)}</td>
            <td>{t(`update.reason.${r.reason}`)}</td>
            <td style={{ minWidth: 140 }}>
              <Tag minimal round intent={r.state === 'successful' ? 'success' : r.state === 'failure' ? 'danger' : 'primary'}>
                {r.state}
              </Tag>
              {ACTIVE.includes(r.state) && <ProgressBar value={progressOf(r)} />}
            </td>
            <td>{time(r.startTime)}</td>
            <td>{time(r.endTime)}</td>
            <td>{r.error ?? ''}</td>
          </tr>
        ))}
      </DataTable>
    </ListBody>
  );

  return (
    <PanelPage intro={t('update.intro')}>
      <RowForm
        onSubmit={() => {
          if (!policy || !epochsValid || chain) return;
          if (ticked.length > 0 && simulatorId) {
            const envId = simulatorId;
            void update({ id: envId, kind: 'environment', hyperparameters: { epochs }, datasetIds: ticked })
              .unwrap()
              .then(
                (r) => {
                  setChain({ envId, jobId: String(r.jobId), policyId: policy, epochs });
                  notify({ message: t('update.envStarted'), intent: 'success' });
                },
                (err: unknown) => fail(err, t('update.failed')),
              );
            return;
          }
          void update({ id: policy, kind: 'policy', hyperparameters: { epochs } })
            .unwrap()
            .then(
              () => notify({ message: t('update.started'), intent: 'success' }),
              (err: unknown) => fail(err, t('update.failed')),
            );
        }}
      >
        {picker}
        <ChoiceField
          id="update-policy"
          label={t('update.policy')}
          value={policy}
          onChange={setPicked}
          placeholder={list.length ? t('update.choosePolicy') : t('update.noPolicies')}
          choices={list.map((p) => ({ value: p.id, label: p.name }))}
        />
        <FormGroup label={t('update.epochs')} labelFor="update-epochs" intent={epochsValid ? 'none' : 'danger'} helperText={epochsValid ? undefined : t('update.epochsInvalid')}>
          <NumericInput id="update-epochs" min={1} max={9999} value={epochs} onValueChange={(v) => setEpochs(v)} intent={epochsValid ? 'none' : 'danger'} />
        </FormGroup>
        <BusyButton type="submit" intent="primary" icon="refresh" loading={isLoading || chain !== null} disabled={!policy || !epochsValid || active || chain !== null} text={t('update.start')} style={{ marginTop: 22 }} />
      </RowForm>
      <FormGroup label={t('update.envDatasets')} helperText={chain ? t('update.envRunning') : policy && !simulatorId ? t('update.noEnvironment') : t('update.envDatasetsHelp')}>
        {tables.length === 0 && <span className="bp6-text-muted">{t('update.noDatasets')}</span>}
        {tables.map((d) => (
          <Checkbox
            key={d.tableId}
            inline
            label={d.name}
            checked={ticked.includes(d.tableId)}
            disabled={chain !== null || !simulatorId || (!ticked.includes(d.tableId) && ticked.length >= 10)}
            onChange={(e) => {
              const on = e.currentTarget.checked;
              setDatasetIds((ids) => (on ? [...ids, d.tableId] : ids.filter((x) => x !== d.tableId)));
            }}
          />
        ))}
      </FormGroup>
      {body}
    </PanelPage>
  );
}
