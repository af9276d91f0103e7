import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ErrorCode, SEARCHABLE_HYPERPARAMETERS } from '@decisio/domain';
import type { TestServer } from '../../test/server';
import { SearchSpaceError, searchDims } from './engine/autosearch';
import { REWARD_PY, TINY_BC, modellingTestServer, until } from './testing';

const ENVIRONMENT_SEARCHABLE = SEARCHABLE_HYPERPARAMETERS.environment;

describe('hyperparameter search values', () => {
  it('turns a set into a search space: grid/choice values, continuous ranges, fixed and unknown left out', () => {
    const { dims, ignored } = searchDims(
      [
        { name: 'lr', type: 'float', searchMode: 'continuous', searchValues: [1e-4, 1e-2] },
        { name: 'batchSize', type: 'int', searchMode: 'continuous', searchValues: [16, 64] },
        { name: 'updatesPerStep', type: 'float', searchMode: 'continuous', searchValues: [2, 8] },
        { name: 'hidden', searchMode: 'grid', searchValues: [[8], [16, 16]] },
        { name: 'bcSteps', searchMode: 'choice', searchValues: [5] },
        { name: 'rollouts', searchMode: 'fixed', searchValues: [1, 2] },
        { name: 'temperature', searchMode: 'choice', searchValues: [1, 2] },
      ],
      ENVIRONMENT_SEARCHABLE,
    );
    expect(dims).toEqual([
      { name: 'lr', kind: 'log', min: 1e-4, max: 1e-2 },
      { name: 'batchSize', kind: 'int', min: 16, max: 64 },
      { name: 'updatesPerStep', kind: 'float', min: 2, max: 8 },
      { name: 'hidden', kind: 'choice', values: [[8], [16, 16]] },
    ]);
    expect(ignored).toEqual(['temperature']);
    expect(() => searchDims([{ name: 'lr', searchMode: 'continuous', searchValues: [1, 0.1] }], ENVIRONMENT_SEARCHABLE)).toThrow(SearchSpaceError);
    expect(() => searchDims([{ name: 'lr', searchMode: 'spiral', searchValues: [1, 2] }], ENVIRONMENT_SEARCHABLE)).toThrow(SearchSpaceError);
    expect(() => searchDims([{ name: 'hidden', searchMode: 'grid', searchValues: [{ a: 1 }, 2] }], ENVIRONMENT_SEARCHABLE)).toThrow(SearchSpaceError);
  });
});

describe('hyperparameter auto-search of trainings', () => {
  let server: TestServer;
  let token: string;
  let solutionId: string;
  let schemeId: string;
  const call = (name: string, body: unknown) => server.call(name, { token, body });

  beforeAll(async () => {
    ({ server, token, solutionId, schemeId } = await modellingTestServer('sqlite'));
  });
  afterAll(async () => {
    await server?.stop();
  });

  it('refuses an unknown set, an unusable space and a bad trial count', async () => {
    const base = { solutionId, schemeId, name: 'env-bad', stopConditions: { system: true }, hyperparameters: TINY_BC };
    const unknown = await call('trainSimulator/create', { ...base, autoSearch: { enabled: true, hyperparameterSetId: 'f'.repeat(32) } });
    expect(unknown.body.code).toBe(ErrorCode.hyperparameterNotFound);
    const nothing = await call('trainSimulator/create', { ...base, autoSearch: { enabled: true, params: [{ name: 'lr', searchMode: 'fixed', default: 0.001 }] } });
    expect(nothing.body.code).toBe(ErrorCode.paramInvalid);
    const backwards = await call('trainSimulator/create', { ...base, autoSearch: { enabled: true, params: [{ name: 'lr', searchMode: 'continuous', searchValues: [0.1, 0.01] }] } });
    expect(backwards.body.code).toBe(ErrorCode.paramInvalid);
    const trials = await call('trainSimulator/create', { ...base, autoSearch: { enabled: true, algorithm: 'random', trials: 0 } });
    expect(trials.body.code).toBe(ErrorCode.trainSearchRange);
  });

  it('searches an environment\'s settings from a hyperparameter set, keeps the lowest validation loss and trains with it', async () => {
    const set = await call('hyperparameter/create', {
      name: 'bc search',
      trainType: 'environment',
      algorithm: 'bc',
      params: [
        { name: 'lr', type: 'float', default: 0.001, searchMode: 'continuous', searchValues: [1e-4, 1e-2] },
        { name: 'hidden', type: 'string', default: [16], searchMode: 'grid', searchValues: [[8], [24]] },
        { name: 'epochs', type: 'int', default: 2, searchMode: 'fixed' },
      ],
    });
    expect(set.body.code).toBe(0);
    const created = await call('trainSimulator/create', {
      solutionId,
      schemeId,
      name: 'env-auto',
      stopConditions: { system: true },
      hyperparameters: TINY_BC,
      autoSearch: { enabled: true, algorithm: 'zoopt', trials: 3, trialEpochs: 2, hyperparameterSetId: set.body.data.id },
    });
    expect(created.body.code).toBe(0);
    expect(created.body.data.config.autoSearch.space).toEqual([
      { name: 'lr', kind: 'log', min: 1e-4, max: 1e-2 },
      { name: 'hidden', kind: 'choice', values: [[8], [24]] },
    ]);
    const done = await until(() => call('trainSimulator/get', { id: created.body.data.id }), (r) => ['successful', 'failure'].includes(r.body.data.state), 240_000);
    expect(done.body.data.error).toBeNull();
    expect(done.body.data.state).toBe('successful');

    const result = done.body.data.config.autoSearchResult;
    expect(result).toMatchObject({ algorithm: 'sracos', metric: 'val/mse', stopped: false });
    expect(result.trials).toHaveLength(3);
    for (const t of result.trials) {
      expect(t.valLoss).toBeGreaterThan(0);
      expect(t.settings.lr).toBeGreaterThanOrEqual(1e-4);
      expect(t.settings.lr).toBeLessThanOrEqual(1e-2);
      expect([[8], [24]]).toContainEqual(t.settings.hidden);
    }
    const lowest = result.trials.reduce((a: { valLoss: number }, b: { valLoss: number }) => (b.valLoss < a.valLoss ? b : a));
    expect(result.best).toEqual(lowest.settings);
    expect(result.bestTrial).toBe(lowest.trial);

    // The environment was trained with the winner's settings (its stored network sizes).
    const row = await server.app.db.knex('simulators').where({ id: created.body.data.id }).first('artifact_key');
    const venv = JSON.parse((await server.app.blobs.get(`${row.artifact_key}/venv.json`)).toString('utf8'));
    expect(venv.hidden).toEqual(result.best.hidden);

    // Each trial is in the log and the chart; the training went on after the search.
    const log = await call('train/getTrainLog', { jobId: created.body.data.jobId, limit: 1000 });
    const lines = log.body.data.items.map((l: { message: string }) => l.message);
    expect(lines.filter((m: string) => m.startsWith('auto search trial '))).toHaveLength(3);
    expect(lines.some((m: string) => m.startsWith(`auto search: best trial ${lowest.trial}`))).toBe(true);
    expect(lines.some((m: string) => m.startsWith('environment score'))).toBe(true);
    const chart = await call('train/getTrainDisplayDataList', { jobId: created.body.data.jobId });
    const trialPoints = chart.body.data.points.filter((p: Record<string, number>) => 'search/valLoss' in p);
    expect(trialPoints.map((p: Record<string, number>) => p['search/valLoss'])).toEqual(result.trials.map((t: { valLoss: number }) => t.valLoss));
    expect(trialPoints[2]['search/bestValLoss']).toBe(lowest.valLoss);
  }, 300_000);

  it('searches a policy\'s settings by its return', async () => {
    const env = await call('trainSimulator/create', { solutionId, schemeId, name: 'env-for-policy', stopConditions: { system: true }, hyperparameters: TINY_BC });
    const envDone = await until(() => call('trainSimulator/get', { id: env.body.data.id }), (r) => ['successful', 'failure'].includes(r.body.data.state), 120_000);
    expect(envDone.body.data.state).toBe('successful');
    const objective = await call('objective/create', { solutionId, name: 'stay near zero', files: { 'reward.py': REWARD_PY } });
    const pol = await call('trainPolicy/create', {
      solutionId,
      simulatorId: env.body.data.id,
      objectiveId: objective.body.data.id,
      name: 'policy-auto',
      algorithm: 'ppo',
      stopConditions: { system: true },
      hyperparameters: { epochs: 2, bcUpdates: 5, batchSize: 8, horizon: 4, evalWindows: 8, hidden: [16] },
      autoSearch: { enabled: true, algorithm: 'random', trials: 2, trialEpochs: 1, params: [{ name: 'lr', searchMode: 'choice', searchValues: [0.0003, 0.003] }] },
    });
    expect(pol.body.code).toBe(0);
    const done = await until(() => call('trainPolicy/get', { id: pol.body.data.id }), (r) => ['successful', 'failure'].includes(r.body.data.state), 240_000);
    expect(done.body.data.error).toBeNull();
    expect(done.body.data.state).toBe('successful');
    const result = done.body.data.config.autoSearchResult;
    expect(result.metric).toBe('reward');
    expect(result.trials).toHaveLength(2);
    const bestTrial = result.trials.reduce((a: { reward: number }, b: { reward: number }) => (b.reward > a.reward ? b : a));
    expect(result.best).toEqual(bestTrial.settings);
    expect([0.0003, 0.003]).toContain(result.best.lr);
  }, 300_000);
});
