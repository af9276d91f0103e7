import os from 'node:os';
import { StoreBackedQueue } from './base-queue';
import { JobEvents } from './events';
import type { JobKindRegistry } from './kinds';
import { machineInfo, type MachineInfo } from './machine';
import { WorkerUnavailableError, type EnqueueOptions } from './contract';
import { DEFAULT_HEARTBEAT_MS, WorkerReaper } from './reaper';
import { JobRunner } from './runner';
import type { JobRecord, JobStore } from './store';

/** Options of `InProcessQueue`. */
export interface InProcessQueueOptions {
  /** Jobs run at once (default: the cores less one, at least 1). */
  concurrency?: number;
  /** Id of the server's own worker row; stable across restarts (default `local-<host>`). */
  workerId?: string;
  heartbeatMs?: number;
  machine?: MachineInfo;
}

/**
 * The embedded adapter: handlers run in the server process, a few at a time. On start it takes
 * back the jobs a previous run of this server left in progress (`restoring`, resumed from their
 * last checkpoint) and queues every job still waiting.
 */
export class InProcessQueue extends StoreBackedQueue {
  readonly workerId: string;
  private readonly runner: JobRunner;
  private readonly reaper: WorkerReaper;
  private readonly concurrency: number;
  private readonly pending: string[] = [];
  private readonly active = new Set<Promise<unknown>>();
  private heartbeat: NodeJS.Timeout | null = null;
  private ticking: Promise<unknown> = Promise.resolve();
  private started = false;
  private closed = false;

  constructor(
    store: JobStore,
    kinds: JobKindRegistry,
    private readonly options: InProcessQueueOptions = {},
  ) {
    super(store, new JobEvents());
    this.workerId = options.workerId ?? `local-${os.hostname().replace(/[^A-Za-z0-9._-]/g, '-')}`.slice(0, 64);
    this.concurrency = Math.max(1, options.concurrency ?? os.availableParallelism() - 1);
    this.runner = new JobRunner(store, kinds, this.events, this.workerId);
    this.reaper = new WorkerReaper(store, this.events, async (id) => this.push(id));
  }

  async start(): Promise<void> {
    if (this.started) return;
    this.started = true;
    // After a clean close the jobs were cut on purpose: resuming them uses up no attempt. After a
    // crash (the row is still online) each resume counts, so a job that kills the server ends.
    const previous = await this.store.getWorker(this.workerId);
    await this.store.registerWorker({ id: this.workerId, concurrency: this.concurrency, ...(this.options.machine ?? machineInfo()) });
    await this.reaper.takeBack(this.workerId, 'The server restarted', { graceful: previous?.status === 'stopped' });
    for (const id of await this.store.pendingJobIds()) this.push(id);
    const ms = this.options.heartbeatMs ?? DEFAULT_HEARTBEAT_MS;
    this.heartbeat = setInterval(() => {
      this.ticking = this.ticking.then(() => this.tick()).catch(() => undefined);
    }, ms);
    this.heartbeat.unref();
  }

  private async tick(): Promise<void> {
    if (this.closed) return;
    await this.store.heartbeat(this.workerId);
    const orphans = await this.runner.orphans();
    if (orphans.length > 0 && !this.closed) await this.reaper.takeBack(this.workerId, 'The server lost track of the job', { only: orphans });
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    if (this.heartbeat) clearInterval(this.heartbeat);
    await this.ticking;
    this.pending.length = 0;
    // Running handlers are cut; their rows stay in progress and are restored on the next start.
    this.runner.halt();
    await Promise.allSettled([...this.active]);
    if (this.started) await this.store.markWorkerStopped(this.workerId).catch(() => undefined);
  }

  async enqueue(kind: string, payload: unknown, options: EnqueueOptions): Promise<JobRecord> {
    if (this.closed) throw new Error('The job queue is closed');
    if (options.pinWorkerId && (await this.store.getWorker(options.pinWorkerId))?.status !== 'online') {
      throw new WorkerUnavailableError(options.pinWorkerId);
    }
    const job = await this.store.createJob({ ...options, kind, payload });
    this.announce(job);
    this.push(job.id);
    return job;
  }

  /** Resolves once nothing is queued or running here (tests). */
  async idle(): Promise<void> {
    while (this.active.size > 0 || this.pending.length > 0) await Promise.race([...this.active, new Promise((r) => setTimeout(r, 10))]);
  }

  protected async signalStop(job: JobRecord): Promise<void> {
    this.runner.abort(job.id);
  }

  protected announce(job: JobRecord): void {
    this.events.emit({ type: 'state', jobId: job.id, tenantId: job.tenantId, state: job.state, workerId: job.workerId });
  }

  private push(jobId: string): void {
    if (this.closed) return;
    this.pending.push(jobId);
    this.pump();
  }

  private pump(): void {
    if (!this.started) return;
    while (!this.closed && this.active.size < this.concurrency && this.pending.length > 0) {
      const id = this.pending.shift()!;
      const p: Promise<unknown> = this.runner.run(id).catch(() => undefined).finally(() => {
        this.active.delete(p);
        this.pump();
      });
      this.active.add(p);
    }
  }
}
