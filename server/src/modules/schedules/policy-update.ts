/**
 * The `policies.update` scheduled kind: the closed loop of a deployed model service (issue 19
 * item 6). Its recorded calls become a dataset (`modeldeploy/createDatasetFromRecords`), the
 * environment the serving policy was trained in is updated with them (`train/createTrainUpdate
 * kind: environment`), a copy of the serving policy is trained further in the updated
 * environment (`policy/copy`, then `train/createTrainUpdate kind: policy`), both policies are
 * scored in the updated environment with the same reward, windows and seed (a job of its own,
 * `policies.update.evaluate`), and the service is swapped to the copy (`modeldeploy/update`,
 * without refusing or dropping a call) only when the copy scores better by more than `minGain`.
 *
 * No worker waits for another job: the scheduled run's job only opens the loop (a
 * `policy_update_runs` row); every server's scheduler tick then takes the next step of each
 * loop whose current job has ended (`PolicyUpdates.advance`), as the schedule's author (rights
 * and quotas checked again at each step). A step is taken by one server (a conditional update of
 * `revision` with a lease), so a loop survives restarts and runs once with several servers.
 */
import os from 'node:os';
import { AppError, ErrorCode, messageOf, scheduleParamsSchemas, type PolicyUpdateReport, type PolicyUpdateState, type PolicyUpdateStep, type ScheduleParams } from '@decisio/domain';
import { evaluateInVenv, loadPolicy, modePolicy } from '@decisio/learning';
import type { ServerCallUser } from '@decisio/sdk-plugin/server';
import type { Clock } from '../../clock';
import type { Database } from '../../db/database';
import { newId } from '../../db/ids';
import type { JobQueue } from '../../jobs/contract';
import type { JobContext, JobKind } from '../../jobs/kinds';
import { isFinalState, JobState } from '../../jobs/states';
import type { Logger } from '../../logger';
import { HostGuard } from '../../net/host-guard';
import type { AccessService } from '../access/service';
import type { DatasetsService } from '../datasets/service';
import type { DeployService } from '../deploy/service';
import type { Notifier } from '../messages/service';
import { loadVenv } from '../modelling/engine/data';
import { withReward } from '../modelling/engine/user-code';
import type { Trainings } from '../modelling/trainings';
import type { BlobStore } from '../storage/blob-store';
import { dateOf } from '../logs/presenters';

/** The job kind that scores the serving policy and its retrained copy. */
export const POLICY_UPDATE_EVALUATE_KIND = 'policies.update.evaluate';

type Row = Record<string, any>;
type Params = ScheduleParams<'policies.update'>;

/** How long a server holds a step it took (another server takes it over after a crash). */
const LEASE_MS = 5 * 60_000;

function json<T>(text: unknown, fallback: T): T {
  if (typeof text !== 'string' || text === '') return (text as T) ?? fallback;
  try {
    return JSON.parse(text) as T;
  } catch {
    return fallback;
  }
}

const num = (v: unknown): number | null => (v === null || v === undefined || !Number.isFinite(Number(v)) ? null : Number(v));

/** An error as one English line (an `AppError` by its catalogue message and details). */
export function reasonOf(err: unknown): string {
  if (err instanceof AppError) return [messageOf(err.codeName, 'en-US'), ...Object.entries(err.details ?? {}).map(([k, v]) => `${k}: ${String(v)}`)].join('; ').slice(0, 1000);
  return (err instanceof Error ? err.message : String(err)).slice(0, 1000);
}

const isUniqueViolation = (err: unknown) => /unique|duplicate/i.test(err instanceof Error ? err.message : String(err));

/** A `policy_update_runs` row as the job history shows it. */
export function presentPolicyUpdate(r: Row): PolicyUpdateReport {
  const params = json<Partial<Params>>(r.params, {});
  return {
    id: r.id,
    serviceId: r.service_id,
    serviceName: r.service_name ?? null,
    state: r.state as PolicyUpdateState,
    step: r.step as PolicyUpdateStep,
    datasetId: r.dataset_id ?? null,
    calls: num(r.calls),
    environmentId: r.environment_id ?? null,
    environmentJobId: r.environment_job_id ?? null,
    policyBeforeId: r.policy_before_id ?? null,
    policyAfterId: r.policy_after_id ?? null,
    policyJobId: r.policy_job_id ?? null,
    evaluateJobId: r.evaluate_job_id ?? null,
    scoreBefore: num(r.score_before),
    scoreAfter: num(r.score_after),
    minGain: Number(params.minGain ?? 0),
    swapped: Boolean(r.swapped),
    reason: r.reason ?? null,
    createdAt: dateOf(r.created_at)!.toISOString(),
    endedAt: dateOf(r.ended_at)?.toISOString() ?? null,
  };
}

/**
 * Checks a `policies.update` schedule when it is saved: the service is of the author's tenant
 * and the author may edit its project (`deployNotFound`, `deployDeleted`, `projectNotFound`,
 * `projectNoRight` otherwise), and its policy was trained in an environment with a reward.
 */
export async function checkPolicyUpdateParams(db: Database, deploy: DeployService, actor: ServerCallUser, serviceId: string): Promise<void> {
  const s = await deploy.access(actor, serviceId, 'edit');
  const pol = (await db.executor()('policies').where({ id: s.policyId, tenant_id: actor.tenantId }).first('simulator_id', 'objective_id')) as Row | undefined;
  if (!pol?.simulator_id || !pol.objective_id) throw new AppError('policyNotFound', { serviceId: 'validation.invalid' });
}

/**
 * The body of the scheduled run (in a worker): opens the loop of the service, unless one is
 * still going (then the run is skipped). Resolves with the run's metrics and log line.
 */
export async function openPolicyUpdate(db: Database, clock: Clock, ctx: JobContext<{ scheduleId: string; runId: string }>, params: Params): Promise<{ metrics: Record<string, number>; summary: string }> {
  const schedule = (await db.knex('scheduled_jobs').where({ id: ctx.payload.scheduleId }).first('created_by')) as Row | undefined;
  if (!schedule?.created_by) throw new Error('The schedule has no author to act as');
  const service = (await db.knex('model_services').where({ id: params.serviceId, tenant_id: ctx.tenantId }).whereNull('deleted_at').first('id', 'name')) as Row | undefined;
  if (!service) throw new Error(`The model service ${params.serviceId} was deleted or is not of this tenant`);
  const running = (await db.knex('policy_update_runs').where({ active_service_key: service.id }).first('id', 'step')) as Row | undefined;
  const skipped = (id: string, step: string) => ({
    metrics: { started: 0, skipped: 1 },
    summary: `a policy update of service "${service.name}" is still going (${id}, step ${step}): this run is skipped`,
  });
  if (running) return skipped(running.id, running.step);
  const now = clock.now();
  const id = newId();
  try {
    await db.knex('policy_update_runs').insert({
      id,
      tenant_id: ctx.tenantId,
      schedule_id: ctx.payload.scheduleId,
      schedule_run_id: ctx.payload.runId,
      job_id: ctx.jobId,
      service_id: service.id,
      active_service_key: service.id,
      user_id: schedule.created_by,
      params: JSON.stringify(params),
      state: 'running',
      step: 'start',
      revision: 0,
      claimed_until: null,
      swapped: false,
      created_at: now,
      updated_at: now,
    });
  } catch (err) {
    if (!isUniqueViolation(err)) throw err;
    const other = (await db.knex('policy_update_runs').where({ active_service_key: service.id }).first('id', 'step')) as Row | undefined;
    return skipped(other?.id ?? '?', other?.step ?? '?');
  }
  return {
    metrics: { started: 1, skipped: 0 },
    summary: `policy update ${id} of service "${service.name}" opened: the calls of the last ${params.windowDays} days${params.withOutcomeOnly ? ' with an outcome' : ''}, then an environment update, a policy update of a copy (${params.epochs} steps each) and the evaluation follow as each ends`,
  };
}

/**
 * The evaluation job: the serving policy and the retrained copy rolled in the updated
 * environment from the same windows of its data, with the same reward and seed (0); their mean
 * returns are written on the loop's row.
 */
export function policyUpdateEvaluateKind(deps: { db: Database; blobs: BlobStore; allow?: readonly string[] }): JobKind<{ updateId: string }> {
  const { db, blobs } = deps;
  return {
    kind: POLICY_UPDATE_EVALUATE_KIND,
    description: 'Scores the serving policy and its retrained copy in the updated environment (same reward, windows and seed).',
    async run(ctx) {
      const row = (await db.knex('policy_update_runs').where({ id: ctx.payload.updateId, tenant_id: ctx.tenantId }).first()) as Row | undefined;
      if (!row) throw new Error('The policy update was deleted');
      const params = scheduleParamsSchemas['policies.update'].parse(json(row.params, {}));
      const sim = (await db.knex('simulators').where({ id: row.environment_id }).first()) as Row | undefined;
      const before = (await db.knex('policies').where({ id: row.policy_before_id }).first()) as Row | undefined;
      const after = (await db.knex('policies').where({ id: row.policy_after_id }).first()) as Row | undefined;
      if (!sim || !before || !after) throw new Error('The environment or one of the policies was deleted');
      if (!before.artifact_key || !after.artifact_key) throw new Error('One of the policies has no trained weights');
      const objective = (await db.knex('objectives').where({ id: before.objective_id }).first()) as Row | undefined;
      if (!objective) throw new Error("The serving policy's reward was deleted");
      const { venv, dataset, graph, artifact } = await loadVenv(db.knex, blobs, sim);
      const policyOf = async (p: Row) => modePolicy(loadPolicy(new Uint8Array(await blobs.get(`${p.artifact_key}/policy.weights`))).policy);
      const served = await policyOf(before);
      const retrained = await policyOf(after);
      await ctx.log(`evaluating in environment ${sim.id} (training job ${artifact.jobId ?? '?'}): ${params.evalWindows} windows of ${params.evalHorizon} steps, seed 0, reward ${objective.id}`);
      const scores = await withReward(ctx, db, { guard: new HostGuard(deps.allow ?? []) }, { solutionId: String(before.solution_id), graph, dataset, objective }, async (reward, nodeFunction) => {
        const opts = { horizon: params.evalHorizon, windows: params.evalWindows, seed: 0, nodeFunction };
        const scoreBefore = await evaluateInVenv(venv, dataset, served, reward, opts);
        await ctx.reportMetrics(0.5, { scoreBefore });
        const scoreAfter = await evaluateInVenv(venv, dataset, retrained, reward, opts);
        return { scoreBefore, scoreAfter };
      });
      await ctx.reportMetrics(1, scores);
      await ctx.log(`serving policy ${before.id}: ${scores.scoreBefore.toFixed(6)}; retrained copy ${after.id}: ${scores.scoreAfter.toFixed(6)}`);
      await db.knex('policy_update_runs')
        .where({ id: row.id })
        .update({ score_before: Number.isFinite(scores.scoreBefore) ? scores.scoreBefore : null, score_after: Number.isFinite(scores.scoreAfter) ? scores.scoreAfter : null, updated_at: new Date() });
    },
  };
}

/** What the loop needs from the composition root (the server's own services: it acts through them). */
export interface PolicyUpdatesDeps {
  db: Database;
  clock: Clock;
  logger: Logger;
  jobs: JobQueue;
  deploy: DeployService;
  trainings: Trainings;
  datasets: DatasetsService;
  messages: Notifier;
  access: AccessService;
}

/** Advances the open policy updates (called at every scheduler tick of every server). */
export class PolicyUpdates {
  constructor(private readonly deps: PolicyUpdatesDeps) {}

  private get knex() {
    return this.deps.db.knex;
  }

  /** Takes the next step of every open loop that is ready; resolves with how many steps were taken. */
  async advance(): Promise<number> {
    const now = this.deps.clock.now();
    const rows = (await this.knex('policy_update_runs')
      .where('state', 'running')
      .andWhere((w) => w.whereNull('claimed_until').orWhere('claimed_until', '<', now))
      .orderBy('created_at')
      .limit(50)) as Row[];
    let taken = 0;
    for (const row of rows) {
      try {
        if (await this.step(row)) taken += 1;
      } catch (err) {
        this.deps.logger.warn('policy update step failed', { updateId: row.id, err });
      }
    }
    return taken;
  }

  /** The state and error of a job, or null while it has not ended. */
  private async ended(jobId: string | null): Promise<{ state: string; error: string | null } | null> {
    if (!jobId) return { state: JobState.failure, error: 'no job' };
    const job = (await this.knex('jobs').where({ id: jobId }).first('state', 'error')) as Row | undefined;
    if (!job) return { state: JobState.failure, error: 'the job is gone' };
    return isFinalState(job.state) ? { state: job.state, error: job.error ?? null } : null;
  }

  /** One step of `row` when it is ready; true when this server took it. */
  private async step(row: Row): Promise<boolean> {
    const waitingOn: Record<string, string | null> = { environment: row.environment_job_id, policy: row.policy_job_id, evaluate: row.evaluate_job_id };
    let previous: { state: string; error: string | null } | null = null;
    if (row.step !== 'start') {
      previous = await this.ended(waitingOn[row.step] ?? null);
      if (!previous) return false;
    }
    const now = this.deps.clock.now();
    const won = await this.knex('policy_update_runs')
      .where({ id: row.id, revision: row.revision, state: 'running' })
      .update({ revision: Number(row.revision) + 1, claimed_until: new Date(now.getTime() + LEASE_MS), updated_at: now });
    if (Number(won) !== 1) return false;
    const claimed = { ...row, revision: Number(row.revision) + 1 };
    try {
      if (previous && previous.state !== JobState.successful) {
        const what = { environment: 'the environment update', policy: 'the policy update', evaluate: 'the evaluation' }[row.step as 'environment'] ?? row.step;
        await this.finish(claimed, 'failed', `${what} ended ${previous.state}${previous.error ? `: ${previous.error}` : ''}`);
        return true;
      }
      const patch = await this.take(claimed);
      if (patch) await this.knex('policy_update_runs').where({ id: row.id }).update({ ...patch, claimed_until: null, updated_at: this.deps.clock.now() });
    } catch (err) {
      await this.finish(claimed, 'failed', reasonOf(err));
    }
    return true;
  }

  /** The author of the schedule as a caller: rights and quotas are theirs at each step. */
  private async actor(userId: string): Promise<ServerCallUser> {
    const u = (await this.knex('users').where({ id: userId }).first('id', 'username', 'tenant_id', 'status')) as Row | undefined;
    if (!u || u.status !== 'enabled') throw new Error("The schedule's author is deleted or stopped");
    const roles = (await this.knex('user_roles as ur').join('roles as r', 'r.id', 'ur.role_id').where('ur.user_id', userId).select('r.code', 'r.is_system', 'r.permissions')) as Row[];
    if (roles.length === 0) throw new AppError('mustHaveRole');
    const permissions = this.deps.access.permissionsOf(roles.map((r) => ({ permissions: Array.isArray(r.permissions) ? r.permissions : json<string[]>(r.permissions, []) })));
    return { id: u.id, username: u.username, tenantId: u.tenant_id, roles: roles.map((r) => String(r.code)), permissions, isSystemRole: roles.some((r) => Boolean(r.is_system)) };
  }

  /** The work of the row's step; resolves with the row's next values (null: the loop ended). */
  private async take(row: Row): Promise<Row | null> {
    const params = scheduleParamsSchemas['policies.update'].parse(json(row.params, {}));
    const actor = await this.actor(row.user_id);
    const { deploy, trainings } = this.deps;
    const service = await deploy.access(actor, row.service_id, 'edit');
    if (row.step === 'start') {
      const pol = (await this.knex('policies').where({ id: service.policyId, tenant_id: row.tenant_id }).first('id', 'simulator_id', 'objective_id')) as Row | undefined;
      if (!pol?.simulator_id || !pol.objective_id) throw new AppError('policyNotFound');
      const now = this.deps.clock.now();
      const stamp = now.toISOString().replace(/[-:]/g, '').slice(2, 13);
      let datasetId: string;
      try {
        datasetId = await deploy.datasetFromRecords(actor, { id: service.id, name: `calls ${row.id.slice(0, 8)} ${stamp}`, from: now.getTime() - params.windowDays * 86_400_000, withOutcomeOnly: params.withOutcomeOnly }, this.deps.datasets);
      } catch (err) {
        if (err instanceof AppError && err.code === ErrorCode.deployNoRecords) {
          await this.finish(row, 'skipped', `no kept call${params.withOutcomeOnly ? ' with an outcome' : ''} in the last ${params.windowDays} days`, { policy_before_id: pol.id });
          return null;
        }
        throw err;
      }
      const ds = (await this.knex('datasets').where({ id: datasetId }).first('amount')) as Row | undefined;
      const env = await trainings.update(actor, 'simulators', String(pol.simulator_id), { hyperparameters: { epochs: params.epochs }, datasetIds: [datasetId] });
      return { step: 'environment', dataset_id: datasetId, calls: Number(ds?.amount ?? 0), environment_id: pol.simulator_id, environment_job_id: env.jobId, policy_before_id: pol.id };
    }
    if (row.step === 'environment') {
      if (service.policyId !== row.policy_before_id) throw new Error(`the service was given another policy (${service.policyId}) meanwhile`);
      const copy = await trainings.copy(actor, 'policies', String(row.policy_before_id));
      const updated = await trainings.update(actor, 'policies', copy.id, { hyperparameters: { epochs: params.epochs } });
      return { step: 'policy', policy_after_id: copy.id, policy_job_id: updated.jobId };
    }
    if (row.step === 'policy') {
      const job = await this.deps.jobs.enqueue(POLICY_UPDATE_EVALUATE_KIND, { updateId: row.id }, { tenantId: row.tenant_id, userId: row.user_id, name: `evaluate ${service.name}`.slice(0, 255), maxAttempts: 1 });
      return { step: 'evaluate', evaluate_job_id: job.id };
    }
    // evaluate: the scores are on the row (written by the evaluation job).
    const fresh = (await this.knex('policy_update_runs').where({ id: row.id }).first('score_before', 'score_after')) as Row;
    const before = num(fresh.score_before);
    const after = num(fresh.score_after);
    if (before === null || after === null) {
      await this.finish(row, 'kept', 'a score is not a finite number: the serving policy stays');
      return null;
    }
    const gain = after - before;
    if (!(gain > params.minGain)) {
      await this.finish(row, 'kept', `the retrained copy scores ${after.toPrecision(6)} against ${before.toPrecision(6)} (gain ${gain.toPrecision(4)}, more than ${params.minGain} needed): the serving policy stays`);
      return null;
    }
    if (service.policyId !== row.policy_before_id) throw new Error(`the service was given another policy (${service.policyId}) meanwhile`);
    await deploy.update(actor, { id: service.id, policyId: String(row.policy_after_id) });
    await this.finish(row, 'swapped', `the retrained copy scores ${after.toPrecision(6)} against ${before.toPrecision(6)} (gain ${gain.toPrecision(4)}): the service now serves it`, { swapped: true });
    return null;
  }

  /** Ends the loop: its state and reason, a message to the author and a system-log row. */
  private async finish(row: Row, state: Exclude<PolicyUpdateState, 'running'>, reason: string, extra: Row = {}): Promise<void> {
    const now = this.deps.clock.now();
    await this.knex('policy_update_runs')
      .where({ id: row.id })
      .update({ ...extra, state, step: 'done', reason, active_service_key: null, claimed_until: null, ended_at: now, updated_at: now });
    const done = (await this.knex('policy_update_runs as u').leftJoin('model_services as s', 's.id', 'u.service_id').where('u.id', row.id).first('u.*', 's.name as service_name')) as Row;
    const report = presentPolicyUpdate(done);
    const schedule = (await this.knex('scheduled_jobs').where({ id: row.schedule_id }).first('name')) as Row | undefined;
    const newPolicy = report.policyAfterId ? ((await this.knex('policies').where({ id: report.policyAfterId }).first('name')) as Row | undefined) : undefined;
    await this.deps.messages
      .notify(row.user_id, 'policyUpdated', {
        outcome: state,
        service: report.serviceName,
        serviceId: report.serviceId,
        policy: newPolicy?.name ?? null,
        scoreBefore: report.scoreBefore,
        scoreAfter: report.scoreAfter,
        calls: report.calls,
      }, { dedupeKey: `policy-update:${row.id}` })
      .catch((err: unknown) => this.deps.logger.warn('policy update message failed', { updateId: row.id, err }));
    const user = (await this.knex('users').where({ id: row.user_id }).first('username')) as Row | undefined;
    await this.knex('logs')
      .insert({
        id: newId(),
        title: `job/${schedule?.name ?? 'policies.update'}`.slice(0, 100),
        type: 'job',
        host: os.hostname().slice(0, 255),
        uri: `/job/${row.schedule_id}`.slice(0, 512),
        method: 'LOOP',
        params: JSON.stringify({ kind: 'policies.update', runId: row.schedule_run_id, jobId: row.job_id, report }).slice(0, 16_000),
        response_code: state === 'failed' ? ErrorCode.failure : ErrorCode.success,
        http_status: state === 'failed' ? 500 : 200,
        time_ms: Math.max(0, now.getTime() - (dateOf(row.created_at)?.getTime() ?? now.getTime())),
        user_id: row.user_id,
        username: String(user?.username ?? 'scheduler').slice(0, 64),
        tenant_id: row.tenant_id,
        request_id: row.job_id ?? row.id,
        ip: null,
        user_agent: null,
        created_at: now,
      })
      .catch((err: unknown) => this.deps.logger.warn('policy update log row failed', { updateId: row.id, err }));
  }
}
