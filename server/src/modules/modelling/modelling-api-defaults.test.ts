/**
 * What a scripted client may leave out (issue 16): stop conditions (the system decides), the
 * datetime field of a table without a time column and the scheme's period and range; and the
 * strict training schemas of `core/domain` (unknown hyperparameters, algorithm rules, the git
 * URL rule) answering their catalogue codes. On SQLite and MariaDB (the schemes migration).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ErrorCode, HYPERPARAMETER_DEFAULTS } from '@decisio/domain';
import { createUser, issueToken, waitJobFinal } from '../../test/factories';
import { databases, startTestServer, type TestServer } from '../../test/server';
import { VENV_DEFAULTS, importReviveYaml } from '@decisio/learning';
import { TINY_OBS, reviveYaml } from '@decisio/learning/testing';
import { TINY_BC, createSolution, tinyCsv, tinyGraph, until, uploadCsv } from './testing';

/** The tiny table without its `time` column. */
function timelessCsv(): string {
  return tinyCsv()
    .trim()
    .split('\n')
    .map((line) => line.split(',').filter((_, i) => i !== 2).join(','))
    .join('\n');
}

describe.each(databases)('modelling request defaults on %s', (kind) => {
  let server: TestServer;
  let owner: Awaited<ReturnType<typeof createUser>>;
  let token: string;
  let solutionId: string;
  let schemeId: string;
  const call = (name: string, body: unknown) => server.call(name, { token, body });

  beforeAll(async () => {
    server = await startTestServer(kind, { jobs: { concurrency: 1 } });
    await server.app.startJobs();
    owner = await createUser(server);
    token = await issueToken(server, owner);
    ({ solutionId } = await createSolution(server, owner));
    await call('solution/setPattern', { solutionId, graph: tinyGraph() });
    const tableId = await uploadCsv(server, owner, timelessCsv());
    const corr = await call('solution/setTableCorrelation', { solutionId, correlation: { primaryTableId: tableId, trajectoryField: 'traj', sequenceField: 'step' } });
    expect(corr.body.code).toBe(0);
  }, 60_000);
  afterAll(async () => {
    await server?.stop();
  });

  it('processes a scheme without period or range over a table without a time column', async () => {
    const created = await call('scheme/create', { solutionId, name: 'all rows' });
    expect(created.body.code).toBe(0);
    expect(created.body.data).toMatchObject({ period: null, startTime: null, endTime: null });
    schemeId = created.body.data.id;
    expect((await call('scheme/schemeDataProcess', { id: schemeId })).body.code).toBe(0);
    const done = await until(() => call('scheme/get', { id: schemeId }), (r) => r.body.data.processState !== 'processing');
    expect(done.body.data.processState).toBe('completed');
    // Every row kept: 6 trajectories of 12 steps give 6 x 11 transitions (the last step has no next state).
    expect(done.body.data.rows).toBe(6 * 11);
    expect(done.body.data).toMatchObject({ schemeId, processJobId: expect.stringMatching(/^[0-9a-f]{32}$/), processError: null });
    // A range with its start after its end is still refused.
    expect((await call('scheme/create', { solutionId, name: 'bad', startTime: '2026-03-01', endTime: '2026-02-01' })).body.code).toBe(ErrorCode.schemeTimeInvalid);
  }, 60_000);

  it("says why a scheme's processing failed, on the scheme and on its job", async () => {
    const created = await call('scheme/create', { solutionId, name: 'no such column', data: { filter: 'nope > 1' } });
    expect(created.body.code).toBe(0);
    const id = created.body.data.id;
    const processing = await call('scheme/schemeDataProcess', { id });
    const job = (await waitJobFinal(server, token, processing.body.data.jobId)).last;
    expect(job).toMatchObject({ kind: 'scheme', state: 'failure', final: true, ownerId: id });
    expect(job.error).toContain('nope');
    const scheme = await call('scheme/get', { id });
    expect(scheme.body.data.processState).toBe('failed');
    expect(scheme.body.data.processError).toBe(job.error);
    expect((await call('scheme/list', { solutionId })).body.data.rows.find((r: { id: string }) => r.id === id).processError).toBe(job.error);
  }, 60_000);

  it('trains with the system deciding when the stop conditions are left out', async () => {
    const created = await call('trainSimulator/create', { solutionId, schemeId, name: 'no-stop', hyperparameters: TINY_BC });
    expect(created.body.code).toBe(0);
    expect(created.body.data.config.stopConditions).toEqual({ system: true });
    const done = await until(() => call('trainSimulator/get', { id: created.body.data.id }), (r) => ['successful', 'failure'].includes(r.body.data.state));
    expect(done.body.data.state).toBe('successful');
    // Given but empty is still no stop condition.
    expect((await call('trainSimulator/create', { solutionId, schemeId, name: 'empty-stop', stopConditions: {} })).body.code).toBe(ErrorCode.trainNoStopCondition);
  }, 60_000);

  it('trains the one default venv (HYPERPARAMETER_DEFAULTS.environment, the bench\'s) when the hyperparameters leave the network out', async () => {
    const created = await call('trainSimulator/create', { solutionId, schemeId, name: 'defaults', hyperparameters: { epochs: 1, ensemble: 2 } });
    expect(created.body.code).toBe(0);
    const done = await until(() => call('trainSimulator/get', { id: created.body.data.id }), (r) => ['successful', 'failure'].includes(r.body.data.state));
    expect(done.body.data.state).toBe('successful');
    const row = await server.app.db.knex('simulators').where({ id: created.body.data.id }).first('artifact_key');
    const venv = JSON.parse((await server.app.blobs.get(`${row.artifact_key}/venv.json`)).toString('utf8'));
    expect(venv.hidden).toEqual([...HYPERPARAMETER_DEFAULTS.environment.hidden]);
    expect(venv.hidden).toEqual([128, 128]);
    // the rest of the set reaches the trainer: its log names the ensemble, and the learning engine's trainers read the same object
    expect(VENV_DEFAULTS).toBe(HYPERPARAMETER_DEFAULTS.environment);
    const log = await call('train/getTrainLog', { jobId: created.body.data.jobId, limit: 1000 });
    expect(JSON.stringify(log.body.data)).toContain('environment ensemble: 2 members');
  }, 60_000);

  it("refuses unknown hyperparameters, an algorithm's forbidden settings and URLs the checkout cannot clone", async () => {
    const typo = await call('trainSimulator/create', { solutionId, schemeId, name: 'typo', hyperparameters: { epoch: 2 } });
    expect(typo.status).toBe(400);
    expect(typo.body.code).toBe(ErrorCode.paramInvalid);
    expect(Object.keys(typo.body.errors ?? {})).toEqual(['hyperparameters']);
    const revive = await call('trainSimulator/create', { solutionId, schemeId, name: 'rv', algorithm: 'revive_p', hyperparameters: { ensemble: 2 } });
    expect(revive.body.code).toBe(ErrorCode.paramInvalid);
    expect(Object.keys(revive.body.errors ?? {})).toEqual(['hyperparameters.ensemble']);
    const policyKey = await call('trainSimulator/create', { solutionId, schemeId, name: 'pk', hyperparameters: { gamma: 0.9 } });
    expect(policyKey.body.code).toBe(ErrorCode.paramInvalid);
    for (const url of ['git@example.com:team/env.git', 'ssh://example.com/team/env.git', 'file:///etc']) {
      const r = await call('trainSimulator/create', { solutionId, schemeId, name: 'git', git: { enabled: true, url, commit: 'main' } });
      expect(r.body.code, url).toBe(ErrorCode.gitUrlInvalid);
    }
    const duration = await call('trainSimulator/create', { solutionId, schemeId, name: 'd', stopConditions: { duration: { days: 7, minutes: 1 } } });
    expect(duration.body.code).toBe(ErrorCode.trainDurationInvalid);
    expect(Object.keys(duration.body.errors ?? {})).toContain('stopConditions.duration');
  });

  it('refuses SAC on a graph with a discrete decision before reading the records, and takes it on a continuous one', async () => {
    const discrete = await createSolution(server, owner);
    const graph = importReviveYaml(reviveYaml([TINY_OBS, { name: 'a', dim: 'action', type: 'discrete', max: 1, min: -1, num: 3 }])).graph;
    expect((await call('solution/setPattern', { solutionId: discrete.solutionId, graph })).body.code).toBe(0);
    const body = { simulatorId: 'f'.repeat(32), objectiveId: 'f'.repeat(32), name: 'sac-here', stopConditions: { system: true }, hyperparameters: {} };
    const unfit = await call('trainPolicy/create', { ...body, solutionId: discrete.solutionId, algorithm: 'sac' });
    expect(unfit.status).toBe(400);
    expect(unfit.body.code).toBe(ErrorCode.trainAlgorithmUnfit);
    expect(Object.keys(unfit.body.errors ?? {})).toEqual(['algorithm']);
    expect(unfit.body.message).toContain('SAC');
    // PPO on it, and SAC on the continuous graph, go on to the records (no such environment here).
    expect((await call('trainPolicy/create', { ...body, solutionId: discrete.solutionId, algorithm: 'ppo' })).body.code).toBe(ErrorCode.simulatorNotFound);
    expect((await call('trainPolicy/create', { ...body, solutionId, algorithm: 'sac' })).body.code).toBe(ErrorCode.simulatorNotFound);
  });
});
