import type { JobEventListener } from './events';
import type { JobRecord, JobListQuery, JobLogRecord, WorkerRecord } from './store';

/** Options of `enqueue`. */
export interface EnqueueOptions {
  /** The tenant that owns the job: only this tenant sees it. */
  tenantId: string;
  userId?: string | null;
  /** Display name (default: the kind). */
  name?: string;
  /** Run only on this worker (a "virtual machine" the user picked). */
  pinWorkerId?: string | null;
  /**
   * Runs only on a worker of this engine version (the project's default algorithm image
   * version); null or left out: any worker. With BullMQ the job waits on that version's queue.
   */
  engineVersion?: string | null;
  /** Runs before the job ends as failure when its workers keep getting lost (default 3). */
  maxAttempts?: number;
}

/** Thrown by `stop` for a job that is not in progress (or not the tenant's). */
export class JobNotStoppableError extends Error {
  constructor(
    readonly jobId: string,
    readonly reason: 'notFound' | 'notRunning',
  ) {
    super(reason === 'notFound' ? `Job ${jobId} not found` : `Job ${jobId} is not in progress`);
    this.name = 'JobNotStoppableError';
  }
}

/** Thrown by `enqueue` for a job pinned to a worker that is unknown or not online. */
export class WorkerUnavailableError extends Error {
  constructor(readonly workerId: string) {
    super(`Worker ${workerId} is not available`);
    this.name = 'WorkerUnavailableError';
  }
}

/**
 * Thrown by `enqueue` for a job that must run on engine version `version` when no worker it
 * may go to runs it: the pinned worker (`workerId`) runs `workerVersion`, or (`workerId` null)
 * the in-process queue's own engine (the server's, `workerVersion`) is another version.
 */
export class EngineVersionMismatchError extends Error {
  constructor(
    readonly version: string,
    readonly workerId: string | null,
    readonly workerVersion: string,
  ) {
    super(
      workerId
        ? `Worker ${workerId} runs engine version ${workerVersion}, not ${version}`
        : `This server runs its jobs on engine version ${workerVersion}, not ${version}`,
    );
    this.name = 'EngineVersionMismatchError';
  }
}

/**
 * The job queue the server talks to. Two adapters: `InProcessQueue` (embedded default, handlers
 * run in the server process) and `BullMqQueue` (Redis; `npm run worker` processes run them).
 * Every read is tenant scoped; the job rows in the database are the source of truth.
 */
export interface JobQueue {
  /** Registers this process, recovers what a previous run left, starts dispatching. */
  start(): Promise<void>;
  /** Stops dispatching; running in-process jobs are left to be restored on the next start. */
  close(): Promise<void>;
  /**
   * Creates a `waiting` job and queues it.
   *
   * @throws WorkerUnavailableError when `pinWorkerId` names no online worker.
   * @throws EngineVersionMismatchError when `engineVersion` is set and the pinned worker (or the
   *   in-process queue's own engine) runs another version.
   */
  enqueue(kind: string, payload: unknown, options: EnqueueOptions): Promise<JobRecord>;
  /**
   * Stops a job in progress: `stopping`, then `successful by manual stop` once its handler
   * returns (a job still waiting for a worker ends at once).
   *
   * @throws JobNotStoppableError when the job is not the tenant's or not in progress.
   */
  stop(jobId: string, scope: { tenantId: string }): Promise<JobRecord>;
  /**
   * Lets a job waiting at a debug breakpoint (`debugging`) go on (`processing`).
   *
   * @throws JobNotStoppableError (`notRunning`) when the job is not the tenant's or not at a breakpoint.
   */
  skipBreakpoint(jobId: string, scope: { tenantId: string }): Promise<JobRecord>;
  /** A job of the tenant, or null. */
  get(jobId: string, scope: { tenantId: string }): Promise<JobRecord | null>;
  /** The tenant's jobs, newest first. */
  list(query: JobListQuery): Promise<{ items: JobRecord[]; total: number }>;
  /** A page of a job's log (null when the job is not the tenant's). */
  logs(
    jobId: string,
    scope: { tenantId: string; afterId?: number; limit?: number },
  ): Promise<{ items: JobLogRecord[]; nextAfterId: number | null } | null>;
  /** The workers (the spec's virtual machines). */
  workers(): Promise<WorkerRecord[]>;
  /** Listens to state changes, metrics, logs and checkpoints; returns the unsubscribe function. */
  subscribe(listener: JobEventListener): () => void;
}

