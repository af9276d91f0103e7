import { describe, expect, it, vi } from 'vitest';
import { databases } from '../test/server';
import { builtinJobKinds } from './builtin';
import type { JobEvent } from './events';
import { JobKindRegistry, JobState, type InProcessQueue } from './queue';
import { checkUpkeepBesideBusySlot, waitForState, waitUntil } from './testing';
import { useInProcessQueues } from './testing-in-process';
import { testingThreadKindsModule } from './testing-thread-kinds';

const A = { tenantId: 'a'.repeat(32) };

/** The main thread's registry: the built-ins and one kind only it has (given as an object). */
function registry(): JobKindRegistry {
  const kinds = new JobKindRegistry();
  for (const k of builtinJobKinds) kinds.registerJobKind(k);
  // The threads run `test.echo`; the main thread's registry says it is upkeep.
  kinds.registerJobKind({ kind: 'test.echo', lane: 'upkeep', run: async () => {} });
  kinds.registerJobKind({
    kind: 'test.main',
    async run(ctx) {
      const { threadId } = await import('node:worker_threads');
      await ctx.log(`ran on thread ${threadId}`);
    },
  });
  return kinds;
}

const logsOf = async (q: InProcessQueue, jobId: string) => (await q.logs(jobId, A))!.items.map((l) => l.message);

describe.each(databases)('InProcessQueue with job threads on %s', (kind) => {
  const { t, open } = useInProcessQueues(kind, registry, (db) => ({ threads: { databaseUrl: db.url, modules: [testingThreadKindsModule] } }));

  it('runs a job in a worker thread, with metrics, logs, a checkpoint and events on the main thread', async () => {
    const q = await open();
    const events: JobEvent[] = [];
    q.subscribe((e) => events.push(e));
    const job = await q.enqueue('test.echo', { n: 7 }, A);
    const done = await waitForState(() => q.get(job.id, A), JobState.successful, 60_000);
    expect(done).toMatchObject({ progress: 1, metrics: { loss: 0.25, reward: 7 }, attempts: 1, workerId: 'local-test', error: null });
    expect(Array.from((await t().store.lastCheckpoint(job.id))!)).toEqual([1, 2, 3]);
    const logs = await logsOf(q, job.id);
    expect(logs[0]).toMatch(/^start on thread [1-9]\d*$/);
    // The thread stores the final state itself; its event reaches the main thread by message, maybe a moment later.
    await vi.waitFor(() =>
      expect(events.filter((e) => e.type === 'state').map((e) => (e as { state: string }).state)).toEqual([
        JobState.waiting,
        JobState.processing,
        JobState.successful,
      ]),
    );
    expect(events.some((e) => e.type === 'metrics' && e.metrics.reward === 7)).toBe(true);
    expect(events.some((e) => e.type === 'checkpoint')).toBe(true);
    expect(events.filter((e) => e.type === 'log')).toHaveLength(2);

    // A kind the threads do not know runs on the main thread (thread 0).
    const main = await q.enqueue('test.main', null, A);
    await waitForState(() => q.get(main.id, A), JobState.successful, 20_000);
    expect(await logsOf(q, main.id)).toEqual(['ran on thread 0']);
  });

  it('runs an upkeep job in a thread beside a busy slot', async () => {
    const q = await open({ concurrency: 1 });
    const upkeep = await checkUpkeepBesideBusySlot(q, A, { kind: 'test.echo', payload: { n: 1 } }, 60_000);
    expect((await logsOf(q, upkeep.id))[0]).toMatch(/^start on thread [1-9]\d*$/);
  });

  it('stops a job in a thread, and lets a job at a breakpoint go on', async () => {
    const q = await open();
    const forever = await q.enqueue('test.forever', null, A);
    await waitForState(() => q.get(forever.id, A), JobState.processing, 60_000);
    await waitUntil(async () => (await logsOf(q, forever.id)).includes('running'), 20_000, 'the handler to run');
    await q.stop(forever.id, A);
    expect((await waitForState(() => q.get(forever.id, A), JobState.stoppedManually)).endedAt).toBeInstanceOf(Date);

    const debug = await q.enqueue('test.debug', null, A);
    await waitForState(() => q.get(debug.id, A), JobState.debugging, 20_000);
    await q.skipBreakpoint(debug.id, A);
    await waitForState(() => q.get(debug.id, A), JobState.successful);
    expect(await logsOf(q, debug.id)).toEqual(['before the breakpoint', 'after the breakpoint']);
  });

  it('restores the job of a thread that crashes from its checkpoint, and replaces the thread', async () => {
    const q = await open({ concurrency: 1 });
    const events: JobEvent[] = [];
    q.subscribe((e) => events.push(e));
    const job = await q.enqueue('test.crash', { how: 'throw' }, A);
    const done = await waitForState(() => q.get(job.id, A), JobState.successful, 60_000);
    expect(done).toMatchObject({ attempts: 2, metrics: { step: 2 }, error: null });
    const logs = await logsOf(q, job.id);
    expect(logs[0]).toMatch(/^crashing thread \d+$/);
    expect(logs[1]).toMatch(/^resumed from checkpoint 1 \(attempt 2\) on thread \d+$/);
    // Another thread resumed it.
    expect(logs[1]!.split(' ').at(-1)).not.toBe(logs[0]!.split(' ').at(-1));
    const states = () => events.filter((e) => e.type === 'state' && e.jobId === job.id).map((e) => (e as { state: string }).state);
    await vi.waitFor(() => expect(states()).toEqual([JobState.waiting, JobState.processing, JobState.restoring, JobState.processing, JobState.successful]));

    // The pool goes on with a new thread.
    const next = await q.enqueue('test.echo', { n: 1 }, A);
    await waitForState(() => q.get(next.id, A), JobState.successful, 60_000);
  });

  it('fails the job of a crashed thread with the reason after its last attempt', async () => {
    const q = await open({ concurrency: 1 });
    const job = await q.enqueue('test.crash', { how: 'exit' }, { ...A, maxAttempts: 1 });
    const failed = await waitForState(() => q.get(job.id, A), JobState.failure, 60_000);
    expect(failed.error).toMatch(/^The worker thread running the job exited with code 3; gave up after 1 attempts$/);
    expect(failed.checkpointRef).not.toBeNull();
  });

  it('does not start when its threads cannot load their kinds', async () => {
    const missing = new URL('./no-such-thread-module.ts', import.meta.url).href;
    await expect(open({ threads: { databaseUrl: t().url, modules: [missing] } })).rejects.toThrow(/^The job threads could not start: crashed: .*no-such-thread-module/);
  });

  it('leaves the jobs of its threads in progress on close and resumes them after a restart', async () => {
    const q1 = await open({ concurrency: 1 });
    const running = await q1.enqueue('system.count', { steps: 8, stepMs: 30 }, A);
    await waitUntil(async () => ((await q1.get(running.id, A))?.metrics.step ?? 0) >= 3, 60_000, 'three steps');
    await q1.close();
    const left = (await t().store.getJob(running.id))!;
    expect(left.state).toBe(JobState.processing);
    const stepAtClose = left.metrics.step!;
    // Nothing more is written once closed: the threads are gone.
    await new Promise((r) => setTimeout(r, 200));
    expect((await t().store.getJob(running.id))!.metrics.step).toBe(stepAtClose);

    const q2 = await open({ concurrency: 1 });
    const done = await waitForState(() => q2.get(running.id, A), JobState.successful, 60_000);
    expect(done).toMatchObject({ attempts: 1, metrics: { step: 8 } });
    expect(await logsOf(q2, running.id)).toContain(`resuming at step ${stepAtClose} of 8 (attempt 1)`);
  });
});
