import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ErrorCode } from '@decisio/domain';
import { databases } from '../../test/server';
import { REWARD_PY, TINY_BC, modellingTestServer, until, type ModellingTestServer } from '../modelling/testing';

/** `solution/copy` with `withModels`: the finished environments and policies come with their artefacts. */
describe.each(databases)('solution copy with trained models on %s', (kind) => {
  let m: ModellingTestServer;
  let simulatorId: string;
  let policyId: string;
  let objectiveId: string;

  const call = (name: string, body: unknown) => m.server.call(name, { token: m.token, body });
  const rows = (data: { rows?: unknown[] } | unknown[]) => (Array.isArray(data) ? data : (data.rows ?? [])) as Record<string, unknown>[];
  const used = async () => Number((await m.server.app.db.knex('storage_quotas').where({ scope: 'user', owner_id: m.owner.id }).first('used_bytes'))?.used_bytes ?? 0);

  beforeAll(async () => {
    m = await modellingTestServer(kind);
    const env = await call('trainSimulator/create', { solutionId: m.solutionId, schemeId: m.schemeId, name: 'env-a', stopConditions: { system: true }, hyperparameters: TINY_BC });
    expect(env.body.code).toBe(0);
    simulatorId = env.body.data.id;
    const envDone = await until(() => call('trainSimulator/get', { id: simulatorId }), (r) => ['successful', 'failure'].includes(r.body.data.state), 120_000);
    expect(envDone.body.data.state).toBe('successful');
    const reward = await call('objective/create', { solutionId: m.solutionId, name: 'gain', files: { 'reward.py': REWARD_PY } });
    expect(reward.body.code).toBe(0);
    objectiveId = reward.body.data.id;
    const pol = await call('trainPolicy/create', {
      solutionId: m.solutionId,
      simulatorId,
      objectiveId,
      name: 'policy-a',
      algorithm: 'ppo',
      stopConditions: { system: true },
      hyperparameters: { epochs: 2, bcUpdates: 5, batchSize: 8, horizon: 4, evalWindows: 8, hidden: [16] },
    });
    expect(pol.body.code).toBe(0);
    policyId = pol.body.data.id;
    const polDone = await until(() => call('trainPolicy/get', { id: policyId }), (r) => ['successful', 'failure'].includes(r.body.data.state), 120_000);
    expect(polDone.body.data.state).toBe('successful');
  }, 300_000);
  afterAll(async () => {
    await m?.server.stop();
  });

  it('leaves the models behind unless asked', async () => {
    const copied = await call('solution/copy', { solutionId: m.solutionId, name: 'without models' });
    expect(copied.body.code).toBe(0);
    expect(rows((await call('trainSimulator/list', { solutionId: copied.body.data.solutionId })).body.data)).toHaveLength(0);
    expect(rows((await call('trainPolicy/list', { solutionId: copied.body.data.solutionId })).body.data)).toHaveLength(0);
  });

  it('copies the finished environments and policies with their own artefacts, pointing at the copies', async () => {
    const before = await used();
    const copied = await call('solution/copy', { solutionId: m.solutionId, name: 'with models', withModels: true });
    expect(copied.body.code).toBe(0);
    const copyId = copied.body.data.solutionId as string;
    const knex = m.server.app.db.knex;

    const [scheme] = rows((await call('scheme/list', { solutionId: copyId })).body.data);
    expect(scheme).toMatchObject({ name: 's', processState: 'completed' });
    const [objective] = rows((await call('objective/list', { solutionId: copyId })).body.data);
    const [env] = rows((await call('trainSimulator/list', { solutionId: copyId })).body.data);
    const original = (await call('trainSimulator/get', { id: simulatorId })).body.data;
    expect(env).toMatchObject({ name: 'env-a', state: 'successful', schemeId: scheme!.id, score: original.score });
    expect(env!.id).not.toBe(simulatorId);
    const [pol] = rows((await call('trainPolicy/list', { solutionId: copyId })).body.data);
    expect(pol).toMatchObject({ name: 'policy-a', state: 'successful', simulatorId: env!.id, objectiveId: objective!.id });

    // Own files: another folder with the same bytes; the copy's venv names the copied scheme.
    const envRow = await knex('simulators').where({ id: env!.id }).first();
    const origRow = await knex('simulators').where({ id: simulatorId }).first();
    expect(envRow.artifact_key).not.toBe(origRow.artifact_key);
    expect(envRow.job_id).toBeNull();
    const venv = JSON.parse((await m.server.app.blobs.get(`${envRow.artifact_key}/venv.json`)).toString('utf8'));
    const origVenv = JSON.parse((await m.server.app.blobs.get(`${origRow.artifact_key}/venv.json`)).toString('utf8'));
    expect(venv.schemeId).toBe(scheme!.id);
    expect(venv.weights).toEqual(origVenv.weights);
    const polRow = await knex('policies').where({ id: pol!.id }).first();
    const origPol = await knex('policies').where({ id: policyId }).first();
    expect(Buffer.compare(await m.server.app.blobs.get(`${polRow.artifact_key}/policy.weights`), await m.server.app.blobs.get(`${origPol.artifact_key}/policy.weights`))).toBe(0);
    // Charged to the copying user.
    expect(await used()).toBeGreaterThan(before);

    // The copy stands alone: with the original solution deleted, its environment still rolls out and its policy decides.
    expect((await call('solution/delete', { solutionId: m.solutionId, confirm: 'I am sure' })).body.code).toBe(0);
    const decision = await call('decision/create', { solutionId: copyId, simulatorId: env!.id, policyId: pol!.id, objectiveId: objective!.id, name: 'decide', stepSize: 3 });
    expect(decision.body.code).toBe(0);
    const decided = await until(() => call('decision/get', { id: decision.body.data.id }), (r) => ['successful', 'failure'].includes(r.body.data.state), 120_000);
    expect(decided.body.data.error).toBeNull();
    expect(decided.body.data.state).toBe('successful');
    expect(Number.isFinite(decided.body.data.result.reward)).toBe(true);
  }, 240_000);

  it('copies nothing when the models do not fit the quota', async () => {
    // A fresh solution of the same user with a trained copy to copy again (the original was deleted above).
    const list = rows((await call('solution/getSolutionList', { projectId: m.projectId })).body.data);
    const source = list.find((s) => s.name === 'with models')!;
    const knex = m.server.app.db.knex;
    const quota = await knex('storage_quotas').where({ scope: 'user', owner_id: m.owner.id }).first();
    await knex('storage_quotas').where({ scope: 'user', owner_id: m.owner.id }).update({ total_bytes: Number(quota.used_bytes) + 10 });
    const keysBefore = (await knex('simulators').select('artifact_key')).length;
    const refused = await call('solution/copy', { solutionId: source.solutionId, name: 'too big', withModels: true });
    expect(refused.body.code).toBe(ErrorCode.storageInsufficient);
    expect(rows((await call('solution/getSolutionList', { projectId: m.projectId })).body.data).map((s) => s.name)).not.toContain('too big');
    expect((await knex('simulators').select('artifact_key')).length).toBe(keysBefore);
    expect(Number((await knex('storage_quotas').where({ scope: 'user', owner_id: m.owner.id }).first()).used_bytes)).toBe(Number(quota.used_bytes));
    await knex('storage_quotas').where({ scope: 'user', owner_id: m.owner.id }).update({ total_bytes: quota.total_bytes });
  });
});
