import os from 'node:os';
import { Worker } from 'bullmq';
import type { Redis } from 'ioredis';
import type { JobKindRegistry } from './kinds';
import { machineInfo, withTerminalSandbox, newWorkerId, type MachineInfo } from './machine';
import { DEFAULT_DEAD_AFTER_MS, DEFAULT_HEARTBEAT_MS, WorkerReaper } from './reaper';
import { BullMqDispatcher, defaultRedisNames, openRedis, pinnedQueueName, RedisEventSink, stopChannel, upkeepQueueName, versionQueueName, type RedisQueueNames } from './redis-bus';
import { JobRunner } from './runner';
import type { JobStore } from './store';

/** Options of `JobWorker`. */
export interface JobWorkerOptions extends Partial<RedisQueueNames> {
  redisUrl: string;
  /** Default: host, pid and a random suffix. */
  workerId?: string;
  /** Jobs at once (default: the cores less one, at least 1). */
  concurrency?: number;
  /** Heartbeat period (default 5 s); stop requests are also polled at this pace. */
  heartbeatMs?: number;
  /** Silence after which a worker is declared dead (default 30 s). */
  deadAfterMs?: number;
  machine?: MachineInfo;
}

/**
 * One worker process of the BullMQ adapter (`npm run worker`): registers its machine, heartbeats,
 * takes jobs from the shared queue, from its own pinned queue and from the queue of its engine
 * version, stops handlers on request
 * (Redis pub/sub, with the database polled as a fallback), and sweeps for dead workers too.
 */
export class JobWorker {
  readonly workerId: string;
  private readonly names: RedisQueueNames;
  private readonly concurrency: number;
  private runner: JobRunner | null = null;
  private connection: Redis | null = null;
  private subscriber: Redis | null = null;
  private dispatcher: BullMqDispatcher | null = null;
  private workers: Worker[] = [];
  private timer: NodeJS.Timeout | null = null;
  private ticking: Promise<unknown> = Promise.resolve();
  private reaper: WorkerReaper | null = null;
  private stopped = false;

  constructor(
    private readonly store: JobStore,
    private readonly kinds: JobKindRegistry,
    private readonly options: JobWorkerOptions,
  ) {
    this.workerId = options.workerId ?? newWorkerId();
    this.names = { prefix: options.prefix ?? defaultRedisNames.prefix, queueName: options.queueName ?? defaultRedisNames.queueName };
    this.concurrency = Math.max(1, options.concurrency ?? os.availableParallelism() - 1);
  }

  async start(): Promise<void> {
    const connection = openRedis(this.options.redisUrl);
    this.connection = connection;
    this.subscriber = openRedis(this.options.redisUrl);
    const sink = new RedisEventSink(connection, this.names);
    this.dispatcher = new BullMqDispatcher(connection, this.names, this.store, new Set(this.kinds.upkeepKinds()));
    const dispatcher = this.dispatcher;
    this.reaper = new WorkerReaper(this.store, sink, (id) => dispatcher.dispatch(id), this.options.deadAfterMs ?? DEFAULT_DEAD_AFTER_MS);
    const runner = new JobRunner(this.store, this.kinds, sink, this.workerId);
    this.runner = runner;
    await this.store.registerWorker({ id: this.workerId, concurrency: this.concurrency, ...(await withTerminalSandbox(this.options.machine ?? machineInfo())) });

    this.subscriber.on('message', (_channel: string, jobId: string) => runner.abort(jobId));
    await this.subscriber.subscribe(stopChannel(this.names));

    const processor = async (job: { data: { jobId: string } }) => {
      await runner.run(job.data.jobId);
    };
    // The shared queue, this worker's own, and the queue of jobs that need its engine version.
    const version = (this.options.machine ?? machineInfo()).engineVersion;
    for (const name of [this.names.queueName, pinnedQueueName(this.names, this.workerId), versionQueueName(this.names, version)]) {
      this.workers.push(new Worker(name, processor, { connection, prefix: this.names.prefix, concurrency: this.concurrency }));
    }
    // The upkeep lane: one job at a time, beside the slots (`JobKind.lane`).
    this.workers.push(new Worker(upkeepQueueName(this.names), processor, { connection, prefix: this.names.prefix, concurrency: 1 }));

    this.timer = setInterval(() => {
      this.ticking = this.ticking.then(() => this.tick()).catch(() => undefined);
    }, this.options.heartbeatMs ?? DEFAULT_HEARTBEAT_MS);
  }

  private async tick(): Promise<void> {
    if (this.stopped || !this.runner) return;
    if (!(await this.store.heartbeat(this.workerId))) {
      // Declared dead while alive (a long pause): its jobs were given to others; stop at once.
      await this.kill();
      return;
    }
    for (const id of await this.store.stoppingAmong(this.runner.runningIds())) this.runner.abort(id);
    const orphans = await this.runner.orphans();
    if (this.stopped) return;
    if (orphans.length > 0) await this.reaper?.takeBack(this.workerId, `Worker ${this.workerId} lost track of the job`, { only: orphans });
    await this.reaper?.sweep();
  }

  /**
   * Ends abruptly, as a crash would: no more heartbeats or database writes for its jobs, which
   * stay `processing` until a sweeper declares this worker dead and restores them elsewhere.
   */
  async kill(): Promise<void> {
    if (this.stopped) return;
    this.stopped = true;
    if (this.timer) clearInterval(this.timer);
    this.runner?.halt();
    await Promise.allSettled(this.workers.map((w) => w.close(true)));
    await this.dispatcher?.close();
    this.subscriber?.disconnect();
    this.connection?.disconnect();
  }

  /**
   * Shuts down cleanly: takes no new jobs, cuts the running handlers and hands their jobs back at
   * once (`restoring`, queued for another worker, resuming from their last checkpoint).
   */
  async close(): Promise<void> {
    if (this.stopped) return;
    this.stopped = true;
    if (this.timer) clearInterval(this.timer);
    await this.ticking;
    this.runner?.halt();
    await Promise.allSettled(this.workers.map((w) => w.close()));
    await this.reaper?.takeBack(this.workerId, `Worker ${this.workerId} shut down`, { graceful: true }).catch(() => undefined);
    await this.store.markWorkerStopped(this.workerId).catch(() => undefined);
    await this.dispatcher?.close();
    this.subscriber?.disconnect();
    this.connection?.disconnect();
  }
}
