import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ErrorCode } from '@decisio/domain';
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
});
