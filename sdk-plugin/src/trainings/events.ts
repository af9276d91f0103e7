/**
 * The one live-events hook of the trainings kit: the job's Server-Sent Events
 * (`GET /api/train/events?jobId=`; the session's `token` cookie authenticates it). Every screen
 * that follows a running job (training detail, debug page) listens through it.
 */
import { useEffect, useRef } from 'react';

/** Named events of the job stream: a metrics point, a state change, a breakpoint's tensor summaries. */
export type JobEventName = 'metrics' | 'state' | 'tensors';

/**
 * Calls `onEvent` on each of `events` of the job's stream while `active` (and a job id is known);
 * with `throttleMs`, at most once per that many milliseconds (a burst of points is one refresh).
 * Does nothing where `EventSource` is missing (callers keep polling as the fallback); an error
 * closes the stream (the caller's poll goes on).
 */
export function useJobEvents(jobId: string | null | undefined, active: boolean, events: readonly JobEventName[], onEvent: () => void, throttleMs = 0): void {
  const cb = useRef(onEvent);
  cb.current = onEvent;
  const names = events.join(',');
  useEffect(() => {
    if (!jobId || !active || typeof EventSource === 'undefined') return;
    const es = new EventSource(`/api/train/events?jobId=${encodeURIComponent(jobId)}`, { withCredentials: true });
    let timer: ReturnType<typeof setTimeout> | null = null;
    const fire = () => {
      if (throttleMs <= 0) return cb.current();
      if (timer) return;
      timer = setTimeout(() => {
        timer = null;
        cb.current();
      }, throttleMs);
    };
    for (const name of names.split(',')) es.addEventListener(name, fire);
    es.onerror = () => es.close();
    return () => {
      if (timer) clearTimeout(timer);
      es.close();
    };
  }, [jobId, active, names, throttleMs]);
}
