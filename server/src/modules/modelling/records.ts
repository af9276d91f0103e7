/**
 * Solution pattern (decision graph) and table correlation, schemes, rewards (objectives) and
 * hyperparameter sets.
 */
import {
  AppError,
  MODELLING_JOB_KINDS,
  MODELLING_LIMITS,
  graphIssueMessage,
  hyperparameterSetIssueMessage,
  hyperparameterSetIssues,
  jobFailureText,
  parseDecisionGraph,
  validateGraph,
  validationMessage,
  type HyperparameterRequest,
  type Locale,
  type ObjectiveRequest,
  type SchemeRequest,
  type SetPatternRequest,
  type SetTableCorrelationRequest,
} from '@decisio/domain';
import type { ServerCallUser } from '@decisio/sdk-plugin/server';
import { newId } from '../../db/ids';
import { WorkerUnavailableError } from '../../jobs/queue';
import { releaseStorage } from '../storage/quota';
import { parseJson, presentRow, type ModellingDeps, type Row } from './common';
import { recordInScope, solutionScope } from '../projects/access';
import { assertCorrelation } from './correlation-check';
import { artefactOwner } from '../storage/artefact-keys';
import { checkReward } from './reward-try';
import { SchemeDataError, parseSchemeData, periodStart } from './engine/scheme';
import { describeCorrelationTable } from './correlation-table';
import type { Correlation } from './engine/data';

/** Records of a solution's modelling setup. */
export class ModellingRecords {
  constructor(private readonly deps: ModellingDeps) {}

  private get knex() {
    return this.deps.db.executor();
  }

  // ---- pattern and table correlation -------------------------------------------------------

  async getPattern(user: ServerCallUser, solutionId: string) {
    await solutionScope(this.knex, user, solutionId, 'view');
    const row = await this.knex('modelling_patterns').where({ solution_id: solutionId }).first();
    const files = parseJson<Record<string, string>>(row?.files, {});
    return { solutionId, graph: parseJson(row?.graph, null), files: Object.keys(files), updatedAt: row ? presentRow({ updated_at: row.updated_at }).updatedAt : null };
  }

  async setPattern(user: ServerCallUser, input: SetPatternRequest, locale: Locale) {
    const { solution } = await solutionScope(this.knex, user, input.solutionId, 'edit');
    let graph;
    try {
      graph = parseDecisionGraph(input.graph);
    } catch {
      throw new AppError('graphInvalid', { graph: 'validation.invalid' });
    }
    const files = input.files ?? {};
    const issues = validateGraph(graph, { solution: solution.goalType === 'parameter_tuning' ? 'tuning' : 'policy', requireCode: true, files: Object.keys(files) }).filter((i) => i.severity === 'error');
    if (issues.length > 0) {
      const details: Record<string, string> = {};
      issues.slice(0, 50).forEach((i) => {
        const t = i.target;
        const key = t.kind === 'graph' ? 'graph' : t.kind === 'edge' ? `edge.${t.edgeId}` : t.kind === 'node' ? `node.${t.nodeId}` : `node.${t.nodeId}.fields.${t.fieldIndex}${t.property ? `.${t.property}` : ''}`;
        details[key] ??= graphIssueMessage(i, locale);
      });
      throw new AppError('graphInvalid', details);
    }
    const now = new Date();
    const row = { solution_id: input.solutionId, tenant_id: user.tenantId, graph: JSON.stringify(graph), files: JSON.stringify(files), updated_by: user.id, updated_at: now };
    await this.knex('modelling_patterns').insert({ ...row, correlation: null }).onConflict('solution_id').merge(['graph', 'files', 'updated_by', 'updated_at']);
    return { solutionId: input.solutionId, graph, warnings: validateGraph(graph).filter((i) => i.severity === 'warning').length };
  }

  /** With `withTable`, also the correlation's table as the scheme form starts from it (`describeCorrelationTable`; null without a correlation). */
  async getTableCorrelation(user: ServerCallUser, solutionId: string, withTable = false) {
    await solutionScope(this.knex, user, solutionId, 'view');
    const row = await this.knex('modelling_patterns').where({ solution_id: solutionId }).first('correlation');
    const correlation = parseJson<Correlation | null>(row?.correlation, null);
    if (!withTable) return { solutionId, correlation };
    return { solutionId, correlation, table: correlation ? await describeCorrelationTable(this.knex, this.deps.blobs, user.tenantId, correlation) : null };
  }

  async setTableCorrelation(user: ServerCallUser, input: SetTableCorrelationRequest, locale: Locale = 'en-US') {
    await solutionScope(this.knex, user, input.solutionId, 'edit');
    await assertCorrelation(this.knex, this.deps.blobs, user, input.correlation, locale);
    const now = new Date();
    const correlation = JSON.stringify(input.correlation);
    await this.knex('modelling_patterns')
      .insert({ solution_id: input.solutionId, tenant_id: user.tenantId, graph: null, files: null, correlation, updated_by: user.id, updated_at: now })
      .onConflict('solution_id')
      .merge(['correlation', 'updated_by', 'updated_at']);
    return { solutionId: input.solutionId, correlation: input.correlation };
  }

  // ---- schemes -----------------------------------------------------------------------------

  /** The business range (either end may be left out); the start must come before the end. */
  private schemeTimes(input: SchemeRequest): { start: Date | null; end: Date | null } {
    const start = input.startTime ? new Date(input.startTime) : null;
    const end = input.endTime ? new Date(input.endTime) : null;
    if (start && end && !(start.getTime() < end.getTime())) throw new AppError('schemeTimeInvalid', { endTime: 'validation.invalid' });
    return { start, end };
  }

  /** Checks the scheme's data (types, aggregations, filter, partial order) before it is stored. */
  private schemeData(input: SchemeRequest, locale: Locale): void {
    try {
      const data = parseSchemeData(input.data);
      if (data.aggregations.length > 0) periodStart(0, input.period ?? '');
    } catch (err) {
      if (err instanceof SchemeDataError) throw new AppError('paramInvalid', { [err.field]: `${validationMessage('validation.invalid', locale)}: ${err.item}` }, err.message);
      throw err;
    }
  }

  async createScheme(user: ServerCallUser, input: SchemeRequest, locale: Locale = 'en-US') {
    const { project } = await solutionScope(this.knex, user, input.solutionId, 'edit');
    const { start, end } = this.schemeTimes(input);
    this.schemeData(input, locale);
    const [counted] = (await this.knex('schemes').where({ solution_id: input.solutionId }).count({ n: '*' })) as Array<{ n: number | string }>;
    if (Number(counted?.n ?? 0) >= MODELLING_LIMITS.schemesPerSolution) throw new AppError('schemeLimitReached');
    const now = new Date();
    const row = {
      id: newId(),
      tenant_id: user.tenantId,
      project_id: project.id,
      solution_id: input.solutionId,
      name: input.name,
      description: input.description ?? null,
      period: input.period ?? null,
      start_time: start,
      end_time: end,
      data: JSON.stringify(input.data ?? {}),
      process_state: 'normal',
      process_job_id: null,
      processed_key: null,
      rows: null,
      creator_id: user.id,
      created_at: now,
      updated_at: now,
    };
    await this.knex('schemes').insert(row);
    return presentRow(row, { alias: 'schemeId' });
  }

  async setScheme(user: ServerCallUser, id: string, input: SchemeRequest, locale: Locale = 'en-US') {
    const { row } = await recordInScope(this.knex, user, 'schemes', id, 'edit', 'schemeNotFound');
    if (row.solution_id !== input.solutionId) throw new AppError('schemeNotFound');
    const { start, end } = this.schemeTimes(input);
    this.schemeData(input, locale);
    if (row.process_state === 'processing') throw new AppError('projectHasTraining');
    await this.knex('schemes')
      .where({ id })
      .update({ name: input.name, description: input.description ?? null, period: input.period ?? null, start_time: start, end_time: end, data: JSON.stringify(input.data ?? {}), process_state: 'normal', processed_key: null, rows: null, updated_at: new Date() });
    return this.getScheme(user, id);
  }

  /**
   * A scheme as the calls show it: with `processJobId` (follow it with `job/wait`) and, after a
   * failed processing, `processError`, why it failed in the caller's language (the job's reason).
   */
  private async presentScheme(row: Row, locale: Locale): Promise<Record<string, unknown>> {
    const out = presentRow(row, { omit: ['processed_key'], alias: 'schemeId' });
    let error: string | null = null;
    if (row.process_state === 'failed' && row.process_job_id) {
      const job = await this.knex('jobs').where({ id: row.process_job_id }).first('error');
      error = jobFailureText(job?.error ?? null, locale);
    }
    return { ...out, processError: error };
  }

  async getScheme(user: ServerCallUser, id: string, locale: Locale = 'en-US') {
    const { row } = await recordInScope(this.knex, user, 'schemes', id, 'view', 'schemeNotFound');
    return this.presentScheme(row, locale);
  }

  async listSchemes(user: ServerCallUser, solutionId: string, locale: Locale = 'en-US') {
    await solutionScope(this.knex, user, solutionId, 'view');
    const rows = await this.knex('schemes').where({ solution_id: solutionId }).orderBy([{ column: 'created_at', order: 'desc' }, { column: 'id' }]);
    const out = [];
    for (const r of rows as Row[]) out.push(await this.presentScheme(r, locale));
    return { rows: out, total: rows.length };
  }

  async deleteScheme(user: ServerCallUser, id: string) {
    const { row } = await recordInScope(this.knex, user, 'schemes', id, 'edit', 'schemeNotFound');
    if (row.process_state === 'processing') throw new AppError('projectHasTraining');
    if (await this.knex('simulators').where({ scheme_id: id }).first('id')) throw new AppError('tableInUse');
    const removed = await this.knex('schemes').where({ id }).delete();
    if (row.processed_key && removed > 0) {
      // The processed data was charged to the user its folder names (engine/kinds.ts storeFiles): give it back.
      const size = (await this.deps.blobs.stat(row.processed_key).catch(() => null))?.size ?? 0;
      await this.deps.blobs.remove(row.processed_key).catch(() => undefined);
      const owner = artefactOwner(row.processed_key, row.tenant_id);
      if (owner && size > 0) await releaseStorage(this.knex, owner, size);
    }
    return { id };
  }

  /** `scheme/schemeDataProcess`: queues the data processing of a scheme (retry after a failure). */
  async processScheme(user: ServerCallUser, id: string) {
    const { row } = await recordInScope(this.knex, user, 'schemes', id, 'edit', 'schemeNotFound');
    if (row.process_state === 'processing') return { id, processState: 'processing', jobId: row.process_job_id };
    const pattern = await this.knex('modelling_patterns').where({ solution_id: row.solution_id }).first();
    if (!pattern?.graph) throw new AppError('patternMissing');
    if (!pattern.correlation) throw new AppError('tableParamError');
    // The job may end before enqueue returns (a job thread or another worker runs it at once):
    // mark the scheme first, so its end state is not overwritten.
    await this.knex('schemes').where({ id }).update({ process_state: 'processing', updated_at: new Date() });
    let job;
    try {
      job = await this.deps.jobs.enqueue(MODELLING_JOB_KINDS.scheme, { id }, { tenantId: user.tenantId, userId: user.id, name: `scheme ${row.name}`.slice(0, 255) });
    } catch (err) {
      await this.knex('schemes').where({ id }).update({ process_state: row.process_state });
      if (err instanceof WorkerUnavailableError) throw new AppError('insufficientResources');
      throw err;
    }
    await this.knex('schemes').where({ id }).update({ process_job_id: job.id });
    return { id, processState: 'processing', jobId: job.id };
  }

  // ---- objectives (rewards) ----------------------------------------------------------------

  private checkFiles(files: Record<string, string>) {
    if (!files['reward.py'] || files['reward.py'].trim() === '') throw new AppError('objectiveNoPrimaryFile', { files: 'validation.required' });
  }

  /**
   * Saving a reward checks it in the sandbox (`checkReward`: compiles, defines `get_reward`, runs
   * on sample rows of the solution's data, one finite value per row). The text is saved whatever
   * the check finds; the row keeps the result (`check_state` `checked`, `broken` or `unchecked`,
   * `check_message`), and a broken reward is refused for trainings (`objectiveBroken`).
   */
  async createObjective(user: ServerCallUser, input: ObjectiveRequest, locale: Locale = 'en-US') {
    const { project } = await solutionScope(this.knex, user, input.solutionId, 'edit');
    this.checkFiles(input.files);
    if (await this.knex('objectives').where({ solution_id: input.solutionId, name: input.name }).first('id')) throw new AppError('objectiveNameUsed');
    const check = await checkReward(this.deps, user.tenantId, input.solutionId, input.files, locale);
    const now = new Date();
    const row = {
      id: newId(),
      tenant_id: user.tenantId,
      project_id: project.id,
      solution_id: input.solutionId,
      name: input.name,
      description: input.description ?? null,
      files: JSON.stringify(input.files),
      check_state: check.state,
      check_message: check.message,
      creator_id: user.id,
      created_at: now,
      updated_at: now,
    };
    await this.knex('objectives').insert(row);
    return presentRow(row, { alias: 'objectiveId' });
  }

  async editObjective(user: ServerCallUser, input: { id: string; name: string; description?: string | undefined; files: Record<string, string> }, locale: Locale = 'en-US') {
    const { row } = await recordInScope(this.knex, user, 'objectives', input.id, 'edit', 'objectiveNotFound');
    this.checkFiles(input.files);
    if (await this.knex('objectives').where({ solution_id: row.solution_id, name: input.name }).whereNot({ id: input.id }).first('id')) throw new AppError('objectiveNameUsed');
    const check = await checkReward(this.deps, user.tenantId, String(row.solution_id), input.files, locale);
    await this.knex('objectives')
      .where({ id: input.id })
      .update({ name: input.name, description: input.description ?? null, files: JSON.stringify(input.files), check_state: check.state, check_message: check.message, updated_at: new Date() });
    return this.objectiveDetail(user, input.id);
  }

  /** Trainings that reference a reward (policies, searches, decision deductions). */
  private async objectiveUsers(id: string) {
    const policies = await this.knex('policies').where({ objective_id: id }).select('id', 'name');
    const searches = await this.knex('parameter_searches').where({ objective_id: id }).select('id', 'name');
    const deductions = await this.knex('deductions').where({ objective_id: id }).select('id', 'name');
    return { policies, searches, deductions };
  }

  async objectiveDetail(user: ServerCallUser, id: string) {
    const { row } = await recordInScope(this.knex, user, 'objectives', id, 'view', 'objectiveNotFound');
    const users = await this.objectiveUsers(id);
    return { ...presentRow(row, { alias: 'objectiveId' }), policyList: users.policies };
  }

  async listObjectives(user: ServerCallUser, solutionId: string) {
    await solutionScope(this.knex, user, solutionId, 'view');
    const rows = await this.knex('objectives').where({ solution_id: solutionId }).orderBy([{ column: 'created_at', order: 'desc' }, { column: 'id' }]);
    return { rows: rows.map((r: Row) => presentRow(r, { omit: ['files'], alias: 'objectiveId' })), total: rows.length };
  }

  async deleteObjective(user: ServerCallUser, id: string) {
    await recordInScope(this.knex, user, 'objectives', id, 'edit', 'objectiveNotFound');
    const users = await this.objectiveUsers(id);
    if (users.policies.length + users.searches.length + users.deductions.length > 0) throw new AppError('objectiveHasTraining');
    await this.knex('objectives').where({ id }).delete();
    return { id };
  }

  // ---- hyperparameter sets (per user) ------------------------------------------------------

  private async ownSet(user: ServerCallUser, id: string): Promise<Row> {
    const row = await this.knex('hyperparameter_sets').where({ id, tenant_id: user.tenantId, user_id: user.id }).first();
    if (!row) throw new AppError('hyperparameterNotFound');
    return row;
  }

  /** A set's params checked against its algorithm's schema (`hyperparameterSetIssues`): `paramInvalid` with one message per place. */
  private checkSet(input: HyperparameterRequest, locale: Locale): void {
    const issues = hyperparameterSetIssues(input.trainType, input.algorithm, input.params);
    if (issues.length > 0) throw new AppError('paramInvalid', Object.fromEntries(issues.map((i) => [i.path, hyperparameterSetIssueMessage(i, locale)])));
  }

  async createHyperparameters(user: ServerCallUser, input: HyperparameterRequest, locale: Locale = 'en-US') {
    this.checkSet(input, locale);
    if (await this.knex('hyperparameter_sets').where({ tenant_id: user.tenantId, user_id: user.id, name: input.name }).first('id')) throw new AppError('hyperparameterNameUsed');
    const now = new Date();
    const row = { id: newId(), tenant_id: user.tenantId, user_id: user.id, name: input.name, description: input.description ?? null, train_type: input.trainType, algorithm: input.algorithm, params: JSON.stringify(input.params), created_at: now, updated_at: now };
    await this.knex('hyperparameter_sets').insert(row);
    return presentRow(row, { alias: 'hyperparameterSetId' });
  }

  async editHyperparameters(user: ServerCallUser, input: HyperparameterRequest & { id: string }, locale: Locale = 'en-US') {
    await this.ownSet(user, input.id);
    this.checkSet(input, locale);
    if (await this.knex('hyperparameter_sets').where({ tenant_id: user.tenantId, user_id: user.id, name: input.name }).whereNot({ id: input.id }).first('id')) throw new AppError('hyperparameterNameUsed');
    await this.knex('hyperparameter_sets').where({ id: input.id }).update({ name: input.name, description: input.description ?? null, train_type: input.trainType, algorithm: input.algorithm, params: JSON.stringify(input.params), updated_at: new Date() });
    return presentRow(await this.ownSet(user, input.id), { alias: 'hyperparameterSetId' });
  }

  async getHyperparameters(user: ServerCallUser, id: string) {
    return presentRow(await this.ownSet(user, id), { alias: 'hyperparameterSetId' });
  }

  async listHyperparameters(user: ServerCallUser, trainType?: string) {
    const q = this.knex('hyperparameter_sets').where({ tenant_id: user.tenantId, user_id: user.id });
    if (trainType) q.andWhere({ train_type: trainType });
    const rows = await q.orderBy([{ column: 'updated_at', order: 'desc' }, { column: 'id' }]);
    return { rows: rows.map((r: Row) => presentRow(r, { alias: 'hyperparameterSetId' })), total: rows.length };
  }

  async deleteHyperparameters(user: ServerCallUser, id: string) {
    await this.ownSet(user, id);
    await this.knex('hyperparameter_sets').where({ id }).delete();
    return { id };
  }

  /** `hyperparameter/createTrainParams`: the set's defaults as a training's `hyperparameters`. */
  async trainParams(user: ServerCallUser, id: string) {
    const row = await this.ownSet(user, id);
    const params = parseJson<Array<{ name: string; default?: unknown }>>(row.params, []);
    return { trainType: row.train_type, algorithm: row.algorithm, hyperparameters: Object.fromEntries(params.filter((p) => p.default !== undefined).map((p) => [p.name, p.default])) };
  }
}
