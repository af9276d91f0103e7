import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { COUPON_ECONOMICS, ELECTRICITY_PLANT, SCENARIO_MEASURE_KEYS } from '@decisio/domain';
import { createUser, issueToken, type TestUser } from '../../test/factories';
import { databases, startTestServer, type TestServer } from '../../test/server';
import { loadDatasetTable } from '../datasets/reader';
import { until } from '../modelling/testing';

const STOP = { system: true };

/**
 * The coupon and electricity reports measure their own scenario (issue 17 item 7), from the
 * decided rollouts and from the data as logged, on projects made from the templates through
 * HTTP: electricity energy, power cost, temperature violations and deviation, with the real power
 * purchase cost projected by the energy; coupon revenue, coupon cost, redemption, units sold,
 * cost, profit, sell-through and price, with revenue, orders and coupon cost projected.
 */
describe.each(databases)('scenario reports on %s', (kind) => {
  let server: TestServer;
  let owner: TestUser;
  let token: string;
  let solutionId: string;
  let datasetId: string;
  let decisionA: string;
  let decisionB: string;
  const call = (name: string, body: unknown) => server.call(name, { token, body, headers: { 'Accept-Language': 'en-US' } });
  const finished = (area: string, id: string) => until(() => call(`${area}/get`, { id }), (r) => ['successful', 'failure'].includes(r.body.data.state), 180_000);

  /** A template project with a processed scheme, a tiny environment and policy, and two decisions of 4 and 8 steps. */
  const templateDecisions = async (templateId: 'electric' | 'coupon', range: [string, string]) => {
    const made = await call('template/createProject', { templateId });
    expect(made.body.code).toBe(0);
    const solution = made.body.data.solutionId as string;
    const objectiveId = made.body.data.objectiveId as string;
    const schemeId = (await call('scheme/create', { solutionId: solution, name: 'range', period: 'day', startTime: range[0], endTime: range[1] })).body.data.id as string;
    await call('scheme/schemeDataProcess', { id: schemeId });
    const processed = await until(() => call('scheme/get', { id: schemeId }), (r) => r.body.data.processState !== 'processing');
    expect(processed.body.data.processState).toBe('completed');
    const env = await call('trainSimulator/create', { solutionId: solution, schemeId, name: 'env', stopConditions: STOP, hyperparameters: { epochs: 2, hidden: [16], updatesPerStep: 4, batchSize: 32 } });
    expect((await finished('trainSimulator', env.body.data.id)).body.data.state).toBe('successful');
    const pol = await call('trainPolicy/create', { solutionId: solution, simulatorId: env.body.data.id, objectiveId, name: 'pol', algorithm: 'ppo', stopConditions: STOP, hyperparameters: { epochs: 2, bcUpdates: 5, batchSize: 8, horizon: 4, evalWindows: 8, hidden: [16] } });
    expect((await finished('trainPolicy', pol.body.data.id)).body.data.state).toBe('successful');
    const ids: string[] = [];
    for (const [name, stepSize] of [['dec-4', 4], ['dec-8', 8]] as const) {
      const dec = await call('decision/create', { solutionId: solution, simulatorId: env.body.data.id, policyId: pol.body.data.id, objectiveId, name, stepSize });
      expect(dec.body.code).toBe(0);
      const done = await finished('decision', dec.body.data.id);
      expect(done.body.data.error).toBeNull();
      ids.push(dec.body.data.id);
    }
    return { solutionId: solution, datasetId: made.body.data.datasetId as string, decisionA: ids[0]!, decisionB: ids[1]! };
  };
  /** A finished report's comparison. */
  const comparisonOf = async (body: Record<string, unknown>) => {
    const created = await call('report/createAnalysisReport', body);
    expect(created.body.code).toBe(0);
    const done = await until(() => call('report/getAnalysisReportDetail', { id: created.body.data.id }), (r) => ['finished', 'failed'].includes(r.body.data.status));
    expect(done.body.data.status).toBe('finished');
    return (await call('report/getAnalysisReportView', { id: created.body.data.id })).body.data.comparison;
  };

  beforeAll(async () => {
    server = await startTestServer(kind, { jobs: { concurrency: 1 } });
    await server.app.startJobs();
    owner = await createUser(server);
    token = await issueToken(server, owner);
    ({ solutionId, datasetId, decisionA, decisionB } = await templateDecisions('electric', ['2026-01-01T00:00:00Z', '2026-01-01T23:59:59Z']));
  }, 400_000);
  afterAll(async () => {
    await server?.stop();
  });

  it('measures energy, cost and temperature violations of both decisions and of the logged data, and projects the real cost', async () => {
    const c = await comparisonOf({ solutionId, name: 'cold rooms', type: 'electricity', decisionAId: decisionA, decisionBId: decisionB, realRevenue: '5000', realOrders: '20', realCost: '1000.00' });
    expect(c.measuresMissing).toBe(false);
    expect(c.measures.scenario).toBe('electricity');
    expect(c.measures.rows.map((r: { key: string }) => r.key)).toEqual([...SCENARIO_MEASURE_KEYS.electricity]);
    const m = Object.fromEntries(c.measures.rows.map((r: { key: string }) => [r.key, r])) as Record<string, { a: number; b: number; logged: number; changeA: number; changeB: number }>;
    for (const row of Object.values(m)) for (const k of ['a', 'b', 'logged'] as const) expect(Number.isFinite(row[k])).toBe(true);
    expect(m.violations!.a).toBeGreaterThanOrEqual(0);
    expect(m.violations!.a).toBeLessThanOrEqual(1);

    // The logged figures are the template data's own: decision A's windows are the first 4 quarter-hours of each of the 20 rooms.
    const table = await loadDatasetTable(server.app.db.knex, server.app.blobs, datasetId);
    const step = table.column('step') as Float64Array;
    const power = table.column('power_action') as Float64Array;
    const next = table.column('next_obs_temp') as Float64Array;
    const rows = [...step.keys()].filter((i) => step[i]! < 4);
    expect(rows).toHaveLength(20 * 4);
    const mean = (f: (i: number) => number) => rows.reduce((s, i) => s + f(i), 0) / rows.length;
    expect(m.energy!.logged).toBeCloseTo(mean((i) => power[i]! * ELECTRICITY_PLANT.stepHours), 4);
    expect(m.temperature!.logged).toBeCloseTo(mean((i) => next[i]!), 4);
    expect(m.violations!.logged).toBeCloseTo(mean((i) => (Math.abs(next[i]! - ELECTRICITY_PLANT.targetC) > ELECTRICITY_PLANT.toleranceC ? 1 : 0)), 9);
    // The reward on the logged rows is the template reward's: −|T' + 2| − 0.05 P.
    expect(c.rewards.a.logged).toBeCloseTo(mean((i) => -Math.abs(next[i]! + 2) - 0.05 * power[i]!), 4);
    // Per-field means name the graph's fields.
    expect(c.fields.find((f: { node: string }) => f.node === 'action')).toMatchObject({ field: 'power_action' });
    expect(c.fields.find((f: { node: string }) => f.node === 'action').logged).toBeCloseTo(mean((i) => power[i]!), 4);

    // The real power purchase cost moves with the energy: 1000 · (1 + change of the energy over the logged data), to the cent.
    expect(m.energy!.changeA).toBeCloseTo((m.energy!.a - m.energy!.logged) / Math.abs(m.energy!.logged), 9);
    expect(c.realTotals).toHaveLength(1);
    expect(c.realTotals[0]).toMatchObject({ total: 'cost', real: '1000', measure: 'energy' });
    expect(c.realTotals[0].projectedA).toBeCloseTo(Math.round(1000 * (1 + m.energy!.changeA) * 100) / 100, 2);
    // B rolled 8 steps: compared with its own windows' logged rows (the first 8 quarter-hours).
    const rowsB = [...step.keys()].filter((i) => step[i]! < 8);
    const loggedB = rowsB.reduce((s, i) => s + power[i]! * ELECTRICITY_PLANT.stepHours, 0) / rowsB.length;
    expect(m.energy!.changeB).toBeCloseTo((m.energy!.b - loggedB) / Math.abs(loggedB), 4);
    expect(c.realTotals[0].projectedB).toBeCloseTo(Math.round(1000 * (1 + m.energy!.changeB) * 100) / 100, 2);
  });

  it('measures revenue, coupon cost, redemption and the rest of the coupon scenario from the coupon template, and projects its real totals', async () => {
    const made = await templateDecisions('coupon', ['2026-01-01', '2026-03-31']);
    const c = await comparisonOf({ solutionId: made.solutionId, name: 'coupons', type: 'coupon', decisionAId: made.decisionA, decisionBId: made.decisionB, realRevenue: '250000', realOrders: '18000', realCost: '4000' });
    expect(c.measuresMissing).toBe(false);
    expect(c.measures.rows.map((r: { key: string }) => r.key)).toEqual([...SCENARIO_MEASURE_KEYS.coupon]);
    const m = Object.fromEntries(c.measures.rows.map((r: { key: string }) => [r.key, r])) as Record<string, { a: number; b: number; logged: number; changeA: number }>;
    for (const row of Object.values(m)) for (const k of ['a', 'b', 'logged'] as const) expect(Number.isFinite(row[k]), JSON.stringify(row)).toBe(true);

    // Logged figures from the template data's rows: the first 4 days of each of the 20 stores.
    const table = await loadDatasetTable(server.app.db.knex, server.app.blobs, made.datasetId);
    const period = table.column('period') as Float64Array;
    const price = table.column('price') as Float64Array;
    const order = table.column('order_quantity') as Float64Array;
    const sold = table.column('units_sold') as Float64Array;
    const next = table.column('next_stock_level') as Float64Array;
    const first = Math.min(...period);
    const rows = [...period.keys()].filter((i) => period[i]! < first + 4);
    expect(rows).toHaveLength(20 * 4);
    const mean = (f: (i: number) => number) => rows.reduce((s, i) => s + f(i), 0) / rows.length;
    expect(m.revenue!.logged).toBeCloseTo(mean((i) => price[i]! * sold[i]!), 3);
    expect(m.couponCost!.logged).toBeCloseTo(mean((i) => (COUPON_ECONOMICS.fullPrice - price[i]!) * sold[i]!), 3);
    expect(m.redemption!.logged).toBeCloseTo(mean((i) => (price[i]! < COUPON_ECONOMICS.fullPrice && sold[i]! > 0 ? 1 : 0)), 9);
    expect(m.unitsSold!.logged).toBeCloseTo(mean((i) => sold[i]!), 3);
    // Profit is the template's reward: on the logged rows the reward per step equals it.
    expect(m.profit!.logged).toBeCloseTo(mean((i) => price[i]! * sold[i]! - COUPON_ECONOMICS.unitCost * order[i]! - COUPON_ECONOMICS.holdingCost * next[i]!), 2);
    expect(c.rewards.a.logged).toBeCloseTo(m.profit!.logged, 2);

    // Revenue, orders and coupon cost are projected from the entered totals.
    expect(c.realTotals.map((r: { total: string; measure: string }) => [r.total, r.measure])).toEqual([
      ['revenue', 'revenue'],
      ['orders', 'unitsSold'],
      ['cost', 'couponCost'],
    ]);
    expect(c.realTotals[0].projectedA).toBeCloseTo(Math.round(250000 * (1 + m.revenue!.changeA) * 100) / 100, 2);
  }, 300_000);
});
