import { useEffect, useState } from 'react';
import { Button, Callout, HTMLTable, NonIdealState, Spinner, Tag, type Intent } from '@blueprintjs/core';
import type { JobReportField, JobReportFormat, Locale, PolicyUpdateReport, ScheduleItem, ScheduleRunItem } from '@decisio/domain';
import { BusyButton, formatBytes, isApiError, pageCount, Pager, useLocale } from '@decisio/sdk-plugin';
import { jobsApi } from '../api';
import { useJobsT } from '../i18n';

const PAGE_SIZE = 10;
const FINAL = ['successful', 'successful by manual stop', 'failure'];

function intentOf(state: string | null): Intent {
  if (state === 'successful') return 'success';
  if (state === 'failure') return 'danger';
  if (state === 'processing' || state === 'waiting' || state === 'restoring') return 'primary';
  return 'none';
}

/** A report value as its kind declares it reads; a format this client does not know reads as a number. */
function formatValue(format: JobReportFormat | string, v: number, t: ReturnType<typeof useJobsT>['t'], number: Intl.NumberFormat): string {
  switch (format) {
    case 'bytes':
      return formatBytes(v);
    case 'flag':
      return t(v ? 'history.metrics.yes' : 'history.metrics.no');
    case 'seconds':
      return t('history.units.seconds', { value: number.format(v) });
    case 'days':
      return t('history.units.days', { value: number.format(v) });
    default:
      return number.format(v);
  }
}

/**
 * A run's report, read as its job kind declares it (`fields`, the run's `reportFields`): each
 * declared key with its label in the page's language and its value formatted (sizes in
 * B/KB/MB..., numbers in the locale's way, seconds and days with their unit, flags as yes/no). A
 * key the kind did not declare is never dropped: it shows as it is, `key: value`.
 */
export function reportText(metrics: Record<string, number>, fields: readonly JobReportField[] | undefined, t: ReturnType<typeof useJobsT>['t'], locale: Locale): string {
  const number = new Intl.NumberFormat(locale);
  const byKey = new Map((fields ?? []).map((f) => [f.key, f]));
  return Object.entries(metrics)
    .map(([k, v]) => {
      const f = byKey.get(k);
      if (!f) return `${k}: ${v}`;
      const label = f.label[locale] || f.label['en-US'] || f.label['zh-CN'] || k;
      return t('history.metrics.field', { label, value: formatValue(f.format, v, t, number) });
    })
    .join(t('history.metrics.separator'));
}

const SLOW_MS = 10_000;
const FAST_MS = 1500;

/**
 * How often the history is read again: every 1.5 s while a listed run is unfinished, or while the
 * shown schedule is due (from 10 s before its next run to 10 s after, so a new job's first run
 * shows as it happens); else every 10 s.
 */
export function historyPollMs(schedule: Pick<ScheduleItem, 'status' | 'nextRunAt'> | null, unfinished: boolean, now: number): number {
  if (unfinished) return FAST_MS;
  // `waiting`: running, never fired yet.
  const next = schedule && schedule.status !== 'paused' && schedule.nextRunAt ? Date.parse(schedule.nextRunAt) : NaN;
  return Math.abs(next - now) <= SLOW_MS ? FAST_MS : SLOW_MS;
}

/** The job history: every run (of one schedule, or all), newest first, read again as {@link historyPollMs} says. */
export function HistorySection({ schedule, onShowAll }: { schedule: ScheduleItem | null; onShowAll(): void }) {
  const { t } = useJobsT();
  const locale = useLocale();
  const [page, setPage] = useState(1);
  const [live, setLive] = useState(false);
  const history = jobsApi.endpoints['jobs/history'].useQuery({ id: schedule?.id, page, pageSize: PAGE_SIZE }, { pollingInterval: historyPollMs(schedule, live, Date.now()) });
  // `currentData`, not `data`: RTK Query's `data` keeps the previous argument's result while the
  // next loads, so switching from every run to one schedule's would list other jobs' runs under
  // "Job history of <name>" until the answer came.
  const data = history.currentData;
  const rows = data?.rows ?? [];
  const unfinished = rows.some((r) => r.jobId && !FINAL.includes(r.state ?? ''));
  useEffect(() => setLive(unfinished), [unfinished]);
  const date = new Intl.DateTimeFormat(locale, { dateStyle: 'short', timeStyle: 'medium' });
  // A skipped run says why under its report: the `skipped` flag would only repeat it.
  const report = (r: ScheduleRunItem) =>
    r.error ?? reportText(r.skippedReason ? Object.fromEntries(Object.entries(r.metrics).filter(([k]) => k !== 'skipped')) : r.metrics, r.reportFields, t, locale);
  const score = (v: number | null) => (v === null ? '?' : Number(v.toPrecision(5)).toString());
  /** A policy update's loop, as it stands: outcome, the calls used, the scores before and after, why. */
  const loop = (l: PolicyUpdateReport) => (
    <div data-testid="job-run-loop" style={{ marginTop: 4 }}>
      <Tag minimal intent={l.state === 'swapped' ? 'success' : l.state === 'failed' ? 'danger' : l.state === 'running' ? 'primary' : 'none'} data-testid="job-run-loop-state">
        {l.state === 'running' ? t('history.loop.running', { step: l.step }) : t(`history.loop.${l.state}`)}
      </Tag>{' '}
      {l.calls !== null && <span>{t('history.loop.calls', { calls: l.calls, dataset: l.datasetId?.slice(0, 8) ?? '' })} </span>}
      {(l.scoreBefore !== null || l.scoreAfter !== null) && <span>{t('history.loop.scores', { before: score(l.scoreBefore), after: score(l.scoreAfter) })} </span>}
      {l.reason && <div style={{ opacity: 0.8 }}>{t('history.loop.reason', { reason: l.reason })}</div>}
    </div>
  );

  return (
    <section aria-labelledby="job-history-title" data-testid="job-history">
      <div style={{ display: 'flex', alignItems: 'center', gap: 8 }}>
        <h3 id="job-history-title" style={{ margin: 0 }}>
          {schedule ? t('history.of', { name: schedule.name }) : t('history.title')}
        </h3>
        {schedule && (
          <Button variant="minimal" size="small" icon="cross" onClick={onShowAll}>
            {t('history.all')}
          </Button>
        )}
        <span style={{ flex: 1 }} />
        <BusyButton variant="minimal" icon="refresh" aria-label={t('refresh')} title={t('refresh')} onClick={() => void history.refetch()} loading={history.isFetching && !history.isLoading} />
      </div>
      {!data && history.isFetching && <Spinner size={20} />}
      {history.error && (
        <Callout intent="danger" icon="error" compact>
          {isApiError(history.error) ? history.error.message : t('loadFailed')}
        </Callout>
      )}
      {data && data.total === 0 && <NonIdealState icon="history" title={t('history.empty')} />}
      {data && data.total > 0 && (
        <>
          <HTMLTable compact striped style={{ width: '100%' }} data-testid="job-history-table">
            <thead>
              <tr>
                <th>{t('history.fired')}</th>
                <th>{t('columns.name')}</th>
                <th>{t('history.trigger')}</th>
                <th>{t('history.state')}</th>
                <th>{t('history.report')}</th>
                <th>{t('history.ended')}</th>
                <th>{t('history.job')}</th>
              </tr>
            </thead>
            <tbody>
              {rows.map((r) => (
                <tr key={r.id} data-testid="job-run">
                  <td style={{ whiteSpace: 'nowrap' }}>{date.format(new Date(r.firedAt))}</td>
                  <td>{r.scheduleName}</td>
                  <td>{t(`history.triggers.${r.trigger}`)}</td>
                  <td>
                    <Tag minimal intent={intentOf(r.state)} data-testid="job-run-state">
                      {t(`states.${(r.state ?? 'none') as 'none'}`)}
                    </Tag>
                  </td>
                  <td style={{ wordBreak: 'break-word' }}>
                    {report(r)}
                    {r.skippedReason && (
                      <div data-testid="job-run-skipped" style={{ marginTop: 4, opacity: 0.8 }}>
                        {t('history.skippedRun', { reason: r.skippedReason })}
                      </div>
                    )}
                    {r.report && loop(r.report)}
                  </td>
                  <td style={{ whiteSpace: 'nowrap' }}>{r.endedAt ? date.format(new Date(r.endedAt)) : ''}</td>
                  <td>
                    <code>{r.jobId?.slice(0, 8) ?? ''}</code>
                  </td>
                </tr>
              ))}
            </tbody>
          </HTMLTable>
          <Pager small page={page} pages={pageCount(data.total, PAGE_SIZE)} onPage={setPage} prevLabel={t('prev')} nextLabel={t('next')} />
        </>
      )}
    </section>
  );
}
