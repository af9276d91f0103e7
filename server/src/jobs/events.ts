import type { JobState } from './states';

/** A change of a job, as announced to subscribers of a queue. */
export type JobEvent =
  | { type: 'state'; jobId: string; tenantId: string; state: JobState; workerId: string | null; error?: string | null }
  | { type: 'metrics'; jobId: string; tenantId: string; progress: number; metrics: Record<string, number>; step?: number; point?: number }
  | { type: 'log'; jobId: string; tenantId: string; level: JobLogLevel; message: string }
  | { type: 'checkpoint'; jobId: string; tenantId: string; ref: string; size: number };

/** Level of a job log line. */
export type JobLogLevel = 'debug' | 'info' | 'warn' | 'error';

/** Receives job events. */
export type JobEventListener = (event: JobEvent) => void;

/** Where job events go (a local emitter, or Redis pub/sub from a worker process). */
export interface JobEventSink {
  emit(event: JobEvent): void;
}

/** A small synchronous fan-out of job events; a throwing listener does not stop the others. */
export class JobEvents implements JobEventSink {
  private readonly listeners = new Set<JobEventListener>();

  /** Adds a listener; returns the function that removes it. */
  subscribe(listener: JobEventListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  emit(event: JobEvent): void {
    for (const l of [...this.listeners]) {
      try {
        l(event);
      } catch {
        // A listener's failure is its own business.
      }
    }
  }
}
