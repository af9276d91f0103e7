import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ErrorCode } from '@decisio/domain';
import { createTenant, createUser, issueToken, type TestUser } from '../../test/factories';
import { startTestServer, type TestServer } from '../../test/server';
import { SchemeDataError, applyScheme, parseExpression, parseSchemeData, parseTime, periodStart, evaluate, type SchemeFrame } from './engine/scheme';
import { createSolution, tinyGraph, until, uploadCsv } from './testing';

const FRAME: SchemeFrame = { period: 'day', start: new Date('2026-01-01'), end: new Date('2026-01-03'), trajectoryField: 'traj', sequenceField: 'step', datetimeField: 'time' };

/** Two trajectories over four days, two rows a day; `x` counts up, `a` alternates 0/1. */
function table() {
  const cols = { traj: [] as string[], step: [] as string[], time: [] as string[], x: [] as string[], next_x: [] as string[], a: [] as string[], mode: [] as string[] };
  for (const t of ['t1', 't2']) {
    for (let k = 0; k < 8; k++) {
      const day = 1 + Math.floor(k / 2);
      cols.traj.push(t);
      cols.step.push(String(k));
      cols.time.push(`2026-01-0${day}T${k % 2 === 0 ? '06' : '18'}:00:00Z`);
      cols.x.push(String(k + (t === 't2' ? 100 : 0)));
      cols.next_x.push(String(k + 1 + (t === 't2' ? 100 : 0)));
      cols.a.push(String(k % 2));
      cols.mode.push(k < 4 ? 'eco' : 'boost');
    }
  }
  return cols;
}

describe('scheme data', () => {
  it('parses expressions with precedence, chains, strings and quoted names', () => {
    const row = { x: ['3'], y: ['5'], 'odd name': ['2'], mode: ['eco'] };
    const ev = (s: string) => evaluate(parseExpression(s), row, 0);
    expect(ev('x + y * 2')).toBe(13);
    expect(ev('(x + y) * 2')).toBe(16);
    expect(ev('0 <= x < y')).toBe(1);
    expect(ev('0 <= y < x')).toBe(0);
    expect(ev('x > 1 and not (mode == "boost") || y < 0')).toBe(1);
    expect(ev("mode != 'eco'")).toBe(0);
    expect(ev('`odd name` * -x')).toBe(-6);
    expect(ev('y % x = 2')).toBe(1);
    for (const bad of ['x >', '(x > 1', 'x >> 1', 'and x', '"open']) expect(() => parseExpression(bad), bad).toThrow();
  });

  it('refuses bad types, aggregations, filters and partial orders with the form field', () => {
    const field = (data: unknown) => {
      try {
        parseSchemeData(data);
        return null;
      } catch (err) {
        return err instanceof SchemeDataError ? err.field : 'other';
      }
    };
    expect(field({ types: { x: 'continuous [5, 1]' } })).toBe('types');
    expect(field({ types: { x: 'fuzzy' } })).toBe('types');
    expect(field({ aggregation: { x: 'median' } })).toBe('aggregation');
    expect(field({ filter: 'x >' })).toBe('filter');
    expect(field({ partialOrder: ['a == b'] })).toBe('partialOrder');
    expect(field({ types: { x: 'discrete [1, 2]', y: { type: 'continuous', min: 0, max: 1 } }, aggregation: { s: 'x + y', a: 'sum' }, filter: 'x > 0', partialOrder: ['x < y'] })).toBeNull();
    expect(() => periodStart(0, 'fortnight')).toThrow(SchemeDataError);
  });

  it('reads datetimes as ISO text, as databases print them, and as epoch numbers', () => {
    const six = Date.UTC(2026, 0, 1, 6);
    for (const text of ['2026-01-01T06:00:00Z', '2026-01-01 06:00:00', '2026-01-01 06:00:00+00', '2026-01-01 07:30:00+0130', '2026-01-01T08:00+02:00', '2026-01-01 06:00:00.000', String(six)]) expect(parseTime(text), text).toBe(six);
    expect(parseTime('2026-01-01')).toBe(Date.UTC(2026, 0, 1));
    expect(parseTime('')).toBeNaN();
    expect(parseTime('yesterday')).toBeNaN();
    expect(() => applyScheme({ ...table(), time: ['soon', ...table().time.slice(1)] }, parseSchemeData({}), FRAME)).toThrow();
  });

  it('keeps the business range, with a date-only end including its day', () => {
    const { table: out, report } = applyScheme(table(), parseSchemeData({}), FRAME);
    // Days 1..3 of 4 for both trajectories: 6 rows each.
    expect(report).toMatchObject({ read: 16, range: 12, kept: 12 });
    expect(new Set(out.time as string[]).has('2026-01-03T18:00:00Z')).toBe(true);
    expect(Array.from(out.time as string[]).some((t) => t.startsWith('2026-01-04'))).toBe(false);
  });

  it('applies types, filter and partial order, and derived fields', () => {
    const data = parseSchemeData({
      aggregation: { gap: 'next_x - x', both: 'a & gap' },
      types: { a: 'discrete [1]' },
      filter: 'mode == "eco" or x >= 105',
      partialOrder: ['x < next_x', 'x < 104'],
    });
    const { table: out, report } = applyScheme(table(), data, { ...FRAME, end: new Date('2026-01-10') });
    expect(report.derived).toEqual(['gap', 'both']);
    expect(report.types).toBe(8); // a == 1 only
    expect(report.filter).toBe(6); // eco rows (x 1, 3) of both, plus t2's x 105, 107
    expect(report.partialOrder).toBe(4); // x < 104 drops t2's 105 and 107
    expect(Array.from(out.x as string[])).toEqual(['1', '3', '101', '103']);
    expect(Array.from(out.gap as Float64Array)).toEqual([1, 1, 1, 1]);
    expect(Array.from(out.both as Float64Array)).toEqual([1, 1, 1, 1]);
  });

  it('rolls rows up to the business period per trajectory: functions, first state, last next state', () => {
    const data = parseSchemeData({ aggregation: { a: 'sum', n: 'count', peak: 'max' }, filter: '' });
    const t = table();
    const withPeak = { ...t, n: t.a, peak: t.x };
    const { table: out, report } = applyScheme(withPeak, data, { ...FRAME, end: new Date('2026-01-10') });
    expect(report.aggregatedBy).toBe('day');
    expect(report.kept).toBe(8); // 4 days x 2 trajectories
    expect(Array.from(out.traj as string[])).toEqual(['t1', 't1', 't1', 't1', 't2', 't2', 't2', 't2']);
    expect(Array.from(out.x as string[]).slice(0, 4)).toEqual(['0', '2', '4', '6']);
    expect(Array.from(out.next_x as string[]).slice(0, 4)).toEqual(['2', '4', '6', '8']);
    expect(Array.from(out.a as Float64Array)).toEqual([1, 1, 1, 1, 1, 1, 1, 1]);
    expect(Array.from(out.n as Float64Array)).toEqual([2, 2, 2, 2, 2, 2, 2, 2]);
    expect(Array.from(out.peak as Float64Array).slice(4)).toEqual([101, 103, 105, 107]);
    const weekly = applyScheme(withPeak, data, { ...FRAME, period: 'week', end: new Date('2026-01-10') });
    // 2026-01-01 is a Thursday: days 1-4 are in the week of Monday 2025-12-29.
    expect(weekly.report.kept).toBe(2);
    expect(Array.from(weekly.table.a as Float64Array)).toEqual([4, 4]);
  });

  it('fails loudly on unknown columns and when no row is left', () => {
    expect(() => applyScheme(table(), parseSchemeData({ filter: 'speed > 1' }), FRAME)).toThrow(/no column "speed"/);
    expect(() => applyScheme(table(), parseSchemeData({ dimensions: { agent: ['power'] } }), FRAME)).toThrow(/dimensions.*"power"/);
    expect(() => applyScheme(table(), parseSchemeData({ filter: 'x > 1000' }), FRAME)).toThrow(/keeps no rows/);
  });
});

describe('scheme data processing through HTTP', () => {
  let server: TestServer;
  let owner: TestUser;
  let token: string;
  const call = (name: string, body: unknown, headers: Record<string, string> = {}) => server.call(name, { token, body, headers });

  beforeAll(async () => {
    server = await startTestServer('sqlite', { jobs: { concurrency: 1 } });
    await server.app.startJobs();
    owner = await createUser(server);
    token = await issueToken(server, owner);
  });
  afterAll(async () => {
    await server?.stop();
  });

  it('refuses a bad filter on save, then processes a scheme with its range, filter and aggregation', async () => {
    const { solutionId } = await createSolution(server, owner);
    expect((await call('solution/setPattern', { solutionId, graph: tinyGraph() })).body.code).toBe(0);
    // 4 trajectories x 20 steps, one row an hour from 2026-01-01T00:00Z.
    const lines = ['traj,step,time,x,a'];
    for (let t = 0; t < 4; t++) for (let k = 0; k < 20; k++) lines.push(`${t},${k},${new Date(Date.UTC(2026, 0, 1, k)).toISOString()},${((k % 7) / 7 - 0.5 + t * 0.1).toFixed(3)},${(k % 3 === 0 ? 0.5 : -0.25).toFixed(2)}`);
    const tableId = await uploadCsv(server, owner, lines.join('\n') + '\n');
    await call('solution/setTableCorrelation', { solutionId, correlation: { primaryTableId: tableId, trajectoryField: 'traj', sequenceField: 'step', datetimeField: 'time' } });
    const base = { solutionId, name: 'hourly', period: 'hour', startTime: '2026-01-01T00:00:00Z', endTime: '2026-01-01T15:59:59Z' };

    const bad = await call('scheme/create', { ...base, data: { filter: 'x >' } }, { 'Accept-Language': 'zh-CN' });
    expect(bad.status).toBe(400);
    expect(bad.body.code).toBe(ErrorCode.paramInvalid);
    expect(bad.body.errors?.filter).toContain('x >');
    const badAgg = await call('scheme/create', { ...base, data: { aggregation: { a: 'median' } } });
    expect(Object.keys(badAgg.body.errors ?? {})).toEqual(['aggregation']);

    // The range 00:00-15:59 keeps 16 rows a trajectory; the filter drops trajectory 3.
    const plain = (await call('scheme/create', { ...base, data: { filter: 'traj != 3', partialOrder: ['-1 <= a <= 1'] } })).body.data.id as string;
    await call('scheme/schemeDataProcess', { id: plain });
    const done = await until(() => call('scheme/get', { id: plain }), (r) => r.body.data.processState !== 'processing');
    expect(done.body.data.processState).toBe('completed');
    expect(done.body.data.rows).toBe(3 * 15); // 3 trajectories x 16 rows, less each one's last step (no next_ column)
    const log = await call('train/getTrainLog', { jobId: done.body.data.processJobId });
    expect(log.body.data.items.map((l: { message: string }) => l.message).join('\n')).toContain('80 rows read, 64 in the business range, 64 of the field types, 48 pass the filter, 48 keep the partial order');

    // The whole first day, aggregated by hour with a derived field: one row an hour and trajectory.
    const agg = (await call('scheme/create', { ...base, name: 'agg', startTime: '2026-01-01', endTime: '2026-01-02', data: { aggregation: { a: 'average', spare: 'a * 2' } } })).body.data.id as string;
    await call('scheme/schemeDataProcess', { id: agg });
    const aggDone = await until(() => call('scheme/get', { id: agg }), (r) => r.body.data.processState !== 'processing');
    expect(aggDone.body.data.processState).toBe('completed');
    expect(aggDone.body.data.rows).toBe(4 * 19);

    // A filter over a column the table lacks fails the processing with the reason.
    const missing = (await call('scheme/create', { ...base, name: 'missing', data: { filter: 'speed > 1' } })).body.data.id as string;
    await call('scheme/schemeDataProcess', { id: missing });
    const failed = await until(() => call('scheme/get', { id: missing }), (r) => r.body.data.processState !== 'processing');
    expect(failed.body.data.processState).toBe('failed');
    const job = await server.app.db.knex('jobs').where({ id: failed.body.data.processJobId }).first('error');
    expect(job.error).toContain('no column "speed"');
  });

  it('joins the related tables of the correlation, so a scheme filters on a field of a related table', async () => {
    const { solutionId } = await createSolution(server, owner);
    expect((await call('solution/setPattern', { solutionId, graph: tinyGraph() })).body.code).toBe(0);
    // Primary (uploaded CSV "tiny.csv"): 4 trajectories x 20 hourly steps, trajectory t at store S<t>.
    const lines = ['traj,step,time,x,a,store'];
    for (let t = 0; t < 4; t++) for (let k = 0; k < 20; k++) lines.push(`${t},${k},${new Date(Date.UTC(2026, 0, 1, k)).toISOString()},${((k % 5) / 5 - 0.4).toFixed(2)},${(k % 2 ? 0.5 : -0.5).toFixed(1)},S${t}`);
    const primaryId = await uploadCsv(server, owner, lines.join('\n') + '\n');
    // Stores: a dataset (Parquet, region_id read as numbers); S3 is not in it; its `x` clashes.
    const made = await call('table/create', { fileId: await uploadCsv(server, owner, 'code,region_id,x\nS0,1,7\nS1,2,8\nS2,1,9\n'), name: 'Stores', type: 'business' });
    expect(made.body.code).toBe(0);
    const storesId = made.body.data.tableId as string;
    // Regions: another CSV (ids as text), related to the stores, not to the primary table.
    const regionsId = await uploadCsv(server, owner, 'id,region\n1,north\n2,south\n');
    await server.app.db.knex('storage_files').where({ id: regionsId }).update({ name: 'regions.csv' });
    const correlation = (relations: unknown[]) => ({ solutionId, correlation: { primaryTableId: primaryId, trajectoryField: 'traj', sequenceField: 'step', datetimeField: 'time', relations } });
    const toStores = { from: primaryId, fromField: 'store', to: storesId, toField: 'code' };
    const toRegions = { from: regionsId, fromField: 'id', to: storesId, toField: 'region_id' }; // given the other way round
    expect((await call('solution/setTableCorrelation', correlation([toStores, toRegions]))).body.code).toBe(0);
    const process = async (name: string, data: unknown) => {
      const id = (await call('scheme/create', { solutionId, name, period: 'day', startTime: '2026-01-01', endTime: '2026-01-02', data })).body.data.id as string;
      await call('scheme/schemeDataProcess', { id });
      return (await until(() => call('scheme/get', { id }), (r) => r.body.data.processState !== 'processing')).body.data as { processState: string; processJobId: string; rows: number; id: string };
    };

    // `region` exists only in the regions table (two joins away), `Stores_x` is the stores' renamed `x`.
    const joined = await process('north', { filter: 'region == "north"', aggregation: { lift: 'a * Stores_x' }, dimensions: { environment: ['region', 'Stores_x', 'lift'] } });
    expect(joined.processState).toBe('completed');
    expect(joined.rows).toBe(2 * 19); // stores S0 and S2 are in the north; each trajectory less its last step
    const log = (await call('train/getTrainLog', { jobId: joined.processJobId })).body.data.items.map((l: { message: string }) => l.message).join('\n');
    expect(log).toContain('join: "Stores" (3 rows) on tiny.store = Stores.code: 60 of 80 rows matched; renamed x -> Stores_x');
    expect(log).toContain('join: "regions" (2 rows) on Stores.region_id = regions.id: 60 of 80 rows matched');
    expect(log).toContain('80 rows read, derived lift, 80 in the business range, 80 of the field types, 40 pass the filter');
    const row = await server.app.db.knex('schemes').where({ id: joined.id }).first('processed_key');
    const processed = JSON.parse((await server.app.blobs.get(row.processed_key)).toString('utf8')) as { columns: Record<string, unknown[]> };
    expect(new Set(processed.columns.region)).toEqual(new Set(['north']));
    expect(new Set(processed.columns.traj)).toEqual(new Set(['0', '2']));
    expect(new Set(processed.columns.Stores_x)).toEqual(new Set([7, 9]));
    expect(processed.columns.lift!.slice(0, 2)).toEqual([-3.5, 3.5]); // a (-0.5, 0.5) x 7
    expect(processed.columns.code).toBeUndefined(); // the stores' key column is not repeated

    // A key column the table lacks, a table not connected, another tenant's table: the server refuses
    // them (the rules of the panel, `correlation-check.ts`) naming the place. One stored anyway
    // (before the rule, or its table changed since) fails its processing job with the reason.
    const reasons: string[] = [];
    const otherTenant = await createUser(server, { tenantId: await createTenant(server) });
    const foreignId = await uploadCsv(server, otherTenant, 'code,v\nS0,1\n');
    const places = [['correlation.relation.0.toField', 'correlation.table.1'], ['correlation.table.1', 'correlation.table.2'], ['correlation.relation.0.toField', 'correlation.table.1']];
    for (const [i, relations] of [[{ ...toStores, toField: 'nope' }], [toRegions], [{ ...toStores, to: foreignId }]].entries()) {
      const refused = await call('solution/setTableCorrelation', correlation(relations));
      expect(refused.body.code).toBe(ErrorCode.paramInvalid);
      expect(Object.keys(refused.body.errors ?? {}).sort()).toEqual(places[i]);
      await server.app.db.knex('modelling_patterns').where({ solution_id: solutionId }).update({ correlation: JSON.stringify(correlation(relations).correlation) });
      const failed = await process(`bad${reasons.length}`, { filter: 'region == "north"' });
      expect(failed.processState).toBe('failed');
      reasons.push((await server.app.db.knex('jobs').where({ id: failed.processJobId }).first('error')).error as string);
    }
    expect(reasons[0]).toBe('Table fields are inconsistent: table "Stores" has no key column "nope" (relation 1; columns: code, region_id, x)');
    expect(reasons[1]).toMatch(/^Table parameter error: table "(Stores|regions)" is not connected to the primary table "tiny" through the relations$/);
    expect(reasons[2]).toBe(`Table not found: table ${foreignId}`);
  });
});
