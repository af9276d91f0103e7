import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ErrorCode } from '@decisio/domain';
import { createTenant, createUser, issueToken, type TestUser } from '../../test/factories';
import { databases, startTestServer, type TestServer } from '../../test/server';
import { deleteRefusal } from '../projects/access';
import { REWARD_PY, TINY_BC, createSolution, tinyCsv, tinyGraph, tuningGraph, until, uploadCsv } from './testing';

const STOP = { system: true };

describe.each(databases)('modelling on %s', (kind) => {
  let server: TestServer;
  let owner: TestUser;
  let token: string;
  let strangerToken: string;
  let memberToken: string;
  let projectId: string;
  let solutionId: string;
  let schemeId: string;
  let simulatorId: string;
  let simulatorJobId: string;
  let objectiveId: string;
  let policyId: string;

  const call = (name: string, body: unknown, as = token) => server.call(name, { token: as, body });
  const scheme = (over: Record<string, unknown> = {}) => ({ solutionId, name: 'scheme a', period: 'day', startTime: '2026-01-01', endTime: '2026-02-01', data: {}, ...over });
  const envTraining = (over: Record<string, unknown> = {}) => ({ solutionId, schemeId, name: 'env-a', stopConditions: STOP, hyperparameters: TINY_BC, ...over });

  beforeAll(async () => {
    server = await startTestServer(kind, { jobs: { concurrency: 2 } });
    await server.app.startJobs();
    owner = await createUser(server);
    token = await issueToken(server, owner);
    const other = await createTenant(server);
    strangerToken = await issueToken(server, await createUser(server, { tenantId: other }));
    memberToken = await issueToken(server, await createUser(server));
    ({ projectId, solutionId } = await createSolution(server, owner));
  });
  afterAll(async () => {
    await server?.stop();
  });

  it('stores the decision graph after validateGraph, and the table correlation', async () => {
    const bad = await call('solution/setPattern', { solutionId, graph: { nodes: [{ id: 'a', name: 'a', role: 'state' }], edges: [] } });
    expect(bad.status).toBe(400);
    expect(bad.body.code).toBe(ErrorCode.graphInvalid);
    const ok = await call('solution/setPattern', { solutionId, graph: tinyGraph() });
    expect(ok.body.code).toBe(0);
    const got = await call('solution/getPattern', { solutionId });
    expect(got.body.data.graph.nodes.map((n: { name: string }) => n.name).sort()).toEqual(['action', 'next_obs', 'obs']);

    const tableId = await uploadCsv(server, owner, tinyCsv());
    const corr = await call('solution/setTableCorrelation', { solutionId, correlation: { primaryTableId: tableId, trajectoryField: 'traj', sequenceField: 'step', datetimeField: 'time' } });
    expect(corr.body.code).toBe(0);
    expect((await call('solution/getTableCorrelation', { solutionId })).body.data.correlation.primaryTableId).toBe(tableId);

    expect((await server.call('solution/getPattern', { body: { solutionId } })).status).toBe(401);
    const stranger = await call('solution/getPattern', { solutionId }, strangerToken);
    expect(stranger.status).toBe(404);
    expect(stranger.body.code).toBe(ErrorCode.solutionNotFound);
    const member = await call('solution/setPattern', { solutionId, graph: tinyGraph() }, memberToken);
    expect(member.status).toBe(404);
    expect(member.body.code).toBe(ErrorCode.projectNotFound);
  });

  it('checks schemes: period required, start before end, at most 26 per solution', async () => {
    const noPeriod = await call('scheme/create', scheme({ period: '' }));
    expect(noPeriod.status).toBe(400);
    expect(noPeriod.body.code).toBe(ErrorCode.paramInvalid);
    expect(Object.keys(noPeriod.body.errors ?? {})).toContain('period');
    const backwards = await call('scheme/create', scheme({ startTime: '2026-03-01', endTime: '2026-02-01' }));
    expect(backwards.body.code).toBe(ErrorCode.schemeTimeInvalid);
    const created = await call('scheme/create', scheme());
    expect(created.body.code).toBe(0);
    schemeId = created.body.data.id;
    expect(created.body.data.processState).toBe('normal');

    const other = await createSolution(server, owner, { projectId });
    for (let i = 0; i < 26; i++) expect((await call('scheme/create', scheme({ solutionId: other.solutionId, name: `s${i}` }))).body.code).toBe(0);
    const over = await call('scheme/create', scheme({ solutionId: other.solutionId, name: 's27' }));
    expect(over.body.code).toBe(ErrorCode.schemeLimitReached);
    expect((await call('scheme/list', { solutionId: other.solutionId })).body.data.total).toBe(26);
    expect((await call('scheme/get', { id: schemeId }, strangerToken)).body.code).toBe(ErrorCode.schemeNotFound);
  });

  it('refuses an environment training before data processing, then processes the scheme', async () => {
    const early = await call('trainSimulator/create', envTraining());
    expect(early.body.code).toBe(ErrorCode.dataProcessUnfinished);
    const started = await call('scheme/schemeDataProcess', { id: schemeId });
    expect(started.body.code).toBe(0);
    const done = await until(() => call('scheme/get', { id: schemeId }), (r) => r.body.data.processState !== 'processing');
    expect(done.body.data.processState).toBe('completed');
    expect(done.body.data.rows).toBeGreaterThan(0);
  });

  it('checks every training rule with its code', async () => {
    const cases: Array<[Record<string, unknown>, number]> = [
      [{ stopConditions: {} }, ErrorCode.trainNoStopCondition],
      [{ stopConditions: { duration: { days: 8 } } }, ErrorCode.trainDurationInvalid],
      [{ stopConditions: { duration: { minutes: 1.5 } } }, ErrorCode.trainDurationInvalid],
      [{ stopConditions: { expectedScore: 0 } }, ErrorCode.trainExpectedValueRange],
      [{ stopConditions: { expectedScore: 99.5 } }, ErrorCode.trainExpectedValueRange],
      [{ autoSearch: { enabled: true, algorithm: 'zoopt', trials: 2 } }, ErrorCode.trainZooptTrials],
      [{ git: { enabled: true, url: 'not a url', commit: 'abc' } }, ErrorCode.gitUrlInvalid],
      [{ git: { enabled: true, url: 'https://example.com/a/b.git' } }, ErrorCode.gitUrlInvalid],
    ];
    for (const [over, code] of cases) {
      const r = await call('trainSimulator/create', envTraining(over));
      expect(r.status, JSON.stringify(over)).toBe(400);
      expect(r.body.code, JSON.stringify(over)).toBe(code);
    }
    const search = await call('trainParameter/create', { solutionId, simulatorId: schemeId, objectiveId: schemeId, name: 'pt', stopConditions: { searchCount: 10000 } });
    expect(search.body.code).toBe(ErrorCode.trainSearchRange);
    const stranger = await call('trainSimulator/create', envTraining(), strangerToken);
    expect(stranger.body.code).toBe(ErrorCode.solutionNotFound);
    const noVm = await call('trainSimulator/create', envTraining({ workerId: 'no-such-worker' }));
    expect(noVm.body.code).toBe(ErrorCode.insufficientResources);
  });

  it('trains a BC environment to success with metrics, logs, artefacts and live events', async () => {
    const created = await call('trainSimulator/create', envTraining({ git: { enabled: false, url: 'git@example.com:team/env.git', commit: 'main', password: 'secret' } }));
    expect(created.body.code).toBe(0);
    expect(created.body.data.code).toMatch(/^E-/);
    expect(created.body.data.config.git.password).toBe('******');
    const stored = JSON.parse((await server.app.db.knex('simulators').where({ id: created.body.data.id }).first('config')).config);
    expect(stored.git.password).toMatch(/^v1:/); // sealed at rest, opened only by the job for the checkout
    expect(JSON.stringify(stored)).not.toContain('secret');
    simulatorId = created.body.data.id;
    simulatorJobId = created.body.data.jobId;
    const done = await until(() => call('trainSimulator/get', { id: simulatorId }), (r) => ['successful', 'failure'].includes(r.body.data.state));
    expect(done.body.data.error).toBeNull();
    expect(done.body.data.state).toBe('successful');
    expect(typeof done.body.data.score).toBe('number');
    const row = await server.app.db.knex('simulators').where({ id: simulatorId }).first();
    expect(row.state).toBe('successful');
    expect(await server.app.blobs.stat(`${row.artifact_key}/venv.json`)).not.toBeNull();

    const again = await createSolution(server, owner, { projectId });
    const dup = await call('trainSimulator/create', { ...envTraining(), solutionId: again.solutionId });
    expect(dup.body.code).toBe(ErrorCode.environmentNameUsed);
    const dupSame = await call('trainSimulator/create', envTraining());
    expect(dupSame.body.code).toBe(ErrorCode.environmentNameUsed);

    const chart = await call('train/getTrainDisplayDataList', { jobId: simulatorJobId });
    expect(chart.body.data.points.length).toBeGreaterThan(0);
    const log = await call('train/getTrainLog', { jobId: simulatorJobId });
    expect(log.body.data.items.some((l: { message: string }) => l.message.includes('environment score'))).toBe(true);
    expect((await call('train/getTrainLog', { jobId: simulatorJobId }, strangerToken)).body.code).toBe(ErrorCode.trainNotFound);
    expect((await call('train/getTrainLog', { jobId: simulatorJobId }, memberToken)).body.code).toBe(ErrorCode.trainNotFound);

    const res = await server.fetch(`/api/train/events?jobId=${simulatorJobId}`, { headers: { Authorization: token } });
    expect(res.headers.get('content-type')).toContain('text/event-stream');
    const text = await res.text();
    expect(text).toContain('event: metrics');
    expect(text).toContain('"state":"successful"');
    // Every event's id is the stream's cursor: the last point and the last log line sent.
    const ids = [...text.matchAll(/^id: (\d+)\.(\d+)$/gm)].map((m) => m[0].slice(4));
    expect(ids.length).toBeGreaterThan(0);
    const last = ids[ids.length - 1]!;
    const resumed = await (await server.fetch(`/api/train/events?jobId=${simulatorJobId}`, { headers: { Authorization: token, 'Last-Event-ID': String(last) } })).text();
    expect(resumed).not.toMatch(/^id: /m);
    expect(resumed).toContain('event: state');
    const foreign = await server.fetch(`/api/train/events?jobId=${simulatorJobId}`, { headers: { Authorization: strangerToken } });
    expect(foreign.status).toBe(404);

    const pics = await call('train/getPicBySimulatorNum', { id: simulatorId, trajectory: 1, horizon: 5 });
    expect(pics.body.data.horizon).toBe(5);
    expect(pics.body.data.nodes.next_obs.predicted).toHaveLength(5);
    expect(pics.body.data.nodes.next_obs.real[0]).toHaveLength(1);
    expect((await call('train/getPicBySimulatorNum', { id: simulatorId, trajectory: 99 })).body.code).toBe(ErrorCode.paramInvalid);
    expect((await call('train/getPicBySimulatorNum', { id: simulatorId }, strangerToken)).body.code).toBe(ErrorCode.simulatorNotFound);

    const all = await call('train/getAllTrainList', { page: 1, pageSize: 50 });
    expect(all.body.data.rows.map((r: { id: string }) => r.id)).toContain(simulatorId);
    expect((await call('train/getAllTrainList', { page: 1, pageSize: 50 }, strangerToken)).body.data.total).toBe(0);
    const vms = await call('virtualMachine/getVirtualMachineList', {});
    expect(vms.body.data.rows.length).toBeGreaterThan(0);
    expect((await call('atmVersion/getAtmVersionList', {})).body.data.rows.length).toBeGreaterThan(0);
    const overall = await call('overview/getOverall', {});
    expect(overall.body.data.environments).toBeGreaterThanOrEqual(1);
  });

  it('trains revive-p and revive-t environments (adversarial, warm-started from BC) to success', async () => {
    for (const algorithm of ['revive_p', 'revive_t'] as const) {
      const created = await call('trainSimulator/create', envTraining({ name: `env-${algorithm}`, algorithm, hyperparameters: { ...TINY_BC, bcSteps: 2, rollouts: 4, batchSize: 32 } }));
      expect(created.body.code).toBe(0);
      const done = await until(() => call('trainSimulator/get', { id: created.body.data.id }), (r) => ['successful', 'failure'].includes(r.body.data.state));
      expect(done.body.data.error).toBeNull();
      expect(done.body.data.state).toBe('successful');
      const row = await server.app.db.knex('simulators').where({ id: created.body.data.id }).first();
      const artifact = JSON.parse((await server.app.blobs.get(`${row.artifact_key}/venv.json`)).toString('utf8'));
      expect(artifact.algorithm).toBe(algorithm);
      expect(typeof done.body.data.score).toBe('number');
    }
  });

  it('checks rewards and trains a PPO policy stored per the contract', async () => {
    const noPrimary = await call('objective/create', { solutionId, name: 'r', files: { 'other.py': 'x = 1' } });
    expect(noPrimary.body.code).toBe(ErrorCode.objectiveNoPrimaryFile);
    const long = await call('objective/create', { solutionId, name: 'r'.repeat(21), files: { 'reward.py': REWARD_PY } });
    expect(long.body.code).toBe(ErrorCode.paramInvalid);
    const created = await call('objective/create', { solutionId, name: 'reward one', files: { 'reward.py': REWARD_PY } });
    expect(created.body.code).toBe(0);
    objectiveId = created.body.data.id;
    expect((await call('objective/create', { solutionId, name: 'reward one', files: { 'reward.py': REWARD_PY } })).body.code).toBe(ErrorCode.objectiveNameUsed);

    const pol = await call('trainPolicy/create', {
      solutionId,
      simulatorId,
      objectiveId,
      name: 'policy-a',
      algorithm: 'ppo',
      stopConditions: STOP,
      hyperparameters: { epochs: 2, bcUpdates: 5, batchSize: 8, horizon: 4, evalWindows: 8, hidden: [16] },
    });
    expect(pol.body.code).toBe(0);
    const done = await until(() => call('trainPolicy/get', { id: pol.body.data.id }), (r) => ['successful', 'failure'].includes(r.body.data.state), 120_000);
    expect(done.body.data.error).toBeNull();
    expect(done.body.data.state).toBe('successful');
    const row = await server.app.db.knex('policies').where({ id: pol.body.data.id }).first();
    expect(row).toMatchObject({ algorithm: 'ppo', state: 'successful', tenant_id: owner.tenantId, project_id: projectId, solution_id: solutionId });
    expect(await server.app.blobs.stat(`${row.artifact_key}/policy.weights`)).not.toBeNull();
    expect(await server.app.blobs.stat(`${row.artifact_key}/policy.json`)).not.toBeNull();

    // the model list carries the policy's return and the cloned behaviour's on the same evaluation (the deploy form's warning)
    const listed = (await call('policy/list', { solutionId })).body.data.rows.find((r: { id: string }) => r.id === pol.body.data.id);
    expect(typeof listed.reward).toBe('number');
    expect(typeof listed.config.behaviourReward).toBe('number');
    expect(listed.reward).toBeGreaterThanOrEqual(listed.config.behaviourReward);
    // an update in the same environment resumes from the checkpoint (no new warm start): the measured one holds
    const upd = await call('train/createTrainUpdate', { id: pol.body.data.id, kind: 'policy', hyperparameters: { epochs: 3, bcUpdates: 5, batchSize: 8, horizon: 4, evalWindows: 8, hidden: [16] } });
    expect(upd.body.code).toBe(0);
    const updated = await until(() => call('trainPolicy/get', { id: pol.body.data.id }), (r) => r.body.data.jobId === upd.body.data.jobId && ['successful', 'failure'].includes(r.body.data.state), 120_000);
    expect(updated.body.data.error).toBeNull();
    expect((await call('policy/list', { solutionId })).body.data.rows.find((r: { id: string }) => r.id === pol.body.data.id).config.behaviourReward).toBe(listed.config.behaviourReward);

    const del = await call('objective/delete', { id: objectiveId });
    expect(del.body.code).toBe(ErrorCode.objectiveHasTraining);
    expect((await call('policy/list', { solutionId })).body.data.total).toBe(1);
    policyId = pol.body.data.id;

    // no algorithm asked: SAC's rules apply to the resolved default (a select tolerance is a test on the members' mean)
    const autoBad = await call('trainPolicy/create', { solutionId, simulatorId, objectiveId, name: 'policy-default-bad', stopConditions: STOP, hyperparameters: { epochs: 2, select: 'worst', selectTolerance: 1 } });
    expect(autoBad.body.code).toBe(ErrorCode.paramInvalid);
    expect(JSON.stringify(autoBad.body)).toContain('hyperparameters.selectTolerance');
    expect(await server.app.db.knex('policies').where({ name: 'policy-default-bad' }).first()).toBeUndefined();
    // no algorithm asked: the graph's default, SAC for this graph's continuous action
    const auto = await call('trainPolicy/create', { solutionId, simulatorId, objectiveId, name: 'policy-default', stopConditions: STOP, hyperparameters: { epochs: 2, bcUpdates: 5, batchSize: 8, horizon: 4, evalWindows: 8, hidden: [16] } });
    expect(auto.body.code).toBe(0);
    expect((await server.app.db.knex('policies').where({ id: auto.body.data.id }).first('algorithm')).algorithm).toBe('sac');
    const autoDone = await until(() => call('trainPolicy/get', { id: auto.body.data.id }), (r) => ['successful', 'failure'].includes(r.body.data.state), 120_000);
    expect(autoDone.body.data.error).toBeNull();
    expect(autoDone.body.data.state).toBe('successful');
    expect((await call('trainPolicy/delete', { id: auto.body.data.id, acknowledged: true })).body.code).toBe(0);
    expect((await call('policy/list', { solutionId })).body.data.total).toBe(1);
  }, 250_000);

  it('runs simulation and decision deductions, and a parameter search that needs a tunable node', async () => {
    const noStep = await call('simulation/create', { solutionId, simulatorId, name: 'sim-a', stepSize: 10_001 });
    expect(noStep.body.code).toBe(ErrorCode.paramInvalid);
    const sim = await call('simulation/create', { solutionId, simulatorId, name: 'sim-a', stepSize: 5 });
    expect(sim.body.code).toBe(0);
    expect(sim.body.data.code).toMatch(/^SD-/);
    expect((await call('simulation/create', { solutionId, simulatorId, name: 'sim-a', stepSize: 5 })).body.code).toBe(ErrorCode.trainNameUsed);
    const noPolicy = await call('decision/create', { solutionId, simulatorId, name: 'dec-a', stepSize: 5 });
    expect(noPolicy.body.code).toBe(ErrorCode.paramInvalid);
    const dec = await call('decision/create', { solutionId, simulatorId, policyId, name: 'dec-a', stepSize: 5 });
    expect(dec.body.code).toBe(0);
    const simDone = await until(() => call('simulation/get', { id: sim.body.data.id }), (r) => ['successful', 'failure'].includes(r.body.data.state), 120_000);
    expect(simDone.body.data.error).toBeNull();
    expect(typeof simDone.body.data.result.score).toBe('number');
    const decDone = await until(() => call('decision/get', { id: dec.body.data.id }), (r) => ['successful', 'failure'].includes(r.body.data.state), 120_000);
    expect(decDone.body.data.error).toBeNull();
    expect(typeof decDone.body.data.result.reward).toBe('number');
    expect(decDone.body.data.result.trajectory.rewards).toHaveLength(5);
    expect(decDone.body.data.result.trajectory.nodes.action.decided[0]).toHaveLength(1);
    expect((await call('decision/get', { id: sim.body.data.id })).status).toBe(404);
    expect((await call('simulation/list', { solutionId })).body.data.total).toBe(1);

    const zoopt = await call('trainParameter/create', { solutionId, simulatorId, objectiveId, name: 'pt-a', algorithm: 'zoopt', stopConditions: { searchCount: 2 } });
    expect(zoopt.body.code).toBe(ErrorCode.trainZooptTrials);
    const search = await call('trainParameter/create', { solutionId, simulatorId, objectiveId, name: 'pt-a', algorithm: 'sracos', stopConditions: { searchCount: 3 } });
    expect(search.body.code).toBe(0);
    expect(search.body.data.code).toMatch(/^PT-/);
    const failed = await until(() => call('trainParameter/get', { id: search.body.data.id }), (r) => ['successful', 'failure'].includes(r.body.data.state), 120_000);
    expect(failed.body.data.state).toBe('failure');
    expect(failed.body.data.error).toContain('tunable');
    const log = await call('train/getTrainLog', { jobId: failed.body.data.jobId });
    expect(log.body.data.error).toContain('tunable');
  }, 150_000);

  it('tunes the tunable parameters of a tuning solution', async () => {
    const tuning = await createSolution(server, owner, { projectId, goalType: 'parameter_tuning' });
    const sid = tuning.solutionId;
    expect((await call('solution/setPattern', { solutionId: sid, graph: tinyGraph() })).body.code).toBe(ErrorCode.graphInvalid);
    expect((await call('solution/setPattern', { solutionId: sid, graph: tuningGraph() })).body.code).toBe(0);
    // The table is a dataset this time (its Parquet copy, read through the datasets module).
    const made = await call('table/create', { fileId: await uploadCsv(server, owner, tinyCsv()), name: 'tuning data', type: 'business' });
    expect(made.body.code).toBe(0);
    const datasetId = made.body.data.tableId;
    await call('solution/setTableCorrelation', { solutionId: sid, correlation: { primaryTableId: datasetId, datasetId, trajectoryField: 'traj', sequenceField: 'step', datetimeField: 'time' } });
    const sch = (await call('scheme/create', { ...scheme(), solutionId: sid })).body.data.id;
    await call('scheme/schemeDataProcess', { id: sch });
    expect((await until(() => call('scheme/get', { id: sch }), (r) => r.body.data.processState !== 'processing')).body.data.processState).toBe('completed');
    const env = await call('trainSimulator/create', { solutionId: sid, schemeId: sch, name: 'env-tuning', stopConditions: STOP, hyperparameters: TINY_BC });
    const envDone = await until(() => call('trainSimulator/get', { id: env.body.data.id }), (r) => ['successful', 'failure'].includes(r.body.data.state));
    expect(envDone.body.data.state).toBe('successful');
    const obj = await call('objective/create', { solutionId: sid, name: 'reward', files: { 'reward.py': REWARD_PY } });
    const search = await call('trainParameter/create', { solutionId: sid, simulatorId: env.body.data.id, objectiveId: obj.body.data.id, name: 'pt-tuning', algorithm: 'zoopt', stopConditions: { searchCount: 4 }, hyperparameters: { horizon: 4 } });
    expect(search.body.code).toBe(0);
    const done = await until(() => call('trainParameter/get', { id: search.body.data.id }), (r) => ['successful', 'failure'].includes(r.body.data.state), 120_000);
    expect(done.body.data.error).toBeNull();
    expect(done.body.data.state).toBe('successful');
    expect(Object.keys(done.body.data.result.best.candidate)).toHaveLength(1);
    expect(typeof done.body.data.reward).toBe('number');
    const chart = await call('train/getTrainDisplayDataList', { jobId: search.body.data.jobId });
    expect(chart.body.data.points).toHaveLength(4);
  }, 150_000);

  it('runs the graph\'s Python node functions during environment training', async () => {
    const code = (body: string) => `import numpy as np\n\ndef dynamics(data):\n    ${body}\n`;
    const trainWith = async (body: string, name: string) => {
      const sol = await createSolution(server, owner, { projectId });
      const graph = tinyGraph() as { nodes: Array<{ name: string; function?: unknown }> };
      graph.nodes.find((n) => n.name === 'next_obs')!.function = { kind: 'python', file: 'expert_function.py', function: 'dynamics', code: code(body) };
      const missing = await call('solution/setPattern', { solutionId: sol.solutionId, graph });
      expect(missing.body.code).toBe(ErrorCode.graphInvalid);
      expect((await call('solution/setPattern', { solutionId: sol.solutionId, graph, files: { 'expert_function.py': code(body) } })).body.code).toBe(0);
      const tableId = await uploadCsv(server, owner, tinyCsv());
      await call('solution/setTableCorrelation', { solutionId: sol.solutionId, correlation: { primaryTableId: tableId, trajectoryField: 'traj', sequenceField: 'step', datetimeField: 'time' } });
      const sch = (await call('scheme/create', { ...scheme(), solutionId: sol.solutionId })).body.data.id;
      await call('scheme/schemeDataProcess', { id: sch });
      await until(() => call('scheme/get', { id: sch }), (r) => r.body.data.processState !== 'processing');
      const env = await call('trainSimulator/create', { solutionId: sol.solutionId, schemeId: sch, name, stopConditions: STOP, hyperparameters: TINY_BC });
      return until(() => call('trainSimulator/get', { id: env.body.data.id }), (r) => ['successful', 'failure'].includes(r.body.data.state), 120_000);
    };
    const ok = await trainWith("return np.asarray(data['obs']) * 0.9 + 0.5 * np.asarray(data['action'])", 'env-fn');
    expect(ok.body.data.error).toBeNull();
    expect(ok.body.data.state).toBe('successful');
    const broken = await trainWith("raise ValueError('boom in dynamics')", 'env-fn-broken');
    expect(broken.body.data.state).toBe('failure');
    expect(broken.body.data.error).toContain('ValueError');
  }, 150_000);

  it('copies environments and policies, lists, counts, and keeps hyperparameter sets per user', async () => {
    const copy = await call('simulator/copy', { id: simulatorId });
    expect(copy.body.code).toBe(0);
    expect(copy.body.data.name).toBe('env-a_copy');
    expect(copy.body.data.state).toBe('successful');
    const copyRow = await server.app.db.knex('simulators').where({ id: copy.body.data.id }).first();
    expect(copyRow.artifact_key).not.toBe((await server.app.db.knex('simulators').where({ id: simulatorId }).first()).artifact_key);
    expect(await server.app.blobs.stat(`${copyRow.artifact_key}/venv.json`)).not.toBeNull();
    expect((await call('simulator/copy', { id: simulatorId, name: 'env-a' })).body.code).toBe(ErrorCode.environmentNameUsed);
    const pcopy = await call('policy/copy', { id: policyId, name: 'policy-b' });
    expect(pcopy.body.code).toBe(0);
    expect(await server.app.blobs.stat(`${(await server.app.db.knex('policies').where({ id: pcopy.body.data.id }).first()).artifact_key}/policy.weights`)).not.toBeNull();
    expect((await call('simulator/delete', { id: simulatorId })).body.code).toBe(ErrorCode.tableInUse);
    expect((await call('simulator/delete', { id: copy.body.data.id })).body.code).toBe(0);
    expect(await server.app.blobs.stat(`${copyRow.artifact_key}/venv.json`)).toBeNull();

    const running = await call('train/getRunningModelPolicyList', { solutionId });
    expect(running.body.data.rows.map((r: { id: string }) => r.id)).toContain(policyId);
    const logs = await call('train/getTrainLogList', { jobId: simulatorJobId });
    expect(logs.body.data.logs[0].lines.info).toBeGreaterThan(0);
    const stats = await call('overview/getStatistics', {});
    expect(stats.body.data.trainings).toBeGreaterThanOrEqual(2);
    expect(Object.values(stats.body.data.durations as Record<string, number>).reduce((a, b) => a + b, 0)).toBe(stats.body.data.trainings);
    // An ordinary user sees the tenant's figures, never the host's (overview-resource.test.ts).
    expect((await call('overview/getResource', {})).body.data).toMatchObject({ scope: 'tenant', host: null });
    expect((await call('overview/getTrainingList', { limit: 2 })).body.data.rows).toHaveLength(2);
    expect((await call('overview/getOverall', {}, strangerToken)).body.data.environments).toBe(0);

    const hp = { name: 'fast', trainType: 'environment', algorithm: 'bc', params: [{ name: 'epochs', default: 3 }, { name: 'lr' }] };
    const made = await call('hyperparameter/create', hp);
    expect(made.body.code).toBe(0);
    expect((await call('hyperparameter/create', hp)).body.code).toBe(ErrorCode.hyperparameterNameUsed);
    expect((await call('hyperparameter/createTrainParams', { id: made.body.data.id })).body.data.hyperparameters).toEqual({ epochs: 3 });
    expect((await call('hyperparameter/list', { trainType: 'environment' })).body.data.total).toBe(1);
    expect((await call('hyperparameter/list', {}, memberToken)).body.data.total).toBe(0);
    expect((await call('hyperparameter/get', { id: made.body.data.id }, strangerToken)).body.code).toBe(ErrorCode.hyperparameterNotFound);
    const edited = await call('hyperparameter/edit', { ...hp, id: made.body.data.id, name: 'faster' });
    expect(edited.body.data.name).toBe('faster');
    expect((await call('hyperparameter/delete', { id: made.body.data.id })).body.code).toBe(0);
    expect((await call('hyperparameter/get', { id: made.body.data.id })).status).toBe(404);
  });

  it('stops a running training as successful by manual stop, and guards deletes meanwhile', async () => {
    const created = await call('trainSimulator/create', envTraining({ name: 'env-long', stopConditions: { duration: { hours: 1 } }, hyperparameters: { ...TINY_BC, epochs: 1_000_000 } }));
    expect(created.body.code).toBe(0);
    const jobId = created.body.data.jobId;
    await until(() => call('trainSimulator/get', { id: created.body.data.id }), (r) => r.body.data.state === 'processing');
    expect(await deleteRefusal(server.app.db.knex, { projectId })).toBe('projectHasTraining');
    expect((await call('trainSimulator/delete', { id: created.body.data.id, acknowledged: true })).body.code).toBe(ErrorCode.projectHasTraining);
    const running = await call('train/getTrainProcessList', { solutionId });
    expect(running.body.data.rows.map((r: { jobId: string }) => r.jobId)).toContain(jobId);

    expect((await call('train/stopTrain', { jobId }, strangerToken)).body.code).toBe(ErrorCode.trainNotFound);
    const stop = await call('train/stopTrain', { jobId });
    expect(stop.body.code).toBe(0);
    const done = await until(() => call('trainSimulator/get', { id: created.body.data.id }), (r) => !['processing', 'stopping'].includes(r.body.data.state));
    expect(done.body.data.state).toBe('successful by manual stop');
    expect((await call('train/stopTrain', { jobId })).body.code).toBe(ErrorCode.trainNotStoppable);
    expect(await deleteRefusal(server.app.db.knex, { projectId })).toBeNull();

    const noAck = await call('train/deleteRecords', { jobIds: [jobId], acknowledged: false });
    expect(noAck.body.code).toBe(ErrorCode.deleteNotAcknowledged);
    const deleted = await call('train/deleteRecords', { jobIds: [jobId], acknowledged: true });
    expect(deleted.body.data.deleted).toEqual([jobId]);
    expect((await call('trainSimulator/get', { id: created.body.data.id })).status).toBe(404);
  });

  it('pauses a debug-mode training at breakpoints, skips them, and restores a stopped training from its checkpoint', async () => {
    const created = await call('trainSimulator/create', envTraining({ name: 'env-debug', mode: 'debug', hyperparameters: { ...TINY_BC, epochs: 4 } }));
    expect(created.body.code).toBe(0);
    const id = created.body.data.id;
    const jobId = created.body.data.jobId;
    const get = () => call('trainSimulator/get', { id });
    expect((await call('train/skipBreakpoint', { jobId: simulatorJobId })).body.code).toBe(ErrorCode.breakpointNotActive);
    await until(get, (r) => r.body.data.state === 'debugging');
    expect((await call('train/skipBreakpoint', { jobId }, strangerToken)).body.code).toBe(ErrorCode.trainNotFound);
    const skip = await call('train/skipBreakpoint', { jobId });
    expect(skip.body.data.state).toBe('processing');
    const second = await until(get, (r) => r.body.data.state === 'debugging' && r.body.data.progress > 0.25);
    expect(second.body.data.progress).toBeGreaterThan(0.25);
    expect((await call('train/stopTrain', { jobId })).body.code).toBe(0);
    const stopped = await until(get, (r) => r.body.data.state === 'successful by manual stop');
    expect(stopped.body.data.state).toBe('successful by manual stop');

    expect((await call('trainSimulator/restore', { id: simulatorId })).body.code).toBe(ErrorCode.paramInvalid);
    const restored = await call('trainSimulator/restore', { id, mode: 'run' });
    expect(restored.body.code).toBe(0);
    expect(restored.body.data.jobId).not.toBe(jobId);
    const done = await until(get, (r) => ['successful', 'failure'].includes(r.body.data.state));
    expect(done.body.data.state).toBe('successful');
    const log = await call('train/getTrainLog', { jobId: restored.body.data.jobId });
    expect(log.body.data.items.some((l: { message: string }) => /resuming at step [1-9]/.test(l.message))).toBe(true);

    expect((await call('train/createTrainUpdate', { id, kind: 'environment', stopConditions: {} })).body.code).toBe(ErrorCode.trainNoStopCondition);
    const update = await call('train/createTrainUpdate', { id, kind: 'environment', hyperparameters: { epochs: 2 } });
    expect(update.body.code).toBe(0);
    const updated = await until(get, (r) => ['successful', 'failure'].includes(r.body.data.state));
    expect(updated.body.data.state).toBe('successful');
    const updateLog = await call('train/getTrainLog', { jobId: update.body.data.jobId });
    expect(updateLog.body.data.items.map((l: { message: string }) => l.message)).toContain('stopped: budget after 6 steps');
    const runs = await call('train/getTrainUpdateListPage', { id, kind: 'environment' });
    expect(runs.body.data.rows.map((r: { reason: string }) => r.reason)).toEqual(['update', 'restore', 'create']);
    expect(runs.body.data.rows.map((r: { jobId: string }) => r.jobId)).toEqual([update.body.data.jobId, restored.body.data.jobId, jobId]);
    expect((await call('train/getTrainUpdateListPage', { id, kind: 'environment' }, strangerToken)).body.code).toBe(ErrorCode.simulatorNotFound);
  });
});
