import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ErrorCode, SHARE_MODULES } from '@decisio/domain';
import { newId } from '../../db/ids';
import { createTenant, createUser, issueToken, type TestUser } from '../../test/factories';
import { databases, startTestServer, type TestServer } from '../../test/server';
import { createSolution, tinyCsv, tinyGraph, uploadCsv } from '../modelling/testing';

/** A share link opens read-only views of the modules the owner chose, and only those. */
describe.each(databases)('shared modules on %s', (kind) => {
  let server: TestServer;
  let owner: TestUser;
  let ownerToken: string;
  let viewerToken: string;
  let strangerToken: string;
  let token: string;
  let solutionId: string;

  beforeAll(async () => {
    server = await startTestServer(kind);
    owner = await createUser(server);
    ownerToken = await issueToken(server, owner);
    viewerToken = await issueToken(server, await createUser(server));
    strangerToken = await issueToken(server, await createUser(server, { tenantId: await createTenant(server) }));
    const made = await createSolution(server, owner);
    solutionId = made.solutionId;
    const call = (name: string, body: unknown) => server.call(name, { token: ownerToken, body });
    expect((await call('solution/setPattern', { solutionId, graph: tinyGraph() })).body.code).toBe(0);
    const tableId = await uploadCsv(server, owner, tinyCsv());
    expect((await call('solution/setTableCorrelation', { solutionId, correlation: { primaryTableId: tableId, trajectoryField: 'traj', sequenceField: 'step' } })).body.code).toBe(0);
    // A finished environment training as the modelling module stores it (its numbers are what a share link shows).
    const now = new Date();
    const base = { tenant_id: owner.tenantId, project_id: made.projectId, solution_id: solutionId, creator_id: owner.id, created_at: now, updated_at: now };
    await server.app.db.knex('simulators').insert({ ...base, id: newId(), name: 'env-a', algorithm: 'bc', state: 'successful', config: '{"secret":"x"}', scheme_id: newId(), score: 61.5, artifact_key: 'k' });
    const share = await call('project/saveShareSettings', { projectId: made.projectId, scope: 'all', modules: ['workbench', 'data-source', 'simulator'] });
    expect(share.body.code).toBe(0);
    token = share.body.data.token;
  });
  afterAll(async () => {
    await server?.stop();
  });

  const open = (module: string, as = viewerToken) => server.call('project/getSharedModule', { token: as, body: { token, module } });

  it('shows the chosen modules read-only: trainings with their scores, the graph, the data access', async () => {
    const sim = await open('simulator');
    expect(sim.body.code).toBe(0);
    expect(sim.body.data.solutions[0].items).toEqual([expect.objectContaining({ name: 'env-a', state: 'successful', algorithm: 'bc', score: 61.5 })]);
    expect(JSON.stringify(sim.body.data)).not.toContain('secret');
    const graph = await open('workbench');
    expect(graph.body.data.solutions[0].graph.nodes.map((n: { name: string }) => n.name).sort()).toEqual(['action', 'next_obs', 'obs']);
    const data = await open('data-source');
    expect(data.body.data.solutions[0].dataAccess).toMatchObject({ trajectoryField: 'traj', sequenceField: 'step', datetimeField: null, relations: 0, tables: [{ name: 'tiny.csv' }] });
  });

  it('refuses a module the owner did not choose, another tenant, a bad module and no token', async () => {
    expect((await open('policy')).body.code).toBe(ErrorCode.userNotPermission);
    expect((await open('simulator', strangerToken)).body.code).toBe(ErrorCode.projectNotFound);
    expect((await open('everything')).body.code).toBe(ErrorCode.paramInvalid);
    expect((await server.call('project/getSharedModule', { body: { token, module: 'simulator' } })).status).toBe(401);
  });

  it('opens every module of the project area read-only once the owner chooses them all', async () => {
    const knex = server.app.db.knex;
    const now = new Date();
    const projectId = (await knex('solutions').where({ id: solutionId }).first('project_id')).project_id as string;
    const base = { tenant_id: owner.tenantId, project_id: projectId, solution_id: solutionId, created_at: now, updated_at: now };
    const simulatorId = newId();
    const policyId = newId();
    await knex('policies').insert({ ...base, creator_id: owner.id, id: policyId, name: 'pol-a', algorithm: 'ppo', state: 'successful', config: '{}', simulator_id: simulatorId, objective_id: newId(), reward: 4.25, artifact_key: 'p' });
    await knex('parameter_searches').insert({ ...base, creator_id: owner.id, id: newId(), name: 'tune-a', algorithm: 'sracos', state: 'failure', config: '{}', simulator_id: simulatorId, objective_id: newId(), reward: null });
    for (const [k, name, score] of [['simulation', 'sim-a', 71.5], ['decision', 'dec-a', 3.5]] as const) {
      await knex('deductions').insert({ ...base, creator_id: owner.id, id: newId(), kind: k, name, simulator_id: simulatorId, step_size: 10, state: 'successful', score, result: '{"secret":"x"}' });
    }
    await knex('analysis_reports').insert({ ...base, creator_id: owner.id, id: newId(), name: 'report-a', name_key: 'report-a', type: 'coupon', status: 'finished', decision_a_id: newId(), decision_b_id: newId(), real_revenue: '1', real_orders: '1', real_cost: '1' });
    await knex('model_services').insert({ ...base, id: newId(), policy_id: policyId, name: 'svc-a', status: 'running', token_hash: 'f'.repeat(64), token_hint: 'abcd', created_by: owner.id });
    const all = await server.call('project/saveShareSettings', { token: ownerToken, body: { projectId, scope: 'all', modules: [...SHARE_MODULES] } });
    expect(all.body.code).toBe(0);
    const openAll = (module: string) => server.call('project/getSharedModule', { token: viewerToken, body: { token: all.body.data.token, module } });
    const expected: Record<string, object> = {
      simulator: { name: 'env-a', score: 61.5 },
      policy: { name: 'pol-a', state: 'successful', algorithm: 'ppo', score: 4.25 },
      parameter: { name: 'tune-a', state: 'failure', algorithm: 'sracos', score: null },
      simulation: { name: 'sim-a', score: 71.5 },
      decision: { name: 'dec-a', score: 3.5 },
      report: { name: 'report-a', state: 'finished', algorithm: 'coupon' },
      deploy: { name: 'svc-a', state: 'running' },
    };
    for (const module of SHARE_MODULES) {
      const r = await openAll(module);
      expect(r.body.code, module).toBe(0);
      expect(r.body.data.module).toBe(module);
      const [first] = r.body.data.solutions;
      if (module === 'workbench') expect(first.graph.nodes.length).toBeGreaterThan(0);
      else if (module === 'data-source') expect(first.dataAccess.tables).toHaveLength(1);
      else expect(first.items, module).toEqual([expect.objectContaining(expected[module])]);
      // Nothing to act with leaves the server: no configurations, results, token hashes.
      expect(JSON.stringify(r.body.data), module).not.toMatch(/secret|f{64}|abcd/);
    }
  });
});
