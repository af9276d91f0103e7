/**
 * The scripted modelling flow (`server/scripts/flow.ts`, `npm run flow`) through HTTP, from an
 * uploaded CSV to both deductions:
 *
 * (a) on the embedded server: in-process workers, SQLite;
 * (b) on the BullMQ adapter with the real Redis (`TEST_REDIS_URL`) and two separate worker
 *     processes started as `npm run worker` starts one (`tsx server/src/worker.ts`), sharing the
 *     server's database (MariaDB with `TEST_MYSQL_URL`, else the SQLite file) and `DATA_DIR`.
 *     The trainings are spread over the two workers; every job must have run on one of them.
 *
 * Trainings are kept tiny: this checks that everything runs and finishes, not what it learns.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { redisPrefix } from '../src/jobs/testing';
import { startTestServer, type TestServer } from '../src/test/server';
import { skipWithout } from '../src/test/services';
import { runFlow, type FlowResult } from '../scripts/flow';
import { createUser } from '../src/test/factories';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const TINY = { epochs: 4, policyEpochs: 2, jobTimeoutMs: 8 * 60_000, log: () => undefined };
const FINAL_OK = 'successful';

/** Checks what every run of the flow must show. */
async function expectFinished(server: TestServer, result: FlowResult) {
  expect(result.schemeRows).toBe(8 * 23); // 8 days of 24 hourly rows, less each day's last step
  expect(result.jobs.map((j) => j.step)).toEqual(['scheme data processing', 'environment training (BC)', 'policy training (PPO)', 'parameter tuning (zoopt)', 'simulation deduction', 'decision deduction']);
  for (const j of result.jobs) expect(j.state, j.step).toBe(FINAL_OK);
  for (const [k, v] of Object.entries(result.scores)) if (typeof v === 'number') expect(Number.isFinite(v), k).toBe(true);
  expect(result.scores.environment).toBeGreaterThan(0);
  expect(Object.keys(result.scores.tuningBest)).toEqual(['setpoint']);
  const ids = result.jobs.map((j) => j.jobId);
  const rows = await server.app.db.knex('jobs').whereIn('id', ids).select('id', 'state', 'worker_id', 'attempts', 'error');
  expect(rows).toHaveLength(ids.length);
  for (const r of rows) {
    expect(r.state).toBe(FINAL_OK);
    expect(r.error).toBeNull();
    expect(Number(r.attempts)).toBe(1);
  }
  return rows as Array<{ id: string; worker_id: string }>;
}

describe('the scripted modelling flow on the embedded server (in-process workers, SQLite)', () => {
  let server: TestServer;

  beforeAll(async () => {
    server = await startTestServer('sqlite', { jobs: { concurrency: 1 } });
    await server.app.startJobs();
  });
  afterAll(async () => {
    await server?.stop();
  });

  it('goes from an uploaded CSV to a trained environment, policy, tuning and both deductions', async () => {
    const user = await createUser(server);
    const result = await runFlow({ url: server.url, ...TINY, username: user.username, password: user.password });
    const rows = await expectFinished(server, result);
    const workers = await server.app.db.knex('workers').select('id');
    expect(workers).toHaveLength(1); // the server's own in-process worker
    for (const r of rows) expect(r.worker_id).toBe(workers[0].id);
    for (const j of result.jobs.slice(1)) expect(j.workerId).toBe(workers[0].id);
  }, 600_000);
});

const redisUrl = process.env.TEST_REDIS_URL;

describe.skipIf(skipWithout('redis', import.meta.url))('the scripted modelling flow on BullMQ with two `npm run worker` processes', () => {
  let server: TestServer;
  let redis: ReturnType<typeof redisPrefix>;
  const procs: Array<{ child: ChildProcess; output: string[]; id: Promise<string>; exit: Promise<number | null> }> = [];

  /** Starts `tsx server/src/worker.ts` as `npm run worker` does; resolves its id from its start line. */
  function startWorker(env: Record<string, string>) {
    const child = spawn(process.execPath, [path.join(root, 'node_modules', 'tsx', 'dist', 'cli.mjs'), path.join('server', 'src', 'worker.ts')], {
      cwd: root,
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const output: string[] = [];
    const exit = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    const id = new Promise<string>((resolve, reject) => {
      const onData = (b: Buffer) => {
        const text = b.toString('utf8');
        output.push(text);
        const m = /Decisio worker (\S+) is running/.exec(output.join(''));
        if (m) resolve(m[1]!);
      };
      child.stdout!.on('data', onData);
      child.stderr!.on('data', (b: Buffer) => output.push(b.toString('utf8')));
      void exit.then((code) => reject(new Error(`worker exited (${code}) before it ran:\n${output.join('')}`)));
    });
    procs.push({ child, output, id, exit });
    return id;
  }

  beforeAll(async () => {
    redis = redisPrefix(redisUrl);
    server = await startTestServer(process.env.TEST_MYSQL_URL ? 'mysql' : 'sqlite', { env: { REDIS_URL: redisUrl! }, jobs: { prefix: redis.prefix } });
    await server.app.startJobs();
  }, 120_000);
  afterAll(async () => {
    for (const p of procs) if (p.child.exitCode === null) p.child.kill('SIGTERM');
    await Promise.all(procs.map((p) => Promise.race([p.exit, new Promise((r) => setTimeout(r, 20_000))])));
    for (const p of procs) if (p.child.exitCode === null) p.child.kill('SIGKILL');
    await server?.stop();
    await redis?.clean();
  }, 60_000);

  it('runs every job of the flow on the two worker processes and finishes', async () => {
    const env = {
      REDIS_URL: redisUrl!,
      DATABASE_URL: server.databaseUrl,
      DATA_DIR: server.config.dataDir,
      JOB_QUEUE_PREFIX: redis.prefix,
      WORKER_CONCURRENCY: '1',
      WORKER_HEARTBEAT_MS: '1000',
      LOG_LEVEL: 'warn',
    };
    let ids: string[];
    try {
      ids = await Promise.race([
        Promise.all([startWorker(env), startWorker(env)]),
        new Promise<never>((_, reject) => setTimeout(() => reject(new Error('the workers did not start in 180 s')), 180_000)),
      ]);
    } catch (err) {
      throw new Error(`${(err as Error).message}\n${procs.map((p) => p.output.join('')).join('\n---\n')}`);
    }
    // Each id names the process that printed it (host-pid-random): not this test process.
    expect(new Set(ids).size).toBe(2);
    for (const id of ids) expect(id).not.toContain(`-${process.pid}-`);

    let result: FlowResult;
    try {
      const user = await createUser(server);
      result = await runFlow({ url: server.url, ...TINY, spread: true, username: user.username, password: user.password });
    } catch (err) {
      throw new Error(`${(err as Error).message}\nworker output:\n${procs.map((p) => p.output.join('')).join('\n---\n')}`);
    }
    const rows = await expectFinished(server, result);
    for (const r of rows) expect(ids).toContain(r.worker_id);
    // The trainings were pinned in turn, so both workers ran some, each where it was pinned.
    const trainings = result.jobs.slice(1);
    for (const j of trainings) expect(j.workerId).toBe(j.pinned);
    expect(new Set(trainings.map((j) => j.workerId))).toEqual(new Set(ids));
    const workers = await server.app.db.knex('workers').whereIn('id', ids).select('id', 'status');
    expect(workers.map((w: { status: string }) => w.status)).toEqual(['online', 'online']);

    // A clean stop: both processes hand back nothing (all jobs are over) and exit 0.
    for (const p of procs) p.child.kill('SIGTERM');
    expect(await Promise.all(procs.map((p) => p.exit))).toEqual([0, 0]);
    const stopped = await server.app.db.knex('workers').whereIn('id', ids).select('status');
    expect(stopped.map((w: { status: string }) => w.status)).toEqual(['stopped', 'stopped']);
  }, 900_000);
});
