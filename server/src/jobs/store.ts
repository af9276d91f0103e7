import type { Clock } from '../clock';
import type { Database } from '../db/database';
import { newId } from '../db/ids';
import type { JobLogLevel } from './events';
import type { TerminalSandbox } from './machine';
import { writePoint } from './metrics';
import { claimableStates, heldStates, JobState } from './states';
import { assertTrainingQuota } from '../modules/tenancy/quotas';

/** A job as stored. */
export interface JobRecord {
  id: string;
  tenantId: string;
  userId: string | null;
  kind: string;
  name: string;
  state: JobState;
  payload: unknown;
  /** In [0, 1]. */
  progress: number;
  /** Latest value of each reported metric. */
  metrics: Record<string, number>;
  error: string | null;
  workerId: string | null;
  pinWorkerId: string | null;
  /** Runs only on a worker of this engine version (its project's default algorithm image version); null: any. */
  engineVersion: string | null;
  /** How many times a worker claimed the job. */
  attempts: number;
  maxAttempts: number;
  /** Id of the last checkpoint, if any. */
  checkpointRef: string | null;
  createdAt: Date;
  updatedAt: Date;
  startedAt: Date | null;
  endedAt: Date | null;
}

/** A machine that runs jobs (the spec's "virtual machine"). */
export interface WorkerRecord {
  id: string;
  host: string;
  cores: number;
  /** Bytes. */
  memory: number;
  gpuAdapter: string | null;
  engineVersion: string;
  /** `host:port` of the worker's SSH server (`WORKER_SSH_ADDRESS`), null: none. */
  sshAddress?: string | null;
  /** How it confines a worker terminal (`terminal_sandbox`, JSON); null: it cannot. */
  terminalSandbox?: TerminalSandbox | null;
  concurrency: number;
  status: 'online' | 'dead' | 'stopped';
  startedAt: Date;
  heartbeatAt: Date;
}

/** One job log line. */
export interface JobLogRecord {
  id: number;
  jobId: string;
  level: JobLogLevel;
  message: string;
  createdAt: Date;
}

/** What `createJob` needs. */
export interface NewJob {
  tenantId: string;
  userId?: string | null;
  kind: string;
  name?: string;
  payload: unknown;
  pinWorkerId?: string | null;
  /** Only a worker of this engine version may claim it (null: any). */
  engineVersion?: string | null;
  maxAttempts?: number;
}

/** Filter and page of `listJobs`. */
export interface JobListQuery {
  tenantId: string;
  state?: JobState | readonly JobState[];
  kind?: string;
  /** Default 20, at most 500. */
  limit?: number;
  offset?: number;
}

/** What became of a job whose worker was lost. */
export type RestoreOutcome = 'restoring' | 'failure' | 'stopped';

function toDate(value: unknown): Date | null {
  if (value === null || value === undefined) return null;
  if (value instanceof Date) return value;
  if (typeof value === 'number') return new Date(value);
  const s = String(value);
  if (/^\d+$/.test(s)) return new Date(Number(s));
  return new Date(s.includes('T') ? s : s.replace(' ', 'T') + 'Z');
}

function parseJson<T>(text: unknown, fallback: T): T {
  if (text === null || text === undefined || text === '') return fallback;
  if (typeof text !== 'string') return text as T;
  try {
    return JSON.parse(text) as T;
  } catch {
    return fallback;
  }
}

type Row = Record<string, any>;

function jobOf(r: Row): JobRecord {
  return {
    id: r.id,
    tenantId: r.tenant_id,
    userId: r.user_id ?? null,
    kind: r.kind,
    name: r.name,
    state: r.state,
    payload: parseJson(r.payload, null),
    progress: Number(r.progress),
    metrics: parseJson(r.metrics, {}),
    error: r.error ?? null,
    workerId: r.worker_id ?? null,
    pinWorkerId: r.pin_worker_id ?? null,
    engineVersion: r.engine_version ?? null,
    attempts: Number(r.attempts),
    maxAttempts: Number(r.max_attempts),
    checkpointRef: r.checkpoint_ref ?? null,
    createdAt: toDate(r.created_at)!,
    updatedAt: toDate(r.updated_at)!,
    startedAt: toDate(r.started_at),
    endedAt: toDate(r.ended_at),
  };
}

function workerOf(r: Row): WorkerRecord {
  return {
    id: r.id,
    host: r.host,
    cores: Number(r.cores),
    memory: Number(r.memory),
    gpuAdapter: r.gpu_adapter ?? null,
    engineVersion: r.engine_version,
    sshAddress: r.ssh_address ?? null,
    terminalSandbox: parseJson<TerminalSandbox | null>(r.terminal_sandbox, null),
    concurrency: Number(r.concurrency),
    status: r.status,
    startedAt: toDate(r.started_at)!,
    heartbeatAt: toDate(r.heartbeat_at)!,
  };
}

/**
 * The job tables. The row is the source of truth: every transition is one conditional update
 * (`where state in (...) and worker_id = ?`), so two processes racing for the same job never
 * both win, and a worker that was declared dead can no longer change its old jobs.
 */
export class JobStore {
  constructor(
    private readonly db: Database,
    private readonly clock: Clock,
  ) {}

  private get knex() {
    return this.db.executor();
  }

  /** Inserts a `waiting` job; a training over its tenant's quota is refused (`resourceQuotaExceeded`). */
  async createJob(input: NewJob): Promise<JobRecord> {
    await assertTrainingQuota(this.knex, input.tenantId, input.kind);
    const now = this.clock.now();
    const row = {
      id: newId(),
      tenant_id: input.tenantId,
      user_id: input.userId ?? null,
      kind: input.kind,
      name: (input.name ?? input.kind).slice(0, 255),
      state: JobState.waiting,
      payload: JSON.stringify(input.payload ?? null),
      progress: 0,
      metrics: null,
      error: null,
      worker_id: null,
      pin_worker_id: input.pinWorkerId ?? null,
      engine_version: input.engineVersion || null,
      attempts: 0,
      max_attempts: Math.max(1, input.maxAttempts ?? 3),
      checkpoint_ref: null,
      created_at: now,
      updated_at: now,
      started_at: null,
      ended_at: null,
    };
    await this.knex('jobs').insert(row);
    return jobOf(row);
  }

  /** A job by id; with `tenantId`, only when it belongs to that tenant. */
  async getJob(id: string, tenantId?: string): Promise<JobRecord | null> {
    const q = this.knex('jobs').where({ id });
    if (tenantId !== undefined) q.andWhere({ tenant_id: tenantId });
    const r = await q.first();
    return r ? jobOf(r) : null;
  }

  /**
   * The interface language a user chose in their settings (`users.settings.language`), null
   * when none or unknown: a failed job's error is kept in it (`jobErrorText`).
   */
  async userLanguage(userId: string | null): Promise<'zh-CN' | 'en-US' | null> {
    if (!userId) return null;
    const row = await this.knex('users').where({ id: userId }).first('settings');
    try {
      const lang = (JSON.parse(String(row?.settings ?? 'null')) as { language?: unknown } | null)?.language;
      return lang === 'zh-CN' || lang === 'en-US' ? lang : null;
    } catch {
      return null;
    }
  }

  /** A tenant's jobs, newest first. */
  async listJobs(query: JobListQuery): Promise<{ items: JobRecord[]; total: number }> {
    const limit = Math.min(Math.max(query.limit ?? 20, 1), 500);
    const offset = Math.max(query.offset ?? 0, 0);
    const base = () => {
      const q = this.knex('jobs').where({ tenant_id: query.tenantId });
      if (query.state !== undefined) q.whereIn('state', typeof query.state === 'string' ? [query.state] : [...query.state]);
      if (query.kind !== undefined) q.andWhere({ kind: query.kind });
      return q;
    };
    const [counted] = (await base().count({ n: '*' })) as Array<{ n: number | string }>;
    const rows = await base().orderBy([{ column: 'created_at', order: 'desc' }, { column: 'id', order: 'desc' }]).limit(limit).offset(offset);
    return { items: rows.map(jobOf), total: Number(counted?.n ?? 0) };
  }

  /**
   * Ids of jobs that wait for a worker (`waiting` or `restoring`), oldest first; with
   * `unchangedForMs`, only those whose row did not change for that long.
   */
  async pendingJobIds(unchangedForMs?: number): Promise<string[]> {
    const q = this.knex('jobs').whereIn('state', claimableStates);
    if (unchangedForMs !== undefined) q.andWhere('updated_at', '<', new Date(this.clock.now().getTime() - unchangedForMs));
    const rows = await q.orderBy('created_at').select('id');
    return rows.map((r: Row) => r.id as string);
  }

  /**
   * Claims a waiting or restoring job for a worker: `processing`, one more attempt. False when
   * another worker has it, it ended, it is pinned to another worker, or it needs an engine
   * version (`engine_version`) other than the worker's.
   */
  async claim(id: string, workerId: string): Promise<boolean> {
    const now = this.clock.now();
    const n = await this.knex('jobs')
      .where({ id })
      .whereIn('state', claimableStates)
      .andWhere((w) => w.whereNull('pin_worker_id').orWhere({ pin_worker_id: workerId }))
      .andWhere((w) => w.whereNull('engine_version').orWhereIn('engine_version', this.knex('workers').where({ id: workerId }).select('engine_version')))
      .update({
        state: JobState.processing,
        worker_id: workerId,
        attempts: this.knex.raw('attempts + 1'),
        started_at: this.knex.raw('coalesce(started_at, ?)', [now]),
        updated_at: now,
      });
    return n === 1;
  }

  /**
   * Asks a job to stop. A job in progress goes to `stopping` (its handler is told to stop); a job
   * that waits for a worker ends at once as stopped. Other states cannot be stopped.
   */
  async requestStop(id: string, tenantId: string): Promise<{ outcome: 'stopping' | 'stopped' | 'notRunning' | 'notFound'; job: JobRecord | null }> {
    const now = this.clock.now();
    const running = await this.knex('jobs')
      .where({ id, tenant_id: tenantId })
      .whereIn('state', [JobState.processing, JobState.debugging])
      .update({ state: JobState.stopping, updated_at: now });
    if (running === 1) return { outcome: 'stopping', job: await this.getJob(id) };
    const queued = await this.knex('jobs')
      .where({ id, tenant_id: tenantId })
      .whereIn('state', claimableStates)
      .update({ state: JobState.stoppedManually, ended_at: now, updated_at: now });
    const job = await this.getJob(id, tenantId);
    if (queued === 1) return { outcome: 'stopped', job };
    if (!job) return { outcome: 'notFound', job: null };
    return { outcome: job.state === JobState.stopping ? 'stopping' : 'notRunning', job };
  }

  /**
   * Ends a job its worker ran: `successful by manual stop` when a stop was asked, else
   * `successful`, or `failure` with `error`. Null when the worker no longer holds the job.
   */
  async finish(id: string, workerId: string, error: string | null): Promise<JobState | null> {
    const now = this.clock.now();
    const stopped = await this.knex('jobs')
      .where({ id, worker_id: workerId, state: JobState.stopping })
      .update({ state: JobState.stoppedManually, ended_at: now, updated_at: now });
    if (stopped === 1) return JobState.stoppedManually;
    const state = error === null ? JobState.successful : JobState.failure;
    const patch: Row = { state, error: error?.slice(0, 4000) ?? null, ended_at: now, updated_at: now };
    if (state === JobState.successful) patch.progress = 1;
    const n = await this.knex('jobs').where({ id, worker_id: workerId }).whereIn('state', heldStates).update(patch);
    return n === 1 ? state : null;
  }

  /** Records progress and metrics of a held job (metrics merge into the latest values). */
  async reportMetrics(id: string, workerId: string, progress: number, metrics: Record<string, number>): Promise<boolean> {
    // Only the job's own handler writes its metrics, one report at a time: no transaction needed
    // (and none wanted on SQLite, where a read-then-write transaction can fail under contention).
    const r = await this.knex('jobs').where({ id, worker_id: workerId }).whereIn('state', heldStates).first('metrics');
    if (!r) return false;
    const merged = { ...parseJson<Record<string, number>>(r.metrics, {}), ...metrics };
    const n = await this.knex('jobs')
      .where({ id, worker_id: workerId })
      .whereIn('state', heldStates)
      .update({ progress, metrics: JSON.stringify(merged), updated_at: this.clock.now() });
    return n === 1;
  }

  /** Writes a point of a job's metrics series (`jobs/metrics.ts`); answers its number. */
  async writePoint(jobId: string, tenantId: string, step: number, metrics: Record<string, number>): Promise<number> {
    return writePoint(this.knex, tenantId, jobId, step, metrics, this.clock.now());
  }

  /** Appends a log line to a job. */
  async appendLog(jobId: string, level: JobLogLevel, message: string): Promise<void> {
    await this.knex('job_logs').insert({ job_id: jobId, level, message: message.slice(0, 65_000), created_at: this.clock.now() });
  }

  /** A page of a job's log, oldest first, after the line `afterId`. */
  async logs(jobId: string, options: { afterId?: number; limit?: number } = {}): Promise<{ items: JobLogRecord[]; nextAfterId: number | null }> {
    const limit = Math.min(Math.max(options.limit ?? 100, 1), 1000);
    const rows = await this.knex('job_logs')
      .where({ job_id: jobId })
      .andWhere('id', '>', options.afterId ?? 0)
      .orderBy('id')
      .limit(limit);
    const items = rows.map((r: Row) => ({ id: Number(r.id), jobId: r.job_id, level: r.level, message: r.message, createdAt: toDate(r.created_at)! }));
    return { items, nextAfterId: items.length === limit ? items[items.length - 1]!.id : null };
  }

  /** Saves a checkpoint of a held job and makes it the one to resume from; null when not held. */
  async saveCheckpoint(jobId: string, workerId: string, bytes: Uint8Array): Promise<string | null> {
    const id = newId();
    const notHeld = new Error('not held');
    try {
      return await this.db.transaction(async (trx) => {
        // Writes first: on SQLite the transaction takes the write lock at once.
        const now = this.clock.now();
        await trx('job_checkpoints').insert({ id, job_id: jobId, data: Buffer.from(bytes), size: bytes.byteLength, created_at: now });
        const n = await trx('jobs')
          .where({ id: jobId, worker_id: workerId })
          .whereIn('state', heldStates)
          .update({ checkpoint_ref: id, updated_at: now });
        if (n !== 1) throw notHeld;
        // Keep only the newest checkpoint.
        await trx('job_checkpoints').where({ job_id: jobId }).andWhereNot({ id }).delete();
        return id;
      });
    } catch (err) {
      if (err === notHeld) return null;
      throw err;
    }
  }

  /** The bytes of a job's last checkpoint, or null. */
  async lastCheckpoint(jobId: string): Promise<Uint8Array | null> {
    const r = await this.knex('job_checkpoints')
      .join('jobs', 'jobs.checkpoint_ref', 'job_checkpoints.id')
      .where('jobs.id', jobId)
      .first('job_checkpoints.data as data');
    if (!r) return null;
    const data = r.data as Buffer;
    return new Uint8Array(data.buffer, data.byteOffset, data.byteLength);
  }

  /** Puts a job its worker runs at a breakpoint: `processing` -> `debugging`; false when not held. */
  async enterBreakpoint(id: string, workerId: string): Promise<boolean> {
    const n = await this.knex('jobs').where({ id, worker_id: workerId, state: JobState.processing }).update({ state: JobState.debugging, updated_at: this.clock.now() });
    return n === 1;
  }

  /** Skips a breakpoint: `debugging` -> `processing`; null when the job is not the tenant's or not at a breakpoint. */
  async skipBreakpoint(id: string, tenantId: string): Promise<JobRecord | null> {
    const n = await this.knex('jobs').where({ id, tenant_id: tenantId, state: JobState.debugging }).update({ state: JobState.processing, updated_at: this.clock.now() });
    return n === 1 ? this.getJob(id) : null;
  }

  /** The state of a job, or null. */
  async stateOf(id: string): Promise<JobState | null> {
    const r = await this.knex('jobs').where({ id }).first('state');
    return (r?.state as JobState | undefined) ?? null;
  }

  /** Ids among `ids` whose job is `stopping` (a worker polls this for stop requests). */
  async stoppingAmong(ids: readonly string[]): Promise<string[]> {
    if (ids.length === 0) return [];
    const rows = await this.knex('jobs').whereIn('id', [...ids]).andWhere({ state: JobState.stopping }).select('id');
    return rows.map((r: Row) => r.id as string);
  }

  /** Registers (or re-registers) a worker as online. */
  async registerWorker(w: Omit<WorkerRecord, 'status' | 'startedAt' | 'heartbeatAt'>): Promise<void> {
    const now = this.clock.now();
    const row = {
      id: w.id,
      host: w.host.slice(0, 255),
      cores: w.cores,
      memory: w.memory,
      gpu_adapter: w.gpuAdapter?.slice(0, 255) ?? null,
      engine_version: w.engineVersion,
      ssh_address: w.sshAddress?.slice(0, 300) ?? null,
      terminal_sandbox: w.terminalSandbox ? JSON.stringify(w.terminalSandbox) : null,
      concurrency: w.concurrency,
      status: 'online',
      started_at: now,
      heartbeat_at: now,
    };
    await this.knex('workers').insert(row).onConflict('id').merge();
  }

  /** A worker by id, or null. */
  async getWorker(workerId: string): Promise<WorkerRecord | null> {
    const r = await this.knex('workers').where({ id: workerId }).first();
    return r ? workerOf(r) : null;
  }

  /** Marks a job that could not be queued as failed (only while it still waits). */
  async failWaiting(jobId: string, reason: string): Promise<void> {
    const now = this.clock.now();
    await this.knex('jobs').where({ id: jobId, state: JobState.waiting }).update({ state: JobState.failure, error: reason.slice(0, 4000), ended_at: now, updated_at: now });
  }

  /** Records a heartbeat; false when the worker was declared dead meanwhile (it must stop). */
  async heartbeat(workerId: string): Promise<boolean> {
    const n = await this.knex('workers').where({ id: workerId, status: 'online' }).update({ heartbeat_at: this.clock.now() });
    return n === 1;
  }

  /** Marks a worker as stopped (a clean shutdown). */
  async markWorkerStopped(workerId: string): Promise<void> {
    await this.knex('workers').where({ id: workerId }).update({ status: 'stopped', heartbeat_at: this.clock.now() });
  }

  /** Every known worker. */
  async listWorkers(): Promise<WorkerRecord[]> {
    const rows = await this.knex('workers').orderBy('id');
    return rows.map(workerOf);
  }

  /** Online workers whose last heartbeat is older than `silentMs`. */
  async silentWorkerIds(silentMs: number): Promise<string[]> {
    const cutoff = new Date(this.clock.now().getTime() - silentMs);
    const rows = await this.knex('workers').where({ status: 'online' }).andWhere('heartbeat_at', '<', cutoff).select('id');
    return rows.map((r: Row) => r.id as string);
  }

  /** Declares a silent worker dead; true for the one caller that did it. */
  async markWorkerDead(workerId: string, silentMs: number): Promise<boolean> {
    const cutoff = new Date(this.clock.now().getTime() - silentMs);
    const n = await this.knex('workers').where({ id: workerId, status: 'online' }).andWhere('heartbeat_at', '<', cutoff).update({ status: 'dead' });
    return n === 1;
  }

  /** Ids of the jobs a worker holds. */
  async heldJobIds(workerId: string): Promise<string[]> {
    const rows = await this.knex('jobs').where({ worker_id: workerId }).whereIn('state', heldStates).select('id');
    return rows.map((r: Row) => r.id as string);
  }

  /**
   * Takes a job away from a lost worker: `restoring` (to be queued again, resuming from its last
   * checkpoint), `failure` when it used its last attempt, or stopped when a stop was asked.
   * Null when the worker no longer held it.
   */
  async restore(jobId: string, workerId: string, reason: string, options: { graceful?: boolean } = {}): Promise<RestoreOutcome | null> {
    const now = this.clock.now();
    if (options.graceful) {
      // A clean hand-back (shutdown) does not use up an attempt.
      const n = await this.knex('jobs')
        .where({ id: jobId, worker_id: workerId })
        .whereIn('state', [JobState.processing, JobState.debugging])
        .update({ state: JobState.restoring, worker_id: null, attempts: this.knex.raw('attempts - 1'), updated_at: now });
      if (n === 1) return 'restoring';
    }
    const stopped = await this.knex('jobs')
      .where({ id: jobId, worker_id: workerId, state: JobState.stopping })
      .update({ state: JobState.stoppedManually, ended_at: now, updated_at: now });
    if (stopped === 1) return 'stopped';
    const failed = await this.knex('jobs')
      .where({ id: jobId, worker_id: workerId })
      .whereIn('state', heldStates)
      .andWhere('attempts', '>=', this.knex.ref('max_attempts'))
      .update({ state: JobState.failure, error: reason, ended_at: now, updated_at: now });
    if (failed === 1) return 'failure';
    const restoring = await this.knex('jobs')
      .where({ id: jobId, worker_id: workerId })
      .whereIn('state', heldStates)
      .update({ state: JobState.restoring, worker_id: null, updated_at: now });
    return restoring === 1 ? 'restoring' : null;
  }
}
