/**
 * `train/*` (one training job: chart data, stop, logs, ...; lists of trainings), the workers as
 * virtual machines and algorithm versions, and the dashboard's `overview/*` counts.
 */
import { AppError, type OverviewResource } from '@decisio/domain';
import { decodeStep, durationBucket, scoreBucket } from '@decisio/learning';
import type { ServerCallUser } from '@decisio/sdk-plugin/server';
import { readPoints, type PointsQuery } from '../../jobs/metrics';
import { JobNotStoppableError } from '../../jobs/queue';
import { JobState } from '../../jobs/states';
import { assertProjectAccess, recordInScope, solutionScope } from '../projects/access';
import { readQuotas } from '../storage/quota';
import { iso, toDate, type ModellingDeps, type Row } from './common';
import { loadVenv } from './engine/data';
import { stepOf, TENSORS_LINE } from './engine/job-run';
import { ACTIVE_STATES, TRAINING_RECORDS, presentTraining, requireAcknowledged, type TrainingTable } from './training-rules';
import type { Trainings } from './trainings';

/** Kind of a training record as the lists show it. */
function kindOf(table: string, row: Row): string {
  if (table === 'deductions') return String(row.kind);
  if (table === 'schemes') return 'scheme';
  return TRAINING_RECORDS[table as TrainingTable].kind;
}

const LIST_TABLES: Record<string, TrainingTable> = { environment: 'simulators', policy: 'policies', parameter: 'parameter_searches', simulation: 'deductions', decision: 'deductions' };


/** A tensors line of the log (see `recordTensors` of the job kinds): served by `displayData`, left out of the log pages. */
const isTensorsLine = (level: string, message: string) => level === 'debug' && message.startsWith(TENSORS_LINE);

/** Newest first; ties in a fixed order (table, then id), so that pages do not overlap. */
function newestFirst(a: { table: string; row: Row }, b: { table: string; row: Row }): number {
  const t = (toDate(b.row.created_at)?.getTime() ?? 0) - (toDate(a.row.created_at)?.getTime() ?? 0);
  if (t !== 0) return t;
  if (a.table !== b.table) return a.table < b.table ? -1 : 1;
  return String(a.row.id) < String(b.row.id) ? 1 : String(a.row.id) > String(b.row.id) ? -1 : 0;
}

/** Which trainings a list reads. */
interface RecordFilter {
  projectId?: string | undefined;
  solutionId?: string | undefined;
  kind?: string | undefined;
  states?: readonly string[];
}

/** The columns of a training record and of its job that `presentTraining` shows. */
const FULL_COLUMNS = ['t.*', 'j.id as job_id', 'j.state as job_state', 'j.progress as job_progress', 'j.metrics as job_metrics', 'j.error as job_error', 'j.started_at as job_started_at', 'j.ended_at as job_ended_at'];

/** Page arguments -> limit/offset. */
function paging(page = 1, pageSize = 20): { limit: number; offset: number } {
  return { limit: pageSize, offset: (page - 1) * pageSize };
}

/** States in which logs and monitoring may be read (spec workflow §4). */
const VIEWABLE_STATES: readonly string[] = [JobState.processing, JobState.restoring, JobState.stopping, JobState.debugging, JobState.successful, JobState.stoppedManually];

export class TrainCalls {
  constructor(
    private readonly deps: ModellingDeps,
    private readonly trainings: Trainings,
  ) {}

  private get knex() {
    return this.deps.db.executor();
  }

  /** A job of the caller's tenant whose record the caller may reach with `need`. */
  async jobInScope(user: ServerCallUser, jobId: string, need: 'view' | 'edit') {
    const job = await this.deps.jobs.get(jobId, { tenantId: user.tenantId });
    if (!job) throw new AppError('trainNotFound');
    const rec = await this.trainings.recordOfJob(jobId);
    if (!rec) throw new AppError('trainNotFound');
    try {
      await recordInScope(this.knex, user, rec.table, rec.row.id, need, 'trainNotFound');
    } catch (err) {
      // Without any right on the project the job does not exist for the caller.
      if (err instanceof AppError && (err.codeName === 'projectNotFound' || err.codeName === 'solutionNotFound')) throw new AppError('trainNotFound');
      throw err;
    }
    return { job, record: rec };
  }

  /**
   * `train/getTrainDisplayDataList`: the metrics series of a job (one point per report) and, for
   * a training in debug mode, the tensor summaries kept at a breakpoint (`tensors`:
   * `{ id, time, step, tensors, omitted }`): the latest, or with `step` that breakpoint's (the
   * latest line of that step; null when it has none, or before the first), and `tensorSteps`,
   * the breakpoint steps that have summaries, in the order they were kept. The points are the
   * job's `job_metrics` rows, by range: after a point (`afterPoint`, the last one the caller
   * has), from a step (`fromStep`), some metrics (`names`); at most 10,000.
   */
  async displayData(user: ServerCallUser, jobId: string, step?: number, range: Omit<PointsQuery, 'limit'> = {}) {
    const { job } = await this.jobInScope(user, jobId, 'view');
    if (!VIEWABLE_STATES.includes(job.state)) throw new AppError('trainNotFound');
    const points = await readPoints(this.knex, jobId, range);
    const tensorLines = () => this.knex('job_logs').where({ job_id: jobId, level: 'debug' });
    // The steps from the head of each line only (`tensors {"step":N,...`): the lines are large.
    const heads = (await tensorLines()
      .andWhere('message', 'like', `${TENSORS_LINE}%`)
      .orderBy('id')
      .limit(10_000)
      .select('id', this.knex.raw('substr(message, 1, 64) as head'))) as Row[];
    const tensorSteps: number[] = [];
    for (const h of heads) {
      const s = stepOf(String(h.head));
      if (s !== null && !tensorSteps.includes(s)) tensorSteps.push(s);
    }
    const latest = (await tensorLines()
      .andWhere('message', 'like', step === undefined ? `${TENSORS_LINE}%` : `${TENSORS_LINE}{"step":${step},%`)
      .orderBy('id', 'desc')
      .first('id', 'message', 'created_at')) as Row | undefined;
    let tensors: Record<string, unknown> | null = null;
    if (latest) {
      try {
        const snap = JSON.parse(String(latest.message).slice(TENSORS_LINE.length)) as Record<string, unknown>;
        if (Array.isArray(snap.tensors)) tensors = { id: Number(latest.id), time: iso(latest.created_at), ...snap };
      } catch {
        // a malformed line counts as none
      }
    }
    return { jobId, state: job.state, progress: job.progress, metrics: job.metrics, points, tensors, tensorSteps };
  }

  async stop(user: ServerCallUser, jobId: string) {
    await this.jobInScope(user, jobId, 'edit');
    try {
      const job = await this.deps.jobs.stop(jobId, { tenantId: user.tenantId });
      return { jobId, state: job.state };
    } catch (err) {
      if (err instanceof JobNotStoppableError) throw new AppError(err.reason === 'notFound' ? 'trainNotFound' : 'trainNotStoppable');
      throw err;
    }
  }

  /** `train/skipBreakpoint`: lets a debug-mode training at a breakpoint go on. */
  async skipBreakpoint(user: ServerCallUser, jobId: string) {
    await this.jobInScope(user, jobId, 'edit');
    try {
      const job = await this.deps.jobs.skipBreakpoint(jobId, { tenantId: user.tenantId });
      return { jobId, state: job.state };
    } catch (err) {
      if (err instanceof JobNotStoppableError) throw new AppError(err.reason === 'notFound' ? 'trainNotFound' : 'breakpointNotActive');
      throw err;
    }
  }

  /**
   * `train/getPicBySimulatorNum`: the data behind an environment's comparison charts: one
   * trajectory rolled in the trained environment (logged decisions drive it) against the data,
   * per output node, in original units.
   */
  async simulatorPictures(user: ServerCallUser, id: string, trajectory: number, horizon: number) {
    const { row } = await recordInScope(this.knex, user, 'simulators', id, 'view', 'simulatorNotFound');
    if (!row.artifact_key) throw new AppError('dataProcessUnfinished', { id: 'validation.invalid' });
    const { venv, dataset } = await loadVenv(this.deps.db.knex, this.deps.blobs, row);
    if (trajectory >= dataset.trajectoryCount) throw new AppError('paramInvalid', { trajectory: 'validation.invalid' });
    const start = dataset.starts[trajectory]!;
    const h = Math.max(1, Math.min(horizon, dataset.ends[trajectory]! - start));
    const steps = await venv.rollout(dataset, Int32Array.of(start), h, { agents: 'data' });
    const nodes: Record<string, { predicted: number[][]; real: number[][] }> = {};
    steps.forEach((step, k) => {
      for (const [name, batch] of Object.entries(decodeStep(dataset, step))) {
        const entry = (nodes[name] ??= { predicted: [], real: [] });
        entry.predicted.push(Array.from(batch.data));
        entry.real.push(dataset.raw[name] ? Array.from(dataset.gather(name, [start + k], 'raw')) : []);
      }
    });
    return { id, trajectory, trajectories: dataset.trajectoryCount, horizon: h, nodes };
  }

  /**
   * `train/getTrainLog`: a page of the log (while running or successful). The tensor summaries
   * of debug mode are left out (`displayData` serves them); `nextAfterId` still counts them.
   */
  async log(user: ServerCallUser, jobId: string, afterId?: number, limit?: number) {
    const { job } = await this.jobInScope(user, jobId, 'view');
    if (!VIEWABLE_STATES.includes(job.state) && job.state !== JobState.failure) throw new AppError('trainNotFound');
    const page = await this.deps.jobs.logs(jobId, { tenantId: user.tenantId, ...(afterId !== undefined ? { afterId } : {}), ...(limit !== undefined ? { limit } : {}) });
    const items = (page?.items ?? []).filter((l) => !isTensorsLine(l.level, l.message)).map((l) => ({ id: l.id, level: l.level, message: l.message, time: l.createdAt.toISOString() }));
    return { jobId, state: job.state, error: job.error, items, nextAfterId: page?.nextAfterId ?? null };
  }

  /** `train/getTrainLogList`: the logs a job has (main log with line counts per level). */
  async logList(user: ServerCallUser, jobId: string) {
    await this.jobInScope(user, jobId, 'view');
    const rows = (await this.knex('job_logs').where({ job_id: jobId }).groupBy('level').select('level').count({ n: '*' })) as Array<{ level: string; n: number | string }>;
    return { jobId, logs: [{ name: 'train.log', lines: Object.fromEntries(rows.map((r) => [r.level, Number(r.n)])) }] };
  }

  /** The tables a list reads, each with the kind it lists. */
  private tablesOf(kind: string | undefined): Array<[string, TrainingTable | 'schemes']> {
    return kind ? [[kind, kind === 'scheme' ? 'schemes' : LIST_TABLES[kind]!]] : [...Object.entries(LIST_TABLES).filter(([k]) => k !== 'decision'), ['scheme', 'schemes']];
  }

  private async recordsOf(user: ServerCallUser, filter: RecordFilter) {
    const out: Array<{ table: string; row: Row }> = [];
    for (const [kind, table] of this.tablesOf(filter.kind)) {
      for (const row of await this.filtered(user, table, filter, kind).select(FULL_COLUMNS)) out.push({ table, row });
    }
    const visible = await this.visibleOnly(user, out);
    visible.sort(newestFirst);
    return visible.map(({ table, row }) => this.present(table, row));
  }

  /**
   * One page of the records (newest first) and how many there are in all: the keys of every
   * matching record are read and ordered, the page's records only are read in full.
   */
  private async pageOfRecords(user: ServerCallUser, filter: RecordFilter, offset: number, limit: number) {
    const keys: Array<{ table: TrainingTable | 'schemes'; row: Row }> = [];
    for (const [kind, table] of this.tablesOf(filter.kind)) {
      for (const row of await this.filtered(user, table, filter, kind).select('t.id', 't.created_at', 't.project_id')) keys.push({ table, row });
    }
    const visible = await this.visibleOnly(user, keys);
    visible.sort(newestFirst);
    const page = visible.slice(offset, offset + limit);
    const full = new Map<string, Row>();
    for (const table of new Set(page.map((k) => k.table))) {
      const ids = page.filter((k) => k.table === table).map((k) => String(k.row.id));
      const rows: Row[] = await this.filtered(user, table, {}).whereIn('t.id', ids).select(FULL_COLUMNS);
      for (const r of rows) full.set(`${table}:${String(r.id)}`, r);
    }
    const rows = page.flatMap(({ table, row }) => {
      const r = full.get(`${table}:${String(row.id)}`);
      // A record deleted between the two reads is left out of the page.
      return r ? [this.present(table, r)] : [];
    });
    return { rows, total: visible.length };
  }

  /** The records of one table with their job, of the caller's tenant, filtered (no columns chosen). */
  private filtered(user: ServerCallUser, table: TrainingTable | 'schemes', filter: RecordFilter, kind?: string) {
    const q = this.knex(`${table} as t`)
      .join('jobs as j', 'j.id', table === 'schemes' ? 't.process_job_id' : 't.job_id')
      .where('t.tenant_id', user.tenantId);
    if (filter.projectId) q.andWhere('t.project_id', filter.projectId);
    if (filter.solutionId) q.andWhere('t.solution_id', filter.solutionId);
    if (table === 'deductions' && filter.kind) q.andWhere('t.kind', kind);
    if (filter.states) q.whereIn('j.state', [...filter.states]);
    return q;
  }

  /** Only the records of projects the caller may see. */
  private async visibleOnly<T extends { row: Row }>(user: ServerCallUser, records: T[]): Promise<T[]> {
    const allowed = new Map<string, boolean>();
    const visible: T[] = [];
    for (const r of records) {
      const p = String(r.row.project_id);
      if (!allowed.has(p)) allowed.set(p, await assertProjectAccess(this.knex, user, p, 'view').then(() => true, () => false));
      if (allowed.get(p)) visible.push(r);
    }
    return visible;
  }

  private present(table: string, row: Row) {
    return { ...presentTraining(table, row), kind: kindOf(table, row), jobId: row.job_id as string | null };
  }

  /** `train/getTrainProcessList`: trainings of a solution in progress. */
  async processList(user: ServerCallUser, solutionId: string) {
    await solutionScope(this.knex, user, solutionId, 'view');
    const rows = await this.recordsOf(user, { solutionId, states: ACTIVE_STATES });
    return { rows, total: rows.length };
  }

  /**
   * `train/getAllTrainList`: every training the caller may see (of a project or a solution when
   * asked, of a kind when asked), newest first, paged: only the page's records are read in full.
   */
  async allList(user: ServerCallUser, q: { projectId?: string | undefined; solutionId?: string | undefined; kind?: string | undefined; page: number; pageSize: number }) {
    if (q.projectId) await assertProjectAccess(this.knex, user, q.projectId, 'view');
    if (q.solutionId) await solutionScope(this.knex, user, q.solutionId, 'view');
    const { limit, offset } = paging(q.page, q.pageSize);
    const { rows, total } = await this.pageOfRecords(user, { projectId: q.projectId, solutionId: q.solutionId, kind: q.kind }, offset, limit);
    return { rows, total, page: q.page, pageSize: q.pageSize };
  }

  /** `train/getRunningModelPolicyList`: policy trainings of a solution that have started. */
  async runningPolicies(user: ServerCallUser, solutionId: string) {
    await solutionScope(this.knex, user, solutionId, 'view');
    const rows = (await this.recordsOf(user, { solutionId, kind: 'policy' })).filter((r) => r.state !== JobState.waiting);
    return { rows, total: rows.length };
  }

  /** `train/deleteRecords`: deletes finished training records, only with the acknowledgement. */
  async deleteRecords(user: ServerCallUser, jobIds: string[], acknowledged: boolean) {
    requireAcknowledged(acknowledged);
    const deleted: string[] = [];
    for (const jobId of jobIds) {
      const { record } = await this.jobInScope(user, jobId, 'edit');
      if (record.table === 'schemes') throw new AppError('trainNotFound');
      await this.trainings.delete(user, record.table, record.row.id);
      deleted.push(jobId);
    }
    return { deleted };
  }

  /**
   * `virtualMachine/getVirtualMachineList`: the workers a training can be pinned to. System roles
   * see the host's figures (host name, cores, memory, slots, every tenant's running jobs; `scope:
   * 'host'`); everyone else sees each worker's id, status, engine version and GPU with their own
   * tenant's running jobs on it, and no host figure (`host`, `cores`, `memory`, `concurrency`
   * null; `scope: 'tenant'`).
   */
  async virtualMachines(user: ServerCallUser) {
    const workers = await this.deps.jobs.workers();
    const host = user.isSystemRole;
    const q = this.deps.db.executor()('jobs').whereIn('state', [JobState.processing, JobState.stopping, JobState.debugging]);
    if (!host) q.where('tenant_id', user.tenantId);
    const running = (await q.groupBy('worker_id').select('worker_id').count({ n: '*' })) as Array<{ worker_id: string; n: number | string }>;
    const busy = new Map(running.map((r) => [r.worker_id, Number(r.n)]));
    return {
      scope: host ? ('host' as const) : ('tenant' as const),
      rows: workers.map((w, i) => ({
        id: w.id,
        name: host ? w.host : `#${i + 1}`,
        host: host ? w.host : null,
        cores: host ? w.cores : null,
        memory: host ? w.memory : null,
        gpuAdapter: w.gpuAdapter,
        engineVersion: w.engineVersion,
        concurrency: host ? w.concurrency : null,
        runningJobs: busy.get(w.id) ?? 0,
        status: w.status,
        heartbeatAt: w.heartbeatAt.toISOString(),
      })),
    };
  }

  /** `atmVersion/getAtmVersionList`: engine versions of the online workers; how many workers run each (a host figure) for system roles only (null for others). */
  async engineVersions(user: ServerCallUser) {
    const workers = (await this.deps.jobs.workers()).filter((w) => w.status === 'online');
    const versions = [...new Set(workers.map((w) => w.engineVersion))].sort();
    return { rows: versions.map((v) => ({ version: v, workers: user.isSystemRole ? workers.filter((w) => w.engineVersion === v).length : null })) };
  }

  // ---- overview (dashboard) ----------------------------------------------------------------

  /** `overview/getTrainingList`: the newest trainings the caller may see; `running`: only those waiting or in progress. */
  async overviewTrainings(user: ServerCallUser, limit = 10, running = false) {
    const rows = await this.recordsOf(user, running ? { states: ACTIVE_STATES } : {});
    return { rows: rows.slice(0, limit), total: rows.length };
  }

  async overviewOverall(user: ServerCallUser) {
    const rows = await this.recordsOf(user, {});
    const count = (k: string) => rows.filter((r) => r.kind === k).length;
    return {
      environments: count('environment'),
      policies: count('policy'),
      parameterSearches: count('parameter'),
      deductions: count('simulation') + count('decision'),
      running: rows.filter((r) => ACTIVE_STATES.includes(String(r.state))).length,
      successful: rows.filter((r) => r.state === JobState.successful || r.state === JobState.stoppedManually).length,
      failed: rows.filter((r) => r.state === JobState.failure).length,
    };
  }

  /**
   * Resources of the dashboard: the caller's tenant (its jobs running and waiting, those on GPU
   * workers, its storage); the host's workers (cores, memory, slots, GPUs) only for system roles.
   */
  async overviewResource(user: ServerCallUser): Promise<OverviewResource> {
    const knex = this.deps.db.executor();
    const running: string[] = [JobState.processing, JobState.stopping, JobState.debugging];
    const jobs = (await knex('jobs')
      .where('tenant_id', user.tenantId)
      .whereIn('state', [...running, JobState.waiting, JobState.restoring])
      .select('state', 'worker_id')) as { state: string; worker_id: string | null }[];
    const workers = await this.deps.jobs.workers();
    const gpuWorkers = new Set(workers.filter((w) => w.gpuAdapter).map((w) => w.id));
    const mine = jobs.filter((j) => running.includes(j.state));
    const quota = (await readQuotas(knex, { tenantId: user.tenantId, userId: user.id })).tenant;
    const tenant = {
      runningJobs: mine.length,
      waitingJobs: jobs.length - mine.length,
      gpuJobs: mine.filter((j) => j.worker_id && gpuWorkers.has(j.worker_id)).length,
      storage: { totalBytes: quota.totalBytes, usedBytes: quota.usedBytes },
    };
    if (!user.isSystemRole) return { scope: 'tenant', tenant, host: null };
    const online = workers.filter((w) => w.status === 'online');
    const all = (await knex('jobs').whereIn('state', running).count({ n: '*' })) as Array<{ n: number | string }>;
    return {
      scope: 'host',
      tenant,
      host: {
        workers: online.length,
        cores: online.reduce((s, w) => s + w.cores, 0),
        memory: online.reduce((s, w) => s + w.memory, 0),
        slots: online.reduce((s, w) => s + w.concurrency, 0),
        runningJobs: Number(all[0]?.n ?? 0),
        gpus: online.filter((w) => w.gpuAdapter).length,
        gpuAdapters: [...new Set(online.flatMap((w) => (w.gpuAdapter ? [w.gpuAdapter] : [])))].sort(),
      },
    };
  }

  /** Duration buckets (1h, 6h, 12h, 24h, over 24h) and score buckets (60..100) of finished trainings. */
  async overviewStatistics(user: ServerCallUser) {
    const rows = (await this.recordsOf(user, {})).filter((r) => r.kind !== 'scheme' && (r.state === JobState.successful || r.state === JobState.stoppedManually));
    const durations: Record<string, number> = { '1h': 0, '6h': 0, '12h': 0, '24h': 0, over24h: 0 };
    const scores: Record<string, number> = { '60': 0, '70': 0, '80': 0, '90': 0, '100': 0 };
    for (const r of rows) {
      if (typeof r.durationMs === 'number') {
        const b = durationBucket(r.durationMs);
        durations[b] = (durations[b] ?? 0) + 1;
      }
      const s = r.score;
      if (typeof s === 'number' && Number.isFinite(s)) {
        const b = String(scoreBucket(s));
        scores[b] = (scores[b] ?? 0) + 1;
      }
    }
    return { trainings: rows.length, durations, scores };
  }
}
