/**
 * The one live-events hook of the trainings kit: a job's Server-Sent Events
 * (`GET /api/job/events?jobId=`, `&logs=1` with its log lines; the session's `token` cookie
 * authenticates it). The events carry the data: `state` (the job view: state, progress, latest
 * metrics, error), `metrics` (one new point of the series each, to append to a chart), `log` (a
 * new log line) and `tensors` (a debug-mode breakpoint kept its tensor summaries). Every screen
 * that follows a running job (training detail, the trainings list, the debug page) listens
 * through it and appends what comes instead of asking again.
 *
 * The hook answers whether the stream is live: while it is, callers do not poll; where
 * `EventSource` is missing, or while the stream is down (the browser reconnects by itself with
 * the stream's cursor, `Last-Event-ID`, so nothing is lost or sent twice), callers poll as the
 * fallback. The stream is closed after a final state.
 *
 * A list follows its running jobs with {@link FollowJobs} (the trainings lists, the dashboard's
 * running trainings); a page with one running job (policy update) calls {@link useJobEvents}.
 */
import { createElement, Fragment, useCallback, useEffect, useRef, useState, type ReactElement } from 'react';
import type { JobView } from '@decisio/domain';

/** One point of a job's metrics series (`train/getTrainDisplayDataList`'s `points`). */
export type JobMetricsPoint = { id: number; time: string | null } & Record<string, number | string | null>;

/** One log line of a job, as `train/getTrainLog` answers it. */
export interface JobLogLine {
  id: number;
  level: string;
  message: string;
  time: string;
}

/** A debug-mode breakpoint kept its tensor summaries (fetch them with `train/getTrainDisplayDataList`). */
export interface JobTensorsNotice {
  step: number | null;
  time: string | null;
}

/** What a screen does with the events of a job (each optional). */
export interface JobEventHandlers {
  /** The job's view, at connect and on every change of state or progress. */
  onState?: (view: JobView) => void;
  /** New points of the series, oldest first (a burst comes as one call). */
  onPoints?: (points: JobMetricsPoint[]) => void;
  /** New log lines, oldest first (only with `logs`; a burst comes as one call). */
  onLines?: (lines: JobLogLine[]) => void;
  /** A breakpoint's tensor summaries were kept (only with `logs`). */
  onTensors?: (notice: JobTensorsNotice) => void;
}

/** Options of {@link useJobEvents}. */
export interface JobEventOptions {
  /** Also the job's log lines (`onLines`, `onTensors`). */
  logs?: boolean;
  /** Points and lines are handed over at most once per this many milliseconds (default 200). */
  batchMs?: number;
}

/** The stream's address for a job. */
export const jobEventsUrl = (jobId: string, logs: boolean) => `/api/job/events?jobId=${encodeURIComponent(jobId)}${logs ? '&logs=1' : ''}`;

const parse = <T>(e: Event): T | null => {
  try {
    return JSON.parse(String((e as MessageEvent).data)) as T;
  } catch {
    return null;
  }
};

/**
 * Follows the events of `jobId` while `active`; answers true while the stream is open (callers
 * poll only when it is not).
 */
export function useJobEvents(jobId: string | null | undefined, active: boolean, handlers: JobEventHandlers, options: JobEventOptions = {}): boolean {
  const cb = useRef(handlers);
  cb.current = handlers;
  const logs = options.logs ?? false;
  const batchMs = options.batchMs ?? 200;
  const [live, setLive] = useState(false);

  useEffect(() => {
    setLive(false);
    if (!jobId || !active || typeof EventSource === 'undefined') return;
    const es = new EventSource(jobEventsUrl(jobId, logs), { withCredentials: true });
    let points: JobMetricsPoint[] = [];
    let lines: JobLogLine[] = [];
    let timer: ReturnType<typeof setTimeout> | null = null;
    let ended = false;
    const flush = () => {
      if (timer) clearTimeout(timer);
      timer = null;
      if (points.length) {
        const batch = points;
        points = [];
        cb.current.onPoints?.(batch);
      }
      if (lines.length) {
        const batch = lines;
        lines = [];
        cb.current.onLines?.(batch);
      }
    };
    const later = () => {
      if (!timer) timer = setTimeout(flush, batchMs);
    };
    es.addEventListener('open', () => setLive(true));
    es.addEventListener('metrics', (e) => {
      const p = parse<JobMetricsPoint>(e);
      if (p) points.push(p);
      later();
    });
    es.addEventListener('log', (e) => {
      const l = parse<JobLogLine>(e);
      if (l) lines.push(l);
      later();
    });
    es.addEventListener('tensors', (e) => {
      const n = parse<JobTensorsNotice>(e);
      flush();
      if (n) cb.current.onTensors?.(n);
    });
    es.addEventListener('state', (e) => {
      const view = parse<JobView>(e);
      // What came before the state goes first (the points written before a final state).
      flush();
      if (view) cb.current.onState?.(view);
      if (view?.final) {
        // The server ends the stream after a final state: no reconnecting.
        ended = true;
        es.close();
        setLive(false);
      }
    });
    es.addEventListener('error', () => {
      // Down: the browser reconnects by itself (CONNECTING) unless it gave up (CLOSED, e.g. a
      // refused stream); either way the caller polls until it is open again.
      if (!ended) setLive(false);
    });
    return () => {
      ended = true;
      if (timer) clearTimeout(timer);
      es.close();
    };
  }, [jobId, active, logs, batchMs]);

  return live;
}

/** At most this many running jobs of a list are followed live (each is a stream); with more, the list polls. */
export const LIST_STREAMS = 2;

/** Follows one job of a list through its live stream (renders nothing): `onState` with each view, `onLive` when its stream opens or goes down. */
function FollowJob({ jobId, onState, onLive }: { jobId: string; onState: (jobId: string, view: JobView) => void; onLive: (jobId: string, live: boolean) => void }): null {
  const live = useJobEvents(jobId, true, { onState: (view) => onState(jobId, view) });
  useEffect(() => onLive(jobId, live), [jobId, live, onLive]);
  return null;
}

/**
 * Follows the running jobs of a list (renders nothing; render it only while some run): the
 * first `max` of `jobIds` through their live streams (one each; a hook cannot run once per row,
 * so each is a child), `onState` with every view of each. `onAllLive` says whether every running
 * job is followed and its stream open: the list polls only while it is not.
 */
export function FollowJobs({ jobIds, max = LIST_STREAMS, onState, onAllLive }: { jobIds: readonly string[]; max?: number; onState: (jobId: string, view: JobView) => void; onAllLive: (allLive: boolean) => void }): ReactElement {
  const followed = jobIds.slice(0, max);
  const [open, setOpen] = useState<Record<string, boolean>>({});
  const onLive = useCallback((jobId: string, live: boolean) => setOpen((old) => (old[jobId] === live ? old : { ...old, [jobId]: live })), []);
  const allLive = jobIds.length <= max && followed.every((j) => open[j] === true);
  useEffect(() => onAllLive(allLive), [allLive, onAllLive]);
  return createElement(Fragment, null, ...followed.map((jobId) => createElement(FollowJob, { key: jobId, jobId, onState, onLive })));
}
