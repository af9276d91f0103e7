/**
 * `train/*` (one training job: chart data, stop, logs, ...; lists of trainings), the workers as
 * virtual machines and algorithm versions, and the dashboard's `overview/*` counts.
 */
import { AppError } from '@decisio/domain';
import { decodeStep, durationBucket, scoreBucket } from '@decisio/learning';
import type { ServerCallUser } from '@decisio/sdk-plugin/server';
import { JobNotStoppableError } from '../../jobs/queue';
import { JobState } from '../../jobs/states';
import { assertProjectAccess } from '../projects/access';
import { iso, paging, recordInScope, solutionScope, toDate, type ModellingDeps, type Row } from './common';
import { loadVenv } from './engine/data';
import { presentTraining } from './presenters';
import { ACTIVE_STATES, TRAINING_RECORDS, Trainings, type TrainingTable } from './trainings';

/** Kind of a training record as the lists show it. */
function kindOf(table: string, row: Row): string {
  if (table === 'deductions') return String(row.kind);
  if (table === 'schemes') return 'scheme';
  return TRAINING_RECORDS[table as TrainingTable].kind;
}

const LIST_TABLES: Record<string, TrainingTable> = { environment: 'simulators', policy: 'policies', parameter: 'parameter_searches', simulation: 'deductions', decision: 'deductions' };

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

  /** `train/getTrainDisplayDataList`: the metrics series of a job (one point per report). */
  async displayData(user: ServerCallUser, jobId: string) {
    const { job } = await this.jobInScope(user, jobId, 'view');
    if (!VIEWABLE_STATES.includes(job.state)) throw new AppError('trainNotFound');
    const rows = await this.knex('job_logs').where({ job_id: jobId, level: 'debug' }).andWhere('message', 'like', 'metrics %').orderBy('id').limit(10_000).select('id', 'message', 'created_at');
    const points = rows.map((r: Row) => {
      let values: Record<string, number> = {};
      try {
        values = JSON.parse(String(r.message).slice('metrics '.length)) as Record<string, number>;
      } catch {
        // a malformed line is skipped
      }
      return { id: Number(r.id), time: iso(r.created_at), ...values };
    });
    return { jobId, state: job.state, progress: job.progress, metrics: job.metrics, points };
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

  /** `train/getTrainLog`: a page of the log (info and above; while running or successful). */
  async log(user: ServerCallUser, jobId: string, afterId?: number, limit?: number) {
    const { job } = await this.jobInScope(user, jobId, 'view');
    if (!VIEWABLE_STATES.includes(job.state) && job.state !== JobState.failure) throw new AppError('trainNotFound');
    const page = await this.deps.jobs.logs(jobId, { tenantId: user.tenantId, ...(afterId !== undefined ? { afterId } : {}), ...(limit !== undefined ? { limit } : {}) });
    const items = (page?.items ?? []).map((l) => ({ id: l.id, level: l.level, message: l.message, time: l.createdAt.toISOString() }));
    return { jobId, state: job.state, error: job.error, items, nextAfterId: page?.nextAfterId ?? null };
  }

  /** `train/getTrainLogList`: the logs a job has (main log with line counts per level). */
  async logList(user: ServerCallUser, jobId: string) {
    await this.jobInScope(user, jobId, 'view');
    const rows = (await this.knex('job_logs').where({ job_id: jobId }).groupBy('level').select('level').count({ n: '*' })) as Array<{ level: string; n: number | string }>;
    return { jobId, logs: [{ name: 'train.log', lines: Object.fromEntries(rows.map((r) => [r.level, Number(r.n)])) }] };
  }

  private async recordsOf(user: ServerCallUser, filter: { solutionId?: string | undefined; kind?: string | undefined; states?: readonly string[] }) {
    const tables: Array<[string, TrainingTable | 'schemes']> = filter.kind ? [[filter.kind, filter.kind === 'scheme' ? 'schemes' : LIST_TABLES[filter.kind]!]] : [...Object.entries(LIST_TABLES).filter(([k]) => k !== 'decision'), ['scheme', 'schemes']];
    const out: Array<{ table: string; row: Row }> = [];
    for (const [kind, table] of tables) {
      const jobCol = table === 'schemes' ? 't.process_job_id' : 't.job_id';
      const q = this.knex(`${table} as t`)
        .join('jobs as j', 'j.id', jobCol)
        .where('t.tenant_id', user.tenantId)
        .select('t.*', 'j.id as job_id', 'j.state as job_state', 'j.progress as job_progress', 'j.metrics as job_metrics', 'j.error as job_error', 'j.started_at as job_started_at', 'j.ended_at as job_ended_at');
      if (filter.solutionId) q.andWhere('t.solution_id', filter.solutionId);
      if (table === 'deductions' && filter.kind) q.andWhere('t.kind', kind);
      if (filter.states) q.whereIn('j.state', [...filter.states]);
      for (const row of await q) out.push({ table, row });
    }
    // Only projects the caller may see.
    const allowed = new Map<string, boolean>();
    const visible: typeof out = [];
    for (const r of out) {
      const p = String(r.row.project_id);
      if (!allowed.has(p)) allowed.set(p, await assertProjectAccess(this.knex, user, p, 'view').then(() => true, () => false));
      if (allowed.get(p)) visible.push(r);
    }
    visible.sort((a, b) => (toDate(b.row.created_at)?.getTime() ?? 0) - (toDate(a.row.created_at)?.getTime() ?? 0));
    return visible.map(({ table, row }) => ({ ...presentTraining(table, row), kind: kindOf(table, row), jobId: row.job_id }));
  }

  /** `train/getTrainProcessList`: trainings of a solution in progress. */
  async processList(user: ServerCallUser, solutionId: string) {
    await solutionScope(this.knex, user, solutionId, 'view');
    const rows = await this.recordsOf(user, { solutionId, states: ACTIVE_STATES });
    return { rows, total: rows.length };
  }

  /** `train/getAllTrainList`: every training the caller may see, newest first, paged. */
  async allList(user: ServerCallUser, q: { solutionId?: string | undefined; kind?: string | undefined; page: number; pageSize: number }) {
    if (q.solutionId) await solutionScope(this.knex, user, q.solutionId, 'view');
    const rows = await this.recordsOf(user, { solutionId: q.solutionId, kind: q.kind });
    const { limit, offset } = paging(q.page, q.pageSize);
    return { rows: rows.slice(offset, offset + limit), total: rows.length, page: q.page, pageSize: q.pageSize };
  }

  /** `train/getRunningModelPolicyList`: policy trainings of a solution that have started. */
  async runningPolicies(user: ServerCallUser, solutionId: string) {
    await solutionScope(this.knex, user, solutionId, 'view');
    const rows = (await this.recordsOf(user, { solutionId, kind: 'policy' })).filter((r) => r.state !== JobState.waiting);
    return { rows, total: rows.length };
  }

  /** `train/deleteRecords`: deletes finished training records, only with the acknowledgement. */
  async deleteRecords(user: ServerCallUser, jobIds: string[], acknowledged: boolean) {
    if (!acknowledged) throw new AppError('deleteNotAcknowledged', { acknowledged: 'validation.required' });
    const deleted: string[] = [];
    for (const jobId of jobIds) {
      const { record } = await this.jobInScope(user, jobId, 'edit');
      if (record.table === 'schemes') throw new AppError('trainNotFound');
      await this.trainings.delete(user, record.table, record.row.id);
      deleted.push(jobId);
    }
    return { deleted };
  }

  async virtualMachines() {
    const workers = await this.deps.jobs.workers();
    const running = (await this.deps.db.executor()('jobs').whereIn('state', [JobState.processing, JobState.stopping, JobState.debugging]).groupBy('worker_id').select('worker_id').count({ n: '*' })) as Array<{ worker_id: string; n: number | string }>;
    const busy = new Map(running.map((r) => [r.worker_id, Number(r.n)]));
    return {
      rows: workers.map((w) => ({
        id: w.id,
        name: w.host,
        host: w.host,
        cores: w.cores,
        memory: w.memory,
        gpuAdapter: w.gpuAdapter,
        engineVersion: w.engineVersion,
        concurrency: w.concurrency,
        runningJobs: busy.get(w.id) ?? 0,
        status: w.status,
        heartbeatAt: w.heartbeatAt.toISOString(),
      })),
    };
  }

  async engineVersions() {
    const workers = (await this.deps.jobs.workers()).filter((w) => w.status === 'online');
    const versions = [...new Set(workers.map((w) => w.engineVersion))].sort();
    return { rows: versions.map((v) => ({ version: v, workers: workers.filter((w) => w.engineVersion === v).length })) };
  }

  // ---- overview (dashboard) ----------------------------------------------------------------

  async overviewTrainings(user: ServerCallUser, limit = 10) {
    const rows = await this.recordsOf(user, {});
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

  async overviewResource() {
    const workers = (await this.deps.jobs.workers()).filter((w) => w.status === 'online');
    const running = (await this.deps.db.executor()('jobs').whereIn('state', [JobState.processing, JobState.stopping, JobState.debugging]).count({ n: '*' })) as Array<{ n: number | string }>;
    return {
      workers: workers.length,
      cores: workers.reduce((s, w) => s + w.cores, 0),
      memory: workers.reduce((s, w) => s + w.memory, 0),
      slots: workers.reduce((s, w) => s + w.concurrency, 0),
      runningJobs: Number(running[0]?.n ?? 0),
      gpus: workers.filter((w) => w.gpuAdapter).length,
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
