/**
 * Environment ensembles through HTTP (`engine/ensemble.ts`): an environment training stores
 * `k` members (5 by default, `hyperparameters.ensemble` otherwise; 1 keeps the single-model
 * artefact), a policy training in it rolls out in the members and keeps its policy by the
 * worst member return (with the disagreement penalty when asked), bad ensemble
 * hyperparameters are refused with `paramInvalid`, and an older single-model artefact and
 * checkpoint still load, train policies and update.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ErrorCode } from '@decisio/domain';
import { databases, type TestServer } from '../../test/server';
import { REWARD_PY, TINY_BC, modellingTestServer, until } from './testing';
import { loadVenv, type VenvArtifact } from './engine/data';
import { policyEnsembleOptions } from './engine/ensemble';

const TINY_PPO = { epochs: 2, bcUpdates: 5, batchSize: 8, horizon: 4, evalWindows: 8, hidden: [8] };
const finished = (r: { body: { data: { state: string } } }) => ['successful', 'failure', 'successful by manual stop'].includes(r.body.data.state);

describe.each(databases)('environment ensembles on %s', (kind) => {
  let server: TestServer;
  let token: string;
  let solutionId: string;
  let schemeId: string;
  let objectiveId: string;
  /** The default (5-member) environment the first test trains. */
  let ensembleEnv = '';
  const call = (name: string, body: unknown) => server.call(name, { token, body });
  const logOf = async (jobId: string): Promise<string[]> => (await call('train/getTrainLog', { jobId, limit: 1000 })).body.data.items.map((l: { message: string }) => l.message);
  const artefactOf = async (id: string): Promise<VenvArtifact> => {
    const row = await server.app.db.knex('simulators').where({ id }).first();
    return JSON.parse((await server.app.blobs.get(`${row.artifact_key}/venv.json`)).toString('utf8')) as VenvArtifact;
  };
  const simulatorRow = (id: string) => server.app.db.knex('simulators').where({ id }).first();
  const trainEnv = async (name: string, hyperparameters: Record<string, unknown>) => {
    const env = await call('trainSimulator/create', { solutionId, schemeId, name, stopConditions: { system: true }, hyperparameters });
    expect(env.body.code).toBe(0);
    const done = await until(() => call('trainSimulator/get', { id: env.body.data.id }), finished, 120_000);
    expect(done.body.data.error).toBeNull();
    expect(done.body.data.state).toBe('successful');
    return { id: String(env.body.data.id), jobId: String(env.body.data.jobId), score: done.body.data.score as number };
  };
  const trainPolicy = async (name: string, simulatorId: string, algorithm: 'ppo' | 'sac', hyperparameters: Record<string, unknown>) => {
    const pol = await call('trainPolicy/create', { solutionId, simulatorId, objectiveId, name, algorithm, stopConditions: { system: true }, hyperparameters });
    expect(pol.body.code).toBe(0);
    const done = await until(() => call('trainPolicy/get', { id: pol.body.data.id }), finished, 120_000);
    expect(done.body.data.error).toBeNull();
    expect(done.body.data.state).toBe('successful');
    const jobId = String(pol.body.data.jobId);
    const points = (await call('train/getTrainDisplayDataList', { jobId })).body.data.points as Array<Record<string, unknown>>;
    return { id: String(pol.body.data.id), jobId, log: await logOf(jobId), points: JSON.stringify(points) };
  };

  beforeAll(async () => {
    ({ server, token, solutionId, schemeId } = await modellingTestServer(kind));
    const obj = await call('objective/create', { solutionId, name: 'reward', files: { 'reward.py': REWARD_PY } });
    objectiveId = String(obj.body.data.id);
  }, 120_000);
  afterAll(async () => {
    await server?.stop();
  });

  it('refuses bad ensemble hyperparameters with paramInvalid', async () => {
    const env = (over: Record<string, unknown>) => call('trainSimulator/create', { solutionId, schemeId, name: 'env-bad', stopConditions: { system: true }, hyperparameters: TINY_BC, ...over });
    for (const [over, field] of [
      [{ hyperparameters: { ...TINY_BC, ensemble: 0 } }, 'ensemble'],
      [{ hyperparameters: { ...TINY_BC, ensemble: 2.5 } }, 'ensemble'],
      [{ hyperparameters: { ...TINY_BC, ensemble: 11 } }, 'ensemble'],
      [{ hyperparameters: { ...TINY_BC, ensemble: '3' } }, 'ensemble'],
      // the adversarial venvs are not ensembled
      [{ algorithm: 'revive_p', hyperparameters: { ...TINY_BC, ensemble: 2 } }, 'ensemble'],
    ] as const) {
      const r = await env(over);
      expect(r.status, JSON.stringify(over)).toBe(400);
      expect(r.body.code, JSON.stringify(over)).toBe(ErrorCode.paramInvalid);
      expect(JSON.stringify(r.body), JSON.stringify(over)).toContain(`hyperparameters.${field}`);
    }
    expect((await server.app.db.knex('simulators').where({ name: 'env-bad' })).length).toBe(0);
  });

  it('trains 5 members by default, stores them in one artefact, and trains PPO and SAC in them', async () => {
    const env = await trainEnv('env-ensemble', TINY_BC);
    ensembleEnv = env.id;
    const artifact = await artefactOf(env.id);
    expect(artifact.members).toHaveLength(4);
    expect(artifact.memberScores).toHaveLength(5);
    // member 0 is the environment: its score is the record's
    expect(artifact.score).toBe(artifact.memberScores![0]);
    // the record's score went through the database's DOUBLE (MariaDB's text protocol may round the last digit)
    expect(env.score).toBeCloseTo(artifact.score!, 12);
    // members start from other seeds: other weights, same shapes
    const [node] = Object.keys(artifact.weights);
    const param = Object.keys(artifact.weights[node!]!)[0]!;
    expect(artifact.members![0]![node!]![param]).toHaveLength(artifact.weights[node!]![param]!.length);
    expect(artifact.members![0]![node!]![param]).not.toEqual(artifact.weights[node!]![param]);
    const log = await logOf(env.jobId);
    expect(log.some((l) => l.startsWith('environment ensemble: 5 members'))).toBe(true);
    expect(log.some((l) => /^member scores( [-\d.]+,?){5}$/.test(l))).toBe(true);
    // charts read the members' mean under the single model's names
    const chart = JSON.stringify((await call('train/getTrainDisplayDataList', { jobId: env.jobId })).body.data.points);
    expect(chart).toContain('"ensemble/members":5');
    expect(chart).toContain('val/mse');
    expect(chart).not.toContain('m0/');

    const loaded = await loadVenv(server.app.db.knex, server.app.blobs, await simulatorRow(env.id));
    expect(loaded.ensemble?.members).toHaveLength(5);
    expect(loaded.ensemble!.members[0]).toBe(loaded.venv);
    expect(loaded.ensemble!.members[2]!.weights()).toEqual(artifact.members![1]);

    // bad policy settings for the ensemble
    for (const [algorithm, hp, field] of [
      ['ppo', { uncertaintyPenalty: -1 }, 'uncertaintyPenalty'],
      ['ppo', { select: 'best' }, 'select'],
      ['ppo', { ensembleRollouts: 'yes' }, 'ensembleRollouts'],
      ['sac', { uncertaintyRelative: true }, 'uncertaintyRelative'],
      // SAC's select tolerance: not PPO's, never negative
      ['ppo', { selectTolerance: 1 }, 'selectTolerance'],
      ['sac', { selectTolerance: -1 }, 'selectTolerance'],
      // a test on the members' mean: not with the worst member's or one venv's choice
      ['sac', { select: 'worst', selectTolerance: 1 }, 'selectTolerance'],
      ['ppo', { bcCoef: -0.5 }, 'bcCoef'],
      ['sac', { bcCoef: '1' }, 'bcCoef'],
      ['sac', { bcUncertainty: -1 }, 'bcUncertainty'],
      // the uncertainty part needs a conservative selection
      ['ppo', { select: 'venv', bcUncertainty: 2 }, 'bcUncertainty'],
      ['ppo', { bcUncertaintyBaseline: 'warm' }, 'bcUncertaintyBaseline'],
    ] as const) {
      const r = await call('trainPolicy/create', { solutionId, simulatorId: env.id, objectiveId, name: 'pol-bad', algorithm, stopConditions: { system: true }, hyperparameters: { ...TINY_PPO, ...hp } });
      expect(r.body.code, JSON.stringify(hp)).toBe(ErrorCode.paramInvalid);
      expect(JSON.stringify(r.body), JSON.stringify(hp)).toContain(`hyperparameters.${field}`);
    }

    // PPO: ensemble rollouts, the worst member's return chooses, the penalty when asked
    const ppo = await trainPolicy('pol-ensemble', env.id, 'ppo', { ...TINY_PPO, uncertaintyPenalty: 0.5, uncertaintyRelative: true });
    expect(ppo.log).toContain("training in the environment's ensemble of 5 members");
    expect(ppo.points).toContain('eval/return-worst');
    expect(ppo.points).toContain('"uncertainty"');
    // PPO's disagreement-scaled behaviour regulariser is on by default with an ensemble
    // (bcUncertainty 0.5, the bench of 2026-11-29), off when asked
    expect(ppo.points).toContain('"bc-coef"');
    const ppoOff = await trainPolicy('pol-ppo-bc-off', env.id, 'ppo', { ...TINY_PPO, bcUncertainty: 0 });
    expect(ppoOff.points).not.toContain('"bc-coef"');
    // the baseline reaches the trainer only with an ensemble (it is one of the ensemble keys)
    const members = (await loadVenv(server.app.db.knex, server.app.blobs, await simulatorRow(env.id))).ensemble;
    expect(members).toBeDefined();
    expect(policyEnsembleOptions('sac', { bcUncertaintyBaseline: 'zero' }, members)).toMatchObject({ bcUncertaintyBaseline: 'zero' });
    expect(policyEnsembleOptions('sac', { bcUncertaintyBaseline: 'zero' }, undefined)).toEqual({});
    expect(policyEnsembleOptions('sac', { selectTolerance: 0 }, members)).toMatchObject({ selectTolerance: 0 });
    expect(policyEnsembleOptions('ppo', { selectTolerance: 0 }, members)).not.toHaveProperty('selectTolerance');
    // SAC too: its defaults for an ensemble (no penalty, the behaviour regulariser off since the
    // bench of 2026-11-27), and the regulariser when asked, its disagreement counted from zero
    const sacDefaults = await trainPolicy('pol-ensemble-sac-defaults', env.id, 'sac', { epochs: 1, batchSize: 8, horizon: 4, evalWindows: 8, hidden: [8], bcUpdates: 5 });
    expect(sacDefaults.points).toContain('eval/return-worst');
    expect(sacDefaults.points).not.toContain('"bc-coef"');
    const sac = await trainPolicy('pol-ensemble-sac', env.id, 'sac', { epochs: 2, batchSize: 8, horizon: 4, evalWindows: 8, hidden: [8], bcUpdates: 5, bcUncertainty: 4, bcUncertaintyBaseline: 'zero' });
    expect(sac.log).toContain("training in the environment's ensemble of 5 members");
    expect(sac.points).toContain('eval/return-worst');
    expect(sac.points).not.toContain('"uncertainty"');
    expect(sac.points).toContain('"bc-coef"');
    // `select: 'venv'` and no ensemble rollouts: the ensemble is passed but member 0 alone decides
    // (no uncertainty part); bcCoef alone holds the policy near the logged decisions
    const plain = await trainPolicy('pol-venv-select', env.id, 'ppo', { ...TINY_PPO, select: 'venv', ensembleRollouts: false, bcCoef: 0.5, bcUncertainty: 0 });
    expect(plain.points).not.toContain('eval/return-worst');
    expect(plain.points).not.toContain('"bc-coef"');
    expect(plain.points).toContain('"loss/bc"');
    // bcUncertainty 0: no regulariser either
    const off = await trainPolicy('pol-bc-off', env.id, 'sac', { epochs: 1, batchSize: 8, horizon: 4, evalWindows: 8, hidden: [8], bcUpdates: 5, bcUncertainty: 0 });
    expect(off.points).toContain('eval/return-worst');
    expect(ppoOff.points).not.toContain('"bc-coef"');
    expect(off.points).not.toContain('"loss/bc"');

    // deductions roll member 0, the environment: its simulation score is the environment's on the same windows
    const sim = await call('simulation/create', { solutionId, simulatorId: env.id, name: 'sim-ensemble', stepSize: 10 });
    expect(sim.body.code).toBe(0);
    const simDone = await until(() => call('simulation/get', { id: sim.body.data.id }), finished, 120_000);
    expect(simDone.body.data.error).toBeNull();
    expect(typeof simDone.body.data.result.score).toBe('number');
  }, 300_000);

  it('keeps one model with ensemble 1, loads an older single-model artefact and updates from an older checkpoint', async () => {
    const single = await trainEnv('env-single', { ...TINY_BC, ensemble: 1 });
    const artifact = await artefactOf(single.id);
    expect(artifact.members).toBeUndefined();
    expect(artifact.memberScores).toBeUndefined();
    expect((await logOf(single.jobId)).some((l) => l.startsWith('environment ensemble: 1 member '))).toBe(true);
    const loaded = await loadVenv(server.app.db.knex, server.app.blobs, await simulatorRow(single.id));
    expect(loaded.ensemble).toBeUndefined();
    expect(loaded.venv.weights()).toEqual(artifact.weights);

    // An artefact of an older training (no members, no memberScores, no jobId): member 0 alone.
    const row = await simulatorRow(ensembleEnv);
    const full = await artefactOf(ensembleEnv);
    const { members: _m, memberScores: _s, jobId: _j, ...old } = full;
    await server.app.blobs.put(`${row.artifact_key}/venv.json`, Buffer.from(JSON.stringify(old)));
    const oldLoaded = await loadVenv(server.app.db.knex, server.app.blobs, row);
    expect(oldLoaded.ensemble).toBeUndefined();
    expect(oldLoaded.venv.weights()).toEqual(full.weights);
    const pol = await trainPolicy('pol-old-artefact', ensembleEnv, 'ppo', { ...TINY_PPO, select: 'worst', bcUncertainty: 2, bcCoef: 0.5 });
    expect(pol.log.some((l) => l.includes('the environment is a single model') && l.includes('bcUncertainty') && l.includes('ignored'))).toBe(true);
    expect(pol.points).not.toContain('eval/return-worst');
    // bcCoef works without an ensemble; bcUncertainty was ignored
    expect(pol.points).toContain('"loss/bc"');
    expect(pol.points).not.toContain('"bc-coef"');

    // A checkpoint of an older single-model job (a BC checkpoint, no `members`): the update keeps one model.
    const job = await server.app.db.knex('jobs').where({ id: single.jobId }).first('checkpoint_ref');
    const ck = await server.app.db.knex('job_checkpoints').where({ id: job.checkpoint_ref }).first('data');
    const saved = JSON.parse(Buffer.from(ck.data as Uint8Array).toString('utf8')) as { checkpoint: { members: unknown[] }; step: number };
    expect(saved.checkpoint.members).toHaveLength(1);
    const bytes = Buffer.from(JSON.stringify({ ...saved, checkpoint: saved.checkpoint.members[0] }));
    await server.app.db.knex('job_checkpoints').where({ id: job.checkpoint_ref }).update({ data: bytes, size: bytes.byteLength });
    // the record as an older training left it: no ensemble hyperparameter
    const config = JSON.parse(String((await simulatorRow(single.id)).config));
    delete config.hyperparameters.ensemble;
    await server.app.db.knex('simulators').where({ id: single.id }).update({ config: JSON.stringify(config) });
    const update = await call('train/createTrainUpdate', { id: single.id, kind: 'environment', hyperparameters: { epochs: 1 } });
    expect(update.body.code).toBe(0);
    const updated = await until(() => call('trainSimulator/get', { id: single.id }), finished, 120_000);
    expect(updated.body.data.state).toBe('successful');
    const updateLog = await logOf(update.body.data.jobId);
    expect(updateLog.some((l) => l.startsWith(`resuming at step ${saved.step} `))).toBe(true);
    expect(updateLog.some((l) => l.startsWith('environment ensemble: 1 member '))).toBe(true);
    expect((await artefactOf(single.id)).members).toBeUndefined();
    // asking for more members in an update: the continued member 0 plus fresh ones
    expect((await call('train/createTrainUpdate', { id: single.id, kind: 'environment', hyperparameters: { epochs: 1, ensemble: 0 } })).body.code).toBe(ErrorCode.paramInvalid);
    const grow = await call('train/createTrainUpdate', { id: single.id, kind: 'environment', hyperparameters: { epochs: 1, ensemble: 3 } });
    expect(grow.body.code).toBe(0);
    expect((await until(() => call('trainSimulator/get', { id: single.id }), finished, 120_000)).body.data.state).toBe('successful');
    expect((await artefactOf(single.id)).members).toHaveLength(2);
  }, 300_000);
});
