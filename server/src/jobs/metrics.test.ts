import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_TENANT_ID, newId } from '../db/ids';
import * as jobMetricsMigration from '../db/migrations/20261128170000_create_job_metrics';
import { databases, startTestServer, type TestServer } from '../test/server';
import { readPoints, writePoint } from './metrics';

describe.each(databases)('job metrics rows on %s', (kind) => {
  let server: TestServer;
  const knex = () => server.app.db.knex;
  const at = (s: number) => new Date(Date.UTC(2026, 10, 28, 17, 0, s));
  const newJob = async () => {
    const id = newId();
    await knex()('jobs').insert({ id, tenant_id: DEFAULT_TENANT_ID, kind: 'test.metrics', name: 'metrics', state: 'processing', payload: '{}', progress: 0, created_at: at(0), updated_at: at(0) });
    return id;
  };

  beforeAll(async () => {
    server = await startTestServer(kind);
  });
  afterAll(async () => {
    await server?.stop();
  });

  it('writes one row per finite metric of a point and reads them back by range', async () => {
    const jobId = await newJob();
    expect(await writePoint(knex(), DEFAULT_TENANT_ID, jobId, 0, { loss: 2, 'val/mse': 1.5, bad: NaN }, at(1))).toBe(1);
    expect(await writePoint(knex(), DEFAULT_TENANT_ID, jobId, 1, { loss: 1.25, 'val/mse': 0.75 }, at(2))).toBe(2);
    expect(await writePoint(knex(), DEFAULT_TENANT_ID, jobId, 2, { loss: 0.5 }, at(3))).toBe(3);
    expect(await writePoint(knex(), DEFAULT_TENANT_ID, jobId, -1, { score: 71 }, at(4))).toBe(4);
    const rows = await knex()('job_metrics').where({ job_id: jobId }).orderBy('id');
    expect(rows).toHaveLength(6);
    expect(rows.every((r) => r.tenant_id === DEFAULT_TENANT_ID)).toBe(true);
    expect(rows.map((r) => r.name)).not.toContain('bad');

    const all = await readPoints(knex(), jobId);
    expect(all).toEqual([
      { id: 1, time: at(1).toISOString(), step: 0, loss: 2, 'val/mse': 1.5 },
      { id: 2, time: at(2).toISOString(), step: 1, loss: 1.25, 'val/mse': 0.75 },
      { id: 3, time: at(3).toISOString(), step: 2, loss: 0.5 },
      { id: 4, time: at(4).toISOString(), step: -1, score: 71 },
    ]);
    // From a step (the closing point stays), after a point, some names, a page.
    expect((await readPoints(knex(), jobId, { fromStep: 2 })).map((p) => p.id)).toEqual([3, 4]);
    expect((await readPoints(knex(), jobId, { afterPoint: 2 })).map((p) => p.id)).toEqual([3, 4]);
    expect(await readPoints(knex(), jobId, { names: ['val/mse'] })).toEqual([
      { id: 1, time: at(1).toISOString(), step: 0, 'val/mse': 1.5 },
      { id: 2, time: at(2).toISOString(), step: 1, 'val/mse': 0.75 },
    ]);
    expect((await readPoints(knex(), jobId, { limit: 2 })).map((p) => p.id)).toEqual([1, 2]);
    expect((await readPoints(knex(), jobId, { afterPoint: 1, names: ['loss'], fromStep: 1, limit: 1 })).map((p) => p.id)).toEqual([2]);
    // Another job's series is its own.
    const other = await newJob();
    expect(await writePoint(knex(), DEFAULT_TENANT_ID, other, 0, { loss: 9 }, at(5))).toBe(1);
    expect(await readPoints(knex(), other)).toEqual([{ id: 1, time: at(5).toISOString(), step: 0, loss: 9 }]);
    // Deleting the job deletes its rows.
    await knex()('jobs').where({ id: other }).del();
    expect(await knex()('job_metrics').where({ job_id: other })).toHaveLength(0);
  });

  it('moves the metrics log lines of older jobs into rows, and back on rollback', async () => {
    const jobId = await newJob();
    await writePoint(knex(), DEFAULT_TENANT_ID, jobId, 0, { loss: 3, reward: 1 }, at(6));
    await writePoint(knex(), DEFAULT_TENANT_ID, jobId, 1, { loss: 2 }, at(7));
    await knex()('job_logs').insert({ job_id: jobId, level: 'info', message: 'epoch done', created_at: at(8) });
    const before = await readPoints(knex(), jobId);

    // Back: each point a `metrics {...}` debug line, the table gone.
    await jobMetricsMigration.down(knex());
    expect(await knex().schema.hasTable('job_metrics')).toBe(false);
    const lines = await knex()('job_logs').where({ job_id: jobId }).orderBy('id').select('level', 'message');
    expect(lines).toEqual(
      expect.arrayContaining([
        { level: 'debug', message: 'metrics {"step":0,"loss":3,"reward":1}' },
        { level: 'debug', message: 'metrics {"step":1,"loss":2}' },
        { level: 'info', message: 'epoch done' },
      ]),
    );
    // A malformed line becomes an empty point (no rows) and is removed like the others.
    await knex()('job_logs').insert({ job_id: jobId, level: 'debug', message: 'metrics {broken', created_at: at(9) });

    // Up: the lines become rows again, in their order, and leave the log.
    await jobMetricsMigration.up(knex());
    const after = await readPoints(knex(), jobId);
    expect(after).toEqual(before);
    expect(await knex()('job_logs').where({ job_id: jobId }).select('message')).toEqual([{ message: 'epoch done' }]);
  });
});
