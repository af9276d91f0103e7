import type { JobEventListener, JobEvents } from './events';
import { EngineVersionMismatchError, JobNotStoppableError, WorkerUnavailableError, type EnqueueOptions, type JobQueue } from './contract';
import type { JobListQuery, JobLogRecord, JobRecord, JobStore, WorkerRecord } from './store';

/** The reads and the stop request both adapters share (all on the job tables). */
export abstract class StoreBackedQueue implements JobQueue {
  constructor(
    protected readonly store: JobStore,
    protected readonly events: JobEvents,
  ) {}

  abstract start(): Promise<void>;
  abstract close(): Promise<void>;
  abstract enqueue(kind: string, payload: unknown, options: EnqueueOptions): Promise<JobRecord>;
  /**
   * Where a job may go, checked before it is created: a pinned worker must be online and, when
   * the job needs an engine version, run that version (`EngineVersionMismatchError`).
   */
  protected async checkPlacement(options: EnqueueOptions): Promise<void> {
    if (!options.pinWorkerId) return;
    const worker = await this.store.getWorker(options.pinWorkerId);
    if (worker?.status !== 'online') throw new WorkerUnavailableError(options.pinWorkerId);
    if (options.engineVersion && worker.engineVersion !== options.engineVersion) {
      throw new EngineVersionMismatchError(options.engineVersion, worker.id, worker.engineVersion);
    }
  }

  /** Tells the worker running `job` to stop its handler. */
  protected abstract signalStop(job: JobRecord): Promise<void>;
  /** Announces a state change that happened here. */
  protected abstract announce(job: JobRecord): void;

  async stop(jobId: string, scope: { tenantId: string }): Promise<JobRecord> {
    const { outcome, job } = await this.store.requestStop(jobId, scope.tenantId);
    if (outcome === 'notFound' || outcome === 'notRunning' || !job) throw new JobNotStoppableError(jobId, outcome === 'notFound' ? 'notFound' : 'notRunning');
    this.announce(job);
    if (outcome === 'stopping') await this.signalStop(job);
    return job;
  }

  async skipBreakpoint(jobId: string, scope: { tenantId: string }): Promise<JobRecord> {
    const job = await this.store.skipBreakpoint(jobId, scope.tenantId);
    if (!job) throw new JobNotStoppableError(jobId, (await this.store.getJob(jobId, scope.tenantId)) ? 'notRunning' : 'notFound');
    this.announce(job);
    return job;
  }

  get(jobId: string, scope: { tenantId: string }): Promise<JobRecord | null> {
    return this.store.getJob(jobId, scope.tenantId);
  }

  list(query: JobListQuery): Promise<{ items: JobRecord[]; total: number }> {
    return this.store.listJobs(query);
  }

  async logs(jobId: string, scope: { tenantId: string; afterId?: number; limit?: number }): Promise<{ items: JobLogRecord[]; nextAfterId: number | null } | null> {
    if (!(await this.store.getJob(jobId, scope.tenantId))) return null;
    return this.store.logs(jobId, scope);
  }

  workers(): Promise<WorkerRecord[]> {
    return this.store.listWorkers();
  }

  subscribe(listener: JobEventListener): () => void {
    return this.events.subscribe(listener);
  }
}
