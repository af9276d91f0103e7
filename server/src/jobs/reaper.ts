import type { JobEventSink } from './events';
import { JobState } from './states';
import type { JobStore } from './store';

/** Default silence after which a worker is declared dead, ms. */
export const DEFAULT_DEAD_AFTER_MS = 30_000;
/** Default heartbeat period of a worker, ms. */
export const DEFAULT_HEARTBEAT_MS = 5_000;

/**
 * Finds workers silent for longer than `deadAfterMs`, declares them dead and takes their jobs
 * back: each goes to `restoring` and is handed to `dispatch` (queued again, to resume from its
 * last checkpoint), or ends as `failure` with the reason after its last attempt. Any process may
 * sweep (the server and every worker do): the transitions are conditional, one sweeper wins.
 */
export class WorkerReaper {
  constructor(
    private readonly store: JobStore,
    private readonly events: JobEventSink,
    private readonly dispatch: (jobId: string) => Promise<void>,
    private readonly deadAfterMs: number = DEFAULT_DEAD_AFTER_MS,
  ) {}

  /** One sweep; resolves with the ids of the workers it declared dead. */
  async sweep(): Promise<string[]> {
    const dead: string[] = [];
    for (const workerId of await this.store.silentWorkerIds(this.deadAfterMs)) {
      if (!(await this.store.markWorkerDead(workerId, this.deadAfterMs))) continue;
      dead.push(workerId);
      await this.takeBack(workerId, `Worker ${workerId} stopped responding (no heartbeat for ${Math.round(this.deadAfterMs / 1000)} s)`);
    }
    return dead;
  }

  /**
   * Takes back every job `workerId` holds (after its loss, on a restart of its owner, or on a
   * clean shutdown: `graceful`, which does not use up an attempt).
   */
  async takeBack(workerId: string, reason: string, options: { graceful?: boolean; only?: readonly string[] } = {}): Promise<void> {
    for (const jobId of options.only ?? (await this.store.heldJobIds(workerId))) {
      const job = await this.store.getJob(jobId);
      const outcome = await this.store.restore(jobId, workerId, `${reason}; gave up after ${job?.attempts ?? '?'} attempts`, options);
      if (!outcome || !job) continue;
      const state = outcome === 'restoring' ? JobState.restoring : outcome === 'stopped' ? JobState.stoppedManually : JobState.failure;
      const after = await this.store.getJob(jobId);
      this.events.emit({ type: 'state', jobId, tenantId: job.tenantId, state, workerId: null, error: after?.error ?? null });
      if (outcome === 'restoring') await this.dispatch(jobId);
    }
  }
}
