/**
 * One `datasets.refresh` at a time per dataset, across every server and worker of a database:
 * a run claims the dataset in `dataset_refresh_claims` (one row per dataset, the primary key
 * refuses a second) with a lease it renews while it works and gives back when it ends. A claim
 * whose lease ran out (its process died mid-copy) is taken over with one conditional update, so
 * a crash never blocks the dataset for longer than one lease.
 */
import type { Clock } from '../../clock';
import type { Database } from '../../db/database';
import { isUniqueViolation } from '../../db/errors';

/** How long a claim holds without renewal, ms. */
export const REFRESH_LEASE_MS = 120_000;

/** Who holds (or held) a dataset's claim. */
export interface RefreshClaimHolder {
  jobId: string;
  runId: string | null;
  claimedAt: Date;
  leaseUntil: Date;
}

/** A claim this run holds: `renew()` extends the lease (false: it was lost), `release()` gives it back. */
export interface HeldRefreshClaim {
  renew(): Promise<boolean>;
  release(): Promise<void>;
}

const TABLE = 'dataset_refresh_claims';

interface ClaimRow {
  job_id: string;
  run_id: string | null;
  claimed_at: Date | string;
  lease_until_ms: number | string;
}

/**
 * Claims `datasetId` for the run `jobId`: resolves `{ held }` when this run may refresh it, or
 * `{ other }` (the holder) when another refresh of the dataset holds a live lease.
 */
export async function claimDatasetRefresh(
  db: Database,
  clock: Clock,
  claim: { datasetId: string; tenantId: string; jobId: string; runId: string | null },
  leaseMs = REFRESH_LEASE_MS,
): Promise<{ held: HeldRefreshClaim; other?: undefined } | { held?: undefined; other: RefreshClaimHolder }> {
  const knex = db.knex;
  const now = clock.now();
  const fields = { tenant_id: claim.tenantId, job_id: claim.jobId, run_id: claim.runId, claimed_at: now, lease_until_ms: now.getTime() + leaseMs };
  let won = false;
  try {
    await knex(TABLE).insert({ dataset_id: claim.datasetId, ...fields });
    won = true;
  } catch (err) {
    if (!isUniqueViolation(err)) throw err;
    // Taken over only when the holder's lease is over: one statement, so one server wins.
    won = (await knex(TABLE).where('dataset_id', claim.datasetId).andWhere('lease_until_ms', '<=', now.getTime()).update(fields)) === 1;
  }
  if (!won) {
    const row = (await knex(TABLE).where('dataset_id', claim.datasetId).first('job_id', 'run_id', 'claimed_at', 'lease_until_ms')) as ClaimRow | undefined;
    // Released between the insert and this read: the next tick claims it; this one still skips.
    if (!row) return { other: { jobId: '?', runId: null, claimedAt: now, leaseUntil: now } };
    return { other: { jobId: row.job_id, runId: row.run_id, claimedAt: new Date(row.claimed_at), leaseUntil: new Date(Number(row.lease_until_ms)) } };
  }
  const mine = () => knex(TABLE).where({ dataset_id: claim.datasetId, job_id: claim.jobId });
  return {
    held: {
      renew: async () => (await mine().update({ lease_until_ms: clock.now().getTime() + leaseMs })) === 1,
      release: async () => {
        await mine().del();
      },
    },
  };
}
