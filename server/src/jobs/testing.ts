/**
 * Test helpers of the job queue: a migrated database of each kind, Redis with a unique key
 * prefix per test (deleted after), and waiting for a job state.
 */
import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import { systemClock } from '../clock';
import { Database, type DatabaseKind } from '../db/database';
import { migrateLatest } from '../db/migrator';
import { createTestDatabase } from '../test/server';
import { JobState } from './states';
import { JobStore, type JobRecord } from './store';
import type { JobQueue } from './contract';

/** Redis of the tests: `TEST_REDIS_URL`, else the local default. */
export const testRedisUrl = process.env.TEST_REDIS_URL || 'redis://127.0.0.1:6379';

/**
 * True when Redis answers a ping within a second. False when `npm test` found none
 * (`DECISIO_TEST_MISSING_REDIS`): the tests then skip rather than use the local default.
 */
export async function redisAvailable(url = testRedisUrl): Promise<boolean> {
  if (process.env.DECISIO_TEST_MISSING_REDIS) return false;
  const r = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 0, connectTimeout: 1000, retryStrategy: () => null });
  try {
    await r.connect();
    return (await r.ping()) === 'PONG';
  } catch {
    return false;
  } finally {
    r.disconnect();
  }
}

/** A fresh migrated database and a job store over it. */
export interface JobsTestDb {
  url: string;
  db: Database;
  store: JobStore;
  drop(): Promise<void>;
}

/** Creates a migrated database of `kind` for job tests. */
export async function createJobsTestDb(kind: DatabaseKind): Promise<JobsTestDb> {
  const created = await createTestDatabase(kind);
  const db = Database.open(created.url);
  await migrateLatest(db, []);
  return {
    url: created.url,
    db,
    store: new JobStore(db, systemClock),
    async drop() {
      await db.close();
      await created.drop();
    },
  };
}

/** A unique BullMQ prefix, and how to delete its keys. */
export function redisPrefix(url = testRedisUrl): { prefix: string; clean(): Promise<void> } {
  const prefix = `decisio-test-${randomBytes(5).toString('hex')}`;
  return {
    prefix,
    async clean() {
      const r = new Redis(url);
      try {
        let cursor = '0';
        do {
          const [next, keys] = await r.scan(cursor, 'MATCH', `${prefix}:*`, 'COUNT', 500);
          cursor = next;
          if (keys.length > 0) await r.del(...keys);
        } while (cursor !== '0');
      } finally {
        r.disconnect();
      }
    },
  };
}

/** Polls until the job reaches one of `states` (or throws after `timeoutMs`). */
export async function waitForState(
  get: () => Promise<JobRecord | null>,
  states: JobState | readonly JobState[],
  timeoutMs = 20_000,
): Promise<JobRecord> {
  const wanted = typeof states === 'string' ? [states] : states;
  const deadline = Date.now() + timeoutMs;
  let last: JobRecord | null = null;
  while (Date.now() < deadline) {
    last = await get();
    if (last && wanted.includes(last.state)) return last;
    await new Promise((r) => setTimeout(r, 20));
  }
  throw new Error(`Job did not reach ${wanted.join('/')} in ${timeoutMs} ms (last: ${last?.state ?? 'none'})`);
}

/** Polls until `check` is true. */
export async function waitUntil(check: () => boolean | Promise<boolean>, timeoutMs = 20_000, what = 'condition'): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await check()) return;
    await new Promise((r) => setTimeout(r, 20));
  }
  throw new Error(`Timed out waiting for ${what}`);
}

/**
 * The upkeep lane's case (`JobKind.lane`), on a queue whose workers have one slot and run
 * `test.forever` (waits for a stop): with the slot held and another job waiting, the upkeep job
 * `upkeep` still runs to success; the slot stays one (the waiting job starts only once the first
 * is stopped). Returns the upkeep job's record.
 */
export async function checkUpkeepBesideBusySlot(
  q: Pick<JobQueue, 'enqueue' | 'get' | 'stop'>,
  scope: { tenantId: string },
  upkeep: { kind: string; payload?: unknown },
  timeoutMs = 20_000,
): Promise<JobRecord> {
  const long = await q.enqueue('test.forever', null, scope);
  await waitForState(() => q.get(long.id, scope), JobState.processing, timeoutMs);
  const next = await q.enqueue('test.forever', null, scope);
  const job = await q.enqueue(upkeep.kind, upkeep.payload ?? null, scope);
  const done = await waitForState(() => q.get(job.id, scope), JobState.successful, timeoutMs);
  const states = [(await q.get(long.id, scope))!.state, (await q.get(next.id, scope))!.state];
  if (states[0] !== JobState.processing || states[1] !== JobState.waiting) throw new Error(`expected the slot's job processing and the next waiting, got ${states.join(', ')}`);
  await q.stop(long.id, scope);
  await waitForState(() => q.get(next.id, scope), JobState.processing, timeoutMs);
  await q.stop(next.id, scope);
  return done;
}
