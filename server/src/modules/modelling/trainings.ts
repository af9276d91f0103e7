/**
 * The trainings core: training records and their jobs for every kind (environment trainings
 * `simulators`, policy trainings `policies`, parameter searches and deductions), driven by the
 * kind's descriptor (`training-kinds.ts`, `areas/*.ts`): create (the kind's rules, then the
 * record and its job), list, get, delete, restore, copy, update and the runs of a record, the
 * records' state kept in step with their jobs', and the calls of every registered kind
 * (`trainingRoutes`). The rules and checks it applies, and how a record is read and shown, are
 * `training-rules.ts`; stop, logs and display data of a job are `train/*` (`train.ts`); the
 * events stream is the job contract's (`modules/jobs`).
 */
import { z } from 'zod';
import { AppError, MODELLING_JOB_KINDS, copySchema, recordIdSchema, solutionRefSchema, type Locale } from '@decisio/domain';
import type { ServerCallUser } from '@decisio/sdk-plugin/server';
import { newId } from '../../db/ids';
import type { PostRoute } from '../../http/route';
import { EngineVersionMismatchError, WorkerUnavailableError, type EnqueueOptions } from '../../jobs/queue';
import { mirrorJobState, reconcileStates } from '../../jobs/record-state';
import { JobState } from '../../jobs/states';
import { lockDatasets } from '../datasets/in-use';
import type { BlobOwner } from '../storage/blob-store';
import { chargeStorage, releaseStorage } from '../storage/quota';
import { iso, parseJson, type ModellingDeps, type Row } from './common';
import { recordInScope, solutionScope, type Scope } from '../projects/access';
import { artefactOwner, artifactPrefix } from '../storage/artefact-keys';
import { ACTIVE_STATES, TRAINING_RECORDS, TrainingChecks, presentTraining, requireAcknowledged, artefactFiles, checkHyperparameters, checkStopConditions, configOf, copyName, withJob, type TrainingTable } from './training-rules';
import type { TrainingCreateInput, TrainingDescriptor, TrainingKinds } from './training-kinds';

/** What runs after a record is deleted, with the jobs it ran that no other record refers to. */
export type DeletedListener = (tenantId: string, jobIds: string[]) => Promise<void>;

/** Training records and their jobs. */
export class Trainings {
  private readonly checks: TrainingChecks;
  private readonly deletedListeners: DeletedListener[] = [];

  constructor(private readonly deps: ModellingDeps) {
    this.checks = new TrainingChecks(deps);
  }

  private get knex() {
    return this.deps.db.executor();
  }

  /** The project's default algorithm image version (`projects.image_version`): its jobs run only on workers of it; null: any. */
  private async projectVersion(projectId: string): Promise<string | null> {
    const r = await this.knex('projects').where({ id: projectId }).first('image_version');
    return r?.image_version ? String(r.image_version) : null;
  }

  /**
   * Queues a job on the workers of `engineVersion`, the project's version ({@link projectVersion}),
   * when it has one: a pinned worker of another version answers `trainWorkerVersionMismatch`, an in-process
   * server of another version `trainEngineVersionUnavailable`.
   */
  private async queueJob(kind: string, payload: unknown, engineVersion: string | null, options: EnqueueOptions) {
    try {
      return await this.deps.jobs.enqueue(kind, payload, { ...options, engineVersion });
    } catch (err) {
      if (err instanceof WorkerUnavailableError) throw new AppError('insufficientResources');
      if (err instanceof EngineVersionMismatchError) throw new AppError(err.workerId ? 'trainWorkerVersionMismatch' : 'trainEngineVersionUnavailable', err.workerId ? { workerId: 'validation.invalid' } : undefined);
      throw err;
    }
  }

  /** A pinned worker of another version than the project's is refused before anything is written. */
  private async checkPinnedVersion(version: string | null, workerId?: string | null) {
    if (!version || !workerId) return;
    const worker = (await this.deps.jobs.workers()).find((w) => w.id === workerId && w.status === 'online');
    if (worker && worker.engineVersion !== version) throw new AppError('trainWorkerVersionMismatch', { workerId: 'validation.invalid' });
  }

  private async insertAndQueue(user: ServerCallUser, table: TrainingTable, kind: string, row: Row, engineVersion: string | null, workerId?: string | null) {
    await this.knex(table).insert(row);
    let job;
    try {
      job = await this.queueJob(kind, { id: row.id }, engineVersion, { tenantId: user.tenantId, userId: user.id, name: row.name, pinWorkerId: workerId ?? null });
    } catch (err) {
      // Nothing was queued: the record goes too (no record without a job).
      await this.knex(table).where({ id: row.id }).delete();
      throw err;
    }
    await this.knex(table).where({ id: row.id }).update({ job_id: job.id });
    await this.recordRun(user, table, row.id, job.id, 'create');
    return this.get(user, table, row.id);
  }

  /** Remembers a job a record ran (`train/getTrainUpdateListPage`). */
  private async recordRun(user: ServerCallUser, table: TrainingTable, recordId: string, jobId: string, reason: 'create' | 'restore' | 'update') {
    await this.knex('training_runs').insert({ id: newId(), tenant_id: user.tenantId, record_table: table, record_id: recordId, job_id: jobId, reason, created_at: new Date() });
  }

  /**
   * `train/createTrainUpdate`: trains a finished environment or policy further, from its last
   * checkpoint, for `hyperparameters.epochs` more steps (new stop conditions optional). An
   * environment update may add new data: `datasetIds`, datasets of the caller's tenant in the
   * record's project (`tableNotFound` otherwise), whose rows the job appends to the scheme's
   * data for this run (kept in the config; an update without them trains on the scheme's data).
   */
  async update(
    user: ServerCallUser,
    table: 'simulators' | 'policies',
    id: string,
    input: { stopConditions?: Record<string, unknown> | undefined; hyperparameters?: Record<string, unknown> | undefined; datasetIds?: string[] | undefined },
  ) {
    const { row, scope } = await recordInScope(this.knex, user, table, id, 'edit', TRAINING_RECORDS[table].notFound);
    await this.checks.refuseServing(table, id);
    const job = row.job_id ? await this.knex('jobs').where({ id: row.job_id }).first('state') : null;
    if (!job || ![JobState.successful, JobState.stoppedManually].includes(job.state)) throw new AppError('paramInvalid', { id: 'validation.invalid' });
    if (table === 'policies') await this.checks.usableReward(String(row.solution_id), String(row.objective_id), 'en-US');
    const config = configOf(row);
    if (input.stopConditions) config.stopConditions = checkStopConditions(input.stopConditions);
    config.hyperparameters = { ...config.hyperparameters, ...(input.hyperparameters ?? {}) };
    checkHyperparameters(table === 'simulators' ? 'environment' : 'policy', String(row.algorithm), config.hyperparameters);
    if (input.datasetIds && input.datasetIds.length > 0 && table !== 'simulators') throw new AppError('paramInvalid', { datasetIds: 'validation.invalid' });
    const datasetIds = [...new Set(input.datasetIds ?? [])];
    if (table === 'simulators') config.datasetIds = datasetIds.length > 0 ? datasetIds : undefined;
    const kind = table === 'simulators' ? MODELLING_JOB_KINDS.environment : MODELLING_JOB_KINDS.policy;
    // The job reads the config as soon as it starts (a job thread or another worker may start it
    // before enqueue returns): write it first, and put the old one back when nothing was queued.
    // The datasets it names are locked while it is written (`datasets/in-use.ts lockDatasets`):
    // a dataset deleted meanwhile is not named, and a delete after it finds the config naming it.
    await this.deps.db.transaction(async () => {
      const found = await lockDatasets(this.knex, datasetIds, { tenantId: user.tenantId, projectId: scope.project.id });
      if (datasetIds.some((d) => !found.has(d))) throw new AppError('tableNotFound', { datasetIds: 'validation.invalid' });
      await this.knex(table).where({ id }).update({ config: JSON.stringify(config), updated_at: new Date() });
    });
    let next;
    try {
      next = await this.queueJob(kind, { id, resumeFrom: row.job_id, extend: true }, await this.projectVersion(String(row.project_id)), { tenantId: user.tenantId, userId: user.id, name: row.name });
    } catch (err) {
      await this.knex(table).where({ id }).update({ config: row.config });
      throw err;
    }
    await this.knex(table).where({ id }).update({ job_id: next.id, state: JobState.waiting, updated_at: new Date() });
    await this.recordRun(user, table, id, next.id, 'update');
    return this.get(user, table, id);
  }

  /** `train/getTrainUpdateListPage`: the jobs a record ran, newest first. */
  async runs(user: ServerCallUser, table: 'simulators' | 'policies', id: string, page: number, pageSize: number) {
    await recordInScope(this.knex, user, table, id, 'view', TRAINING_RECORDS[table].notFound);
    const base = () => this.knex('training_runs as r').join('jobs as j', 'j.id', 'r.job_id').where({ 'r.record_id': id, 'r.tenant_id': user.tenantId });
    const [counted] = (await base().count({ n: '*' })) as Array<{ n: number | string }>;
    const rows = await base()
      .select('r.job_id', 'r.reason', 'r.created_at', 'j.state', 'j.progress', 'j.metrics', 'j.error', 'j.started_at', 'j.ended_at')
      .orderBy([{ column: 'r.created_at', order: 'desc' }, { column: 'r.id', order: 'desc' }])
      .limit(pageSize)
      .offset((page - 1) * pageSize);
    return {
      rows: rows.map((r: Row) => ({ jobId: r.job_id, reason: r.reason, state: r.state, progress: Number(r.progress), metrics: parseJson(r.metrics, {}), error: r.error ?? null, createdAt: iso(r.created_at), startTime: iso(r.started_at), endTime: iso(r.ended_at) })),
      total: Number(counted?.n ?? 0),
      page,
      pageSize,
    };
  }

  private base(user: ServerCallUser, scope: Scope, name: string) {
    const now = new Date();
    return { id: newId(), tenant_id: user.tenantId, project_id: scope.project.id, solution_id: scope.solution.id, name, job_id: null, state: JobState.waiting, creator_id: user.id, created_at: now, updated_at: now };
  }

  /**
   * `<area>/create` of any kind: the caller's edit right on the solution, the kind's own rules
   * and columns (`descriptor.prepare`, `areas/<area>.ts`), then the record is inserted and its
   * job queued.
   */
  async create<I extends TrainingCreateInput>(user: ServerCallUser, descriptor: TrainingDescriptor<I>, input: I, locale: Locale = 'en-US') {
    const scope = await solutionScope(this.knex, user, input.solutionId, 'edit');
    // Read once: the pinned worker is checked against it and the job queued for it.
    const version = await this.projectVersion(scope.project.id);
    await this.checkPinnedVersion(version, input.workerId);
    const blobSize = async (key: string) => (await this.deps.blobs.stat(key))?.size ?? 0;
    const own = await descriptor.prepare({ user, scope, locale, checks: this.checks, knex: this.knex, blobSize }, input);
    const row = { ...this.base(user, scope, input.name), ...own };
    return this.insertAndQueue(user, descriptor.table, descriptor.jobKind, row, version, input.workerId);
  }

  async get(user: ServerCallUser, table: TrainingTable, id: string, kind?: string) {
    const { row } = await recordInScope(this.knex, user, table, id, 'view', TRAINING_RECORDS[table].notFound);
    if (kind && row.kind !== kind) throw new AppError(TRAINING_RECORDS[table].notFound);
    const full = await withJob(this.knex, table).where('t.id', id).first();
    return presentTraining(table, full);
  }

  async list(user: ServerCallUser, table: TrainingTable, solutionId: string, kind?: string) {
    await solutionScope(this.knex, user, solutionId, 'view');
    const q = withJob(this.knex, table).where('t.solution_id', solutionId);
    if (kind) q.andWhere('t.kind', kind);
    const rows = await q.orderBy([{ column: 't.created_at', order: 'desc' }, { column: 't.id' }]);
    return { rows: rows.map((r: Row) => presentTraining(table, r)), total: rows.length };
  }

  /**
   * Runs `fn` after each delete (`delete`, `train/deleteRecords`) with the jobs the record ran
   * (its job and those of `training_runs`) that no other record refers to (a copy keeps its
   * job's): the TensorBoard of those jobs goes with the record. A failing `fn` does not fail the
   * delete.
   */
  onDeleted(fn: DeletedListener): void {
    this.deletedListeners.push(fn);
  }

  /** The jobs of `jobIds` that no training record (nor its runs) refers to. */
  private async unreferenced(jobIds: string[]): Promise<string[]> {
    if (jobIds.length === 0) return [];
    const used = new Set<string>();
    for (const table of [...Object.keys(TRAINING_RECORDS), 'training_runs']) {
      for (const r of (await this.knex(table).whereIn('job_id', jobIds).select('job_id')) as Row[]) used.add(String(r.job_id));
    }
    return jobIds.filter((j) => !used.has(j));
  }

  /** Deletes a record whose job is over, with its artefacts and its jobs' TensorBoards. */
  async delete(user: ServerCallUser, table: TrainingTable, id: string, kind?: string) {
    const { row } = await recordInScope(this.knex, user, table, id, 'edit', TRAINING_RECORDS[table].notFound);
    if (kind && row.kind !== kind) throw new AppError(TRAINING_RECORDS[table].notFound);
    if (row.job_id) {
      const job = await this.knex('jobs').where({ id: row.job_id }).first('state');
      if (job && ACTIVE_STATES.includes(job.state)) throw new AppError('projectHasTraining');
    }
    if (table === 'simulators') {
      for (const t of ['policies', 'parameter_searches', 'deductions']) if (await this.knex(t).where({ simulator_id: id }).first('id')) throw new AppError('tableInUse');
    }
    if (table === 'policies' && (await this.knex('deductions').where({ policy_id: id }).first('id'))) throw new AppError('tableInUse');
    // A policy behind a model service stays (spec: a policy serving online cannot be deleted).
    await this.checks.refuseServing(table, id);
    const runs = (await this.knex('training_runs').where({ record_id: id }).select('job_id')) as Row[];
    const jobIds = [...new Set([row.job_id, ...runs.map((r) => r.job_id)].filter((j): j is string => typeof j === 'string' && j !== ''))];
    // What the artefacts take now is what was charged for them (each record has its own
    // prefix: a copy duplicates the files and is charged for them, see `copy`).
    const artefactBytes = row.artifact_key ? (await artefactFiles(this.deps.blobs, row.artifact_key)).reduce((s, f) => s + f.size, 0) : 0;
    const removed = Number(await this.knex(table).where({ id }).delete());
    await this.knex('training_runs').where({ record_id: id }).delete();
    // Only the delete that removed the row gives the space back (two deletes at once: one of them).
    if (removed > 0 && row.artifact_key) {
      await this.deps.blobs.removePrefix(row.artifact_key).catch(() => undefined);
      const owner = artefactOwner(row.artifact_key, row.tenant_id);
      if (owner) await releaseStorage(this.knex, owner, artefactBytes);
    }
    const gone = await this.unreferenced(jobIds);
    for (const fn of this.deletedListeners) await fn(user.tenantId, gone).catch(() => undefined);
    return { id };
  }

  /**
   * `trainSimulator/restore` (and the same for policies): runs a training that failed or was
   * stopped again as a new job resuming from the old job's last checkpoint.
   */
  async restore(user: ServerCallUser, table: 'simulators' | 'policies', id: string, mode?: 'run' | 'debug') {
    const { row } = await recordInScope(this.knex, user, table, id, 'edit', TRAINING_RECORDS[table].notFound);
    await this.checks.refuseServing(table, id);
    const job = row.job_id ? await this.knex('jobs').where({ id: row.job_id }).first('state') : null;
    if (!job || ![JobState.failure, JobState.stoppedManually].includes(job.state)) throw new AppError('paramInvalid', { id: 'validation.invalid' });
    // A policy trains again with its reward as it is now: a reward broken since is refused.
    if (table === 'policies') await this.checks.usableReward(String(row.solution_id), String(row.objective_id), 'en-US');
    const config = configOf(row);
    if (mode) config.mode = mode;
    const kind = table === 'simulators' ? MODELLING_JOB_KINDS.environment : MODELLING_JOB_KINDS.policy;
    // The job reads the config as soon as it starts (a job thread or another worker may start it
    // before enqueue returns): write it first, and put the old one back when nothing was queued.
    await this.knex(table).where({ id }).update({ config: JSON.stringify(config), updated_at: new Date() });
    let next;
    try {
      next = await this.queueJob(kind, { id, resumeFrom: row.job_id }, await this.projectVersion(String(row.project_id)), { tenantId: user.tenantId, userId: user.id, name: row.name });
    } catch (err) {
      await this.knex(table).where({ id }).update({ config: row.config });
      throw err;
    }
    await this.knex(table).where({ id }).update({ job_id: next.id, state: JobState.waiting, updated_at: new Date() });
    await this.recordRun(user, table, id, next.id, 'restore');
    return this.get(user, table, id);
  }

  /**
   * Copies a finished environment or policy (record and artefacts) under a new name. The copy
   * gets its own artefact files (under the copying user's prefix), charged to that user's quota
   * first: `storageInsufficient` when they do not fit, and then nothing is copied. A failure
   * part-way removes what was copied and gives the charge back.
   */
  async copy(user: ServerCallUser, table: 'simulators' | 'policies', id: string, name?: string) {
    const { row, scope } = await recordInScope(this.knex, user, table, id, 'edit', TRAINING_RECORDS[table].notFound);
    const newName = name ?? (await copyName(this.knex, table, scope.project.id, row.name, 50));
    await this.checks.uniqueName(scope, table, newName);
    const copyId = newId();
    const files = row.artifact_key ? await artefactFiles(this.deps.blobs, row.artifact_key) : [];
    const artifactKey: string | null = row.artifact_key ? artifactPrefix(user.id, table, copyId) : null;
    const owner: BlobOwner = { tenantId: user.tenantId, userId: user.id };
    const bytes = files.reduce((s, f) => s + f.size, 0);
    await chargeStorage(this.knex, owner, bytes);
    let charged = bytes;
    try {
      let copied = 0;
      for (const f of files) copied += (await this.deps.blobs.put(`${artifactKey}/${f.name}`, await this.deps.blobs.get(`${row.artifact_key}/${f.name}`))).size;
      // A file that changed between the listing and the copy: charge (or give back) the difference.
      if (copied > charged) await chargeStorage(this.knex, owner, copied - charged);
      else if (copied < charged) await releaseStorage(this.knex, owner, charged - copied);
      charged = copied;
      const job = row.job_id ? await this.knex('jobs').where({ id: row.job_id }).first('state') : null;
      const now = new Date();
      await this.knex(table).insert({ ...row, id: copyId, name: newName, artifact_key: artifactKey, state: job?.state ?? row.state, creator_id: user.id, created_at: now, updated_at: now });
    } catch (err) {
      if (artifactKey) await this.deps.blobs.removePrefix(artifactKey).catch(() => undefined);
      await releaseStorage(this.knex, owner, charged).catch(() => undefined);
      throw err;
    }
    return this.get(user, table, copyId);
  }

  /**
   * One state per training: its job's (reads join it). The records' `state` column mirrors it
   * on each change (`syncState`), and is brought back in step at start-up for changes no
   * process heard (`reconcileStates`). Called once by the module's routes.
   */
  keepStatesInStep(): void {
    this.deps.jobs.subscribe((e) => {
      if (e.type === 'state') void this.syncState(e.jobId, e.state).catch(() => undefined);
    });
    void reconcileStates(this.deps.db.knex, Object.keys(TRAINING_RECORDS)).catch(() => undefined);
  }

  /**
   * On a job's change of state: the mirror `state` of its record (the job's state is the one
   * source, `server/src/jobs/record-state.ts`; deploy's contract names `policies.state`), and a
   * scheme processing that ended without a result.
   */
  async syncState(jobId: string, state: string) {
    await mirrorJobState(this.deps.db.knex, Object.keys(TRAINING_RECORDS), jobId, state);
    if (state === JobState.failure || state === JobState.stoppedManually) {
      await this.deps.db.knex('schemes').where({ process_job_id: jobId, process_state: 'processing' }).update({ process_state: 'failed' });
    }
  }

  /** The record a job works for, or null (jobs of other modules). */
  async recordOfJob(jobId: string): Promise<{ table: TrainingTable | 'schemes'; row: Row } | null> {
    for (const table of Object.keys(TRAINING_RECORDS) as TrainingTable[]) {
      const row = await this.knex(table).where({ job_id: jobId }).first();
      if (row) return { table, row };
    }
    const scheme = await this.knex('schemes').where({ process_job_id: jobId }).first();
    return scheme ? { table: 'schemes', row: scheme } : null;
  }
}

const ackSchema = recordIdSchema.extend({ acknowledged: z.boolean() });
const restoreSchema = recordIdSchema.extend({ mode: z.enum(['run', 'debug']).optional() });

/**
 * The core's calls, the same for every registered kind (`training-kinds.ts`):
 * `/<area>/create|list|get|delete` (+ `restore` for a restorable kind) and, for a kind whose
 * trained records are models others use, `/<modelArea>/list|get|delete|copy`.
 */
export function trainingRoutes(post: PostRoute, kinds: TrainingKinds, trainings: Trainings): void {
  for (const d of kinds.all()) {
    if (!d.modelArea) continue;
    // The model lists: a trained environment or policy, copied and deleted as a model.
    const table = d.table as 'simulators' | 'policies';
    post(`/${d.modelArea}/list`, solutionRefSchema, (i, u) => trainings.list(u, table, i.solutionId));
    post(`/${d.modelArea}/get`, recordIdSchema, (i, u) => trainings.get(u, table, i.id));
    post(`/${d.modelArea}/delete`, recordIdSchema, (i, u) => trainings.delete(u, table, i.id));
    post(`/${d.modelArea}/copy`, copySchema, (i, u) => trainings.copy(u, table, i.id, i.name));
  }
  for (const d of kinds.all()) {
    post(`/${d.area}/create`, d.createSchema, (i, u, ctx) => trainings.create(u, d, i, ctx.state.locale));
    post(`/${d.area}/list`, solutionRefSchema, (i, u) => trainings.list(u, d.table, i.solutionId, d.rowKind));
    post(`/${d.area}/get`, recordIdSchema, (i, u) => trainings.get(u, d.table, i.id, d.rowKind));
    if (d.deleteAck) {
      post(`/${d.area}/delete`, ackSchema, async (i, u) => {
        requireAcknowledged(i.acknowledged);
        return trainings.delete(u, d.table, i.id, d.rowKind);
      });
    } else post(`/${d.area}/delete`, recordIdSchema, (i, u) => trainings.delete(u, d.table, i.id, d.rowKind));
    if (d.restorable) post(`/${d.area}/restore`, restoreSchema, (i, u) => trainings.restore(u, d.table as 'simulators' | 'policies', i.id, i.mode));
  }
}
