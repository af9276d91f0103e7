/**
 * `/workflow/debug`: a training in debug mode (environment `simulatorId` or policy `policyId` of
 * the link). The job stops at a breakpoint after every epoch (log line `breakpoint after step
 * N`, job state `debugging`); this page lists the breakpoints reached, the measured metrics at
 * the current one (the metrics point of that step), the summaries of the tensors of the trained
 * networks kept there (per parameter: shape, mean, std, min, max, L2 norm, gradient norm, share
 * of zeros, NaN/Inf warning and a small histogram; `tensors` of `train/getTrainDisplayDataList`),
 * and skips (`train/skipBreakpoint`) or stops (`train/stopTrain`) the job. A select picks the
 * summary of an earlier breakpoint instead (`tensorSteps` of the display data; the call with
 * `step`). While the job is active the live events (`GET /api/train/events`: `tensors` notice,
 * `state`) refresh the page at once; polling stays on as the fallback. Without a training in
 * the link it lists the solution's trainings in debug mode to open.
 */
import { useEffect, useId, useMemo, useRef, useState } from 'react';
import { Callout, Card, H5, HTMLSelect, HTMLTable, InputGroup, NonIdealState, Spinner, Tag } from '@blueprintjs/core';
import type { TensorSummary } from '@decisio/domain';
import { BusyButton, isApiError, projectLinkSearch, useAppLocation, useLocale, useNavigate, useNotify, useProjectEditRight, type PanelProps } from '@decisio/sdk-plugin';
import { useEnvironmentT } from '../i18n';
import { ACTIVE, Curves, formatTime, NoSolution, ProgressCell, StateTag, trainingsApi, useJobEvents, useProjectId, useSolutionId, type DisplayData, type JobLogLine, type LogPage, type TrainingRow } from '@decisio/sdk-plugin/trainings';

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

export type { TensorSummary };

/** The tensor summaries kept at a breakpoint (the latest one, from `train/getTrainDisplayDataList`). */
export interface TensorSnapshot {
  id: number;
  time: string | null;
  step: number;
  tensors: TensorSummary[];
  /** Parameters left out to keep the summary small. */
  omitted: number;
}

const num = (v: number | null) => (v === null ? '—' : Number(v).toPrecision(4));
const share = (v: number) => (v === 0 ? '0%' : `${Number((v * 100).toPrecision(3))}%`);

/** A histogram in a table cell: one bar per bin, heights relative to the fullest. */
export function TinyHistogram({ counts, label }: { counts: number[]; label: string }) {
  const W = 80;
  const H = 20;
  const top = Math.max(1, ...counts);
  const w = W / Math.max(1, counts.length);
  return (
    <svg width={W} height={H} viewBox={`0 0 ${W} ${H}`} role="img" aria-label={label} data-testid="debug-tensor-histogram">
      <title>{label}</title>
      {counts.map((c, i) => {
        const h = c > 0 ? Math.max(1, (c / top) * H) : 0;
        return <rect key={i} className="modelling-histogram-bar" x={i * w + 0.5} y={H - h} width={Math.max(1, w - 1)} height={h} />;
      })}
    </svg>
  );
}

/** The tensor summaries of a breakpoint: a filterable table, parameters with NaN or Inf flagged. */
function TensorTable({ snapshot }: { snapshot: TensorSnapshot }) {
  const { t } = useEnvironmentT();
  const [filter, setFilter] = useState('');
  const shown = snapshot.tensors.filter((x) => x.name.toLowerCase().includes(filter.trim().toLowerCase()));
  const broken = snapshot.tensors.filter((x) => x.nan > 0 || x.inf > 0).length;
  return (
    <>
      {broken > 0 && (
        <Callout intent="danger" icon="warning-sign" data-testid="debug-tensors-nonfinite">
          {t('debug.nonFinite', { count: broken })}
        </Callout>
      )}
      {snapshot.tensors.length > 8 && (
        <InputGroup leftIcon="search" placeholder={t('debug.tensorsFilter')} aria-label={t('debug.tensorsFilter')} value={filter} onChange={(e) => setFilter(e.currentTarget.value)} data-testid="debug-tensors-filter" />
      )}
      {shown.length === 0 ? (
        <p className="bp6-text-muted">{t('debug.noMatch')}</p>
      ) : (
        <div style={{ overflowX: 'auto' }}>
          <HTMLTable compact striped data-testid="debug-tensors" style={{ width: '100%' }}>
            <thead>
              <tr>
                <th>{t('debug.parameter')}</th>
                <th>{t('debug.shape')}</th>
                <th>{t('debug.mean')}</th>
                <th>{t('debug.std')}</th>
                <th>{t('debug.min')}</th>
                <th>{t('debug.max')}</th>
                <th>{t('debug.norm')}</th>
                <th>{t('debug.gradNorm')}</th>
                <th>{t('debug.zeros')}</th>
                <th>{t('debug.histogram')}</th>
              </tr>
            </thead>
            <tbody>
              {shown.map((x) => {
                const bad = x.nan > 0 || x.inf > 0;
                return (
                  <tr key={x.name} data-testid="debug-tensor-row" aria-invalid={bad || undefined}>
                    <th scope="row" style={{ fontFamily: 'monospace', fontWeight: 'normal', whiteSpace: 'nowrap' }}>
                      {x.name}
                      {x.nan > 0 && (
                        <Tag minimal intent="danger" icon="warning-sign" style={{ marginLeft: 6 }}>
                          {t('debug.nan', { share: share(x.nan) })}
                        </Tag>
                      )}
                      {x.inf > 0 && (
                        <Tag minimal intent="danger" icon="warning-sign" style={{ marginLeft: 6 }}>
                          {t('debug.inf', { share: share(x.inf) })}
                        </Tag>
                      )}
                    </th>
                    <td style={{ whiteSpace: 'nowrap' }}>{`[${x.shape.join(', ')}]`}</td>
                    <td>{num(x.mean)}</td>
                    <td>{num(x.std)}</td>
                    <td>{num(x.min)}</td>
                    <td>{num(x.max)}</td>
                    <td>{num(x.norm)}</td>
                    <td>{num(x.gradNorm)}</td>
                    <td>{share(x.zeros)}</td>
                    <td>{x.hist ? <TinyHistogram counts={x.hist.counts} label={t('debug.histogramOf', { name: x.name, lo: num(x.hist.lo), hi: num(x.hist.hi) })} /> : t('common.none')}</td>
                  </tr>
                );
              })}
            </tbody>
          </HTMLTable>
        </div>
      )}
      {snapshot.omitted > 0 && <p className="bp6-text-muted">{t('debug.omitted', { count: snapshot.omitted })}</p>}
    </>
  );
}


/** Whether a training runs in debug mode. */
const isDebug = (r: TrainingRow) => (r.config as { mode?: string } | null | undefined)?.mode === 'debug';

/** The whole log of a job, refreshed while it is active: `streamed` lines of the live stream are appended, and it is polled only while the stream is down. */
function useJobLog(jobId: string | null, active: boolean, live: boolean, streamed: readonly JobLogLine[]): LogPage['items'] {
  const [fetchLog] = trainingsApi.endpoints['trainings/log'].useLazyQuery();
  const [items, setItems] = useState<LogPage['items']>([]);
  const last = useRef<number | undefined>(undefined);
  const pull = useRef<(() => Promise<void>) | null>(null);
  // The whole log when the job is known, then new pages while it is active and not streamed.
  useEffect(() => {
    setItems([]);
    last.current = undefined;
    pull.current = null;
    if (!jobId) return;
    let cancelled = false;
    const read = async () => {
      for (let i = 0; i < 20 && !cancelled; i++) {
        const page = await fetchLog({ jobId, limit: 500, ...(last.current !== undefined ? { afterId: last.current } : {}) })
          .unwrap()
          .catch(() => null);
        if (!page || page.items.length === 0) break;
        last.current = page.items[page.items.length - 1]!.id;
        setItems((old) => [...old, ...page.items.filter((x) => !old.some((o) => o.id === x.id))]);
        if (page.nextAfterId === null) break;
      }
    };
    pull.current = read;
    void read();
    return () => {
      cancelled = true;
    };
  }, [jobId, fetchLog]);
  useEffect(() => {
    if (!jobId || !active || live) return;
    const h = setInterval(() => void pull.current?.(), POLL_MS);
    return () => clearInterval(h);
  }, [jobId, active, live]);
  useEffect(() => {
    if (streamed.length === 0) return;
    setItems((old) => {
      const seen = new Set(old.map((o) => o.id));
      const fresh = streamed.filter((l) => !seen.has(l.id));
      return fresh.length ? [...old, ...fresh] : old;
    });
    last.current = Math.max(last.current ?? 0, streamed[streamed.length - 1]!.id);
  }, [streamed]);
  return items;
}

function DebugView({ area, id }: { area: 'trainSimulator' | 'trainPolicy'; id: string }) {
  const { t } = useEnvironmentT();
  const notify = useNotify();
  const [active, setActive] = useState(true);
  // While the job's live stream is open nothing is polled (see `useJobEvents` below).
  const [streaming, setStreaming] = useState(false);
  const [streamed, setStreamed] = useState<JobLogLine[]>([]);
  const rec = trainingsApi.endpoints['trainings/training'].useQuery({ area, id }, { pollingInterval: active && !streaming ? POLL_MS : 0 });
  // `currentData` throughout: `data` would chart the previous training's (or job's) measures while
  // this one's load.
  const row = rec.currentData;
  useEffect(() => {
    if (row) setActive(ACTIVE.has(row.state));
  }, [row]);
  const jobId = row?.jobId ?? null;
  useEffect(() => setStreamed([]), [jobId]);
  const items = useJobLog(jobId, active, streaming, streamed);
  const breakpoints = useMemo(() => breakpointsOf(items), [items]);
  const display = trainingsApi.endpoints['trainings/display'].useQuery({ jobId: jobId ?? '' }, { skip: !jobId || row?.state === 'waiting', pollingInterval: active && !streaming ? POLL_MS : 0 });
  // An earlier breakpoint's summary (null: the current one's); it does not change, no polling.
  const [picked, setPicked] = useState<number | null>(null);
  const pickId = useId();
  const history = trainingsApi.endpoints['trainings/display'].useQuery({ jobId: jobId ?? '', step: picked ?? 0 }, { skip: !jobId || picked === null });
  // The live stream: log lines appended; a breakpoint's tensors notice fetches its summary (and
  // the points up to it); a change of state reads the record again.
  const live = useJobEvents(
    jobId,
    active,
    {
      onLines: (lines) => setStreamed((old) => [...old, ...lines]),
      onTensors: () => {
        if (jobId && row?.state !== 'waiting') void display.refetch();
      },
      onState: (view) => {
        if (view.state !== row?.state) {
          void rec.refetch();
          if (jobId && row?.state !== 'waiting') void display.refetch();
        }
      },
    },
    { logs: true },
  );
  useEffect(() => setStreaming(live), [live]);
  const [skip, skipping] = trainingsApi.endpoints['trainings/skip'].useMutation();
  const [stop, stopping] = trainingsApi.endpoints['trainings/stop'].useMutation();
  // A user who may not change the project (view right, locked) may watch, not skip or stop; refused once known.
  const refused = useProjectEditRight(useProjectId()).reason;

  if (!row && !rec.isError) return <NonIdealState icon={<Spinner size={24} />} title={t('common.loading')} />;
  if (!row) return <Callout intent="danger" title={t('common.loadFailed')} />;
  const atBreakpoint = row.state === 'debugging';
  const current = atBreakpoint ? breakpoints[breakpoints.length - 1] : undefined;
  const points = display.currentData?.points ?? [];
  const at = current ? points.filter((p) => p.step === current.step).pop() : undefined;
  const measured = at ? Object.entries(at).filter(([k, v]) => k !== 'id' && k !== 'time' && k !== 'step' && typeof v === 'number') : [];
  const snapshot = (display.currentData as (DisplayData & { tensors?: TensorSnapshot | null }) | undefined)?.tensors ?? null;
  const tensors = current && snapshot && snapshot.step === current.step ? snapshot : null;
  const tensorSteps = display.currentData?.tensorSteps ?? [];
  const pickedSnapshot = picked === null ? null : ((history.currentData as (DisplayData & { tensors?: TensorSnapshot | null }) | undefined)?.tensors ?? null);
  const shown = picked === null ? tensors : pickedSnapshot && pickedSnapshot.step === picked ? pickedSnapshot : null;
  const shownStep = picked ?? current?.step;
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
        <BusyButton icon="step-forward" intent="primary" disabled={!atBreakpoint || !jobId || refused !== undefined} title={refused} loading={skipping.isLoading} onClick={() => void act(() => skip({ jobId: jobId! }).unwrap(), t('debug.skipped'))} data-testid="debug-skip">
          {t('debug.skip')}
        </BusyButton>
        <BusyButton icon="stop" intent="danger" disabled={!ACTIVE.has(row.state) || !jobId || refused !== undefined} title={refused} loading={stopping.isLoading} onClick={() => void act(() => stop({ jobId: jobId! }).unwrap(), t('common.stopped'))} data-testid="debug-stop">
          {t('common.stop')}
        </BusyButton>
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
          {points.length > 0 && <Curves chartId="debug" points={points} stepLabel={t('detail.step')} />}
        </Card>
      </div>
      <Card compact>
        <div className="modelling-toolbar">
          <H5 style={{ margin: 0 }}>{shownStep !== undefined ? t('debug.tensorsAt', { step: shownStep }) : t('debug.tensors')}</H5>
          <span className="spacer" />
          {(tensorSteps.length > 0 || picked !== null) && (
            <span style={{ display: 'inline-flex', alignItems: 'center', gap: 6 }}>
              <label htmlFor={pickId}>{t('debug.tensorsPick')}</label>
              <HTMLSelect id={pickId} value={picked === null ? '' : String(picked)} onChange={(e) => setPicked(e.currentTarget.value === '' ? null : Number(e.currentTarget.value))} data-testid="debug-tensors-step">
                <option value="">{current ? t('debug.tensorsCurrentAt', { step: current.step }) : t('debug.tensorsCurrent')}</option>
                {/* the current breakpoint is the first choice already: listed once */}
                {[...new Set([...tensorSteps, ...(picked === null ? [] : [picked])])].filter((s) => s !== current?.step || s === picked).map((s) => (
                  <option key={s} value={String(s)}>
                    {t('debug.afterStep', { step: s })}
                  </option>
                ))}
              </HTMLSelect>
            </span>
          )}
        </div>
        {picked === null && !current && <p className="bp6-text-muted">{t('debug.notAtBreakpoint')}</p>}
        {(picked !== null || current !== undefined) && !shown && (
          <p className="bp6-text-muted" data-testid="debug-tensors-empty">
            {(picked === null ? display.isFetching && !display.currentData : history.isFetching) ? t('common.loading') : t('debug.noTensors')}
          </p>
        )}
        {shown && <TensorTable key={shown.id} snapshot={shown} />}
      </Card>
    </div>
  );
}

/** The solution's trainings in debug mode, to open one. */
function DebugChooser({ solutionId }: { solutionId: string }) {
  const { t } = useEnvironmentT();
  const location = useAppLocation();
  const locale = useLocale();
  const navigate = useNavigate();
  const envs = trainingsApi.endpoints['trainings/trainings'].useQuery({ solutionId, area: 'trainSimulator' }, { pollingInterval: 5000 });
  const pols = trainingsApi.endpoints['trainings/trainings'].useQuery({ solutionId, area: 'trainPolicy' }, { pollingInterval: 5000 });
  if (envs.isLoading || pols.isLoading) return <NonIdealState icon={<Spinner size={24} />} title={t('common.loading')} />;
  const rows = [...(envs.data?.rows ?? []).map((r) => ({ r, key: 'simulatorId' as const })), ...(pols.data?.rows ?? []).map((r) => ({ r, key: 'policyId' as const }))].filter((x) => isDebug(x.r));
  if (rows.length === 0) return <NonIdealState icon="bug" title={t('debug.none')} description={t('debug.noneHint')} />;
  return (
    <div className="modelling-panel" data-testid="modelling-debug-list">
      <H5>{t('debug.choose')}</H5>
      <HTMLTable compact striped interactive>
        <tbody>
          {rows.map(({ r, key }) => {
            const open = () => navigate('/workflow/debug', { search: projectLinkSearch(location.search, { [key]: r.id }) });
            return (
              <tr
                key={r.id}
                tabIndex={0}
                onClick={open}
                onKeyDown={(e) => {
                  if (e.key !== 'Enter' && e.key !== ' ') return;
                  e.preventDefault();
                  open();
                }}
                data-testid="debug-choose-row"
              >
                <td>{r.name}</td>
                <td>
                  <StateTag state={r.state} />
                </td>
                <td>{formatTime(r.createdAt, locale)}</td>
              </tr>
            );
          })}
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
  // Keyed by the solution: another one's list starts loading afresh, never showing the previous one's trainings.
  return <DebugChooser key={solutionId} solutionId={solutionId} />;
}
