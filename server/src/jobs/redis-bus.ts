import { Redis } from 'ioredis';
import { Queue } from 'bullmq';
import type { JobEvent, JobEventSink } from './events';
import type { JobStore } from './store';

/** Where a deployment's queue lives in Redis. */
export interface RedisQueueNames {
  /** BullMQ key prefix (default `decisio`); tests use a unique one each. */
  prefix: string;
  /** Name of the shared queue (default `jobs`). */
  queueName: string;
}

/** Defaults of `RedisQueueNames`. */
export const defaultRedisNames: RedisQueueNames = { prefix: 'decisio', queueName: 'jobs' };

/** Opens a Redis connection fit for BullMQ (`maxRetriesPerRequest: null`). */
export function openRedis(url: string): Redis {
  return new Redis(url, { maxRetriesPerRequest: null });
}

/** The pub/sub channel of job events. */
export function eventsChannel(n: RedisQueueNames): string {
  return `${n.prefix}:${n.queueName}:events`;
}

/** The pub/sub channel of stop requests. */
export function stopChannel(n: RedisQueueNames): string {
  return `${n.prefix}:${n.queueName}:stop`;
}

/** Name of the BullMQ queue of the upkeep lane (`JobKind.lane`): every worker takes it, one job at a time. */
export function upkeepQueueName(n: RedisQueueNames): string {
  return `${n.queueName}-upkeep`;
}

/** Name of the BullMQ queue of jobs pinned to one worker. */
export function pinnedQueueName(n: RedisQueueNames, workerId: string): string {
  return `${n.queueName}-w-${workerId}`;
}

/**
 * Name of the BullMQ queue of jobs that need one engine version (`jobs.engine_version`): the
 * workers of that version take from it besides the shared queue. Characters BullMQ forbids in a
 * name (`:`) or that could clash are written as `_<hex>`.
 */
export function versionQueueName(n: RedisQueueNames, engineVersion: string): string {
  const safe = engineVersion.replace(/[^A-Za-z0-9.-]/g, (c) => `_${c.codePointAt(0)!.toString(16)}_`);
  return `${n.queueName}-v-${safe}`;
}

/** Publishes job events on Redis (worker processes, and the server for its own changes). */
export class RedisEventSink implements JobEventSink {
  constructor(
    private readonly redis: Redis,
    private readonly names: RedisQueueNames,
  ) {}

  emit(event: JobEvent): void {
    void this.redis.publish(eventsChannel(this.names), JSON.stringify(event)).catch(() => undefined);
  }
}

/**
 * Puts jobs on BullMQ queues (shared, pinned to a worker, or of an engine version). The BullMQ job only carries the
 * row id; its own id is `<row id>-<attempts>` so a job queued again after its worker was lost
 * is a new BullMQ job. A stale BullMQ job (BullMQ's own stall recovery) finds the row claimed and
 * does nothing.
 */
export class BullMqDispatcher {
  private readonly queues = new Map<string, Queue>();

  constructor(
    private readonly connection: Redis,
    private readonly names: RedisQueueNames,
    private readonly store: JobStore,
    /** Kinds of the upkeep lane: unpinned, they go to its queue, whatever slots the others hold. */
    private readonly upkeepKinds: ReadonlySet<string> = new Set(),
  ) {}

  /** Queues the job with id `jobId` as it is in the database. */
  async dispatch(jobId: string): Promise<void> {
    const job = await this.store.getJob(jobId);
    if (!job) return;
    const name = job.pinWorkerId
      ? pinnedQueueName(this.names, job.pinWorkerId)
      : this.upkeepKinds.has(job.kind)
        ? upkeepQueueName(this.names)
        : job.engineVersion
        ? versionQueueName(this.names, job.engineVersion)
        : this.names.queueName;
    await this.queue(name).add(job.kind, { jobId }, { jobId: `${jobId}-${job.attempts}`, removeOnComplete: true, removeOnFail: true });
  }

  private queue(name: string): Queue {
    let q = this.queues.get(name);
    if (!q) {
      q = new Queue(name, { connection: this.connection, prefix: this.names.prefix });
      this.queues.set(name, q);
    }
    return q;
  }

  async close(): Promise<void> {
    await Promise.allSettled([...this.queues.values()].map((q) => q.close()));
    this.queues.clear();
  }
}
