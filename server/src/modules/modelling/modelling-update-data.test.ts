/**
 * Updating an environment with new data through HTTP: a dataset shaped like a model service's
 * kept calls (`decision_`/`outcome_` columns) is added to a trained environment's data by
 * `train/createTrainUpdate {kind: 'environment', datasetIds}` (rows missing a value dropped and
 * logged, the run listed, the artefact naming the datasets), and a policy trained in that
 * environment is then updated in the updated environment. Datasets outside the project, or
 * unknown: the catalogue's `tableNotFound`. Then the whole loop with a real service: its calls
 * and reported outcomes (`modeldeploy/createDatasetFromRecords`) update the environment, a copy
 * of the policy is updated in it, and the running service is swapped to the copy.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ErrorCode } from '@decisio/domain';
import { newId } from '../../db/ids';
import type { TestUser } from '../../test/factories';
import { databases, type TestServer } from '../../test/server';
import { REWARD_PY, TINY_BC, modellingTestServer, until, uploadCsv } from './testing';
import { loadVenv, type VenvArtifact } from './engine/data';

const TINY_PPO = { epochs: 2, bcUpdates: 5, batchSize: 8, horizon: 4, evalWindows: 8, hidden: [8] };
const finished = (r: { body: { data: { state: string } } }) => ['successful', 'failure', 'successful by manual stop'].includes(r.body.data.state);

/**
 * A calls table of the tiny graph: 12 calls whose state `x` lies beyond the scheme's data (2 to
 * 3.1) with the decided action and the reported next state; two calls have no outcome and one
 * no decision (3 rows to drop).
 */
function callsCsv(): string {
  const lines = ['decision_id,row,called_at,x,decision_a,outcome_x'];
  for (let i = 0; i < 15; i++) {
    const x = 2 + i * 0.08;
    const a = -0.8;
    const next = 0.9 * x + 0.5 * a;
    const decided = i === 5 ? '' : a.toFixed(3);
    const outcome = i === 3 || i === 9 ? '' : next.toFixed(5);
    lines.push(`${newId()},0,2026-11-20T10:${String(i).padStart(2, '0')}:00Z,${x.toFixed(3)},${decided},${outcome}`);
  }
  return `${lines.join('\n')}\n`;
}

describe.each(databases)('environment update with new data on %s', (kind) => {
  let server: TestServer;
  let owner: TestUser;
  let token: string;
  let solutionId: string;
  let schemeId: string;
  /** The environment and policy the first test trains (the second goes on with them). */
  let trainedEnv = '';
  let trainedPolicy = '';
  const call = (name: string, body: unknown) => server.call(name, { token, body });
  /** A call of a model service's access address (`/decide` or `/outcome`). */
  const serve = async (path: string, body: unknown, accessToken: string) => {
    const res = await server.fetch(path, { method: 'POST', headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${accessToken}` }, body: JSON.stringify(body) });
    return { status: res.status, body: (await res.json()) as { code: number; data: any } };
  };
  /** Polls a service until its status leaves `from`. */
  const settle = async (id: string, from: string[]) => (await until(() => call('modeldeploy/queryDetail', { id }), (r) => !from.includes(r.body.data.status), 30_000)).body.data;
  const logOf = async (jobId: string): Promise<string[]> => (await call('train/getTrainLog', { jobId, limit: 1000 })).body.data.items.map((l: { message: string }) => l.message);
  const rowsOf = (log: string[]) => Number(/environment training \(bc\): (\d+) rows/.exec(log.find((l) => l.startsWith('environment training')) ?? '')?.[1]);
  /** A dataset of `owner` made from a CSV upload, in `projectId` (or none). */
  const dataset = async (name: string, csv: string, projectId?: string) => {
    const fileId = await uploadCsv(server, owner, csv);
    const made = await call('table/create', { fileId, name, type: 'business', ...(projectId ? { projectId } : {}) });
    expect(made.body.code).toBe(0);
    return String(made.body.data.tableId);
  };

  beforeAll(async () => {
    ({ server, owner, token, solutionId, schemeId } = await modellingTestServer(kind));
  }, 120_000);
  afterAll(async () => {
    await server?.stop();
  });

  it('adds the calls to the environment, then updates the policy in the updated environment', async () => {
    const projectId = String((await server.app.db.knex('solutions').where({ id: solutionId }).first('project_id')).project_id);
    const env = await call('trainSimulator/create', { solutionId, schemeId, name: 'env-calls', stopConditions: { system: true }, hyperparameters: TINY_BC, mode: 'run' });
    expect(env.body.code).toBe(0);
    const id = String(env.body.data.id);
    const firstJob = String(env.body.data.jobId);
    expect((await until(() => call('trainSimulator/get', { id }), finished, 90_000)).body.data.state).toBe('successful');
    const schemeRows = rowsOf(await logOf(firstJob));
    expect(schemeRows).toBeGreaterThan(0);

    const obj = await call('objective/create', { solutionId, name: 'reward', files: { 'reward.py': REWARD_PY } });
    expect(obj.body.code).toBe(0);
    const pol = await call('trainPolicy/create', { solutionId, simulatorId: id, objectiveId: obj.body.data.id, name: 'policy-calls', algorithm: 'ppo', stopConditions: { system: true }, hyperparameters: TINY_PPO, mode: 'run' });
    expect(pol.body.code).toBe(0);
    const policyId = String(pol.body.data.id);
    const trained = await until(() => call('trainPolicy/get', { id: policyId }), finished, 120_000);
    expect(trained.body.data.error).toBeNull();
    expect(trained.body.data.state).toBe('successful');
    // The policy notes the environment (its training job) it was trained in.
    expect(JSON.parse((await server.app.db.knex('policies').where({ id: policyId }).first('config')).config).environmentJobId).toBe(firstJob);

    const calls = await dataset('service calls', callsCsv(), projectId);
    // Unknown datasets, and datasets outside the project: the catalogue's error; nothing queued.
    expect((await call('train/createTrainUpdate', { id, kind: 'environment', hyperparameters: { epochs: 1 }, datasetIds: [newId()] })).body.code).toBe(ErrorCode.tableNotFound);
    const elsewhere = await dataset('no project calls', callsCsv());
    const outside = await call('train/createTrainUpdate', { id, kind: 'environment', hyperparameters: { epochs: 1 }, datasetIds: [calls, elsewhere] });
    expect(outside.body, JSON.stringify(outside.body)).toMatchObject({ code: ErrorCode.tableNotFound });
    // New data is for environments.
    expect((await call('train/createTrainUpdate', { id: policyId, kind: 'policy', hyperparameters: { epochs: 1 }, datasetIds: [calls] })).body.code).toBe(ErrorCode.paramInvalid);
    expect((await call('train/getTrainUpdateListPage', { id, kind: 'environment' })).body.data.total).toBe(1);

    const update = await call('train/createTrainUpdate', { id, kind: 'environment', hyperparameters: { epochs: 2 }, datasetIds: [calls] });
    expect(update.body.code).toBe(0);
    const updateJob = String(update.body.data.jobId);
    const updated = await until(() => call('trainSimulator/get', { id }), finished, 90_000);
    expect(updated.body.data.error).toBeNull();
    expect(updated.body.data.state).toBe('successful');
    const log = await logOf(updateJob);
    expect(log).toContain(`update data: 12 rows from dataset ${calls} (3 dropped)`);
    expect(rowsOf(log)).toBe(schemeRows + 12);
    expect(log).toContain("the data differs from the continued training's: its best weights and score are not kept");
    const runs = await call('train/getTrainUpdateListPage', { id, kind: 'environment' });
    expect(runs.body.data.rows.map((r: { reason: string; jobId: string; state: string }) => [r.reason, r.jobId, r.state])).toEqual([
      ['update', updateJob, 'successful'],
      ['create', firstJob, 'successful'],
    ]);
    const sim = await server.app.db.knex('simulators').where({ id }).first('artifact_key', 'config');
    expect(JSON.parse(sim.config).datasetIds).toEqual([calls]);
    const artifact = JSON.parse((await server.app.blobs.get(`${sim.artifact_key}/venv.json`)).toString('utf8')) as VenvArtifact;
    expect(artifact.extraDatasetIds).toEqual([calls]);
    expect(artifact.jobId).toBe(updateJob);
    // Whoever loads the environment rebuilds the data it was trained on (scheme data plus the calls).
    const loaded = await loadVenv(server.app.db.knex, server.app.blobs, await server.app.db.knex('simulators').where({ id }).first());
    expect(loaded.dataset.rows).toBe(schemeRows + 12);
    expect(loaded.dataset.trajectoryCount).toBe(6 + 12);

    // The policy update reads the environment's current artefact: the updated one, over the same data.
    const configOf = async () => JSON.parse((await server.app.db.knex('policies').where({ id: policyId }).first('config')).config);
    expect(typeof (await configOf()).behaviourReward).toBe('number');
    const polUpdate = await call('train/createTrainUpdate', { id: policyId, kind: 'policy', hyperparameters: { epochs: 1 } });
    expect(polUpdate.body.code).toBe(0);
    const polUpdated = await until(() => call('trainPolicy/get', { id: policyId }), finished, 120_000);
    expect(polUpdated.body.data.error).toBeNull();
    expect(polUpdated.body.data.state).toBe('successful');
    expect(await logOf(String(polUpdate.body.data.jobId))).toContain("the environment was trained again since this policy's last run: training in the updated environment");
    expect((await configOf()).environmentJobId).toBe(updateJob);
    // the cloned behaviour's return was measured in the environment before its update: unknown now, not kept
    expect((await configOf()).behaviourReward).toBeNull();
    const polRuns = await call('train/getTrainUpdateListPage', { id: policyId, kind: 'policy' });
    expect(polRuns.body.data.rows.map((r: { reason: string }) => r.reason)).toEqual(['update', 'create']);

    // A simulation deduction rebuilds the same data (the artefact's datasets) and runs.
    const deduction = await call('simulation/create', { solutionId, simulatorId: id, name: 'sim-calls', stepSize: 3 });
    expect(deduction.body.code).toBe(0);
    const deduced = await until(() => call('simulation/get', { id: deduction.body.data.id }), finished, 60_000);
    expect(deduced.body.data.error).toBeNull();
    expect(deduced.body.data.state).toBe('successful');
    trainedEnv = id;
    trainedPolicy = policyId;
  }, 400_000);

  it('retrains from a running service\'s calls and swaps the service to the new version', async () => {
    expect(trainedPolicy).not.toBe('');
    const created = await call('modeldeploy/create', { serviceName: 'calls-loop', policyId: trainedPolicy });
    expect(created.body.code).toBe(0);
    const service = created.body.data as { id: string; accessToken: string };
    await settle(service.id, ['deploying']);
    expect((await call('modeldeploy/start', { id: service.id })).body.code).toBe(0);
    expect((await settle(service.id, ['starting'])).status).toBe('running');
    // Six calls; the callers report the next state of four of them.
    for (let i = 0; i < 6; i++) {
      const x = -1.5 + i * 0.6;
      const decided = await serve(`/api/decide/${service.id}`, { x }, service.accessToken);
      expect(decided.status).toBe(200);
      const a = Number(decided.body.data.decisions.a);
      expect(Number.isFinite(a)).toBe(true);
      if (i % 3 === 2) continue;
      expect((await serve(`/api/decide/${service.id}/outcome`, { decisionId: decided.body.data.decisionId, outcome: { x: 0.9 * x + 0.5 * a } }, service.accessToken)).status).toBe(200);
    }
    const made = await call('modeldeploy/createDatasetFromRecords', { id: service.id, name: 'loop calls' });
    expect(made.body.code).toBe(0);
    const calls = String(made.body.data.tableId);
    const columns = (await call('table/get', { tableId: calls })).body.data.columns.map((c: { name: string }) => c.name);
    expect(columns).toEqual(expect.arrayContaining(['decision_id', 'row', 'x', 'decision_a', 'outcome_x']));

    const envUpdate = await call('train/createTrainUpdate', { id: trainedEnv, kind: 'environment', hyperparameters: { epochs: 1 }, datasetIds: [calls] });
    expect(envUpdate.body.code).toBe(0);
    const env = await until(() => call('trainSimulator/get', { id: trainedEnv }), finished, 90_000);
    expect(env.body.data.error).toBeNull();
    expect(env.body.data.state).toBe('successful');
    expect(await logOf(String(envUpdate.body.data.jobId))).toContain(`update data: 4 rows from dataset ${calls} (2 dropped)`);

    // The new version: a copy of the policy, updated in the updated environment.
    const copy = await call('policy/copy', { id: trainedPolicy, name: 'policy-calls-v2' });
    expect(copy.body.code).toBe(0);
    const copyId = String(copy.body.data.id);
    const polUpdate = await call('train/createTrainUpdate', { id: copyId, kind: 'policy', hyperparameters: { epochs: 1 } });
    expect(polUpdate.body.code).toBe(0);
    const pol = await until(() => call('trainPolicy/get', { id: copyId }), finished, 120_000);
    expect(pol.body.data.error).toBeNull();
    expect(pol.body.data.state).toBe('successful');
    expect(JSON.parse((await server.app.db.knex('policies').where({ id: copyId }).first('config')).config).environmentJobId).toBe(String(envUpdate.body.data.jobId));

    // The running service swaps to it while calls go on: none refused or dropped.
    const during = Array.from({ length: 20 }, (_, i) => serve(`/api/decide/${service.id}`, { x: i / 10 }, service.accessToken));
    const swapped = await call('modeldeploy/update', { id: service.id, policyId: copyId });
    expect(swapped.body.code).toBe(0);
    expect(swapped.body.data).toMatchObject({ status: 'running', policyId: copyId });
    for (const r of await Promise.all(during)) expect(r.status).toBe(200);
    expect((await serve(`/api/decide/${service.id}`, { x: 0.3 }, service.accessToken)).status).toBe(200);
  }, 300_000);
});
