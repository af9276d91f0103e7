import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { systemClock } from '../../clock';
import { Database } from '../../db/database';
import { JobKindRegistry, JobStore, JobWorker } from '../../jobs/queue';
import { redisAvailable, redisPrefix, testRedisUrl, waitUntil } from '../../jobs/testing';
import { createUser, signIn } from '../../test/factories';
import { databases, startTestServer, type TestServer } from '../../test/server';
import { skipWithout } from '../../test/services';
import { BlobStore } from '../storage/blob-store';
import { dateOf } from '../logs/presenters';
import { scheduledJobKinds } from './kinds';

const hasRedis = await redisAvailable();

/**
 * Two servers (two schedulers) and two workers over one database and one Redis: every tick of a
 * schedule becomes exactly one run, one job, run once by one worker, and one system-log row.
 */
describe.skipIf(skipWithout('redis', import.meta.url, hasRedis)).each(databases)('scheduled jobs with two schedulers and two workers on %s (Redis)', (kind) => {
  let a: TestServer;
  let b: TestServer;
  let redis: ReturnType<typeof redisPrefix>;
  const workers: JobWorker[] = [];
  const handles: Database[] = [];
  let token: string;

  beforeAll(async () => {
    redis = redisPrefix();
    const options = { env: { REDIS_URL: testRedisUrl }, jobs: { prefix: redis.prefix }, scheduler: { enabled: false, tickMs: 50 } };
    a = await startTestServer(kind, options);
    b = await startTestServer(kind, { ...options, databaseUrl: a.databaseUrl, migrate: false });
    await a.app.startJobs();
    await b.app.startJobs();
    for (let i = 0; i < 2; i++) {
      const db = Database.open(a.databaseUrl);
      handles.push(db);
      const kinds = new JobKindRegistry();
      for (const k of scheduledJobKinds({ db, blobs: new BlobStore(`${a.config.dataDir}/blobs`), clock: systemClock })) kinds.registerJobKind(k);
      const w = new JobWorker(new JobStore(db, systemClock), kinds, { redisUrl: testRedisUrl, prefix: redis.prefix, concurrency: 2, heartbeatMs: 200, deadAfterMs: 5000 });
      workers.push(w);
      await w.start();
    }
    token = await signIn(a, await createUser(a, { roles: ['admin'] }));
  });
  afterAll(async () => {
    for (const w of workers) await w.close().catch(() => undefined);
    await b?.stop();
    await a?.stop();
    for (const h of handles) await h.close();
    await redis?.clean();
  });

  /** Runs of a schedule joined with their jobs. */
  async function runsOf(id: string) {
    return (await a.app.db.knex('scheduled_job_runs as r').leftJoin('jobs as j', 'j.id', 'r.job_id').where('r.schedule_id', id).select('r.fired_at', 'r.job_id', 'j.state', 'j.attempts', 'j.worker_id')) as {
      fired_at: unknown;
      job_id: string | null;
      state: string | null;
      attempts: number;
      worker_id: string | null;
    }[];
  }

  async function settled(id: string, count: number) {
    await waitUntil(async () => {
      const runs = await runsOf(id);
      return runs.length === count && runs.every((r) => r.state === 'successful');
    }, 30_000, `${count} successful runs`);
    const runs = await runsOf(id);
    const jobIds = runs.map((r) => r.job_id!);
    expect(new Set(jobIds).size).toBe(count);
    for (const r of runs) expect(Number(r.attempts)).toBe(1);
    // One system-log row per run, written by the worker that ran it.
    await a.app.flush();
    const logged = (await a.app.db.knex('logs').where('type', 'job').whereIn('request_id', jobIds).pluck('request_id')) as string[];
    expect(logged.sort()).toEqual([...jobIds].sort());
    expect(await a.app.db.knex('jobs').where('kind', 'logs.retention').whereIn('id', jobIds).count({ n: '*' })).toEqual([{ n: count }]);
    return runs;
  }

  it('two schedulers ticking at the same moment fire each tick once', async () => {
    const created = await a.call('jobs/saveOrUpdate', { token, body: { name: 'Race', cron: '0 0 1 1 *', kind: 'logs.retention', params: { days: 3650 } } });
    const id = created.body.data.id as string;
    for (let i = 0; i < 10; i++) {
      await a.app.db.knex('scheduled_jobs').where('id', id).update({ next_run_at: new Date(Date.now() - 1000 * (i + 1)) });
      const fired = await Promise.all([a.app.scheduler.tick(), b.app.scheduler.tick()]);
      expect(fired[0] + fired[1]).toBe(1);
    }
    const runs = await settled(id, 10);
    expect(new Set(runs.map((r) => dateOf(r.fired_at)!.getTime())).size).toBe(10);
  });

  it('a schedule every second, with both schedulers running, runs once per tick on the workers', async () => {
    const created = await a.call('jobs/saveOrUpdate', { token, body: { name: 'Every second', cron: '* * * * * *', kind: 'logs.retention', params: { days: 3650 } } });
    const id = created.body.data.id as string;
    a.app.scheduler.start();
    b.app.scheduler.start();
    await waitUntil(async () => (await runsOf(id)).length >= 4, 15_000, 'four ticks');
    await a.call('jobs/pause', { token, body: { id } });
    await a.app.scheduler.stop();
    await b.app.scheduler.stop();
    const count = (await runsOf(id)).length;
    const runs = await settled(id, count);
    const ticks = runs.map((r) => dateOf(r.fired_at)!.getTime());
    for (const t of ticks) expect(t % 1000).toBe(0);
    expect(new Set(ticks).size).toBe(count);
    // Every job ran on one of the two workers.
    for (const r of runs) expect(workers.map((w) => w.workerId)).toContain(r.worker_id);
  });
});
