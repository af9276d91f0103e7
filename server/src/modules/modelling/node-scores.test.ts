import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { stepScore } from '@decisio/learning';
import { databases } from '../../test/server';
import { TINY_BC, modellingTestServer, until, type ModellingTestServer } from './testing';

/** An environment training keeps per-node validation scores with its record (issue 17 item 4). */
describe.each(databases)('environment node scores on %s', (kind) => {
  let m: ModellingTestServer;
  const call = (name: string, body: unknown) => m.server.call(name, { token: m.token, body });

  beforeAll(async () => {
    m = await modellingTestServer(kind);
  }, 120_000);
  afterAll(async () => {
    await m?.server.stop();
  });

  it('measures every learned node on the held-out trajectories and answers them with the record', async () => {
    const created = await call('trainSimulator/create', { solutionId: m.solutionId, schemeId: m.schemeId, name: 'env-nodes', stopConditions: { system: true }, hyperparameters: TINY_BC });
    expect(created.body.code).toBe(0);
    const done = await until(() => call('trainSimulator/get', { id: created.body.data.id }), (r) => ['successful', 'failure'].includes(r.body.data.state), 120_000);
    expect(done.body.data.state).toBe('successful');
    const row = done.body.data;
    const scores = row.nodeScores as { nodes: Record<string, { mae: number; mse: number; r2: number | null; score: number; count: number }>; mae: number; score: number; horizon: number; windows: number };
    expect(scores).toBeTruthy();
    // The tiny graph learns next_obs from obs and action.
    expect(Object.keys(scores.nodes)).toContain('next_obs');
    for (const node of Object.values(scores.nodes)) {
      expect(node.count).toBeGreaterThan(0);
      expect(node.mae).toBeGreaterThanOrEqual(0);
      expect(node.mse).toBeGreaterThanOrEqual(0);
      expect(node.score).toBeCloseTo(stepScore(node.mae), 9);
      // R² can be any real below 1 for a barely trained model; null only for data that does not vary.
      expect(node.r2 === null || node.r2 <= 1).toBe(true);
    }
    expect(scores.horizon).toBeGreaterThan(0);
    expect(scores.windows).toBeGreaterThan(0);
    // The overall figure is the record's score, from the same evaluation.
    expect(scores.score).toBeCloseTo(row.score, 9);
    expect(scores.score).toBeCloseTo(stepScore(scores.mae), 9);
    const listed = (await call('trainSimulator/list', { solutionId: m.solutionId })).body.data;
    const item = (Array.isArray(listed) ? listed : listed.rows).find((r: { id: string }) => r.id === row.id);
    expect(item.nodeScores).toEqual(scores);
    // The training's log names them too.
    const log = await call('train/getTrainLog', { jobId: row.jobId });
    expect(JSON.stringify(log.body.data)).toContain('node scores: ');
  }, 180_000);
});
