/**
 * Test helper of the in-process queue: per test, a fresh migrated database of one kind and the
 * queues the test opens over it (2 jobs at a time, worker `local-test`, 100 ms heartbeat unless
 * told otherwise), all closed and the database dropped after the test.
 */
import { afterEach, beforeEach } from 'vitest';
import type { DatabaseKind } from '../db/database';
import { InProcessQueue, type InProcessQueueOptions } from './in-process-queue';
import type { JobKindRegistry } from './kinds';
import { createJobsTestDb, type JobsTestDb } from './testing';

/** What {@link useInProcessQueues} gives a test. */
export interface InProcessQueues {
  /** The database of the running test. */
  t(): JobsTestDb;
  /** Starts a queue over the test's database with the kinds of a fresh registry; `options` go over the defaults. */
  open(options?: InProcessQueueOptions): Promise<InProcessQueue>;
}

/**
 * Hooks the per-test database and queues into the enclosing `describe`. `defaults(t)` adds
 * options of every queue of the suite (e.g. job threads on the test's database).
 */
export function useInProcessQueues(
  kind: DatabaseKind,
  registry: () => JobKindRegistry,
  defaults: (t: JobsTestDb) => InProcessQueueOptions = () => ({}),
): InProcessQueues {
  let current: JobsTestDb | undefined;
  const queues: InProcessQueue[] = [];
  const t = (): JobsTestDb => {
    if (!current) throw new Error('The test database exists only while a test runs');
    return current;
  };

  beforeEach(async () => {
    current = await createJobsTestDb(kind);
  });
  afterEach(async () => {
    for (const q of queues.splice(0)) await q.close();
    await current?.drop();
    current = undefined;
  });

  return {
    t,
    async open(options = {}) {
      const q = new InProcessQueue(t().store, registry(), { concurrency: 2, workerId: 'local-test', heartbeatMs: 100, ...defaults(t()), ...options });
      queues.push(q);
      await q.start();
      return q;
    },
  };
}
