import os from 'node:os';
import { StoreBackedQueue } from './base-queue';
import { JobEvents } from './events';
import type { JobKindRegistry } from './kinds';
import { machineInfo, withTerminalSandbox, type MachineInfo } from './machine';
import { EngineVersionMismatchError, type EnqueueOptions } from './contract';
import { DEFAULT_HEARTBEAT_MS, WorkerReaper } from './reaper';
import { JobRunner, type RunOutcome } from './runner';
import { JobState } from './states';
import type { JobRecord, JobStore } from './store';
import { JobThreadPool, type JobThreadsOptions } from './threads';
import type { Logger } from '../logger';

/** Options of `InProcessQueue`. */
export interface InProcessQueueOptions {
  /** Jobs run at once (default: the cores less one, at least 1). */
  concurrency?: number;
  /** Id of the server's own worker row; stable across restarts (default `local-<host>`). */
  workerId?: string;
  heartbeatMs?: number;
  machine?: MachineInfo;
  /**
   * Runs the handlers in worker threads, one job per thread, up to `concurrency` threads: the
   * kinds the threads' modules register run there, any other kind of `kinds` on this thread.
   * Without it every handler runs on this thread (and blocks its event loop while it computes).
   */
  threads?: JobThreadsOptions;
  logger?: Logger;
}

/**
 * The embedded adapter: handlers run in the server process, a few at a time, in worker threads
 * (`threads`) or on the main thread. On start it takes back the jobs a previous run of this
 * server left in progress (`restoring`, resumed from their last checkpoint) and queues every job
 * still waiting. A thread that dies hands its job back (`restoring`, or `failure` after the last
 * attempt) at once.
 */
export class InProcessQueue extends StoreBackedQueue {
  readonly workerId: string;
  private readonly runner: JobRunner;
  private readonly reaper: WorkerReaper;
  private readonly pool: JobThreadPool | null;
  private readonly concurrency: number;
  private readonly pending: string[] = [];
  private readonly active = new Set<Promise<unknown>>();
  /** The upkeep lane (`JobKind.lane`): its queued jobs and the one it runs, beside the slots. */
  private readonly upkeep: string[] = [];
  private readonly upkeepActive = new Set<Promise<unknown>>();
  private heartbeat: NodeJS.Timeout | null = null;
  private ticking: Promise<unknown> = Promise.resolve();
  private started = false;
  private closed = false;

  constructor(
    store: JobStore,
    private readonly kinds: JobKindRegistry,
    private readonly options: InProcessQueueOptions = {},
  ) {
    super(store, new JobEvents());
    this.workerId = options.workerId ?? `local-${os.hostname().replace(/[^A-Za-z0-9._-]/g, '-')}`.slice(0, 64);
    this.concurrency = Math.max(1, options.concurrency ?? os.availableParallelism() - 1);
    this.runner = new JobRunner(store, kinds, this.events, this.workerId);
    this.reaper = new WorkerReaper(store, this.events, async (id) => this.push(id));
    this.pool = options.threads
      ? new JobThreadPool({
          // One thread more than the slots, for the upkeep lane.
          size: this.concurrency + 1,
          workerId: this.workerId,
          options: options.threads,
          events: this.events,
          logger: options.logger,
          onLost: (jobId, reason) => this.lost(jobId, reason),
        })
      : null;
  }

  async start(): Promise<void> {
    if (this.started) return;
    this.started = true;
    // After a clean close the jobs were cut on purpose: resuming them uses up no attempt. After a
    // crash (the row is still online) each resume counts, so a job that kills the server ends.
    const previous = await this.store.getWorker(this.workerId);
    await this.store.registerWorker({ id: this.workerId, concurrency: this.concurrency, ...(await withTerminalSandbox(this.options.machine ?? machineInfo())) });
    await this.reaper.takeBack(this.workerId, 'The server restarted', { graceful: previous?.status === 'stopped' });
    // Fails the start when the threads cannot load their kinds (a broken module).
    await this.pool?.start();
    for (const id of await this.store.pendingJobIds()) this.push(id);
    this.pumpUpkeep();
    const ms = this.options.heartbeatMs ?? DEFAULT_HEARTBEAT_MS;
    this.heartbeat = setInterval(() => {
      this.ticking = this.ticking.then(() => this.tick()).catch(() => undefined);
    }, ms);
    this.heartbeat.unref();
  }

  private async tick(): Promise<void> {
    if (this.closed) return;
    await this.store.heartbeat(this.workerId);
    // A stop whose message came before the handler started (or got lost) is repeated.
    for (const id of await this.store.stoppingAmong(this.runningIds())) this.abort(id);
    const held = await this.store.heldJobIds(this.workerId);
    // Read after the query: a run that ends in between has left a final state, never held.
    const busy = new Set(this.runningIds());
    const orphans = held.filter((id) => !busy.has(id));
    if (orphans.length > 0 && !this.closed) await this.reaper.takeBack(this.workerId, 'The server lost track of the job', { only: orphans });
  }

  /** Jobs a run call is busy with here, on this thread or in a job thread. */
  private runningIds(): string[] {
    return [...this.runner.busyIds(), ...(this.pool?.jobIds() ?? [])];
  }

  private abort(jobId: string): void {
    this.runner.abort(jobId);
    this.pool?.abort(jobId);
  }

  /** A job thread died running `jobId`: restore the job (or fail it after its last attempt). */
  private async lost(jobId: string, reason: string): Promise<void> {
    await this.reaper.takeBack(this.workerId, reason, { only: [jobId] });
    // Not claimed yet when the thread died: it still waits.
    const job = await this.store.getJob(jobId);
    if (job && job.state === JobState.waiting) this.push(jobId);
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    if (this.heartbeat) clearInterval(this.heartbeat);
    await this.ticking;
    this.pending.length = 0;
    this.upkeep.length = 0;
    // Running handlers are cut; their rows stay in progress and are restored on the next start.
    this.runner.halt();
    await this.pool?.close();
    await Promise.allSettled([...this.active, ...this.upkeepActive]);
    if (this.started) await this.store.markWorkerStopped(this.workerId).catch(() => undefined);
  }

  async enqueue(kind: string, payload: unknown, options: EnqueueOptions): Promise<JobRecord> {
    if (this.closed) throw new Error('The job queue is closed');
    await this.checkPlacement(options);
    // Not pinned, this server's own engine runs the job: it must be of the job's version.
    const own = (this.options.machine ?? machineInfo()).engineVersion;
    if (!options.pinWorkerId && options.engineVersion && options.engineVersion !== own) {
      throw new EngineVersionMismatchError(options.engineVersion, null, own);
    }
    const job = await this.store.createJob({ ...options, kind, payload });
    this.announce(job);
    if (this.kinds.get(kind)?.lane === 'upkeep') this.pushUpkeep(job.id);
    else this.push(job.id);
    return job;
  }

  /** Resolves once nothing is queued or running here (tests). */
  async idle(): Promise<void> {
    while (this.active.size > 0 || this.pending.length > 0 || this.upkeepActive.size > 0 || this.upkeep.length > 0) {
      await Promise.race([...this.active, ...this.upkeepActive, new Promise((r) => setTimeout(r, 10))]);
    }
  }

  protected async signalStop(job: JobRecord): Promise<void> {
    this.abort(job.id);
  }

  protected announce(job: JobRecord): void {
    this.events.emit({ type: 'state', jobId: job.id, tenantId: job.tenantId, state: job.state, workerId: job.workerId });
  }

  private push(jobId: string): void {
    if (this.closed) return;
    this.pending.push(jobId);
    this.pump();
  }

  private pushUpkeep(jobId: string): void {
    if (this.closed) return;
    this.upkeep.push(jobId);
    this.pumpUpkeep();
  }

  /** The upkeep lane: one job at a time, whatever the slots are busy with. */
  private pumpUpkeep(): void {
    if (!this.started) return;
    while (!this.closed && this.upkeepActive.size < 1 && this.upkeep.length > 0) {
      const id = this.upkeep.shift()!;
      const p: Promise<unknown> = this.dispatch(id).catch(() => undefined).finally(() => {
        this.upkeepActive.delete(p);
        this.pumpUpkeep();
      });
      this.upkeepActive.add(p);
    }
  }

  private pump(): void {
    if (!this.started) return;
    while (!this.closed && this.active.size < this.concurrency && this.pending.length > 0) {
      const id = this.pending.shift()!;
      const p: Promise<unknown> = this.dispatch(id).catch(() => undefined).finally(() => {
        this.active.delete(p);
        this.pump();
      });
      this.active.add(p);
    }
  }

  /** Runs one job: in a job thread when the threads run its kind, else on this thread. */
  private async dispatch(jobId: string): Promise<RunOutcome | 'lost' | 'halted'> {
    if (!this.pool) return this.runner.run(jobId);
    const threadKinds = await this.pool.kindNames();
    const job = await this.store.getJob(jobId);
    if (!job) return 'skipped';
    if (!threadKinds.has(job.kind) && this.kinds.has(job.kind)) return this.runner.run(jobId);
    return this.pool.run(jobId);
  }
}
