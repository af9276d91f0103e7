import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser, issueToken, type TestUser } from '../../test/factories';
import { databases, startTestServer, type TestServer } from '../../test/server';
import { REWARD_PY, createSolution, tinyCsv, tinyGraph, uploadCsv } from '../modelling/testing';

/** `solution/copy` copies the whole solution: graph, correlation, schemes and rewards. */
describe.each(databases)('solution copy on %s', (kind) => {
  let server: TestServer;
  let owner: TestUser;
  let token: string;

  beforeAll(async () => {
    server = await startTestServer(kind);
    owner = await createUser(server);
    token = await issueToken(server, owner);
  });
  afterAll(async () => {
    await server?.stop();
  });

  const call = (name: string, body: unknown) => server.call(name, { token, body });

  it('copies the graph, the table correlation, the schemes (to process again) and the rewards', async () => {
    const { solutionId } = await createSolution(server, owner);
    expect((await call('solution/setPattern', { solutionId, graph: tinyGraph() })).body.code).toBe(0);
    const tableId = await uploadCsv(server, owner, tinyCsv());
    const correlation = { primaryTableId: tableId, trajectoryField: 'traj', sequenceField: 'step', datetimeField: 'time', relations: [] };
    expect((await call('solution/setTableCorrelation', { solutionId, correlation })).body.code).toBe(0);
    const scheme = await call('scheme/create', { solutionId, name: 'daily', description: 'one day', period: 'day', startTime: '2026-01-01', endTime: '2026-02-01', data: { filter: 'x > 0' } });
    expect(scheme.body.code).toBe(0);
    const reward = await call('objective/create', { solutionId, name: 'reward', description: 'the gain', files: { 'reward.py': REWARD_PY } });
    expect(reward.body.code).toBe(0);

    const copied = await call('solution/copy', { solutionId, name: 'Copy of it' });
    expect(copied.body.code).toBe(0);
    const copyId = copied.body.data.solutionId as string;
    expect(copyId).not.toBe(solutionId);

    const graph = await call('solution/getPattern', { solutionId: copyId });
    expect(graph.body.data.graph).toEqual((await call('solution/getPattern', { solutionId })).body.data.graph);
    expect((await call('solution/getTableCorrelation', { solutionId: copyId })).body.data.correlation).toMatchObject({ primaryTableId: tableId, trajectoryField: 'traj' });
    const schemes = (await call('scheme/list', { solutionId: copyId })).body.data;
    const schemeRows = Array.isArray(schemes) ? schemes : schemes.rows;
    expect(schemeRows).toHaveLength(1);
    expect(schemeRows[0]).toMatchObject({ name: 'daily', description: 'one day', processState: 'normal' });
    expect(schemeRows[0].id).not.toBe(scheme.body.data.id);
    const objectives = (await call('objective/list', { solutionId: copyId })).body.data;
    const objectiveRows = Array.isArray(objectives) ? objectives : objectives.rows;
    expect(objectiveRows.map((o: { name: string }) => o.name)).toEqual(['reward']);
    const files = (await call('objective/detail', { id: objectiveRows[0].id })).body.data.files;
    expect(files['reward.py']).toBe(REWARD_PY);

    // The copy is independent: deleting it leaves the original whole.
    expect((await call('solution/delete', { solutionId: copyId, confirm: 'I am sure' })).body.code).toBe(0);
    expect(((await call('scheme/list', { solutionId })).body.data.rows ?? (await call('scheme/list', { solutionId })).body.data).length).toBe(1);
    expect((await call('solution/getPattern', { solutionId })).body.data.graph).not.toBeNull();
  });
});
