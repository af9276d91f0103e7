import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newId } from '../../db/ids';
import { reconcileStates, stateOf, withJobState } from '../../jobs/record-state';
import { createUser, issueToken, type TestUser } from '../../test/factories';
import { databases, startTestServer, type TestServer } from '../../test/server';
import { createSolution } from './testing';
import { TRAINING_RECORDS } from './training-rules';

/**
 * One state per training: the job's. A record read through the API, a share link or
 * `withJobState` shows its job's state even when its `state` column was not told (no event);
 * the column is a mirror brought back in step by `reconcileStates`; a record without a job keeps
 * its own.
 */
describe.each(databases)('one state per training on %s', (kind) => {
  let server: TestServer;
  let owner: TestUser;
  let token: string;
  let made: { projectId: string; solutionId: string };
  const knex = () => server.app.db.knex;
  const call = (name: string, body: unknown) => server.call(name, { token, body });

  beforeAll(async () => {
    server = await startTestServer(kind);
    owner = await createUser(server);
    token = await issueToken(server, owner);
    made = await createSolution(server, owner);
  });
  afterAll(async () => {
    await server?.stop();
  });

  it("reads the job's state, not the record's column, and reconciles the column", async () => {
    const now = new Date();
    const base = { tenant_id: owner.tenantId, project_id: made.projectId, solution_id: made.solutionId, creator_id: owner.id, created_at: now, updated_at: now };
    const jobId = newId();
    await knex()('jobs').insert({ id: jobId, tenant_id: owner.tenantId, user_id: owner.id, kind: 'modelling.trainPolicy', name: 'pol', state: 'processing', payload: '{}', progress: 0.5, created_at: now, updated_at: now, started_at: now });
    const policyId = newId();
    await knex()('policies').insert({ ...base, id: policyId, name: 'pol', algorithm: 'ppo', state: 'waiting', job_id: jobId, simulator_id: newId(), objective_id: newId(), config: '{}' });
    // A copy: no job, its own state.
    const copyId = newId();
    await knex()('policies').insert({ ...base, id: copyId, name: 'pol-copy', algorithm: 'ppo', state: 'successful', job_id: null, simulator_id: newId(), objective_id: newId(), config: '{}' });

    // The job ends without anyone hearing it (no state event): every read still says so.
    await knex()('jobs').where({ id: jobId }).update({ state: 'successful', progress: 1, ended_at: now });
    const got = await call('trainPolicy/get', { id: policyId });
    expect(got.body.data.state).toBe('successful');
    const listed = await call('policy/list', { solutionId: made.solutionId });
    expect(Object.fromEntries(listed.body.data.rows.map((r: { id: string; state: string }) => [r.id, r.state]))).toEqual({ [policyId]: 'successful', [copyId]: 'successful' });
    const rows = (await withJobState(knex(), 'policies').where('t.solution_id', made.solutionId).orderBy('t.name')) as Array<Record<string, unknown>>;
    expect(rows.map((r) => [r.id, stateOf(r)])).toEqual([
      [policyId, 'successful'],
      [copyId, 'successful'],
    ]);

    // A share link of the project shows the job's state too.
    const share = await call('project/saveShareSettings', { projectId: made.projectId, scope: 'all', modules: ['policy'] });
    expect(share.body.code).toBe(0);
    const shared = await call('project/getSharedModule', { token: share.body.data.token, module: 'policy' });
    expect(shared.body.code).toBe(0);
    const items = shared.body.data.solutions.flatMap((s: { items: Array<{ id: string; state: string }> }) => s.items);
    expect(items.find((i: { id: string }) => i.id === policyId)?.state).toBe('successful');

    // The mirror column lagged; the start-up reconcile brings it in step (only the stale ones).
    expect((await knex()('policies').where({ id: policyId }).first('state')).state).toBe('waiting');
    expect(await reconcileStates(knex(), Object.keys(TRAINING_RECORDS))).toBe(1);
    expect((await knex()('policies').where({ id: policyId }).first('state')).state).toBe('successful');
    expect((await knex()('policies').where({ id: copyId }).first('state')).state).toBe('successful');
    expect(await reconcileStates(knex(), Object.keys(TRAINING_RECORDS))).toBe(0);
  });
});
