import { useCallback, useEffect, useState } from 'react';
import { Button, Callout, Card, Classes, H4, HTMLTable, NonIdealState, ProgressBar, Spinner, Tag } from '@blueprintjs/core';
import { formatBytes, isApiError, useLocale, type PanelProps } from '@decisio/sdk-plugin';
import { dashboardApi, type OverviewTraining } from '../api';
import { useDashboardT } from '../i18n';
import { FollowJobs } from '@decisio/sdk-plugin/trainings/events';
import type { JobView } from '@decisio/domain';

/**
 * The resource figures (storage, workers, cores, memory, GPUs, job counts) are measurements with
 * no event source: they are read again at this slower pace (and at once when a followed training
 * changes state, which changes the job counts). The running trainings are read again at this pace
 * too, to find trainings started elsewhere; the ones shown follow their live streams.
 */
const MEASURE_POLL_MS = 30_000;
/** The running trainings' fallback poll, only while one of them is not followed live. */
const POLL_MS = 5000;
const DURATION_BUCKETS = ['1h', '6h', '12h', '24h', 'over24h'] as const;
const SCORE_BUCKETS = ['60', '70', '80', '90', '100'] as const;

/** One figure of a card: a label above a large value. */
function Figure({ label, value, testId }: { label: string; value: string | number; testId?: string }) {
  return (
    <div style={{ minWidth: 120 }} data-testid={testId}>
      <div className={Classes.TEXT_MUTED}>{label}</div>
      <div style={{ fontSize: 22, fontWeight: 600 }}>{value}</div>
    </div>
  );
}

/** Counts as horizontal bars, each labelled with its count (readable without colour). */
function Bars({ items }: { items: { label: string; value: number }[] }) {
  const max = Math.max(1, ...items.map((i) => i.value));
  return (
    <div style={{ display: 'grid', gridTemplateColumns: 'auto 1fr auto', gap: '4px 8px', alignItems: 'center' }}>
      {items.map((i) => (
        <div key={i.label} style={{ display: 'contents' }}>
          <span>{i.label}</span>
          <ProgressBar value={i.value / max} animate={false} stripes={false} intent="primary" />
          <span>{i.value}</span>
        </div>
      ))}
    </div>
  );
}

/** The progress of a running training as a labelled bar (none before it is measured). */
function RunningProgress({ progress }: { progress: number | null }) {
  return progress === null ? null : <ProgressBar value={progress} animate={false} stripes={false} intent="success" aria-label={`${Math.round(progress * 100)}%`} />;
}

/**
 * The tenant dashboard (spec platform §1): resources of the caller's tenant (running, waiting
 * and GPU jobs, storage) and, for system roles, of the whole platform (machines, cores, memory,
 * job slots, GPUs); the training overview (counts by kind and outcome, duration and score
 * distributions); the running trainings. The running trainings follow their jobs' live streams
 * (`FollowJobs`, up to `LIST_STREAMS` of them): the list, the job counts and, after a final
 * state, the overview are read again when a state changes; the list polls every 5 s only while a
 * running training is not followed live. The resource measurements are polled every 30 s.
 */
export function TenantOverviewPanel(_props: PanelProps) {
  const { t } = useDashboardT();
  const locale = useLocale();
  const resource = dashboardApi.endpoints['dashboard/resource'].useQuery(undefined, { pollingInterval: MEASURE_POLL_MS });
  const overall = dashboardApi.endpoints['dashboard/overall'].useQuery();
  const stats = dashboardApi.endpoints['dashboard/statistics'].useQuery();
  const [poll, setPoll] = useState(MEASURE_POLL_MS);
  const running = dashboardApi.endpoints['dashboard/running'].useQuery(undefined, { pollingInterval: poll });
  const runningRows = running.data?.rows;
  const [allLive, setAllLive] = useState(false);
  const runningJobs = (runningRows ?? []).flatMap((r) => (r.jobId ? [r.jobId] : []));
  const hasRunning = (runningRows?.length ?? 0) > 0;
  // A running row without a job (none expected) cannot be followed: the list polls then too.
  const followedAll = allLive && runningJobs.length === (runningRows?.length ?? 0);
  useEffect(() => setPoll(hasRunning && !followedAll ? POLL_MS : MEASURE_POLL_MS), [hasRunning, followedAll]);
  const [liveProgress, setLiveProgress] = useState<Record<string, { state: string; progress: number }>>({});
  const { refetch: refetchRunning } = running;
  const { refetch: refetchResource } = resource;
  const { refetch: refetchOverall } = overall;
  const { refetch: refetchStats } = stats;
  const onState = useCallback(
    (jobId: string, view: JobView) => {
      setLiveProgress((old) => ({ ...old, [jobId]: { state: view.state, progress: view.progress } }));
      if (runningRows?.find((r) => r.jobId === jobId)?.state === view.state) return;
      void refetchRunning();
      void refetchResource();
      if (view.final) void Promise.all([refetchOverall(), refetchStats()]);
    },
    [runningRows, refetchRunning, refetchResource, refetchOverall, refetchStats],
  );
  const progressOf = (row: OverviewTraining) => {
    const l = row.jobId ? liveProgress[row.jobId] : undefined;
    return l && l.state === row.state ? l.progress : row.progress;
  };
  const date = new Intl.DateTimeFormat(locale, { dateStyle: 'short', timeStyle: 'short' });
  const refetch = () => void Promise.all([resource.refetch(), overall.refetch(), stats.refetch(), running.refetch()]);
  const failure = resource.error ?? overall.error ?? stats.error ?? running.error;

  if (resource.isLoading || overall.isLoading) return <NonIdealState icon={<Spinner size={32} />} title={t('overview.loading')} />;
  const r = resource.data;
  const o = overall.data;
  const s = stats.data;

  return (
    <div style={{ padding: 16, display: 'flex', flexDirection: 'column', gap: 16, height: '100%', overflow: 'auto' }} data-testid="tenant-overview">
      {failure && (
        <Callout intent="danger" icon="error" title={t('overview.loadFailed')}>
          {isApiError(failure) ? failure.message : null}{' '}
          <Button variant="minimal" size="small" onClick={refetch}>
            {t('overview.retry')}
          </Button>
        </Callout>
      )}
      {r && (
        <section aria-labelledby="overview-resources">
          <div style={{ display: 'flex', alignItems: 'center', gap: 8 }}>
            <H4 id="overview-resources" style={{ margin: 0 }}>
              {t('overview.resources')}
            </H4>
            <span style={{ flex: 1 }} />
            <Button variant="minimal" icon="refresh" aria-label={t('overview.refresh')} title={t('overview.refresh')} onClick={refetch} />
          </div>
          <Card style={{ marginTop: 8 }} data-testid="overview-tenant">
            <div className={Classes.TEXT_MUTED} style={{ marginBottom: 8 }}>
              {t('overview.tenantScope')}
            </div>
            <div style={{ display: 'flex', gap: 24, flexWrap: 'wrap' }}>
              <Figure label={t('overview.runningJobs')} value={r.tenant.runningJobs} testId="overview-running-jobs" />
              <Figure label={t('overview.waitingJobs')} value={r.tenant.waitingJobs} />
              <Figure label={t('overview.gpuJobs')} value={r.tenant.gpuJobs} />
              <div style={{ minWidth: 220, flex: 1 }}>
                <div className={Classes.TEXT_MUTED}>{t('overview.storage')}</div>
                <ProgressBar value={r.tenant.storage.totalBytes > 0 ? r.tenant.storage.usedBytes / r.tenant.storage.totalBytes : 0} animate={false} stripes={false} intent="primary" />
                <div data-testid="overview-storage">{t('overview.storageUsed', { used: formatBytes(r.tenant.storage.usedBytes), total: formatBytes(r.tenant.storage.totalBytes) })}</div>
              </div>
            </div>
          </Card>
          {r.host && (
            <Card style={{ marginTop: 8 }} data-testid="overview-host">
              <div className={Classes.TEXT_MUTED} style={{ marginBottom: 8 }}>
                {t('overview.hostScope')}
              </div>
              <div style={{ display: 'flex', gap: 24, flexWrap: 'wrap' }}>
                <Figure label={t('overview.workers')} value={r.host.workers} />
                <Figure label={t('overview.cores')} value={r.host.cores} testId="overview-cores" />
                <Figure label={t('overview.memory')} value={formatBytes(r.host.memory)} />
                <Figure label={t('overview.slots')} value={t('overview.slotsValue', { used: r.host.runningJobs, total: r.host.slots })} />
                <div style={{ minWidth: 160 }}>
                  <div className={Classes.TEXT_MUTED}>{t('overview.gpus')}</div>
                  {r.host.gpus > 0 ? (
                    r.host.gpuAdapters.map((g) => (
                      <Tag key={g} minimal style={{ marginRight: 4 }}>
                        {g}
                      </Tag>
                    ))
                  ) : (
                    <span>{t('overview.noGpu')}</span>
                  )}
                </div>
              </div>
            </Card>
          )}
        </section>
      )}
      {o && (
        <section aria-labelledby="overview-trainings">
          <H4 id="overview-trainings">{t('overview.trainings')}</H4>
          <Card data-testid="overview-overall">
            <div style={{ display: 'flex', gap: 24, flexWrap: 'wrap' }}>
              <Figure label={t('overview.environments')} value={o.environments} />
              <Figure label={t('overview.policies')} value={o.policies} />
              <Figure label={t('overview.parameterSearches')} value={o.parameterSearches} />
              <Figure label={t('overview.deductions')} value={o.deductions} />
              <Figure label={t('overview.running')} value={o.running} />
              <Figure label={t('overview.successful')} value={o.successful} />
              <Figure label={t('overview.failed')} value={o.failed} />
            </div>
          </Card>
          {s && s.trainings > 0 && (
            <div style={{ display: 'flex', gap: 16, flexWrap: 'wrap', marginTop: 8 }}>
              <Card style={{ flex: 1, minWidth: 260 }}>
                <div className={Classes.TEXT_MUTED}>{t('overview.durations')}</div>
                <Bars items={DURATION_BUCKETS.map((b) => ({ label: t(`overview.durationBuckets.${b}`), value: s.durations[b] ?? 0 }))} />
              </Card>
              <Card style={{ flex: 1, minWidth: 260 }}>
                <div className={Classes.TEXT_MUTED}>{t('overview.scores')}</div>
                <Bars items={SCORE_BUCKETS.map((b) => ({ label: t('overview.scoreBucket', { score: b }), value: s.scores[b] ?? 0 }))} />
              </Card>
            </div>
          )}
        </section>
      )}
      <section aria-labelledby="overview-running">
        <H4 id="overview-running">{t('overview.runningTrainings')}</H4>
        {running.data && running.data.rows.length === 0 && <NonIdealState icon="pulse" title={t('overview.noRunning')} />}
        {running.data && running.data.rows.length > 0 && (
          <HTMLTable compact striped style={{ width: '100%' }} data-testid="overview-running-table">
            <thead>
              <tr>
                <th>{t('overview.columns.code')}</th>
                <th>{t('overview.columns.name')}</th>
                <th>{t('overview.columns.kind')}</th>
                <th>{t('overview.columns.state')}</th>
                <th>{t('overview.columns.progress')}</th>
                <th>{t('overview.columns.started')}</th>
              </tr>
            </thead>
            <tbody>
              {running.data.rows.map((row) => (
                <tr key={row.id} data-testid="overview-running-row">
                  <td>
                    <code>{row.code}</code>
                  </td>
                  <td>{row.name ?? ''}</td>
                  <td>{t(`overview.kinds.${row.kind as 'policy'}`)}</td>
                  <td>
                    <Tag minimal intent="primary">
                      {t(`overview.states.${row.state as 'processing'}`)}
                    </Tag>
                  </td>
                  <td style={{ minWidth: 120 }}>
                    <RunningProgress progress={progressOf(row)} />
                  </td>
                  <td>{row.startTime ? date.format(new Date(row.startTime)) : ''}</td>
                </tr>
              ))}
            </tbody>
          </HTMLTable>
        )}
        {runningJobs.length > 0 && <FollowJobs jobIds={runningJobs} onState={onState} onAllLive={setAllLive} />}
      </section>
    </div>
  );
}
