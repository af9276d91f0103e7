import type { JobKind } from './kinds';

/** Payload of `system.count`. */
export interface CountPayload {
  /** Steps to count (default 10, at most 1,000,000). */
  steps?: number;
  /** Pause per step, ms (default 100). */
  stepMs?: number;
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const t = setTimeout(done, ms);
    function done() {
      clearTimeout(t);
      signal.removeEventListener('abort', done);
      resolve();
    }
    signal.addEventListener('abort', done, { once: true });
  });
}

/**
 * `system.count`: a self-test job that counts to `steps`, saving a checkpoint after each step and
 * resuming from the last one. Operators use it to check a worker fleet; tests use it to kill a
 * worker process mid-job.
 */
export const countJobKind: JobKind<CountPayload> = {
  kind: 'system.count',
  description: 'Counts to `steps`, one checkpoint per step (self-test of the workers).',
  async run(ctx) {
    const steps = Math.min(Math.max(Math.floor(ctx.payload?.steps ?? 10), 0), 1_000_000);
    const stepMs = Math.max(ctx.payload?.stepMs ?? 100, 0);
    const saved = await ctx.lastCheckpoint();
    let i = saved ? new DataView(saved.buffer, saved.byteOffset, saved.byteLength).getUint32(0) : 0;
    await ctx.log(saved ? `resuming at step ${i} of ${steps} (attempt ${ctx.attempt})` : `counting to ${steps}`);
    while (i < steps && !ctx.shouldStop()) {
      await sleep(stepMs, ctx.signal);
      if (ctx.shouldStop()) break;
      i += 1;
      const bytes = new Uint8Array(4);
      new DataView(bytes.buffer).setUint32(0, i);
      await ctx.checkpoint(bytes);
      await ctx.reportMetrics(steps === 0 ? 1 : i / steps, { step: i });
    }
    await ctx.log(ctx.shouldStop() ? `stopped at step ${i}` : `counted to ${steps}`);
  },
};

/** The job kinds every Decisio process (server and workers) knows. */
export const builtinJobKinds: readonly JobKind<any>[] = [countJobKind];
