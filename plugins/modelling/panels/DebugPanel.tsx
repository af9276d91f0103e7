/**
 * `/workflow/debug`: a training in debug mode (environment `simulatorId` or policy `policyId` of
 * the link). The job stops at a breakpoint after every epoch (log line `breakpoint after step
 * N`, job state `debugging`); this page lists the breakpoints reached, the measured metrics at
 * the current one (the metrics point of that step), and skips (`train/skipBreakpoint`) or stops
 * (`train/stopTrain`) the job. Without a training in the link it lists the solution's trainings
 * in debug mode to open.
 */
import { useEffect, useMemo, useState } from 'react';
import { Button, Callout, Card, H5, HTMLTable, NonIdealState, Spinner, Tag } from '@blueprintjs/core';
import { isApiError, projectLinkSearch, useAppLocation, useLocale, useNavigate, useNotify, type PanelProps } from '@decisio/sdk-plugin';
import { modellingApi, type LogPage, type TrainingRow } from '../api';
import { useModellingT } from '../i18n';
import { ACTIVE } from '../model/forms';
import { Curves } from './Curves';
import { formatTime, NoSolution, ProgressCell, StateTag, useSolutionId } from './shared';

const POLL_MS = 2000;
const BREAKPOINT = /^breakpoint after step (\d+)$/;

/** A breakpoint the job reached: the step it follows and when. */
export interface Breakpoint {
  step: number;
  time: string;
  logId: number;
}

/** The breakpoints of a job from its log lines, oldest first. */
export function breakpointsOf(items: LogPage['items']): Breakpoint[] {
  const out: Breakpoint[] = [];
  for (const i of items) {
    const m = BREAKPOINT.exec(i.message);
    if (m) out.push({ step: Number(m[1]), time: i.time, logId: i.id });
  }
  return out;
}

/** Whether a training runs in debug mode. */
const isDebug = (r: TrainingRow) => (r.config as { mode?: string } | null | undefined)?.mode === 'debug';

/** The whole log of a job, refreshed while it is active. */
function useJobLog(jobId: string | null, active: boolean): LogPage['items'] {
  const [fetchLog] = modellingApi.endpoints['modelling/log'].useLazyQuery();
  const [items, setItems] = useState<LogPage['items']>([]);
  useEffect(() => {
    setItems([]);
    if (!jobId) return;
    let cancelled = false;
    let last: number | undefined;
    const pull = async () => {
      for (let i = 0; i < 20 && !cancelled; i++) {
        const page = await fetchLog({ jobId, limit: 500, ...(last !== undefined ? { afterId: last } : {}) })
          .unwrap()
          .catch(() => null);
        if (!page || page.items.length === 0) break;
        last = page.items[page.items.length - 1]!.id;
        setItems((old) => [...old, ...page.items.filter((x) => !old.some((o) => o.id === x.id))]);
        if (page.nextAfterId === null) break;
      }
    };
    void pull();
    const h = active ? setInterval(() => void pull(), POLL_MS) : undefined;
    return () => {
      cancelled = true;
      if (h) clearInterval(h);
    };
  }, [jobId, active, fetchLog]);
  return items;
}

function DebugView({ area, id }: { area: 'trainSimulator' | 'trainPolicy'; id: string }) {
  const { t } = useModellingT();
  const notify = useNotify();
  const [active, setActive] = useState(true);
  const rec = modellingApi.endpoints['modelling/training'].useQuery({ area, id }, { pollingInterval: active ? POLL_MS : 0 });
  const row = rec.data;
  useEffect(() => {
    if (row) setActive(ACTIVE.has(row.state));
  }, [row]);
  const jobId = row?.jobId ?? null;
  const items = useJobLog(jobId, active);
  const breakpoints = useMemo(() => breakpointsOf(items), [items]);
  const display = modellingApi.endpoints['modelling/display'].useQuery({ jobId: jobId ?? '' }, { skip: !jobId || row?.state === 'waiting', pollingInterval: active ? POLL_MS : 0 });
  const [skip, skipping] = modellingApi.endpoints['modelling/skip'].useMutation();
  const [stop, stopping] = modellingApi.endpoints['modelling/stop'].useMutation();

  if (rec.isLoading) return <NonIdealState icon={<Spinner size={24} />} title={t('common.loading')} />;
  if (!row) return <Callout intent="danger" title={t('common.loadFailed')} />;
  const atBreakpoint = row.state === 'debugging';
  const current = atBreakpoint ? breakpoints[breakpoints.length - 1] : undefined;
  const points = display.data?.points ?? [];
  const at = current ? points.filter((p) => p.step === current.step).pop() : undefined;
  const measured = at ? Object.entries(at).filter(([k, v]) => k !== 'id' && k !== 'time' && k !== 'step' && typeof v === 'number') : [];
  const act = async (fn: () => Promise<unknown>, ok: string) => {
    try {
      await fn();
      notify({ message: ok, intent: 'success', icon: 'tick' });
      void rec.refetch();
    } catch (err) {
      if (!isApiError(err) || !err.handled) notify({ message: t('common.failed', { message: isApiError(err) ? err.message : String(err) }), intent: 'danger', icon: 'error' });
    }
  };

  return (
    <div className="modelling-panel" data-testid="modelling-debug">
      <div className="modelling-toolbar">
        <H5 style={{ margin: 0 }}>
          {row.name} <small className="bp6-text-muted">{row.code}</small>
        </H5>
        <span data-testid="debug-state">
          <StateTag state={row.state} />
        </span>
        {!isDebug(row) && <Tag minimal intent="warning">{t('debug.notDebugMode')}</Tag>}
        <span className="spacer" />
        <Button icon="step-forward" intent="primary" disabled={!atBreakpoint || !jobId} loading={skipping.isLoading} onClick={() => void act(() => skip({ jobId: jobId! }).unwrap(), t('debug.skipped'))} data-testid="debug-skip">
          {t('debug.skip')}
        </Button>
        <Button icon="stop" intent="danger" disabled={!ACTIVE.has(row.state) || !jobId} loading={stopping.isLoading} onClick={() => void act(() => stop({ jobId: jobId! }).unwrap(), t('common.stopped'))} data-testid="debug-stop">
          {t('common.stop')}
        </Button>
      </div>
      <ProgressCell state={row.state} progress={row.progress} durationMs={row.durationMs} />
      {row.error && (
        <Callout intent="danger" icon="error" title={t('detail.error')}>
          {row.error}
        </Callout>
      )}
      <div className="modelling-split">
        <Card compact>
          <H5>{t('debug.breakpoints')}</H5>
          {breakpoints.length === 0 ? (
            <p className="bp6-text-muted">{row.state === 'waiting' ? t('debug.waiting') : t('debug.noBreakpoints')}</p>
          ) : (
            <ol data-testid="debug-breakpoints" className="modelling-breakpoints">
              {breakpoints.map((b) => (
                <li key={b.logId} className={b === current ? 'is-current' : undefined} aria-current={b === current ? 'step' : undefined}>
                  {t('debug.afterStep', { step: b.step })} <small className="bp6-text-muted">{b.time.slice(11, 19)}</small>
                  {b === current && (
                    <Tag minimal intent="warning" style={{ marginLeft: 6 }}>
                      {t('debug.current')}
                    </Tag>
                  )}
                </li>
              ))}
            </ol>
          )}
        </Card>
        <Card compact>
          <H5>{current ? t('debug.metricsAt', { step: current.step }) : t('debug.metrics')}</H5>
          {!current && <p className="bp6-text-muted">{t('debug.notAtBreakpoint')}</p>}
          {current && measured.length === 0 && <p className="bp6-text-muted">{t('detail.noPoints')}</p>}
          {current && measured.length > 0 && (
            <HTMLTable compact striped data-testid="debug-metrics">
              <tbody>
                {measured.map(([k, v]) => (
                  <tr key={k}>
                    <th>{k}</th>
                    <td>{Number(v).toPrecision(5)}</td>
                  </tr>
                ))}
              </tbody>
            </HTMLTable>
          )}
          {points.length > 0 && <Curves points={points} stepLabel={t('detail.step')} />}
        </Card>
      </div>
      <p className="bp6-text-muted">{t('debug.tensorsNotKept')}</p>
    </div>
  );
}

/** The solution's trainings in debug mode, to open one. */
function DebugChooser({ solutionId }: { solutionId: string }) {
  const { t } = useModellingT();
  const location = useAppLocation();
  const locale = useLocale();
  const navigate = useNavigate();
  const envs = modellingApi.endpoints['modelling/trainings'].useQuery({ solutionId, area: 'trainSimulator' }, { pollingInterval: 5000 });
  const pols = modellingApi.endpoints['modelling/trainings'].useQuery({ solutionId, area: 'trainPolicy' }, { pollingInterval: 5000 });
  if (envs.isLoading || pols.isLoading) return <NonIdealState icon={<Spinner size={24} />} title={t('common.loading')} />;
  const rows = [...(envs.data?.rows ?? []).map((r) => ({ r, key: 'simulatorId' as const })), ...(pols.data?.rows ?? []).map((r) => ({ r, key: 'policyId' as const }))].filter((x) => isDebug(x.r));
  if (rows.length === 0) return <NonIdealState icon="bug" title={t('debug.none')} description={t('debug.noneHint')} />;
  return (
    <div className="modelling-panel" data-testid="modelling-debug-list">
      <H5>{t('debug.choose')}</H5>
      <HTMLTable compact striped interactive>
        <tbody>
          {rows.map(({ r, key }) => (
            <tr key={r.id} tabIndex={0} onClick={() => navigate('/workflow/debug', { search: projectLinkSearch(location.search, { [key]: r.id }) })} data-testid="debug-choose-row">
              <td>{r.name}</td>
              <td>
                <StateTag state={r.state} />
              </td>
              <td>{formatTime(r.createdAt, locale)}</td>
            </tr>
          ))}
        </tbody>
      </HTMLTable>
    </div>
  );
}

/** See the module comment. */
export function DebugPanel(_props: PanelProps) {
  const location = useAppLocation();
  const solutionId = useSolutionId();
  const { simulatorId, policyId } = location.search;
  if (simulatorId) return <DebugView key={simulatorId} area="trainSimulator" id={simulatorId} />;
  if (policyId) return <DebugView key={policyId} area="trainPolicy" id={policyId} />;
  if (!solutionId) return <NoSolution />;
  return <DebugChooser solutionId={solutionId} />;
}
