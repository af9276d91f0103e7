/**
 * `objective/tryReward` against the real server (SQLite, and MariaDB with `TEST_MYSQL_URL`) and
 * the real Python sandbox: rights, the primary file, the sample from the data access and from a
 * processed scheme, the distribution of the rewards, and the user's errors with their line.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ErrorCode } from '@decisio/domain';
import { createTenant, createUser, issueToken, type TestUser } from '../src/test/factories';
import { databases, startTestServer, type TestServer } from '../src/test/server';
import { distribution, sampleRows } from '../src/modules/modelling/reward-try';
import { createSolution, tinyCsv, tinyGraph, tuningGraph, until, uploadCsv } from '../src/modules/modelling/testing';

/** Rows of {@link tinyCsv}: traj, step, time, x, a, g. */
const CSV = tinyCsv(6, 12)
  .trim()
  .split('\n')
  .slice(1)
  .map((l) => l.split(','));
const OBS = `import numpy as np

def get_reward(data):
    return np.asarray(data['obs'])[:, :1]
`;
const NEXT = `import numpy as np

def get_reward(data):
    return -np.abs(np.asarray(data['next_obs'])[:, :1])
`;
const RAISES = `import numpy as np

def get_reward(data):
    return np.asarray(data['no_such_node'])
`;
const GAIN = `import numpy as np

def get_reward(data):
    return np.asarray(data['parameter'])[:, :1]
`;
const SYNTAX = `def get_reward(data):
    x = [1, 2
    return x
`;

describe('distribution', () => {
  it('summarises and bins the values (constant values in one bin)', () => {
    const d = distribution([1, 2, 3, 4, NaN], 3);
    expect(d.summary).toMatchObject({ count: 4, mean: 2.5, min: 1, max: 4, median: 2.5 });
    expect(d.summary.std).toBeCloseTo(Math.sqrt(1.25));
    expect(d.histogram.edges).toEqual([1, 2, 3, 4]);
    expect(d.histogram.counts).toEqual([1, 1, 2]);
    const flat = distribution([5, 5, 5]);
    expect(flat.histogram.counts).toEqual([3]);
    expect(flat.histogram.edges).toEqual([4.5, 5.5]);
    expect(distribution([]).summary.count).toBe(0);
  });

  it('spreads the sample evenly over the data', () => {
    expect(Array.from(sampleRows(10, 4))).toEqual([0, 2, 5, 7]);
    expect(Array.from(sampleRows(3, 256))).toEqual([0, 1, 2]);
  });
});

describe.each(databases)('objective/tryReward on %s', (kind) => {
  let server: TestServer;
  let owner: TestUser;
  let token: string;
  let strangerToken: string;
  let memberToken: string;
  let solutionId: string;
  const call = (body: unknown, as = token) => server.call('objective/tryReward', { token: as, body });

  beforeAll(async () => {
    server = await startTestServer(kind, { jobs: { concurrency: 1 } });
    await server.app.startJobs();
    owner = await createUser(server);
    token = await issueToken(server, owner);
    strangerToken = await issueToken(server, await createUser(server, { tenantId: await createTenant(server) }));
    memberToken = await issueToken(server, await createUser(server));
    ({ solutionId } = await createSolution(server, owner));
  });
  afterAll(async () => {
    await server?.stop();
  });

  it('checks the token, the tenant, the right, the primary file and the data', async () => {
    expect((await server.call('objective/tryReward', { body: { solutionId, files: { 'reward.py': OBS } } })).status).toBe(401);
    expect((await call({ solutionId, files: { 'reward.py': OBS } }, strangerToken)).body.code).toBe(ErrorCode.solutionNotFound);
    expect((await call({ solutionId, files: { 'reward.py': OBS } }, memberToken)).body.code).toBe(ErrorCode.projectNotFound);
    const noPrimary = await call({ solutionId, files: { 'other.py': OBS } });
    expect(noPrimary.status).toBe(400);
    expect(noPrimary.body.code).toBe(ErrorCode.objectiveNoPrimaryFile);
    expect((await call({ solutionId, files: { 'reward.py': OBS }, rows: 0 })).body.code).toBe(ErrorCode.paramInvalid);
    expect((await call({ solutionId, files: { 'reward.py': OBS } })).body.code).toBe(ErrorCode.dataProcessUnfinished);
  });

  it('runs the reward on a sample of the data access table and answers its distribution', async () => {
    await server.call('solution/setPattern', { token, body: { solutionId, graph: tinyGraph() } });
    const tableId = await uploadCsv(server, owner, tinyCsv(6, 12));
    await server.call('solution/setTableCorrelation', { token, body: { solutionId, correlation: { primaryTableId: tableId, trajectoryField: 'traj', sequenceField: 'step', datetimeField: 'time' } } });

    const r = await call({ solutionId, files: { 'reward.py': OBS } });
    expect(r.body.code).toBe(0);
    const d = r.body.data;
    expect(d.ok).toBe(true);
    expect(d.source.kind).toBe('table');
    expect(d.nodes).toEqual(expect.arrayContaining(['obs', 'action', 'next_obs']));
    // The reward is x itself: its distribution is the one of the data's x over every transition
    // (each trajectory's last row has no next step; all 66 rows are sampled).
    const xs = CSV.filter((c) => Number(c[1]) < 11).map((c) => Number(c[3]));
    expect(d.rows).toBe(xs.length);
    expect(d.summary.count).toBe(xs.length);
    expect(d.summary.min).toBeCloseTo(Math.min(...xs), 4);
    expect(d.summary.max).toBeCloseTo(Math.max(...xs), 4);
    expect(d.summary.mean).toBeCloseTo(xs.reduce((s, v) => s + v, 0) / xs.length, 4);
    expect(d.histogram.counts.reduce((s: number, v: number) => s + v, 0)).toBe(xs.length);
    expect(d.histogram.edges).toHaveLength(d.histogram.counts.length + 1);

    const few = await call({ solutionId, files: { 'reward.py': NEXT }, rows: 10 });
    expect(few.body.data).toMatchObject({ ok: true, rows: 10 });
    expect(few.body.data.summary.max).toBeLessThanOrEqual(0);
  });

  it('samples the data access table joined with its related tables', async () => {
    // The gain g of each trajectory lives in a related table keyed by the trajectory (as text).
    const { solutionId: joinedId } = await createSolution(server, owner);
    await server.call('solution/setPattern', { token, body: { solutionId: joinedId, graph: tuningGraph() } });
    const primary = ['traj,step,time,x,a', ...CSV.map((c) => c.slice(0, 5).join(','))].join('\n') + '\n';
    const primaryId = await uploadCsv(server, owner, primary);
    const gains = [0.15, 0.25, 0.35, 0.45, 0.55, 0.65];
    const gainsId = await uploadCsv(server, owner, ['id,g', ...gains.map((g, t) => `${t},${g}`)].join('\n') + '\n');
    const correlation = { primaryTableId: primaryId, trajectoryField: 'traj', sequenceField: 'step', datetimeField: 'time', relations: [{ from: primaryId, fromField: 'traj', to: gainsId, toField: 'id' }] };
    expect((await server.call('solution/setTableCorrelation', { token, body: { solutionId: joinedId, correlation } })).body.code).toBe(0);

    const r = await call({ solutionId: joinedId, files: { 'reward.py': GAIN } });
    expect(r.body.code).toBe(0);
    expect(r.body.data).toMatchObject({ ok: true, source: { kind: 'table' }, rows: 66 });
    expect(r.body.data.nodes).toContain('parameter');
    // Every trajectory's 11 transitions carry its gain from the related table.
    expect(r.body.data.summary.min).toBeCloseTo(0.15, 5);
    expect(r.body.data.summary.max).toBeCloseTo(0.65, 5);
    expect(r.body.data.summary.mean).toBeCloseTo(0.4, 5);
    expect(r.body.data.histogram.counts.filter((n: number) => n > 0)).toEqual([11, 11, 11, 11, 11, 11]);

    // A relation to a table the caller's tenant does not have: the join's error.
    const stranger = await createUser(server, { tenantId: await createTenant(server) });
    const foreignId = await uploadCsv(server, stranger, 'id,g\n0,1\n');
    const foreign = { ...correlation, relations: [{ ...correlation.relations[0], to: foreignId }] };
    // The server refuses it (not a table of the caller); one stored anyway fails the join.
    const refused = await server.call('solution/setTableCorrelation', { token, body: { solutionId: joinedId, correlation: foreign } });
    expect(refused.body).toMatchObject({ code: ErrorCode.paramInvalid, errors: { 'correlation.table.1': expect.any(String), 'correlation.relation.0.toField': expect.any(String) } });
    await server.app.db.knex('modelling_patterns').where({ solution_id: joinedId }).update({ correlation: JSON.stringify(foreign) });
    expect((await call({ solutionId: joinedId, files: { 'reward.py': GAIN } })).body.code).toBe(ErrorCode.tableNotFound);
  });

  it('answers the user\'s error with its file and line', async () => {
    const raised = await call({ solutionId, files: { 'reward.py': RAISES } });
    expect(raised.body.code).toBe(0);
    expect(raised.body.data.ok).toBe(false);
    expect(raised.body.data.error).toMatchObject({ code: 'sandbox.exception', file: 'reward.py', line: 4 });
    expect(raised.body.data.error.message).toContain('KeyError');
    const zh = await server.call('objective/tryReward', { token, body: { solutionId, files: { 'reward.py': SYNTAX } }, headers: { 'Accept-Language': 'zh-CN' } });
    expect(zh.body.data.ok).toBe(false);
    expect(zh.body.data.error.code).toBe('sandbox.syntax');
    expect(zh.body.data.error.line).toBeGreaterThanOrEqual(2);
    expect(zh.body.data.error.message).toContain('语法错误');
  });

  it('samples the processed data of a completed scheme when there is one', async () => {
    const scheme = await server.call('scheme/create', { token, body: { solutionId, name: 's', period: 'day', startTime: '2026-01-01', endTime: '2026-02-01' } });
    const schemeId = scheme.body.data.id as string;
    await server.call('scheme/schemeDataProcess', { token, body: { id: schemeId } });
    const done = await until(() => server.call('scheme/get', { token, body: { id: schemeId } }), (r) => r.body.data.processState !== 'processing');
    expect(done.body.data.processState).toBe('completed');
    const r = await call({ solutionId, files: { 'reward.py': OBS, 'helper.py': 'X = 1\n' } });
    expect(r.body.data).toMatchObject({ ok: true, source: { kind: 'scheme', name: 's' } });
    expect(r.body.data.summary.count).toBe(done.body.data.rows);
  });
});
