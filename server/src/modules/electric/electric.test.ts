import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ErrorCode } from '@decisio/domain';
import { thermalTask } from '@decisio/learning';
import { databases, startTestServer, type TestServer } from '../../test/server';
import { discoverServerPlugins } from '../../plugins/discover';
import { TemplateRegistry } from '../templates/registry';
import { ColdRoomModel, coldRoomData } from './model';
import { ELECTRIC_CALLS_PER_WINDOW } from './service';

/** The electric template's data file (plugins/template-electric), as the server reads it. */
const electric = await new TemplateRegistry(await discoverServerPlugins()).dataOf('electric');

describe('cold-room model', () => {
  const model = ColdRoomModel.fit(coldRoomData(electric.table));

  it('fits the template data closely on held-out rooms and decides by the template reward', () => {
    // The template's dynamics are linear in these features, up to noise of sd 0.1 °C.
    expect(model.heldOutMae).toBeLessThan(0.15);
    expect(model.trainingRows).toBe(18 * 200);
    // Warm room: full power; at the target with the door shut: little power.
    expect(model.decide(15, true).power).toBe(10);
    const calm = model.decide(-2, false);
    expect(calm.power).toBeLessThan(2);
    // The decision is the best of the grid on the template's reward under the model.
    const score = (p: number) => thermalTask.reward({ next_temperature: [model.predict(4, false, p)], action: [p] });
    const chosen = model.decide(4, false);
    for (const p of [0, 2.5, 5, 7.5, 10]) expect(score(chosen.power)).toBeGreaterThanOrEqual(score(p));
  });

  it('beats the logged controller in the true simulator on the same seeds', () => {
    const c = model.compare();
    expect(c.model.meanReturn).toBeGreaterThan(c.logged.meanReturn);
    expect(c.model.meanDeviation).toBeLessThan(c.logged.meanDeviation);
  });
});

describe.each(databases)('electricShow through HTTP on %s', (kind) => {
  let server: TestServer;
  const call = (name: string, body: unknown) => server.call(name, { body, headers: { 'Accept-Language': 'en-US' } });

  beforeAll(async () => {
    server = await startTestServer(kind);
  });
  beforeEach(async () => {
    await server.app.db.knex('rate_window_hits').where({ bucket: 'electric-show' }).delete();
  });
  afterAll(async () => {
    await server?.stop();
  });

  it('answers the demonstration rooms\' logged series from the template data, without an account', async () => {
    const pumps = await call('electricShow/getPumpControlList', { site: '330' });
    expect(pumps.status).toBe(200);
    expect(pumps.body.data.room).toBe(3);
    expect(pumps.body.data.rows).toHaveLength(200);
    const temps = await call('electricShow/getTemperatureControlList', { site: '330' });
    // Room 3 of the template CSV, row by row.
    const csv = electric.csv.toString('utf8').trimEnd().split('\n').slice(1).map((l) => l.split(','));
    const room3 = csv.filter((r) => r[0] === '3');
    expect(temps.body.data.rows[5].temperature.toFixed(4)).toBe(room3[5]![3]);
    expect(temps.body.data.rows[5].doorOpen).toBe(room3[5]![4] === '1');
    expect(pumps.body.data.rows[5].power.toFixed(4)).toBe(room3[5]![5]);
    expect((await call('electricShow/getPumpControlList', { site: '600' })).body.data.room).toBe(6);
  });

  it('decides for an over-temperature state with the fitted model and keeps the result with its charts', async () => {
    const decided = await call('electricShow/decisionSuperTemperature', { site: '600', temperature: 9.5, doorOpen: false });
    expect(decided.body.code).toBe(0);
    const d = decided.body.data;
    expect(d.power).toBe(10);
    expect(d.model.kind).toBe('least-squares-dynamics+lookahead');
    expect(d.predictedNext).toBeLessThan(9.5);
    const result = await call('electricShow/getSuperTemperatureResult', { decisionId: d.decisionId });
    expect(result.body.code).toBe(0);
    expect(result.body.data).toMatchObject({ decisionId: d.decisionId, power: 10, temperature: 9.5 });
    expect(result.body.data.forecast).toHaveLength(48);
    expect(result.body.data.forecast[47].temperature).toBeLessThan(0);
    expect(result.body.data.comparison.model.meanReturn).toBeGreaterThan(result.body.data.comparison.logged.meanReturn);
    // Nothing of the caller is kept with the decision.
    const row = await server.app.db.knex('electric_decisions').where({ id: d.decisionId }).first();
    expect(Object.keys(row).sort()).toEqual(['created_at', 'door_open', 'id', 'power', 'predicted_next', 'result', 'site', 'temperature']);
    expect(JSON.stringify(result.body.data)).not.toContain('127.0.0.1');
  });

  it('answers notFound while no plugin contributes the electric template', async () => {
    const bare = await startTestServer(kind, { plugins: [] });
    try {
      const r = await bare.call('electricShow/getPumpControlList', { body: { site: '330' } });
      expect(r.body.code).toBe(ErrorCode.notFound);
    } finally {
      await bare.stop();
    }
  });

  it('refuses bad input (400) and answers notFound for an unknown decision', async () => {
    for (const [name, body] of [
      ['electricShow/getPumpControlList', { site: '999' }],
      ['electricShow/getTemperatureControlList', {}],
      ['electricShow/decisionSuperTemperature', { site: '330', temperature: 80, doorOpen: false }],
      ['electricShow/decisionSuperTemperature', { site: '330', temperature: 'hot', doorOpen: false }],
      ['electricShow/getSuperTemperatureResult', { decisionId: 'x' }],
    ] as const) {
      const r = await call(name, body);
      expect(r.status, name).toBe(400);
      expect(r.body.code, name).toBe(ErrorCode.paramInvalid);
    }
    const missing = await call('electricShow/getSuperTemperatureResult', { decisionId: 'a'.repeat(32) });
    expect(missing.body.code).toBe(ErrorCode.notFound);
  });

  it('limits the calls of one address', async () => {
    for (let i = 0; i < ELECTRIC_CALLS_PER_WINDOW; i++) expect((await call('electricShow/getPumpControlList', { site: '330' })).body.code).toBe(0);
    const limited = await call('electricShow/getTemperatureControlList', { site: '330' });
    expect(limited.status).toBe(429);
    expect(limited.body.code).toBe(ErrorCode.tooManyRequests);
    expect((await call('electricShow/decisionSuperTemperature', { site: '330', temperature: 5, doorOpen: true })).body.code).toBe(ErrorCode.tooManyRequests);
  });
});
