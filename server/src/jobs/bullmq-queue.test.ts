import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { databases } from '../test/server';
import { skipWithout } from '../test/services';
import { builtinJobKinds } from './builtin';
import type { JobEvent } from './events';
import { BullMqQueue, JobKindRegistry, JobState, JobWorker, WorkerUnavailableError, type JobWorkerOptions } from './queue';
import { checkUpkeepBesideBusySlot, createJobsTestDb, redisAvailable, redisPrefix, testRedisUrl, waitForState, waitUntil, type JobsTestDb } from './testing';

const A = { tenantId: 'a'.repeat(32) };
const B = { tenantId: 'b'.repeat(32) };
const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const hasRedis = await redisAvailable();

describe.skipIf(skipWithout('redis', import.meta.url, hasRedis)).each(databases)('BullMqQueue on %s (Redis)', (kind) => {
  let t: JobsTestDb;
  let redis: ReturnType<typeof redisPrefix>;
  let queue: BullMqQueue;
  const workers: JobWorker[] = [];
  const children: ChildProcess[] = [];
  /** Runs per job id, over every in-test worker. */
  let runs: Map<string, number>;

  function registry(): JobKindRegistry {
    const kinds = new JobKindRegistry();
    for (const k of builtinJobKinds) kinds.registerJobKind(k);
    kinds.registerJobKind<{ n: number }>({
      kind: 'test.quick',
      async run(ctx) {
        runs.set(ctx.jobId, (runs.get(ctx.jobId) ?? 0) + 1);
        await new Promise((r) => setTimeout(r, 2 + (ctx.payload.n % 5)));
        await ctx.reportMetrics(1, { n: ctx.payload.n });
      },
    });
    kinds.registerJobKind({
      kind: 'test.upkeep',
      lane: 'upkeep',
      async run(ctx) {
        await ctx.reportMetrics(1, { kept: 1 });
      },
    });
    kinds.registerJobKind({
      kind: 'test.forever',
      async run(ctx) {
        await new Promise<void>((resolve) => ctx.signal.addEventListener('abort', () => resolve(), { once: true }));
      },
    });
    return kinds;
  }

  async function startWorker(options: Partial<JobWorkerOptions> = {}): Promise<JobWorker> {
    const w = new JobWorker(t.store, registry(), {
      redisUrl: testRedisUrl,
      prefix: redis.prefix,
      concurrency: 4,
      heartbeatMs: 100,
      deadAfterMs: 1000,
      ...options,
    });
    workers.push(w);
    await w.start();
    return w;
  }

  beforeEach(async () => {
    runs = new Map();
    t = await createJobsTestDb(kind);
    redis = redisPrefix();
    queue = new BullMqQueue(t.store, { redisUrl: testRedisUrl, prefix: redis.prefix, deadAfterMs: 1000, sweepMs: 200, upkeepKinds: registry().upkeepKinds() });
    await queue.start();
  });
  afterEach(async () => {
    for (const c of children.splice(0)) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
    for (const w of workers.splice(0)) await w.kill();
    await queue.close();
    await redis.clean();
    await t.drop();
  });

  it('runs a job on a worker to success and relays its events', async () => {
    await startWorker();
    const events: JobEvent[] = [];
    queue.subscribe((e) => events.push(e));
    const job = await queue.enqueue('system.count', { steps: 3, stepMs: 5 }, A);
    const done = await waitForState(() => queue.get(job.id, A), JobState.successful);
    expect(done).toMatchObject({ attempts: 1, progress: 1, metrics: { step: 3 }, workerId: workers[0]!.workerId });
    await waitUntil(() => events.some((e) => e.type === 'state' && e.state === JobState.successful), 5000, 'the success event');
    expect(events.filter((e) => e.type === 'checkpoint')).toHaveLength(3);
    expect((await queue.workers()).map((w) => w.id)).toEqual([workers[0]!.workerId]);
  });

  it('stops a running job: successful by manual stop', async () => {
    await startWorker();
    const job = await queue.enqueue('test.forever', null, A);
    await waitForState(() => queue.get(job.id, A), JobState.processing);
    await expect(queue.stop(job.id, B)).rejects.toMatchObject({ reason: 'notFound' });
    await queue.stop(job.id, A);
    await waitForState(() => queue.get(job.id, A), JobState.stoppedManually, 5000);
  });

  it('runs an upkeep job beside a worker whose slots are all held', async () => {
    await startWorker({ concurrency: 1 });
    await checkUpkeepBesideBusySlot(queue, A, { kind: 'test.upkeep' });
  });

  it('runs a pinned job only on its worker', async () => {
    await startWorker();
    const target = await startWorker();
    const ids = await Promise.all(Array.from({ length: 5 }, () => queue.enqueue('system.count', { steps: 1, stepMs: 1 }, { ...A, pinWorkerId: target.workerId })));
    for (const j of ids) expect(await waitForState(() => queue.get(j.id, A), JobState.successful)).toMatchObject({ workerId: target.workerId });
    await expect(queue.enqueue('system.count', {}, { ...A, pinWorkerId: 'nobody' })).rejects.toBeInstanceOf(WorkerUnavailableError);
  });

  it('restores the job of a worker that stopped heartbeating on another worker, from its checkpoint', async () => {
    const first = await startWorker();
    const job = await queue.enqueue('system.count', { steps: 12, stepMs: 40 }, A);
    await waitUntil(async () => ((await queue.get(job.id, A))?.metrics.step ?? 0) >= 3, 10_000, 'three steps');
    await first.kill();
    const atKill = (await queue.get(job.id, A))!;
    expect(atKill).toMatchObject({ state: JobState.processing, workerId: first.workerId });
    const second = await startWorker();
    await waitForState(() => queue.get(job.id, A), [JobState.restoring, JobState.processing, JobState.successful], 5000);
    const done = await waitForState(() => queue.get(job.id, A), JobState.successful, 20_000);
    expect(done).toMatchObject({ attempts: 2, workerId: second.workerId, metrics: { step: 12 } });
    expect((await queue.logs(job.id, A))!.items.map((l) => l.message)).toContain(`resuming at step ${atKill.metrics.step} of 12 (attempt 2)`);
    expect((await queue.workers()).find((w) => w.id === first.workerId)?.status).toBe('dead');
  });

  it('hands the jobs of a cleanly closed worker to another without using up an attempt', async () => {
    const first = await startWorker();
    const job = await queue.enqueue('system.count', { steps: 8, stepMs: 30 }, { ...A, maxAttempts: 1 });
    await waitUntil(async () => ((await queue.get(job.id, A))?.metrics.step ?? 0) >= 2, 10_000, 'two steps');
    await first.close();
    expect((await queue.get(job.id, A))!.state).toBe(JobState.restoring);
    const second = await startWorker();
    const done = await waitForState(() => queue.get(job.id, A), JobState.successful, 20_000);
    expect(done).toMatchObject({ attempts: 1, workerId: second.workerId, metrics: { step: 8 } });
    expect((await queue.workers()).find((w) => w.id === first.workerId)?.status).toBe('stopped');
  });

  it('puts back on BullMQ the waiting jobs Redis lost', async () => {
    const job = await queue.enqueue('system.count', { steps: 1, stepMs: 1 }, A);
    await redis.clean();
    await new Promise((r) => setTimeout(r, 1100));
    await startWorker();
    await queue.sweep();
    expect(await waitForState(() => queue.get(job.id, A), JobState.successful)).toMatchObject({ attempts: 1 });
  });

  /** Spawns `server/src/worker.ts` as `npm run worker` would, and waits for its start line. */
  async function spawnWorker(workerId: string): Promise<ChildProcess> {
    const child = spawn(process.execPath, ['--import', 'tsx', 'server/src/worker.ts'], {
      cwd: repoRoot,
      env: {
        ...process.env,
        DATABASE_URL: t.url,
        REDIS_URL: testRedisUrl,
        JOB_QUEUE_PREFIX: redis.prefix,
        WORKER_ID: workerId,
        WORKER_CONCURRENCY: '2',
        WORKER_HEARTBEAT_MS: '100',
        WORKER_DEAD_AFTER_MS: '1000',
        LOG_LEVEL: 'warn',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    children.push(child);
    let output = '';
    child.stdout!.on('data', (d: Buffer) => (output += d.toString()));
    child.stderr!.on('data', (d: Buffer) => (output += d.toString()));
    await waitUntil(() => output.includes('is running') || child.exitCode !== null, 30_000, 'the worker process');
    expect(output).toContain(`Decisio worker ${workerId} is running`);
    return child;
  }

  it('restores the job of a killed `npm run worker` process', async () => {
    const childId = `child-${redis.prefix.slice(-10)}`;
    const child = await spawnWorker(childId);
    const job = await queue.enqueue('system.count', { steps: 10, stepMs: 50 }, A);
    await waitUntil(async () => ((await queue.get(job.id, A))?.metrics.step ?? 0) >= 2, 15_000, 'two steps on the child');
    expect((await queue.get(job.id, A))!.workerId).toBe(childId);
    const exited = new Promise((r) => child.once('exit', r));
    child.kill('SIGKILL');
    await exited;

    const rescuer = await startWorker();
    const done = await waitForState(() => queue.get(job.id, A), JobState.successful, 20_000);
    expect(done).toMatchObject({ attempts: 2, workerId: rescuer.workerId, metrics: { step: 10 } });
    expect((await queue.workers()).find((w) => w.id === childId)?.status).toBe('dead');
  });

  it('hands back the jobs of a `npm run worker` process on SIGTERM', async () => {
    const childId = `term-${redis.prefix.slice(-10)}`;
    const child = await spawnWorker(childId);
    const job = await queue.enqueue('system.count', { steps: 6, stepMs: 50 }, A);
    await waitUntil(async () => ((await queue.get(job.id, A))?.metrics.step ?? 0) >= 2, 15_000, 'two steps on the child');
    const exited = new Promise<number | null>((r) => child.once('exit', (code) => r(code)));
    child.kill('SIGTERM');
    expect(await exited).toBe(0);
    expect((await queue.get(job.id, A))!).toMatchObject({ state: JobState.restoring, attempts: 0, workerId: null });
    const rescuer = await startWorker();
    expect(await waitForState(() => queue.get(job.id, A), JobState.successful, 20_000)).toMatchObject({ attempts: 1, workerId: rescuer.workerId });
    expect((await queue.workers()).find((w) => w.id === childId)?.status).toBe('stopped');
  });

  it('runs 200 jobs of two tenants on 3 workers: all finish, none twice, none lost, tenants apart', async () => {
    const ws = await Promise.all([startWorker(), startWorker(), startWorker()]);
    const jobs = [];
    for (let i = 0; i < 200; i++) jobs.push(await queue.enqueue('test.quick', { n: i }, i % 2 === 0 ? A : B));
    await waitUntil(
      async () => (await queue.list({ ...A, state: JobState.successful })).total + (await queue.list({ ...B, state: JobState.successful })).total === 200,
      60_000,
      '200 successful jobs',
    );
    expect(runs.size).toBe(200);
    expect([...runs.values()].every((n) => n === 1)).toBe(true);
    const all = [...(await queue.list({ ...A, limit: 500 })).items, ...(await queue.list({ ...B, limit: 500 })).items];
    expect(all).toHaveLength(200);
    expect(all.every((j) => j.attempts === 1 && j.state === JobState.successful)).toBe(true);
    expect((await queue.list(A)).total).toBe(100);
    expect((await queue.list({ ...A, limit: 500 })).items.every((j) => j.tenantId === A.tenantId)).toBe(true);
    const perWorker = new Map<string, number>();
    for (const j of all) perWorker.set(j.workerId!, (perWorker.get(j.workerId!) ?? 0) + 1);
    expect([...perWorker.keys()].sort()).toEqual(ws.map((w) => w.workerId).sort());
  });
});
