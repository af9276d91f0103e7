/**
 * Jobs of an engine version (a project's default algorithm image version): only a worker of that
 * version claims them; the in-process queue refuses them when the server runs another version;
 * a worker pinned with another version is refused; with BullMQ they wait on their version's
 * queue for a worker of it.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { databases } from '../test/server';
import { skipWithout } from '../test/services';
import { builtinJobKinds } from './builtin';
import { onlineEngineVersions } from './engine-versions';
import type { MachineInfo } from './machine';
import { BullMqQueue, EngineVersionMismatchError, JobKindRegistry, JobState, JobWorker } from './queue';
import { versionQueueName } from './redis-bus';
import { createJobsTestDb, redisAvailable, redisPrefix, testRedisUrl, waitForState, type JobsTestDb } from './testing';
import { useInProcessQueues } from './testing-in-process';

const A = { tenantId: 'a'.repeat(32) };
const hasRedis = await redisAvailable();

function registry(): JobKindRegistry {
  const kinds = new JobKindRegistry();
  for (const k of builtinJobKinds) kinds.registerJobKind(k);
  return kinds;
}

function machine(engineVersion: string): MachineInfo {
  return { host: 'test-host', cores: 2, memory: 2 ** 30, gpuAdapter: null, engineVersion };
}

describe('versionQueueName', () => {
  it('keeps plain versions and escapes what BullMQ forbids in a name', () => {
    const names = { prefix: 'p', queueName: 'jobs' };
    expect(versionQueueName(names, '1.4.2-rc1')).toBe('jobs-v-1.4.2-rc1');
    expect(versionQueueName(names, '2:beta')).toBe('jobs-v-2_3a_beta');
    expect(versionQueueName(names, '2:beta')).not.toBe(versionQueueName(names, '2_beta'));
  });
});

describe.each(databases)('engine versions, in process, on %s', (kind) => {
  const { t, open } = useInProcessQueues(kind, registry);

  it('runs a job of its own version and refuses one of another version', async () => {
    const q = await open({ machine: machine('1.0.0') });
    const job = await q.enqueue('system.count', { steps: 1, stepMs: 1 }, { ...A, engineVersion: '1.0.0' });
    expect(job.engineVersion).toBe('1.0.0');
    expect(await waitForState(() => q.get(job.id, A), JobState.successful)).toMatchObject({ workerId: 'local-test', engineVersion: '1.0.0' });
    const refused = await q.enqueue('system.count', { steps: 1 }, { ...A, engineVersion: '2.0.0' }).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(EngineVersionMismatchError);
    expect(refused).toMatchObject({ version: '2.0.0', workerId: null, workerVersion: '1.0.0' });
    // Nothing was queued for it; a job of no version runs as before.
    expect((await q.list(A)).total).toBe(1);
    const any = await q.enqueue('system.count', { steps: 1, stepMs: 1 }, A);
    expect(await waitForState(() => q.get(any.id, A), JobState.successful)).toMatchObject({ engineVersion: null });
  });

  it('refuses a job pinned to a worker of another version', async () => {
    const q = await open({ machine: machine('1.0.0') });
    await t().store.registerWorker({ id: 'other-v2', concurrency: 1, ...machine('2.0.0') });
    expect(await onlineEngineVersions(t().db.executor())).toEqual(['1.0.0', '2.0.0']);
    const refused = await q.enqueue('system.count', {}, { ...A, pinWorkerId: 'local-test', engineVersion: '2.0.0' }).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(EngineVersionMismatchError);
    expect(refused).toMatchObject({ version: '2.0.0', workerId: 'local-test', workerVersion: '1.0.0' });
    const pinned = await q.enqueue('system.count', {}, { ...A, pinWorkerId: 'other-v2', engineVersion: '2.0.0' });
    expect(pinned).toMatchObject({ pinWorkerId: 'other-v2', engineVersion: '2.0.0', state: JobState.waiting });
  });

  it('lets only a worker of the job\'s version claim it', async () => {
    const { store } = t();
    await store.registerWorker({ id: 'w-v1', concurrency: 1, ...machine('1.0.0') });
    await store.registerWorker({ id: 'w-v2', concurrency: 1, ...machine('2.0.0') });
    const job = await store.createJob({ ...A, kind: 'system.count', payload: {}, engineVersion: '2.0.0' });
    expect(await store.claim(job.id, 'w-v1')).toBe(false);
    expect(await store.claim(job.id, 'nobody')).toBe(false);
    expect(await store.claim(job.id, 'w-v2')).toBe(true);
    const free = await store.createJob({ ...A, kind: 'system.count', payload: {} });
    expect(await store.claim(free.id, 'w-v1')).toBe(true);
  });
});

describe.skipIf(skipWithout('redis', import.meta.url, hasRedis)).each(databases)('engine versions on BullMQ workers on %s', (kind) => {
  let t: JobsTestDb;
  let redis: ReturnType<typeof redisPrefix>;
  let queue: BullMqQueue;
  const workers: JobWorker[] = [];

  async function startWorker(engineVersion: string): Promise<JobWorker> {
    const w = new JobWorker(t.store, registry(), { redisUrl: testRedisUrl, prefix: redis.prefix, concurrency: 2, heartbeatMs: 100, deadAfterMs: 5000, machine: machine(engineVersion) });
    workers.push(w);
    await w.start();
    return w;
  }

  beforeEach(async () => {
    t = await createJobsTestDb(kind);
    redis = redisPrefix();
    queue = new BullMqQueue(t.store, { redisUrl: testRedisUrl, prefix: redis.prefix, deadAfterMs: 5000, sweepMs: 200 });
    await queue.start();
  });
  afterEach(async () => {
    for (const w of workers.splice(0)) await w.kill();
    await queue.close();
    await redis.clean();
    await t.drop();
  });

  it('routes the jobs of a version to the workers of that version only', async () => {
    const v1 = await startWorker('1.0.0');
    const v2 = await startWorker('2:beta');
    const jobs = await Promise.all(Array.from({ length: 6 }, () => queue.enqueue('system.count', { steps: 1, stepMs: 1 }, { ...A, engineVersion: '2:beta' })));
    for (const j of jobs) expect(await waitForState(() => queue.get(j.id, A), JobState.successful)).toMatchObject({ workerId: v2.workerId });
    const forV1 = await Promise.all(Array.from({ length: 4 }, () => queue.enqueue('system.count', { steps: 1, stepMs: 1 }, { ...A, engineVersion: '1.0.0' })));
    for (const j of forV1) expect(await waitForState(() => queue.get(j.id, A), JobState.successful)).toMatchObject({ workerId: v1.workerId });
  });

  it('keeps a job of a version no worker runs waiting until one of it comes', async () => {
    await startWorker('1.0.0');
    const job = await queue.enqueue('system.count', { steps: 1, stepMs: 1 }, { ...A, engineVersion: '3.0.0' });
    const other = await queue.enqueue('system.count', { steps: 1, stepMs: 1 }, A);
    await waitForState(() => queue.get(other.id, A), JobState.successful);
    await new Promise((r) => setTimeout(r, 300));
    expect((await queue.get(job.id, A))!.state).toBe(JobState.waiting);
    const v3 = await startWorker('3.0.0');
    expect(await waitForState(() => queue.get(job.id, A), JobState.successful)).toMatchObject({ workerId: v3.workerId });
  });

  it('refuses a job pinned to a worker of another version', async () => {
    const v1 = await startWorker('1.0.0');
    const refused = await queue.enqueue('system.count', {}, { ...A, pinWorkerId: v1.workerId, engineVersion: '2.0.0' }).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(EngineVersionMismatchError);
    expect(refused).toMatchObject({ workerId: v1.workerId, workerVersion: '1.0.0' });
    expect((await queue.list(A)).total).toBe(0);
  });
});
