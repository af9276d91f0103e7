import type { Redis } from 'ioredis';
import { StoreBackedQueue } from './base-queue';
import type { EnqueueOptions } from './contract';
import { JobEvents, type JobEvent } from './events';
import { DEFAULT_DEAD_AFTER_MS, DEFAULT_HEARTBEAT_MS, WorkerReaper } from './reaper';
import { BullMqDispatcher, defaultRedisNames, eventsChannel, openRedis, RedisEventSink, stopChannel, type RedisQueueNames } from './redis-bus';
import type { JobRecord, JobStore } from './store';

/** Options of `BullMqQueue`. */
export interface BullMqQueueOptions extends Partial<RedisQueueNames> {
  redisUrl: string;
  /** A worker silent for longer is declared dead and its jobs restored (default 30 s). */
  deadAfterMs?: number;
  /** How often the server looks for dead workers (default 5 s). */
  sweepMs?: number;
  /** Kinds of the upkeep lane (`JobKindRegistry.upkeepKinds()`), queued apart from the others. */
  upkeepKinds?: Iterable<string>;
}

/**
 * The Redis adapter (`REDIS_URL`): the server queues jobs on BullMQ; any number of
 * `npm run worker` processes run them. Events of every process arrive over Redis pub/sub; the
 * server also sweeps for dead workers.
 */
export class BullMqQueue extends StoreBackedQueue {
  private readonly names: RedisQueueNames;
  private connection: Redis | null = null;
  private subscriber: Redis | null = null;
  private dispatcher: BullMqDispatcher | null = null;
  private sink: RedisEventSink | null = null;
  private reaper: WorkerReaper | null = null;
  private sweeper: NodeJS.Timeout | null = null;
  private sweeping: Promise<unknown> = Promise.resolve();

  constructor(
    store: JobStore,
    private readonly options: BullMqQueueOptions,
  ) {
    super(store, new JobEvents());
    this.names = { prefix: options.prefix ?? defaultRedisNames.prefix, queueName: options.queueName ?? defaultRedisNames.queueName };
  }

  async start(): Promise<void> {
    if (this.connection) return;
    const connection = openRedis(this.options.redisUrl);
    this.connection = connection;
    this.subscriber = openRedis(this.options.redisUrl);
    this.dispatcher = new BullMqDispatcher(connection, this.names, this.store, new Set(this.options.upkeepKinds ?? []));
    this.sink = new RedisEventSink(connection, this.names);
    this.subscriber.on('message', (channel: string, message: string) => {
      if (channel !== eventsChannel(this.names)) return;
      try {
        this.events.emit(JSON.parse(message) as JobEvent);
      } catch {
        // Not ours.
      }
    });
    await this.subscriber.subscribe(eventsChannel(this.names));
    const dispatcher = this.dispatcher;
    this.reaper = new WorkerReaper(this.store, this.sink, (id) => dispatcher.dispatch(id), this.options.deadAfterMs ?? DEFAULT_DEAD_AFTER_MS);
    // Jobs that wait in the database are (re)put on BullMQ: after a Redis loss nothing is
    // forgotten. BullMQ ignores an id it already holds, and claims are conditional anyway.
    for (const id of await this.store.pendingJobIds()) await dispatcher.dispatch(id);
    this.sweeper = setInterval(() => {
      this.sweeping = this.sweeping.then(() => this.sweep()).catch(() => undefined);
    }, this.options.sweepMs ?? DEFAULT_HEARTBEAT_MS);
    this.sweeper.unref();
  }

  async close(): Promise<void> {
    if (this.sweeper) clearInterval(this.sweeper);
    this.sweeper = null;
    await this.sweeping;
    await this.dispatcher?.close();
    this.subscriber?.disconnect();
    this.connection?.disconnect();
    this.connection = this.subscriber = null;
    this.dispatcher = null;
  }

  async enqueue(kind: string, payload: unknown, options: EnqueueOptions): Promise<JobRecord> {
    if (!this.dispatcher) throw new Error('The job queue is not started');
    // A job of an engine version with no worker pinned waits on that version's queue, taken by
    // the workers of that version only (none online yet: it waits for one).
    await this.checkPlacement(options);
    const job = await this.store.createJob({ ...options, kind, payload });
    this.announce(job);
    try {
      await this.dispatcher.dispatch(job.id);
    } catch (err) {
      await this.store.failWaiting(job.id, `Could not queue the job: ${err instanceof Error ? err.message : String(err)}`);
      throw err;
    }
    return job;
  }

  /**
   * One sweep (also run every `sweepMs`): declares silent workers dead and restores their jobs,
   * then puts back on BullMQ the jobs that waited unchanged for `deadAfterMs` (lost from Redis).
   * Resolves with the workers declared dead.
   */
  async sweep(): Promise<string[]> {
    if (!this.reaper || !this.dispatcher) return [];
    const dead = await this.reaper.sweep();
    for (const id of await this.store.pendingJobIds(this.options.deadAfterMs ?? DEFAULT_DEAD_AFTER_MS)) await this.dispatcher.dispatch(id);
    return dead;
  }

  protected async signalStop(job: JobRecord): Promise<void> {
    await this.connection?.publish(stopChannel(this.names), job.id);
  }

  protected announce(job: JobRecord): void {
    this.sink?.emit({ type: 'state', jobId: job.id, tenantId: job.tenantId, state: job.state, workerId: job.workerId });
  }
}
