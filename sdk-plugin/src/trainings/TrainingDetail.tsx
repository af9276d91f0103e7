import { useCallback, useEffect, useMemo, useRef, useState, type CSSProperties, type ReactNode } from 'react';
import { AnchorButton, Button, Callout, Card, H5, HTMLTable, NonIdealState, Spinner } from '@blueprintjs/core';
import { NumericInput, BusyButton, isApiError, useLocale, useNotify } from '../index';
import { trainingsApi, type LogPage, type TensorBoardReply, type TrainingArea, type TrainingRow } from './api';
import { useTrainingsT } from './i18n';
import { useJobEvents, type JobLogLine, type JobMetricsPoint } from './events';
import { Curves } from './Curves';
import { ACTIVE, formatDuration, formatTime, ProgressCell, StateTag, STOPPED_MANUALLY, useSolutionId } from './shared';
import { WORKER_TERMINAL_STATES, WorkerTerminal } from './WorkerTerminal';

/** The fallback poll while the job's live stream is down (or where there is none). */
const POLL_MS = 3000;
/** States in which the server shows curves (logs also after a failure). */
const VIEWABLE = new Set(['processing', 'stopping', 'debugging', 'restoring', 'successful', STOPPED_MANUALLY]);

/**
 * Paged log of a job: first page on open, older/next pages on demand, new lines while it runs
 * (`streamed`: the lines of the job's live stream; polled only while the stream is down).
 */
function JobLog({ jobId, running, live, streamed }: { jobId: string; running: boolean; live: boolean; streamed: readonly JobLogLine[] }) {
  const { t } = useTrainingsT();
  const [fetchLog] = trainingsApi.endpoints['trainings/log'].useLazyQuery();
  const [items, setItems] = useState<LogPage['items']>([]);
  const [next, setNext] = useState<number | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [loading, setLoading] = useState(true);
  const last = useRef<number | undefined>(undefined);

  const load = useCallback(
    async (afterId?: number) => {
      try {
        const page = await fetchLog({ jobId, limit: 200, ...(afterId !== undefined ? { afterId } : {}) }).unwrap();
        if (page.items.length) last.current = page.items[page.items.length - 1]!.id;
        setItems((old) => {
          const seen = new Set(old.map((i) => i.id));
          return [...old, ...page.items.filter((i) => !seen.has(i.id))];
        });
        setNext(page.nextAfterId);
        setError(page.error);
      } catch {
        // not viewable yet (waiting): the log stays empty
      } finally {
        setLoading(false);
      }
    },
    [fetchLog, jobId],
  );

  useEffect(() => {
    setItems([]);
    last.current = undefined;
    setLoading(true);
    void load();
  }, [load]);

  useEffect(() => {
    if (!running || live) return;
    const h = setInterval(() => void load(last.current), POLL_MS);
    return () => clearInterval(h);
  }, [running, live, load]);

  // Lines of the live stream are appended as they come.
  useEffect(() => {
    if (streamed.length === 0) return;
    setItems((old) => {
      const seen = new Set(old.map((i) => i.id));
      const fresh = streamed.filter((l) => !seen.has(l.id)).map((l) => ({ id: l.id, level: l.level, message: l.message, time: l.time }));
      return fresh.length ? [...old, ...fresh] : old;
    });
    last.current = Math.max(last.current ?? 0, streamed[streamed.length - 1]!.id);
    setLoading(false);
  }, [streamed]);

  if (loading) return <Spinner size={20} />;
  return (
    <div>
      {error && (
        <Callout intent="danger" icon="error" title={t('detail.error')}>
          {error}
        </Callout>
      )}
      {items.length === 0 ? (
        <p className="bp6-text-muted">{t('detail.noLogs')}</p>
      ) : (
        <pre className="modelling-log bp6-code-block" tabIndex={0} aria-label={t('detail.logs')} data-testid="modelling-log">
          {items.map((i) => `${i.time.slice(11, 19)} ${i.level.toUpperCase().padEnd(5)} ${i.message}`).join('\n')}
        </pre>
      )}
      {next !== null && !running && (
        <Button small icon="more" onClick={() => void load(last.current)}>
          {t('detail.more')}
        </Button>
      )}
    </div>
  );
}

/**
 * TensorBoard of a job (`train/reStartTensorBoard`): the server writes the measured metrics as an
 * event file and starts TensorBoard behind `/api/tensorboard/<jobId>/` (opened in a new tab; the
 * session cookie authenticates it), or, without TensorBoard on the server, offers the file.
 */
function TensorBoardControl({ jobId }: { jobId: string }) {
  const { t } = useTrainingsT();
  const notify = useNotify();
  const [start, starting] = trainingsApi.endpoints['trainings/tensorBoardStart'].useMutation();
  const [stop, stopping] = trainingsApi.endpoints['trainings/tensorBoardStop'].useMutation();
  const [reply, setReply] = useState<TensorBoardReply | null>(null);
  const failed = (err: unknown) => {
    if (!isApiError(err) || !err.handled) notify({ message: t('common.failed', { message: isApiError(err) ? err.message : String(err) }), intent: 'danger', icon: 'error' });
  };
  const open = async () => {
    try {
      const r = await start({ jobId }).unwrap();
      setReply(r);
      if (r.running) window.open(r.url, '_blank', 'noopener');
    } catch (err) {
      failed(err);
    }
  };
  const close = async () => {
    try {
      await stop({ jobId }).unwrap();
      setReply(null);
      notify({ message: t('tensorboard.stopped'), intent: 'success', icon: 'tick' });
    } catch (err) {
      failed(err);
    }
  };
  return (
    <div data-testid="tensorboard">
      <div className="modelling-toolbar">
        <BusyButton small icon="timeline-line-chart" loading={starting.isLoading} title={t('tensorboard.openHint')} aria-label={starting.isLoading ? t('tensorboard.starting') : undefined} onClick={() => void open()}>
          {t('tensorboard.open')}
        </BusyButton>
        {reply?.running && (
          <>
            <span className="bp6-text-muted">{t('tensorboard.running')}</span>
            <a href={reply.url} target="_blank" rel="noopener noreferrer">
              {t('tensorboard.link')}
            </a>
            <BusyButton small variant="minimal" icon="stop" loading={stopping.isLoading} onClick={() => void close()}>
              {t('tensorboard.stop')}
            </BusyButton>
          </>
        )}
      </div>
      {reply && !reply.running && (
        <Callout intent="warning" icon="info-sign" title={t('tensorboard.notInstalled')} data-testid="tensorboard-not-installed">
          <p>{t('tensorboard.notInstalledHint')}</p>
          <AnchorButton small icon="download" href={reply.downloadUrl} download>
            {t('tensorboard.download')}
          </AnchorButton>
        </Callout>
      )}
    </div>
  );
}

/** Field names of a node's dimensions from the decision graph (`next_x` takes the fields of `x`). */
export function fieldNames(graph: { nodes: { name: string; fields?: { name: string }[] }[] } | null | undefined, node: string): string[] {
  const find = (n: string) => graph?.nodes.find((x) => x.name === n)?.fields?.map((f) => f.name) ?? [];
  const own = find(node);
  return own.length > 0 ? own : node.startsWith('next_') ? find(node.slice(5)) : [];
}

/** Per node and dimension: the model's values (simulated or decided) against the data's, one chart each. */
function NodeCharts({ nodes, modelLabel, solutionId }: { nodes: Record<string, { model: number[][]; real: number[][] }>; modelLabel: string; solutionId: string | undefined }) {
  const { t } = useTrainingsT();
  const pattern = trainingsApi.endpoints['trainings/pattern'].useQuery({ solutionId: solutionId ?? '' }, { skip: !solutionId });
  const real = t('detail.real');
  return (
    <div className="modelling-charts">
      {Object.entries(nodes).flatMap(([node, v]) => {
        const dims = Math.min(4, v.model[0]?.length ?? 0);
        const names = fieldNames(pattern.data?.graph as never, node);
        return Array.from({ length: dims }, (_, d) => (
          <div key={`${node}-${d}`} data-testid={`chart-${node}-${d}`}>
            <small>
              {node} · {names[d] ?? `[${d}]`}
            </small>
            <Curves compare chartId={`node-${node}-${d}`} stepLabel={t('detail.step')} points={v.model.map((row, k) => ({ step: k, [modelLabel]: row[d] ?? null, ...(v.real[k]?.length ? { [real]: v.real[k]![d] ?? null } : {}) }))} />
          </div>
        ));
      })}
    </div>
  );
}

/** One trajectory of the data rolled in the trained environment: real against simulated values per node and field. */
function Rollout({ id, horizon = 50, solutionId }: { id: string; horizon?: number; solutionId: string | undefined }) {
  const { t } = useTrainingsT();
  const [trajectory, setTrajectory] = useState(0);
  const q = trainingsApi.endpoints['trainings/rollout'].useQuery({ id, trajectory, horizon });
  // The charts are the chosen trajectory's only (currentData): `data` keeps the previous one's while
  // another loads or fails. The count of trajectories is the environment's, the same for each: kept.
  const shown = q.currentData;
  const nodes = useMemo(() => Object.fromEntries(Object.entries(shown?.nodes ?? {}).map(([k, v]) => [k, { model: v.predicted, real: v.real }])), [shown]);
  return (
    <div data-testid="modelling-rollout">
      <div className="modelling-toolbar">
        <H5 style={{ margin: 0 }}>{t('detail.rollout')}</H5>
        <label htmlFor="rollout-trajectory">{t('detail.trajectory')}</label>
        <NumericInput id="rollout-trajectory" min={0} max={Math.max(0, (q.data?.trajectories ?? 1) - 1)} value={trajectory} onValueChange={(v) => Number.isInteger(v) && v >= 0 && setTrajectory(v)} style={{ width: 80 }} />
        {q.data && <span className="bp6-text-muted">/ {q.data.trajectories}</span>}
      </div>
      {q.isFetching && !shown && <Spinner size={20} aria-label={t('common.loading')} />}
      {q.error && <p className="bp6-text-muted">{t('detail.noRollout')}</p>}
      {shown && <NodeCharts nodes={nodes} modelLabel={t('detail.simulated')} solutionId={solutionId} />}
    </div>
  );
}

/** What a decision deduction keeps of the trajectory it rolled with the policy (server `decidedTrajectory`). */
interface DecidedTrajectory {
  trajectory: number;
  horizon: number;
  nodes: Record<string, { decided: number[][]; real: number[][] }>;
  rewards: number[];
}

/** Charts of a deduction: simulated (simulation) or decided (decision) against real values, and the reward achieved. */
function DeductionCharts({ row, area, solutionId }: { row: TrainingRow; area: 'simulation' | 'decision'; solutionId: string | undefined }) {
  const { t } = useTrainingsT();
  const result = (row.result ?? {}) as { reward?: number; behaviourReward?: number; horizon?: number; trajectory?: DecidedTrajectory };
  if (row.state !== 'successful' && row.state !== STOPPED_MANUALLY) return null;
  if (area === 'simulation') {
    if (!row.simulatorId) return null;
    return (
      <div data-testid="deduction-charts">
        <Rollout id={row.simulatorId} horizon={Math.min(10_000, Math.max(1, row.stepSize ?? 50))} solutionId={solutionId} />
      </div>
    );
  }
  const tr = result.trajectory;
  if (!tr) return null;
  const nodes = Object.fromEntries(Object.entries(tr.nodes).map(([k, v]) => [k, { model: v.decided, real: v.real }]));
  const fmt = (v: number | undefined) => (typeof v === 'number' && Number.isFinite(v) ? v.toFixed(4) : t('common.none'));
  return (
    <div data-testid="deduction-charts">
      <HTMLTable compact data-testid="deduction-reward">
        <tbody>
          <tr>
            <th>{t('detail.rewardWithPolicy')}</th>
            <td>{fmt(result.reward)}</td>
            <th>{t('detail.rewardOfData')}</th>
            <td>{fmt(result.behaviourReward)}</td>
            <th>{t('detail.horizon')}</th>
            <td>{result.horizon ?? tr.horizon}</td>
          </tr>
        </tbody>
      </HTMLTable>
      <H5>{t('detail.decidedTrajectory', { trajectory: tr.trajectory, horizon: tr.horizon })}</H5>
      <div className="modelling-charts">
        <div data-testid="chart-reward">
          <small>{t('common.reward')}</small>
          <Curves compare chartId="deduction-reward" stepLabel={t('detail.step')} points={tr.rewards.map((r, k) => ({ step: k, [t('common.reward')]: r }))} />
        </div>
      </div>
      <NodeCharts nodes={nodes} modelLabel={t('detail.decided')} solutionId={solutionId} />
    </div>
  );
}

/** The measured figures of a result object (numbers up to two levels deep, e.g. `score`, `mae`, `nodes.temp.mae`). */
export function resultFigures(result: Record<string, unknown> | null): [string, number][] {
  const out: [string, number][] = [];
  const walk = (o: Record<string, unknown>, prefix: string, depth: number) => {
    for (const [k, v] of Object.entries(o)) {
      if (depth === 0 && k === 'trajectory') continue; // charted, not listed
      if (typeof v === 'number' && Number.isFinite(v)) out.push([prefix + k, v]);
      else if (depth < 2 && v && typeof v === 'object' && !Array.isArray(v)) walk(v as Record<string, unknown>, `${prefix}${k}.`, depth + 1);
    }
  };
  if (result) walk(result, '', 0);
  return out.slice(0, 60);
}

/**
 * The facts table's labels stay on one line (in Chinese a long value, the measured results,
 * squeezed them to one character a line); its values wrap instead, anywhere if they must.
 */
const FACT_LABEL: CSSProperties = { whiteSpace: 'nowrap', verticalAlign: 'top' };
const FACT_VALUE: CSSProperties = { overflowWrap: 'anywhere' };

/** Detail of one training or deduction: record, live curves from measured points, result, log; `extra`: an area's own section under the figures. */
export function TrainingDetail({ area, id, onClose, extra }: { area: TrainingArea; id: string; onClose: () => void; extra?: (row: TrainingRow) => ReactNode }) {
  const { t } = useTrainingsT();
  const locale = useLocale();
  const solutionId = useSolutionId();
  const [active, setActive] = useState(true);
  // While the job's live stream is open nothing is polled: its events carry the new points, log
  // lines and state; the record is read again only when the state changes.
  const [streaming, setStreaming] = useState(false);
  const rec = trainingsApi.endpoints['trainings/training'].useQuery({ area, id }, { pollingInterval: active && !streaming ? POLL_MS : 0 });
  const fetched: TrainingRow | undefined = rec.data;
  useEffect(() => {
    if (fetched) setActive(ACTIVE.has(fetched.state));
  }, [fetched]);
  const jobId = fetched?.jobId ?? null;
  const canView = !!fetched && !!jobId && VIEWABLE.has(fetched.state);
  const display = trainingsApi.endpoints['trainings/display'].useQuery({ jobId: jobId ?? '' }, { skip: !canView, pollingInterval: active && !streaming ? POLL_MS : 0 });
  const [progress, setProgress] = useState<{ state: string; progress: number } | null>(null);
  const [streamedPoints, setStreamedPoints] = useState<JobMetricsPoint[]>([]);
  const [streamedLines, setStreamedLines] = useState<JobLogLine[]>([]);
  useEffect(() => {
    setStreamedPoints([]);
    setStreamedLines([]);
    setProgress(null);
  }, [jobId]);
  const live = useJobEvents(
    jobId,
    active,
    {
      onState: (view) => {
        setProgress({ state: view.state, progress: view.progress });
        if (view.state !== fetched?.state) void rec.refetch();
      },
      onPoints: (points) => setStreamedPoints((old) => [...old, ...points]),
      onLines: (lines) => setStreamedLines((old) => [...old, ...lines]),
    },
    { logs: true },
  );
  useEffect(() => setStreaming(live), [live]);
  // The fetched series, then the streamed points after its last one. The series is the current
  // job's only (currentData): a restored or further trained record has a new job, and `data` would
  // keep the previous job's points while the new one waits or its first reading loads.
  const points = useMemo(() => {
    const base = display.currentData?.points ?? [];
    const lastId = base.length ? base[base.length - 1]!.id : 0;
    const seen = new Set<number>();
    const extra = streamedPoints.filter((p) => p.id > lastId && !seen.has(p.id) && (seen.add(p.id), true));
    return extra.length ? [...base, ...extra] : base;
  }, [display.currentData, streamedPoints]);
  // The live progress of the state the record shows.
  const row: TrainingRow | undefined = fetched && progress && progress.state === fetched.state ? { ...fetched, progress: progress.progress } : fetched;

  if (rec.isLoading) return <NonIdealState icon={<Spinner size={24} />} title={t('common.loading')} />;
  if (!row) return <Callout intent="danger" title={t('common.loadFailed')} />;
  const result = row.result && typeof row.result === 'object' ? row.result : null;
  const best = result && 'best' in result ? (result as { best?: unknown }).best : null;
  const metricKeys = Object.keys(row.metrics ?? {});

  return (
    <Card compact data-testid="training-detail" style={{ display: 'flex', flexDirection: 'column', gap: 8 }}>
      <div className="modelling-toolbar">
        <H5 style={{ margin: 0 }}>
          {row.name} <small className="bp6-text-muted">{row.code}</small>
        </H5>
        <StateTag state={row.state} />
        <span className="spacer" />
        <Button small icon="cross" aria-label={t('common.close')} title={t('common.close')} onClick={onClose} />
      </div>
      <HTMLTable compact data-testid="training-facts">
        <tbody>
          <tr>
            <th style={FACT_LABEL}>{t('common.algorithm')}</th>
            <td>{row.algorithm ? t(`algorithms.${row.algorithm}` as Parameters<typeof t>[0]) : t('common.none')}</td>
            <th style={FACT_LABEL}>{t('common.progress')}</th>
            <td>
              <ProgressCell state={row.state} progress={row.progress} durationMs={row.durationMs} />
            </td>
          </tr>
          <tr>
            <th style={FACT_LABEL}>{t('detail.startTime')}</th>
            <td>{formatTime(row.startTime, locale)}</td>
            <th style={FACT_LABEL}>{t('detail.endTime')}</th>
            <td>{formatTime(row.endTime, locale)}</td>
          </tr>
          <tr>
            <th style={FACT_LABEL}>{area === 'trainSimulator' || area === 'simulation' ? t('common.score') : t('train.finalReward')}</th>
            <td data-testid="training-score">{typeof row.score === 'number' ? row.score.toFixed(2) : typeof row.reward === 'number' ? row.reward.toFixed(4) : t('common.none')}</td>
            <th style={FACT_LABEL}>{t('common.duration')}</th>
            <td>{formatDuration(row.durationMs)}</td>
          </tr>
          {metricKeys.length > 0 && (
            <tr>
              <th style={FACT_LABEL}>{t('detail.result')}</th>
              <td colSpan={3} style={FACT_VALUE}>{metricKeys.map((k) => `${k}: ${Number(row.metrics![k]).toPrecision(4)}`).join(' · ')}</td>
            </tr>
          )}
        </tbody>
      </HTMLTable>
      {extra?.(row)}
      {row.error && (
        <Callout intent="danger" icon="error" title={t('detail.error')}>
          {row.error}
        </Callout>
      )}
      {(area === 'simulation' || area === 'decision') && resultFigures(result).length > 0 && (
        <HTMLTable compact striped data-testid="deduction-result">
          <caption style={{ textAlign: 'start' }}>{t('detail.result')}</caption>
          <tbody>
            {resultFigures(result).map(([k, v]) => (
              <tr key={k}>
                <th>{k}</th>
                <td>{v.toPrecision(5)}</td>
              </tr>
            ))}
          </tbody>
        </HTMLTable>
      )}
      {best !== null && best !== undefined && (
        <Callout intent="success" icon="star" title={t('train.bestParams')}>
          <pre className="modelling-log" data-testid="best-params">{JSON.stringify(best, null, 2)}</pre>
        </Callout>
      )}
      {/* A deduction measures one closing point (its score, in the table above): no training curve; its charts follow. */}
      {area !== 'simulation' && area !== 'decision' && (
        <>
          <H5>
            {t('detail.curves')} {active && <small className="bp6-text-muted">({t('detail.live')})</small>}
          </H5>
          <Curves chartId={area} loading={canView && display.isFetching && !display.currentData && streamedPoints.length === 0} points={points} stepLabel={t('detail.step')} />
        </>
      )}
      {canView && jobId && <TensorBoardControl key={`tensorboard-${jobId}`} jobId={jobId} />}
      {jobId && WORKER_TERMINAL_STATES.has(row.state) && <WorkerTerminal key={`terminal-${jobId}`} jobId={jobId} />}
      {area === 'trainSimulator' && (row.state === 'successful' || row.state === STOPPED_MANUALLY) && <Rollout id={row.id} solutionId={solutionId} />}
      {(area === 'simulation' || area === 'decision') && <DeductionCharts row={row} area={area} solutionId={solutionId} />}
      {jobId && (
        <>
          <H5>{t('detail.logs')}</H5>
          <JobLog key={jobId} jobId={jobId} running={active} live={live} streamed={streamedLines} />
        </>
      )}
    </Card>
  );
}
