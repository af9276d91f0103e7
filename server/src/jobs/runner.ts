import type { JobEventSink, JobLogLevel } from './events';
import type { JobKindRegistry, JobContext } from './kinds';
import { JobState } from './states';
import type { JobStore } from './store';

/** What became of one `run` call. */
export type RunOutcome = JobState | 'skipped';

/** How often a job at a breakpoint looks for a skip, ms. */
const BREAKPOINT_POLL_MS = 200;

function pause(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(t);
      signal.removeEventListener('abort', done);
      resolve();
    };
    const t = setTimeout(done, ms);
    signal.addEventListener('abort', done, { once: true });
  });
}

class WorkerHalted extends Error {
  constructor() {
    super('The worker was halted');
  }
}

/**
 * Runs jobs for one worker: claims the row, builds the handler's context, and writes the end
 * state. Every write is conditional on the worker still holding the job, so a worker that was
 * declared dead (or halted) cannot overwrite the work of the worker that took over.
 */
export class JobRunner {
  private readonly running = new Map<string, AbortController>();
  /** Jobs a `run` call is busy with, from before the claim to after the end state is written. */
  private readonly inFlight = new Set<string>();
  private halted = false;

  constructor(
    private readonly store: JobStore,
    private readonly kinds: JobKindRegistry,
    private readonly events: JobEventSink,
    readonly workerId: string,
  ) {}

  /** Ids of the jobs running here. */
  runningIds(): string[] {
    return [...this.running.keys()];
  }

  /** Ids of the jobs a `run` call is busy with, from before the claim to after the end state. */
  busyIds(): string[] {
    return [...this.inFlight];
  }

  /** Tells a running job's handler to stop (after its row went to `stopping`). */
  abort(jobId: string): void {
    this.running.get(jobId)?.abort(new Error('Stop requested'));
  }

  /**
   * Simulates (or reacts to) the loss of this worker: handlers are aborted and nothing more is
   * written for them; the jobs stay as they are in the database until they are restored.
   */
  halt(): void {
    this.halted = true;
    for (const c of this.running.values()) c.abort(new WorkerHalted());
  }

  /**
   * Hands back the jobs the database says this worker holds but no `run` call here is busy
   * with (the end state could not be written, e.g. the database was briefly unreachable), so
   * they resume instead of staying in progress forever. Resolves with their ids.
   */
  async orphans(): Promise<string[]> {
    const held = await this.store.heldJobIds(this.workerId);
    // Read after the query: a run that ends in between has left a final state, never held.
    return held.filter((id) => !this.inFlight.has(id));
  }

  /** Claims and runs one job; `skipped` when it could not be claimed here. */
  async run(jobId: string): Promise<RunOutcome> {
    if (this.halted) throw new WorkerHalted();
    if (this.inFlight.has(jobId)) return 'skipped';
    this.inFlight.add(jobId);
    try {
      return await this.claimAndRun(jobId);
    } finally {
      this.inFlight.delete(jobId);
    }
  }

  private async claimAndRun(jobId: string): Promise<RunOutcome> {
    if (!(await this.store.claim(jobId, this.workerId))) return 'skipped';
    const job = (await this.store.getJob(jobId))!;
    this.events.emit({ type: 'state', jobId, tenantId: job.tenantId, state: JobState.processing, workerId: this.workerId });
    const controller = new AbortController();
    this.running.set(jobId, controller);
    const guard = () => {
      if (this.halted) throw new WorkerHalted();
    };
    const ctx: JobContext = {
      jobId,
      tenantId: job.tenantId,
      userId: job.userId,
      attempt: job.attempts,
      payload: job.payload,
      signal: controller.signal,
      shouldStop: () => controller.signal.aborted,
      reportMetrics: async (progress, metrics = {}, step) => {
        guard();
        const p = Math.min(Math.max(Number.isFinite(progress) ? progress : 0, 0), 1);
        if (await this.store.reportMetrics(jobId, this.workerId, p, metrics)) {
          // A point of the series: its rows are written before the event, so a listener reads them.
          const point = step !== undefined && Number.isFinite(step) ? await this.store.writePoint(jobId, job.tenantId, step, metrics) : undefined;
          this.events.emit({ type: 'metrics', jobId, tenantId: job.tenantId, progress: p, metrics, ...(point !== undefined ? { step, point } : {}) });
        }
      },
      log: async (message: string, level: JobLogLevel = 'info') => {
        guard();
        await this.store.appendLog(jobId, level, message);
        this.events.emit({ type: 'log', jobId, tenantId: job.tenantId, level, message });
      },
      checkpoint: async (bytes) => {
        guard();
        const ref = await this.store.saveCheckpoint(jobId, this.workerId, bytes);
        if (ref === null) throw new Error(`Job ${jobId} is no longer held by worker ${this.workerId}`);
        this.events.emit({ type: 'checkpoint', jobId, tenantId: job.tenantId, ref, size: bytes.byteLength });
        return ref;
      },
      lastCheckpoint: () => this.store.lastCheckpoint(jobId),
      breakpoint: async () => {
        guard();
        if (!(await this.store.enterBreakpoint(jobId, this.workerId))) return;
        this.events.emit({ type: 'state', jobId, tenantId: job.tenantId, state: JobState.debugging, workerId: this.workerId });
        // Skips and stops are written to the row (by any process): poll it.
        while (!controller.signal.aborted) {
          guard();
          const state = await this.store.stateOf(jobId);
          if (state !== JobState.debugging) return;
          await pause(BREAKPOINT_POLL_MS, controller.signal);
        }
      },
    };
    let error: string | null = null;
    try {
      const kind = this.kinds.get(job.kind);
      if (!kind) throw new Error(`Unknown job kind "${job.kind}"`);
      await kind.run(ctx);
    } catch (err) {
      error = jobErrorText(err, await this.store.userLanguage(job.userId).catch(() => null));
    } finally {
      this.running.delete(jobId);
    }
    if (this.halted) throw new WorkerHalted();
    const state = await this.store.finish(jobId, this.workerId, error);
    if (state === null) return 'skipped';
    this.events.emit({ type: 'state', jobId, tenantId: job.tenantId, state, workerId: this.workerId, error: state === JobState.failure ? error : null });
    return state;
  }
}

/**
 * The failure text a job keeps: the error's message. An error that speaks both interface
 * languages (the learning engine's `LearningError.localized`) is kept in `language`, the
 * language its user chose in their settings; without one, in English and then Chinese.
 */
export function jobErrorText(err: unknown, language: 'zh-CN' | 'en-US' | null = null): string {
  if (!(err instanceof Error)) return String(err);
  const text = err.message || err.name;
  const localized = (err as { localized?: unknown }).localized;
  if (typeof localized !== 'function') return text;
  const say = (l: string) => String((localized as (l: string) => string).call(err, l));
  if (language) return say(language) || text;
  const zh = say('zh-CN');
  return zh && zh !== text ? `${text}\n${zh}` : text;
}
