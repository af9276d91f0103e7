import type { JobReportField } from '@decisio/domain';
import type { ServerJobKind } from '@decisio/sdk-plugin/server';
import type { JobLogLevel } from './events';

/** What a job handler gets. */
export interface JobContext<P = unknown> {
  jobId: string;
  tenantId: string;
  userId: string | null;
  /** 1 on the first run, more when the job resumes after its worker was lost. */
  attempt: number;
  payload: P;
  /** Aborted when a stop is asked (or the worker shuts down); handlers must return promptly. */
  signal: AbortSignal;
  /** True once a stop is asked. */
  shouldStop(): boolean;
  /**
   * Records progress in [0, 1] and the latest value of some metrics. With `step`, the report is
   * also a point of the job's series (structured rows of `job_metrics`, see `jobs/metrics.ts`):
   * what charts read by range and live streams send as it comes.
   */
  reportMetrics(progress: number, metrics?: Record<string, number>, step?: number): Promise<void>;
  /** Appends a line to the job's log. */
  log(message: string, level?: JobLogLevel): Promise<void>;
  /** Saves the state to resume from if the worker is lost; resolves with its reference. */
  checkpoint(bytes: Uint8Array): Promise<string>;
  /** The last checkpoint's bytes (of this or an earlier attempt), or null. */
  lastCheckpoint(): Promise<Uint8Array | null>;
  /**
   * A debug-mode breakpoint: the job goes to `debugging` and this resolves once the breakpoint is
   * skipped (`skipBreakpoint`: back to `processing`) or a stop is asked.
   */
  breakpoint(): Promise<void>;
}

/** A kind of job: a name and the handler that runs one. */
export interface JobKind<P = unknown> {
  /** Namespaced, e.g. `policy.train`. */
  kind: string;
  description?: string;
  /**
   * `upkeep`: a short run that keeps the host in order (an upload sweep, the log retention, the
   * licence notices). Such jobs run in a lane of their own, one at a time beside the job slots,
   * so a nightly sweep never waits behind a training on a server with one slot: the in-process
   * queue on one thread more than its slots, BullMQ on a queue of its own that every worker
   * takes (`upkeepQueueName`; the server and the workers route by `JobKindRegistry.upkeepKinds()`).
   */
  lane?: 'upkeep';
  /**
   * The keys of the report a run produces (the metrics it reports when done), each with its
   * label in both languages and how its value reads. The job history (`jobs/history`) answers
   * them with each run, so a client formats any kind's report without knowing the kind; a key
   * left out still shows, as it is. Every kind a schedule runs declares every key it reports.
   */
  report?: readonly JobReportField[];
  run(ctx: JobContext<P>): Promise<void>;
}

/** The job kinds a process can run, by name. The server and every worker build the same one. */
export class JobKindRegistry {
  private readonly kinds = new Map<string, JobKind<any>>();

  /**
   * Adds a job kind.
   *
   * @throws Error when the name is empty or already registered.
   */
  registerJobKind<P>(kind: JobKind<P>): this {
    if (!kind.kind) throw new Error('A job kind needs a name');
    if (this.kinds.has(kind.kind)) throw new Error(`Job kind "${kind.kind}" is already registered`);
    this.kinds.set(kind.kind, kind);
    return this;
  }

  /** Adds the job kinds of server plugins (their `run(payload, job)` is adapted). */
  registerPluginKinds(kinds: Iterable<ServerJobKind>): this {
    for (const k of kinds) {
      this.registerJobKind({
        kind: k.kind,
        description: k.description,
        run: async (ctx) => {
          await k.run(ctx.payload, {
            jobId: ctx.jobId,
            signal: ctx.signal,
            report: (progress, metrics) => void ctx.reportMetrics(progress, metrics).catch(() => undefined),
          });
        },
      });
    }
    return this;
  }

  get(kind: string): JobKind | undefined {
    return this.kinds.get(kind);
  }

  has(kind: string): boolean {
    return this.kinds.has(kind);
  }

  /** Names of the kinds of the upkeep lane (`JobKind.lane`). */
  upkeepKinds(): string[] {
    return [...this.kinds.values()].filter((k) => k.lane === 'upkeep').map((k) => k.kind);
  }

  /** Names of every registered kind. */
  names(): string[] {
    return [...this.kinds.keys()];
  }
}
