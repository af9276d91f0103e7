import { describe, expect, it } from 'vitest';
import { databases } from '../test/server';
import { builtinJobKinds } from './builtin';
import type { JobEvent } from './events';
import { JobKindRegistry, JobNotStoppableError, JobState } from './queue';
import { checkUpkeepBesideBusySlot, waitForState, waitUntil } from './testing';
import { useInProcessQueues } from './testing-in-process';

const A = { tenantId: 'a'.repeat(32) };
const B = { tenantId: 'b'.repeat(32) };

function registry(): JobKindRegistry {
  const kinds = new JobKindRegistry();
  for (const k of builtinJobKinds) kinds.registerJobKind(k);
  kinds.registerJobKind<{ n: number }>({
    kind: 'test.echo',
    async run(ctx) {
      await ctx.log('start');
      await ctx.reportMetrics(0.5, { loss: 0.25 });
      await ctx.checkpoint(new Uint8Array([1, 2, 3]));
      await ctx.reportMetrics(0.9, { reward: ctx.payload.n });
      await ctx.log('end', 'warn');
    },
  });
  kinds.registerJobKind({
    kind: 'test.forever',
    async run(ctx) {
      await ctx.log('running');
      await new Promise<void>((resolve) => ctx.signal.addEventListener('abort', () => resolve(), { once: true }));
    },
  });
  kinds.registerJobKind({
    kind: 'test.upkeep',
    lane: 'upkeep',
    async run(ctx) {
      await ctx.log('kept the host in order');
    },
  });
  kinds.registerJobKind({
    kind: 'test.fail',
    async run() {
      throw new Error('boom');
    },
  });
  return kinds;
}

describe.each(databases)('InProcessQueue on %s', (kind) => {
  const { t, open } = useInProcessQueues(kind, registry);

  it('runs a job to success, with metrics, paged logs, a checkpoint and events', async () => {
    const q = await open();
    const events: JobEvent[] = [];
    q.subscribe((e) => events.push(e));
    const job = await q.enqueue('test.echo', { n: 7 }, { ...A, userId: 'u'.repeat(32), name: 'Echo' });
    expect(job).toMatchObject({ state: JobState.waiting, kind: 'test.echo', name: 'Echo', payload: { n: 7 }, attempts: 0 });
    const done = await waitForState(() => q.get(job.id, A), JobState.successful);
    expect(done).toMatchObject({ progress: 1, metrics: { loss: 0.25, reward: 7 }, attempts: 1, workerId: 'local-test', error: null });
    expect(done.startedAt).toBeInstanceOf(Date);
    expect(done.endedAt!.getTime()).toBeGreaterThanOrEqual(done.startedAt!.getTime());
    expect(done.checkpointRef).toMatch(/^[0-9a-f]{32}$/);
    expect(Array.from((await t().store.lastCheckpoint(job.id))!)).toEqual([1, 2, 3]);

    const page1 = (await q.logs(job.id, { ...A, limit: 1 }))!;
    expect(page1.items.map((l) => l.message)).toEqual(['start']);
    const page2 = (await q.logs(job.id, { ...A, afterId: page1.nextAfterId!, limit: 1 }))!;
    expect(page2.items).toMatchObject([{ message: 'end', level: 'warn' }]);

    expect(events.filter((e) => e.type === 'state').map((e) => (e as { state: string }).state)).toEqual([
      JobState.waiting,
      JobState.processing,
      JobState.successful,
    ]);
    expect(events.some((e) => e.type === 'metrics' && e.metrics.reward === 7)).toBe(true);
    expect(events.some((e) => e.type === 'checkpoint')).toBe(true);
    expect(events.filter((e) => e.type === 'log')).toHaveLength(2);
    expect((await q.workers()).find((w) => w.id === 'local-test')).toMatchObject({ status: 'online', concurrency: 2 });
  });

  it('ends a stopped job as successful by manual stop, and refuses to stop one not in progress', async () => {
    const q = await open();
    const job = await q.enqueue('test.forever', null, A);
    await waitForState(() => q.get(job.id, A), JobState.processing);
    await expect(q.stop(job.id, B)).rejects.toBeInstanceOf(JobNotStoppableError);
    const stopping = await q.stop(job.id, A);
    expect([JobState.stopping, JobState.stoppedManually]).toContain(stopping.state);
    const ended = await waitForState(() => q.get(job.id, A), JobState.stoppedManually);
    expect(ended.endedAt).toBeInstanceOf(Date);
    await expect(q.stop(job.id, A)).rejects.toMatchObject({ reason: 'notRunning' });
  });

  it('runs an upkeep job beside busy slots, and leaves the slots as many as they were', async () => {
    await checkUpkeepBesideBusySlot(await open({ concurrency: 1 }), A, { kind: 'test.upkeep' });
  });

  it('marks a throwing job as failure with the reason', async () => {
    const q = await open();
    const job = await q.enqueue('test.fail', null, A);
    expect(await waitForState(() => q.get(job.id, A), JobState.failure)).toMatchObject({ error: 'boom' });
    const unknown = await q.enqueue('test.nope', null, A);
    expect(await waitForState(() => q.get(unknown.id, A), JobState.failure)).toMatchObject({ error: 'Unknown job kind "test.nope"' });
  });

  it('never shows one tenant the jobs of another', async () => {
    const q = await open();
    const a = await q.enqueue('test.echo', { n: 1 }, A);
    const b = await q.enqueue('test.echo', { n: 2 }, B);
    await waitForState(() => q.get(a.id, A), JobState.successful);
    await waitForState(() => q.get(b.id, B), JobState.successful);
    expect(await q.get(a.id, B)).toBeNull();
    expect(await q.get(b.id, A)).toBeNull();
    expect(await q.logs(a.id, B)).toBeNull();
    expect((await q.list(A)).items.map((j) => j.id)).toEqual([a.id]);
    expect((await q.list({ ...B, state: JobState.successful })).total).toBe(1);
    await expect(q.stop(a.id, B)).rejects.toMatchObject({ reason: 'notFound' });
  });

  it('stops a job that still waits at once', async () => {
    const q = await open({ concurrency: 1 });
    const first = await q.enqueue('test.forever', null, A);
    const second = await q.enqueue('test.forever', null, A);
    await waitForState(() => q.get(first.id, A), JobState.processing);
    expect((await q.stop(second.id, A)).state).toBe(JobState.stoppedManually);
    await q.stop(first.id, A);
    await waitForState(() => q.get(first.id, A), JobState.stoppedManually);
  });

  it('resumes the jobs it owned from their last checkpoint after a restart', async () => {
    const q1 = await open({ concurrency: 1 });
    const running = await q1.enqueue('system.count', { steps: 8, stepMs: 30 }, A);
    const queued = await q1.enqueue('test.echo', { n: 3 }, A);
    await waitUntil(async () => ((await q1.get(running.id, A))?.metrics.step ?? 0) >= 3, 10_000, 'three steps');
    await q1.close();
    const left = (await t().store.getJob(running.id))!;
    expect(left.state).toBe(JobState.processing);
    const stepAtClose = left.metrics.step!;

    // A clean close: resuming uses up no attempt.
    const q2 = await open({ concurrency: 1 });
    const done = await waitForState(() => q2.get(running.id, A), JobState.successful);
    expect(done).toMatchObject({ attempts: 1, metrics: { step: 8 } });
    const logs = (await q2.logs(running.id, A))!.items.map((l) => l.message);
    expect(logs).toContain(`resuming at step ${stepAtClose} of 8 (attempt 1)`);
    await waitForState(() => q2.get(queued.id, A), JobState.successful);
  });

  it('hands back a job it holds in the database but no longer runs', async () => {
    const q = await open({ concurrency: 1 });
    const job = await t().store.createJob({ ...A, kind: 'test.echo', payload: { n: 5 } });
    // As if its end state could not be written: held by this worker, run by nothing.
    await t().db.knex('jobs').where({ id: job.id }).update({ state: JobState.processing, worker_id: 'local-test', attempts: 1 });
    const done = await waitForState(() => q.get(job.id, A), JobState.successful, 5000);
    expect(done.attempts).toBe(2);
  });

  it('counts a crash of the server as an attempt, and fails the job after its last one', async () => {
    const q1 = await open({ concurrency: 1 });
    const job = await q1.enqueue('system.count', { steps: 1000, stepMs: 20 }, { ...A, maxAttempts: 2 });
    await waitUntil(async () => ((await q1.get(job.id, A))?.metrics.step ?? 0) >= 2, 10_000, 'two steps');
    await q1.close();
    // As if the process had died: its worker row is still online.
    await t().db.knex('workers').where({ id: 'local-test' }).update({ status: 'online' });
    const q2 = await open({ concurrency: 1 });
    const resumed = await waitForState(() => q2.get(job.id, A), JobState.processing);
    expect(resumed.attempts).toBe(2);
    await waitUntil(async () => ((await q2.get(job.id, A))?.metrics.step ?? 0) > resumed.metrics.step!, 10_000, 'progress after the resume');
    await q2.close();
    await t().db.knex('workers').where({ id: 'local-test' }).update({ status: 'online' });
    const q3 = await open({ concurrency: 1 });
    const failed = await waitForState(() => q3.get(job.id, A), JobState.failure);
    expect(failed.error).toMatch(/server restarted; gave up after 2 attempts/);
    expect(failed.checkpointRef).not.toBeNull();
  });
});
