import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newId } from '../../db/ids';
import { databases, startTestServer, type TestServer } from '../../test/server';
import { claimDatasetRefresh } from './refresh-claims';

/** A clock the test sets. */
function clockAt(ms: number) {
  return { now: () => new Date(ms) };
}

describe.each(databases)('dataset refresh claims on %s', (kind) => {
  // Two servers of one database: the claims of one are seen by the other.
  let a: TestServer;
  let b: TestServer;
  const tenantId = 'c'.repeat(32);
  beforeAll(async () => {
    a = await startTestServer(kind);
    b = await startTestServer(kind, { databaseUrl: a.databaseUrl, migrate: false });
  });
  afterAll(async () => {
    await b?.stop();
    await a?.stop();
  });

  it('lets exactly one of many simultaneous claims from two servers hold a dataset', async () => {
    const datasetId = newId();
    const t = Date.now();
    const tries = await Promise.all(
      Array.from({ length: 8 }, (_, i) => claimDatasetRefresh((i % 2 ? b : a).app.db, clockAt(t), { datasetId, tenantId, jobId: `job-${i}`, runId: null }, 60_000)),
    );
    const held = tries.filter((r) => r.held);
    expect(held).toHaveLength(1);
    const winner = (await a.app.db.knex('dataset_refresh_claims').where('dataset_id', datasetId).first('job_id')) as { job_id: string };
    for (const r of tries.filter((x) => x.other)) expect(r.other!.jobId).toBe(winner.job_id);
    await held[0]!.held!.release();
    expect(await a.app.db.knex('dataset_refresh_claims').where('dataset_id', datasetId)).toEqual([]);
  });

  it('refuses while the lease lives, renews it, frees it on release, and hands it over once it ran out', async () => {
    const datasetId = newId();
    const t = Date.now();
    const first = await claimDatasetRefresh(a.app.db, clockAt(t), { datasetId, tenantId, jobId: 'first', runId: 'r'.repeat(32) }, 60_000);
    expect(first.held).toBeTruthy();
    const refused = await claimDatasetRefresh(b.app.db, clockAt(t + 59_000), { datasetId, tenantId, jobId: 'second', runId: null }, 60_000);
    expect(refused.other).toMatchObject({ jobId: 'first', runId: 'r'.repeat(32) });
    expect(refused.other!.claimedAt.getTime()).toBe(t);
    expect(refused.other!.leaseUntil.getTime()).toBe(t + 60_000);

    // Released: the next claim holds at once.
    await first.held!.release();
    let bNow = t + 59_000;
    const next = await claimDatasetRefresh(b.app.db, { now: () => new Date(bNow) }, { datasetId, tenantId, jobId: 'second', runId: null }, 60_000);
    expect(next.held).toBeTruthy();
    // Renewed 41 s later: a claim past the first lease's end (t + 119 s) is still refused.
    bNow = t + 100_000;
    expect(await next.held!.renew()).toBe(true);
    expect((await claimDatasetRefresh(a.app.db, clockAt(t + 119_500), { datasetId, tenantId, jobId: 'third', runId: null }, 60_000)).other?.jobId).toBe('second');

    // Its holder stopped renewing: once the lease is over another server takes the claim over,
    // and the old holder can neither renew nor release the new one's.
    const lease = Number(((await a.app.db.knex('dataset_refresh_claims').where('dataset_id', datasetId).first('lease_until_ms')) as { lease_until_ms: number | string }).lease_until_ms);
    expect(lease).toBe(t + 160_000);
    const taken = await claimDatasetRefresh(a.app.db, clockAt(lease + 1), { datasetId, tenantId, jobId: 'third', runId: null }, 60_000);
    expect(taken.held).toBeTruthy();
    expect(await next.held!.renew()).toBe(false);
    await next.held!.release();
    expect(((await b.app.db.knex('dataset_refresh_claims').where('dataset_id', datasetId).first('job_id')) as { job_id: string }).job_id).toBe('third');
    await taken.held!.release();
  });
});
