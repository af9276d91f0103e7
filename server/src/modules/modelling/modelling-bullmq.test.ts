import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { systemClock } from '../../clock';
import { builtinJobKinds } from '../../jobs/builtin';
import { JobKindRegistry, JobStore, JobWorker } from '../../jobs/queue';
import { redisAvailable, redisPrefix, testRedisUrl } from '../../jobs/testing';
import { createUser, issueToken, type TestUser } from '../../test/factories';
import { databases, startTestServer, type TestServer } from '../../test/server';
import { skipWithout } from '../../test/services';
import { modellingJobKinds } from './routes';
import { modellingTrainingKinds } from './areas';
import { createSolution, tinyCsv, tinyGraph, until, uploadCsv } from './testing';

const hasRedis = await redisAvailable();

describe.skipIf(skipWithout('redis', import.meta.url, hasRedis)).each(databases)('modelling trainings on BullMQ workers on %s', (kind) => {
  let server: TestServer;
  let worker: JobWorker;
  let redis: ReturnType<typeof redisPrefix>;
  let owner: TestUser;
  let token: string;
  let solutionId: string;
  let schemeId: string;
  const call = (name: string, body: unknown) => server.call(name, { token, body });

  beforeAll(async () => {
    redis = redisPrefix();
    server = await startTestServer(kind, { env: { REDIS_URL: testRedisUrl }, jobs: { prefix: redis.prefix } });
    await server.app.startJobs();
    const kinds = new JobKindRegistry();
    for (const k of [...builtinJobKinds, ...modellingJobKinds({ db: server.app.db, blobs: server.app.blobs }, modellingTrainingKinds())]) kinds.registerJobKind(k);
    worker = new JobWorker(new JobStore(server.app.db, systemClock), kinds, { redisUrl: testRedisUrl, prefix: redis.prefix, concurrency: 2, heartbeatMs: 200, deadAfterMs: 5000 });
    await worker.start();
    owner = await createUser(server);
    token = await issueToken(server, owner);
    ({ solutionId } = await createSolution(server, owner));
    await call('solution/setPattern', { solutionId, graph: tinyGraph() });
    const tableId = await uploadCsv(server, owner, tinyCsv());
    await call('solution/setTableCorrelation', { solutionId, correlation: { primaryTableId: tableId, trajectoryField: 'traj', sequenceField: 'step', datetimeField: 'time' } });
    schemeId = (await call('scheme/create', { solutionId, name: 's', period: 'day', startTime: '2026-01-01', endTime: '2026-02-01' })).body.data.id;
  });
  afterAll(async () => {
    await worker?.close();
    await server?.stop();
    await redis?.clean();
  });

  it('processes a scheme and trains an environment on a worker, and stops another', async () => {
    expect((await call('scheme/schemeDataProcess', { id: schemeId })).body.code).toBe(0);
    const processed = await until(() => call('scheme/get', { id: schemeId }), (r) => r.body.data.processState !== 'processing');
    expect(processed.body.data.processState).toBe('completed');

    const created = await call('trainSimulator/create', { solutionId, schemeId, name: 'env', stopConditions: { system: true }, hyperparameters: { epochs: 3, hidden: [16], updatesPerStep: 4, batchSize: 32 } });
    expect(created.body.code).toBe(0);
    const done = await until(() => call('trainSimulator/get', { id: created.body.data.id }), (r) => ['successful', 'failure'].includes(r.body.data.state));
    expect(done.body.data.error).toBeNull();
    expect(done.body.data.state).toBe('successful');
    const job = await server.app.db.knex('jobs').where({ id: created.body.data.jobId }).first();
    expect(job.worker_id).toBe(worker.workerId);
    expect((await server.app.db.knex('simulators').where({ id: created.body.data.id }).first()).state).toBe('successful');

    const long = await call('trainSimulator/create', { solutionId, schemeId, name: 'env-long', stopConditions: { duration: { hours: 1 } }, hyperparameters: { epochs: 1_000_000, hidden: [16], updatesPerStep: 4, batchSize: 32 } });
    await until(() => call('trainSimulator/get', { id: long.body.data.id }), (r) => r.body.data.state === 'processing');
    expect((await call('train/stopTrain', { jobId: long.body.data.jobId })).body.code).toBe(0);
    const stopped = await until(() => call('trainSimulator/get', { id: long.body.data.id }), (r) => !['processing', 'stopping'].includes(r.body.data.state));
    expect(stopped.body.data.state).toBe('successful by manual stop');
  });
});
