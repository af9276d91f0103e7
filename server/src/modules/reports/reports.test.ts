import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ErrorCode } from '@decisio/domain';
import { newId } from '../../db/ids';
import { createTenant, createUser, issueToken, type TestUser } from '../../test/factories';
import { databases, startTestServer, type TestServer } from '../../test/server';
import { REWARD_PY, createSolution, processedScheme, tinyCsv, until } from '../modelling/testing';

const STOP = { system: true };
const TINY_BC = { epochs: 3, hidden: [16], updatesPerStep: 4, batchSize: 32 };
const TINY_PPO = { epochs: 2, bcUpdates: 5, batchSize: 8, horizon: 4, evalWindows: 8, hidden: [16] };

describe.each(databases)('analysis reports on %s', (kind) => {
  let server: TestServer;
  let owner: TestUser;
  let token: string;
  let strangerToken: string;
  let outsiderToken: string;
  let viewerToken: string;
  let projectId: string;
  let solutionId: string;
  let decisionA: string;
  let decisionB: string;
  let reportId: string;

  const call = (name: string, body: unknown, as = token) => server.call(name, { token: as, body });
  const report = (over: Record<string, unknown> = {}) => ({
    solutionId,
    name: 'coupon week 1',
    type: 'coupon',
    remark: 'first week',
    decisionAId: decisionA,
    decisionBId: decisionB,
    realRevenue: '123456789012345.67',
    realOrders: 4200,
    realCost: '99.5',
    ...over,
  });

  beforeAll(async () => {
    server = await startTestServer(kind, { jobs: { concurrency: 2 } });
    await server.app.startJobs();
    owner = await createUser(server);
    token = await issueToken(server, owner);
    strangerToken = await issueToken(server, await createUser(server, { tenantId: await createTenant(server) }));
    outsiderToken = await issueToken(server, await createUser(server));
    const viewer = await createUser(server);
    viewerToken = await issueToken(server, viewer);

    ({ projectId, solutionId } = await processedScheme(server, owner, token).then(async (r) => {
      const sim = await call('trainSimulator/create', { solutionId: r.solutionId, schemeId: r.schemeId, name: `env-${kind}`, stopConditions: STOP, hyperparameters: TINY_BC });
      const simDone = await until(() => call('trainSimulator/get', { id: sim.body.data.id }), (x) => ['successful', 'failure'].includes(x.body.data.state), 120_000);
      if (simDone.body.data.state !== 'successful') throw new Error(`environment ${simDone.body.data.error}`);
      const obj = await call('objective/create', { solutionId: r.solutionId, name: 'reward', files: { 'reward.py': REWARD_PY } });
      const pol = await call('trainPolicy/create', { solutionId: r.solutionId, simulatorId: sim.body.data.id, objectiveId: obj.body.data.id, name: `pol-${kind}`, algorithm: 'ppo', stopConditions: STOP, hyperparameters: TINY_PPO });
      const polDone = await until(() => call('trainPolicy/get', { id: pol.body.data.id }), (x) => ['successful', 'failure'].includes(x.body.data.state), 120_000);
      if (polDone.body.data.state !== 'successful') throw new Error(`policy ${polDone.body.data.error}`);
      const ids: string[] = [];
      for (const [name, stepSize] of [['dec-a', 3], ['dec-b', 6]] as const) {
        const dec = await call('decision/create', { solutionId: r.solutionId, simulatorId: sim.body.data.id, policyId: pol.body.data.id, name, stepSize });
        const done = await until(() => call('decision/get', { id: dec.body.data.id }), (x) => ['successful', 'failure'].includes(x.body.data.state), 120_000);
        if (done.body.data.state !== 'successful') throw new Error(`decision ${done.body.data.error}`);
        ids.push(dec.body.data.id);
      }
      [decisionA, decisionB] = ids as [string, string];
      return r;
    }));
    await server.app.db.knex('project_permissions').insert({ id: newId(), project_id: projectId, tenant_id: owner.tenantId, subject_type: 'user', subject_id: viewer.id, permission: 'view', granted_by: owner.id, created_at: new Date() });
  }, 400_000);
  afterAll(async () => {
    await server?.stop();
  });

  it('validates name, decisions and real totals (15 integer digits, 2 decimals)', async () => {
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ name: '' }, 'name'],
      [{ name: 'n'.repeat(51) }, 'name'],
      [{ realRevenue: '' }, 'realRevenue'],
      [{ realRevenue: '1234567890123456' }, 'realRevenue'],
      [{ realCost: '1.234' }, 'realCost'],
      [{ realOrders: -1 }, 'realOrders'],
      [{ realOrders: 'abc' }, 'realOrders'],
      [{ realCost: undefined }, 'realCost'],
      [{ type: 'weather' }, 'type'],
      [{ remark: 'r'.repeat(201) }, 'remark'],
      [{ decisionAId: 'x' }, 'decisionAId'],
    ];
    for (const [over, field] of cases) {
      const r = await call('report/createAnalysisReport', report(over));
      expect(r.status, JSON.stringify(over)).toBe(400);
      expect(r.body.code, JSON.stringify(over)).toBe(ErrorCode.paramInvalid);
      expect(Object.keys(r.body.errors ?? {}), JSON.stringify(over)).toContain(field);
    }
    const same = await call('report/createAnalysisReport', report({ decisionBId: decisionA }));
    expect(same.status).toBe(400);
    expect(same.body.code).toBe(ErrorCode.reportDecisionsSame);
    const missing = await call('report/createAnalysisReport', report({ decisionBId: newId() }));
    expect(missing.status).toBe(404);
    expect(missing.body.code).toBe(ErrorCode.deductionNotFound);

    // A decision of another solution of the project is not "in the solution".
    const other = await createSolution(server, owner, { projectId });
    const crossed = await call('report/createAnalysisReport', report({ solutionId: other.solutionId }));
    expect(crossed.body.code).toBe(ErrorCode.deductionNotFound);

    // A decision deduction that has not finished.
    const unfinished = newId();
    const now = new Date();
    await server.app.db.knex('deductions').insert({ id: unfinished, tenant_id: owner.tenantId, project_id: projectId, solution_id: solutionId, kind: 'decision', name: 'dec-running', simulator_id: newId(), step_size: 5, state: 'processing', created_at: now, updated_at: now });
    const running = await call('report/createAnalysisReport', report({ decisionBId: unfinished }));
    expect(running.status).toBe(400);
    expect(running.body.code).toBe(ErrorCode.reportDecisionUnfinished);
  });

  it('analyses two finished decision deductions into measured figures', async () => {
    const created = await call('report/createAnalysisReport', report());
    expect(created.status).toBe(200);
    expect(created.body.code).toBe(0);
    expect(['created', 'analysing', 'finished']).toContain(created.body.data.status);
    expect(created.body.data).toMatchObject({ name: 'coupon week 1', type: 'coupon', realRevenue: '123456789012345.67', realOrders: '4200', realCost: '99.5', decisionAName: 'dec-a', decisionBName: 'dec-b' });
    reportId = created.body.data.id;

    const done = await until(() => call('report/getAnalysisReportDetail', { id: reportId }), (r) => ['finished', 'failed'].includes(r.body.data.status));
    expect(done.body.data.error).toBeNull();
    expect(done.body.data.status).toBe('finished');

    const view = await call('report/getAnalysisReportView', { id: reportId });
    expect(view.body.code).toBe(0);
    const v = view.body.data;
    expect(v.terms).toBe('coupon');
    expect(v.real).toEqual({ revenue: '123456789012345.67', orders: '4200', cost: '99.5' });
    const rows = await server.app.db.knex('deductions').whereIn('id', [decisionA, decisionB]);
    const stored = (id: string) => JSON.parse(rows.find((r: { id: string }) => r.id === id).result);
    const a = stored(decisionA);
    const b = stored(decisionB);
    expect(v.decisions.a).toMatchObject({ id: decisionA, name: 'dec-a', horizon: a.horizon, totalReward: a.reward, behaviourReward: a.behaviourReward });
    expect(v.decisions.b).toMatchObject({ id: decisionB, name: 'dec-b', horizon: b.horizon, totalReward: b.reward, behaviourReward: b.behaviourReward });
    expect(v.decisions.a.horizon).toBe(3);
    expect(v.decisions.b.horizon).toBe(6);
    expect(v.decisions.a.meanRewardPerStep).toBeCloseTo(a.reward / 3, 10);
    expect(v.decisions.b.upliftOverBehaviour).toBeCloseTo(b.reward - b.behaviourReward, 10);
    expect(v.difference.totalReward).toBeCloseTo(b.reward - a.reward, 10);
    expect(v.difference.meanRewardPerStep).toBeCloseTo(b.reward / 6 - a.reward / 3, 10);
    expect(typeof v.analysedAt).toBe('string');

    // The comparison with the data as logged (issue 17 item 7): rewards per step, per-field means.
    const c = v.comparison;
    expect(c).not.toBeNull();
    expect(c.sameData).toBe(true);
    expect(c.rewards.a.decided).toBeCloseTo(a.reward / 3, 5);
    expect(c.rewards.b.decided).toBeCloseTo(b.reward / 6, 5);
    expect(c.rewards.a.behaviour).toBeCloseTo(a.behaviourReward / 3, 5);
    // The reward (−|next_obs|) on the logged rows: negative, and the change is measured against it.
    expect(c.rewards.a.logged).toBeLessThan(0);
    expect(c.rewards.a.changeOverLogged).toBeCloseTo((c.rewards.a.decided - c.rewards.a.logged) / Math.abs(c.rewards.a.logged), 9);
    // Logged means are the data's: obs over the first 3 steps of each of the 6 trajectories of the CSV.
    const csv = tinyCsv().trim().split('\n').slice(1).map((l) => l.split(','));
    const firstSteps = csv.filter((r) => Number(r[1]) < 3).map((r) => Number(r[3]));
    const obs = c.fields.find((f: { node: string }) => f.node === 'obs');
    expect(obs.logged).toBeCloseTo(firstSteps.reduce((x, y) => x + y, 0) / firstSteps.length, 4);
    expect(c.fields.map((f: { node: string }) => f.node)).toEqual(expect.arrayContaining(['obs', 'action', 'next_obs']));
    for (const f of c.fields) for (const k of ['a', 'b', 'logged']) expect(Number.isFinite(f[k])).toBe(true);
    // A coupon report on a graph without the coupon's nodes says so instead of inventing measures.
    expect(c.measures).toBeNull();
    expect(c.measuresMissing).toBe(true);
    expect(c.realTotals).toEqual([]);

    const dup = await call('report/createAnalysisReport', report({ name: 'COUPON week 1' }));
    expect(dup.body.code).toBe(ErrorCode.reportNameUsed);
  });

  it('lists, renames and deletes with the project rights', async () => {
    const second = await call('report/createAnalysisReport', report({ name: 'electric', type: 'electricity', decisionAId: decisionB, decisionBId: decisionA }));
    expect(second.body.code).toBe(0);
    const list = await call('report/getAnalysisReportList', { projectId, page: 1, pageSize: 10 });
    expect(list.body.data.total).toBe(2);
    expect(list.body.data.rows[0].name).toBe('electric');
    expect((await call('report/getAnalysisReportList', { projectId, keyword: 'coup' })).body.data.rows.map((r: { id: string }) => r.id)).toEqual([reportId]);
    expect((await call('report/getAnalysisReportList', { projectId, pageSize: 101 })).body.code).toBe(ErrorCode.paramInvalid);

    const renamed = await call('report/updateAnalysisReportName', { id: reportId, name: 'renamed' });
    expect(renamed.body.data.name).toBe('renamed');
    expect((await call('report/updateAnalysisReportName', { id: reportId, name: 'Electric' })).body.code).toBe(ErrorCode.reportNameUsed);
    expect((await call('report/updateAnalysisReportName', { id: reportId, name: ' ' })).body.code).toBe(ErrorCode.paramInvalid);

    // view right: reads, cannot change
    expect((await call('report/getAnalysisReportView', { id: reportId }, viewerToken)).body.code).toBe(0);
    expect((await call('report/getAnalysisReportList', { projectId }, viewerToken)).body.data.total).toBe(2);
    const viewerRename = await call('report/updateAnalysisReportName', { id: reportId, name: 'x' }, viewerToken);
    expect(viewerRename.status).toBe(403);
    expect(viewerRename.body.code).toBe(ErrorCode.projectNoRight);
    expect((await call('report/deleteAnalysisReport', { id: reportId }, viewerToken)).body.code).toBe(ErrorCode.projectNoRight);
    expect((await call('report/createAnalysisReport', report({ name: 'v' }), viewerToken)).body.code).toBe(ErrorCode.projectNoRight);

    // no right at all (same tenant) and another tenant
    for (const t of [outsiderToken, strangerToken]) {
      const detail = await call('report/getAnalysisReportDetail', { id: reportId }, t);
      expect(detail.status).toBe(404);
      expect([ErrorCode.projectNotFound, ErrorCode.reportNotFound]).toContain(detail.body.code);
      expect((await call('report/getAnalysisReportList', { projectId }, t)).body.code).toBe(ErrorCode.projectNotFound);
      expect((await call('report/deleteAnalysisReport', { id: reportId }, t)).status).toBe(404);
    }
    expect((await call('report/getAnalysisReportDetail', { id: reportId }, strangerToken)).body.code).toBe(ErrorCode.reportNotFound);
    expect((await call('report/createAnalysisReport', report({ name: 'z' }), strangerToken)).body.code).toBe(ErrorCode.solutionNotFound);
    expect((await server.call('report/getAnalysisReportList', { body: { projectId } })).status).toBe(401);

    const del = await call('report/deleteAnalysisReport', { id: reportId });
    expect(del.body.code).toBe(0);
    const gone = await call('report/getAnalysisReportView', { id: reportId });
    expect(gone.status).toBe(404);
    expect(gone.body.code).toBe(ErrorCode.reportNotFound);
    expect((await call('report/getAnalysisReportList', { projectId })).body.data.total).toBe(1);
  });
});
