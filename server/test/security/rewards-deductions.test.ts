/**
 * Issue 17 items 1 and 5 against a real server (SQLite, and MariaDB with `TEST_MYSQL_URL`), with
 * real trainings and the real Python sandbox:
 * - a reward is checked in the sandbox when it is saved: a syntax error, a missing `get_reward`,
 *   a non-finite or wrongly shaped output saves (the text is kept) as `broken` with the check's
 *   message, and every training that would run it is refused with `objectiveBroken` (in both
 *   languages); a good reward saves as `checked`; the list shows the name and the mark;
 * - a decision deduction rolls every step asked (here far more than the 200 it was cut to, and
 *   more than the data's trajectories hold), from the chosen initial dataset's states; a
 *   parameter search reads its initial search dataset; datasets of another project are refused.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ErrorCode, MODELLING_LIMITS, messageOf } from '@decisio/domain';
import { databases } from '../../src/test/server';
import { createSolution, modellingTestServer, REWARD_PY, TINY_BC, until, uploadCsv, type ModellingTestServer } from '../../src/modules/modelling/testing';

const STOP = { system: true };
const SYNTAX_ERROR = 'def get_reward(data)\n    return 0.0\n';
const NO_FUNCTION = 'def reward(data):\n    return 0.0\n';
const NAN = "import numpy as np\n\ndef get_reward(data):\n    return np.full(np.asarray(data['obs']).shape[0], np.nan)\n";
const WRONG_SHAPE = "import numpy as np\n\ndef get_reward(data):\n    return np.zeros((3, 7))\n";
/** Steps of the long deduction: the domain's limit (10,000), far beyond the old cut (200) and the data's 12-step trajectories. */
const LONG_STEPS = MODELLING_LIMITS.deductionStepMax;

/** CSV of the tiny system whose every trajectory starts at `x0` (the initial dataset). */
function startsAt(x0: number, trajectories = 3, steps = 4): string {
  const lines = ['traj,step,time,x,a,g'];
  for (let t = 0; t < trajectories; t++) {
    let x = x0;
    for (let k = 0; k < steps; k++) {
      const a = Math.max(-1, Math.min(1, -0.5 * x));
      lines.push(`${t},${k},2026-01-01T00:${String(k).padStart(2, '0')}:00Z,${x.toFixed(5)},${a.toFixed(5)},0.5`);
      x = 0.9 * x + 0.5 * a;
    }
  }
  return lines.join('\n') + '\n';
}

describe.each(databases)('rewards checked when saved, deductions over every step asked, on %s', (kind) => {
  let t: ModellingTestServer;
  let simulatorId: string;
  let goodId: string;
  let policyId: string;
  const call = (name: string, body: unknown, headers: Record<string, string> = {}) => t.server.call(name, { token: t.token, body, headers });
  const finished = (area: string, id: string, ms = 240_000) => until(() => call(`${area}/get`, { id }), (r) => ['successful', 'failure'].includes(r.body.data.state), ms);

  beforeAll(async () => {
    t = await modellingTestServer(kind);
    const env = await call('trainSimulator/create', { solutionId: t.solutionId, schemeId: t.schemeId, name: 'env', stopConditions: STOP, hyperparameters: TINY_BC });
    expect(env.body.code).toBe(0);
    simulatorId = env.body.data.id;
    expect((await finished('trainSimulator', simulatorId)).body.data.state).toBe('successful');
    const good = await call('objective/create', { solutionId: t.solutionId, name: 'good reward', description: 'the description', files: { 'reward.py': REWARD_PY } });
    expect(good.body.code).toBe(0);
    goodId = good.body.data.id;
    const pol = await call('trainPolicy/create', {
      solutionId: t.solutionId,
      simulatorId,
      objectiveId: goodId,
      name: 'policy',
      stopConditions: STOP,
      hyperparameters: { epochs: 1, bcUpdates: 2, batchSize: 8, horizon: 4, evalWindows: 4, hidden: [8] },
    });
    expect(pol.body.code).toBe(0);
    policyId = pol.body.data.id;
    expect((await finished('trainPolicy', policyId)).body.data.state).toBe('successful');
  }, 400_000);
  afterAll(async () => {
    await t?.server.stop();
  });

  it('saves a good reward as checked, and lists rewards by name with their mark', async () => {
    const detail = await call('objective/detail', { id: goodId });
    expect(detail.body.data).toMatchObject({ name: 'good reward', checkState: 'checked', checkMessage: null });
    const list = await call('objective/list', { solutionId: t.solutionId });
    const row = list.body.data.rows.find((r: { id: string }) => r.id === goodId);
    expect(row).toMatchObject({ name: 'good reward', description: 'the description', checkState: 'checked' });
  });

  it.each([
    ['syntax error', SYNTAX_ERROR, /reward\.py/],
    ['no get_reward', NO_FUNCTION, /get_reward/],
    ['non-finite output', NAN, /./],
    ['wrong shape', WRONG_SHAPE, /./],
  ])('saves a reward with a %s as broken (text kept) and refuses every training with it', async (label, code, message) => {
    const saved = await call('objective/create', { solutionId: t.solutionId, name: `bad ${label}`.slice(0, 20), files: { 'reward.py': code } });
    expect(saved.body.code).toBe(0);
    const id = saved.body.data.id as string;
    const detail = await call('objective/detail', { id });
    expect(detail.body.data.checkState).toBe('broken');
    expect(detail.body.data.checkMessage).toMatch(message);
    expect(detail.body.data.files).toEqual({ 'reward.py': code });
    const list = await call('objective/list', { solutionId: t.solutionId });
    expect(list.body.data.rows.find((r: { id: string }) => r.id === id)).toMatchObject({ name: `bad ${label}`.slice(0, 20), checkState: 'broken' });

    const policies = (await t.server.app.db.knex('policies').count({ n: '*' }))[0]!.n;
    const refusedPolicy = await call('trainPolicy/create', { solutionId: t.solutionId, simulatorId, objectiveId: id, name: `p ${label}`, stopConditions: STOP, hyperparameters: { epochs: 1 } }, { 'Accept-Language': 'en-US' });
    expect(refusedPolicy.body.code).toBe(ErrorCode.objectiveBroken);
    expect(refusedPolicy.body.message).toBe(messageOf('objectiveBroken', 'en-US'));
    const zh = await call('trainPolicy/create', { solutionId: t.solutionId, simulatorId, objectiveId: id, name: `p ${label}`, stopConditions: STOP }, { 'Accept-Language': 'zh-CN' });
    expect(zh.body.code).toBe(ErrorCode.objectiveBroken);
    expect(zh.body.message).toBe(messageOf('objectiveBroken', 'zh-CN'));
    expect((await t.server.app.db.knex('policies').count({ n: '*' }))[0]!.n).toEqual(policies);
    const refusedSearch = await call('trainParameter/create', { solutionId: t.solutionId, simulatorId, objectiveId: id, name: `t ${label}`, stopConditions: { searchCount: 3 } });
    expect(refusedSearch.body.code).toBe(ErrorCode.objectiveBroken);
    const refusedDeduction = await call('decision/create', { solutionId: t.solutionId, simulatorId, policyId, objectiveId: id, name: `d ${label}`, stepSize: 5 });
    expect(refusedDeduction.body.code).toBe(ErrorCode.objectiveBroken);
    expect(await t.server.app.db.knex('deductions').where({ name: `d ${label}` }).first('id')).toBeUndefined();
  }, 120_000);

  it('marks a reward fixed by an edit as checked, and one broken by an edit as broken', async () => {
    const saved = await call('objective/create', { solutionId: t.solutionId, name: 'edited', files: { 'reward.py': SYNTAX_ERROR } });
    const id = saved.body.data.id as string;
    const fixed = await call('objective/edit', { id, name: 'edited', files: { 'reward.py': REWARD_PY } });
    expect(fixed.body.data).toMatchObject({ checkState: 'checked', checkMessage: null });
    const broken = await call('objective/edit', { id, name: 'edited', files: { 'reward.py': NAN } });
    expect(broken.body.data.checkState).toBe('broken');
    const refused = await call('trainParameter/create', { solutionId: t.solutionId, simulatorId, objectiveId: id, name: 'after edit', stopConditions: { searchCount: 3 } });
    expect(refused.body.code).toBe(ErrorCode.objectiveBroken);
  }, 60_000);

  it('refuses restoring or updating a policy whose reward was broken since, and a decision deduction scored with it', async () => {
    const saved = await call('objective/create', { solutionId: t.solutionId, name: 'later broken', files: { 'reward.py': REWARD_PY } });
    const id = saved.body.data.id as string;
    // A policy row trained with it (as if before the edit), finished.
    const row = await t.server.app.db.knex('policies').where({ id: policyId }).first();
    const copyId = `${policyId.slice(0, 24)}00000000`;
    await t.server.app.db.knex('policies').insert({ ...row, id: copyId, name: 'policy-later', objective_id: id });
    await call('objective/edit', { id, name: 'later broken', files: { 'reward.py': SYNTAX_ERROR } });
    const update = await call('train/createTrainUpdate', { id: copyId, kind: 'policy', hyperparameters: { epochs: 1 } });
    expect(update.body.code).toBe(ErrorCode.objectiveBroken);
    const deduction = await call('decision/create', { solutionId: t.solutionId, simulatorId, policyId: copyId, name: 'scored by policy reward', stepSize: 5 });
    expect(deduction.body.code).toBe(ErrorCode.objectiveBroken);
    await t.server.app.db.knex('policies').where({ id: copyId }).delete();
  }, 60_000);

  it(`rolls a decision deduction over all ${LONG_STEPS} steps asked, past the data's trajectories`, async () => {
    const created = await call('decision/create', { solutionId: t.solutionId, simulatorId, policyId, name: 'long', stepSize: LONG_STEPS });
    expect(created.body.code).toBe(0);
    const started = Date.now();
    const done = await finished('decision', created.body.data.id, 400_000);
    const seconds = (Date.now() - started) / 1000;
    expect(done.body.data.error).toBeNull();
    expect(done.body.data.state).toBe('successful');
    const result = done.body.data.result;
    expect(result.horizon).toBe(LONG_STEPS);
    expect(result.trajectory.horizon).toBe(LONG_STEPS);
    expect(result.trajectory.rewards).toHaveLength(LONG_STEPS);
    expect(result.trajectory.rewards.every(Number.isFinite)).toBe(true);
    expect(result.trajectory.nodes.action.decided).toHaveLength(LONG_STEPS);
    // Real values only where the data has the step (12-step trajectories).
    expect(result.trajectory.nodes.obs.real[0]).toHaveLength(1);
    expect(result.trajectory.nodes.obs.real[LONG_STEPS - 1]).toEqual([]);
    expect(Number.isFinite(result.reward)).toBe(true);
    console.info(`[measure] ${kind}: decision deduction of ${LONG_STEPS} steps took ${seconds.toFixed(1)} s`);
  }, 420_000);

  it('starts a decision deduction from the chosen initial dataset, and refuses a dataset of another project', async () => {
    const X0 = 1.2345;
    const made = await call('table/create', { fileId: await uploadCsv(t.server, t.owner, startsAt(X0)), name: 'initial states', type: 'decision', projectId: t.projectId });
    expect(made.body.code).toBe(0);
    const datasetId = made.body.data.tableId as string;
    const created = await call('decision/create', { solutionId: t.solutionId, simulatorId, policyId, name: 'from dataset', stepSize: 20, datasetId });
    expect(created.body.code).toBe(0);
    expect(created.body.data.datasetId).toBe(datasetId);
    const done = await finished('decision', created.body.data.id);
    expect(done.body.data.error).toBeNull();
    const traj = done.body.data.result.trajectory;
    expect(traj.rewards).toHaveLength(20);
    // The first state is the initial dataset's, not the scheme data's.
    expect(traj.nodes.obs.decided[0][0]).toBeCloseTo(X0, 3);
    expect(traj.nodes.obs.real[0][0]).toBeCloseTo(X0, 3);
    expect(done.body.data.result.datasetId).toBe(datasetId);

    const elsewhere = await createSolution(t.server, t.owner);
    const foreign = await call('table/create', { fileId: await uploadCsv(t.server, t.owner, startsAt(X0)), name: 'other project', type: 'decision', projectId: elsewhere.projectId });
    const refused = await call('decision/create', { solutionId: t.solutionId, simulatorId, policyId, name: 'foreign dataset', stepSize: 5, datasetId: foreign.body.data.tableId });
    expect(refused.body.code).toBe(ErrorCode.tableNotFound);
    const refusedSim = await call('simulation/create', { solutionId: t.solutionId, simulatorId, name: 'foreign sim', stepSize: 5, datasetId: foreign.body.data.tableId });
    expect(refusedSim.body.code).toBe(ErrorCode.tableNotFound);
  }, 300_000);

  it('reads a parameter search\'s initial search dataset', async () => {
    const made = await call('table/create', { fileId: await uploadCsv(t.server, t.owner, startsAt(-0.75)), name: 'search starts', type: 'decision', projectId: t.projectId });
    const datasetId = made.body.data.tableId as string;
    const created = await call('trainParameter/create', { solutionId: t.solutionId, simulatorId, objectiveId: goodId, name: 'search', stopConditions: { searchCount: 3 }, datasetId });
    expect(created.body.code).toBe(0);
    expect(created.body.data.datasetId).toBe(datasetId);
    const done = await finished('trainParameter', created.body.data.id);
    // This solution's graph has no tunable parameter: the search stops there, after reading its dataset.
    const log = await call('train/getTrainLog', { jobId: done.body.data.jobId, limit: 1000 });
    const lines = JSON.stringify(log.body.data);
    expect(lines).toMatch(new RegExp(`initial dataset ${datasetId}: \\d+ rows in 3 trajectories`));
  }, 300_000);
});
