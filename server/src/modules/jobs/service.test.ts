/**
 * `JobContract.wait` against a queue held in memory, on a clock that stands still: a state
 * event is never lost, whenever it comes (before the wait listens, or while it re-reads), so the
 * wait answers at once instead of at its next half-second poll.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { ServerCallUser } from '@decisio/sdk-plugin/server';
import { JobEvents } from '../../jobs/events';
import type { JobQueue } from '../../jobs/queue';
import type { JobRecord } from '../../jobs/store';
import { JobContract } from './service';
import { JobOwners } from './sources';

const user: ServerCallUser = { id: 'u'.repeat(32), username: 'alice', tenantId: 't'.repeat(32), roles: ['user'], permissions: [], isSystemRole: false };
const jobId = 'a'.repeat(32);

/** A processing job of no module's kind (its starter's alone), read and changed in memory. */
function memoryQueue() {
  const events = new JobEvents();
  const now = new Date();
  const job: JobRecord = {
    id: jobId,
    tenantId: user.tenantId,
    userId: user.id,
    kind: 'test.memory',
    name: 'memory',
    state: 'processing',
    payload: null,
    progress: 0,
    metrics: {},
    error: null,
    workerId: null,
    pinWorkerId: null,
    engineVersion: null,
    attempts: 1,
    maxAttempts: 1,
    checkpointRef: null,
    createdAt: now,
    updatedAt: now,
    startedAt: now,
    endedAt: null,
  };
  /** Called before each read (the first read is 1); may change the job before it is read. */
  let onRead: (n: number) => void = () => undefined;
  let reads = 0;
  /** Called as the wait subscribes, before its listener is added. */
  let onSubscribe: () => void = () => undefined;
  const finish = () => {
    job.state = 'successful';
    events.emit({ type: 'state', jobId, tenantId: user.tenantId, state: 'successful', workerId: null });
  };
  /** A state event that changes nothing the wait looks at. */
  const nudge = () => events.emit({ type: 'state', jobId, tenantId: user.tenantId, state: job.state, workerId: 'w1' });
  const queue = {
    async get(id: string) {
      onRead(++reads);
      return id === jobId ? { ...job } : null;
    },
    subscribe(listener: Parameters<JobQueue['subscribe']>[0]) {
      onSubscribe();
      return events.subscribe(listener);
    },
  } as unknown as JobQueue;
  return {
    queue,
    finish,
    nudge,
    reads: () => reads,
    set onRead(f: (n: number) => void) {
      onRead = f;
    },
    set onSubscribe(f: () => void) {
      onSubscribe = f;
    },
  };
}

/** Whether `p` has settled once what is due now (promises) has run; the fake clock stays put. */
async function settledNow<T>(p: Promise<T>): Promise<boolean> {
  let done = false;
  void p.then(
    () => (done = true),
    () => (done = true),
  );
  await vi.advanceTimersByTimeAsync(0);
  return done;
}

describe('job/wait (JobContract.wait)', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('answers at once on an event that came between its first read and its subscription', async () => {
    const m = memoryQueue();
    m.onSubscribe = m.finish; // the job ends after the first read, before the wait listens
    const wait = new JobContract(m.queue, new JobOwners()).wait(user, jobId, undefined, 30_000, 'en-US');
    expect(await settledNow(wait)).toBe(true);
    expect(await wait).toMatchObject({ state: 'successful', final: true, changed: true });
  });

  it('answers at once on an event that came while it re-read the state', async () => {
    const m = memoryQueue();
    const wait = new JobContract(m.queue, new JobOwners()).wait(user, jobId, undefined, 30_000, 'en-US');
    expect(await settledNow(wait)).toBe(false); // asleep: nothing changed
    // A state event that changes nothing the wait looks at (a worker took the job) wakes it; the
    // job ends just after the re-read it caused was made, so that read still sees 'processing'.
    m.onRead = () => {
      m.onRead = () => undefined;
      queueMicrotask(m.finish);
    };
    m.nudge();
    expect(await settledNow(wait)).toBe(true);
    expect(await wait).toMatchObject({ state: 'successful', changed: true });
  });

  it('sleeps until an event or the poll when nothing changed, and answers unchanged at the timeout', async () => {
    const m = memoryQueue();
    const wait = new JobContract(m.queue, new JobOwners()).wait(user, jobId, undefined, 2_000, 'en-US');
    expect(await settledNow(wait)).toBe(false);
    const readsAsleep = m.reads();
    await vi.advanceTimersByTimeAsync(100);
    expect(m.reads()).toBe(readsAsleep); // no event: no read before the poll
    m.finish();
    expect(await settledNow(wait)).toBe(true);
    expect(await wait).toMatchObject({ state: 'successful', changed: true });

    const idle = memoryQueue();
    const unchanged = new JobContract(idle.queue, new JobOwners()).wait(user, jobId, undefined, 2_000, 'en-US');
    await vi.advanceTimersByTimeAsync(2_000);
    expect(await settledNow(unchanged)).toBe(true);
    expect(await unchanged).toMatchObject({ state: 'processing', changed: false });
  });
});
