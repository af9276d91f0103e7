/**
 * The training rules: what a training request must meet after its schema (stop conditions and
 * hyperparameters of calls whose schema does not carry them, the config to store), what must hold
 * before a training is created, continued or restored (spec workflow §5 "Training": a name
 * unused in the project, a trained environment and a usable reward, an initial dataset of the
 * project, enough memory on the chosen worker, a policy not behind a model service, the
 * auto-search's space resolved once, the git password sealed: `TrainingChecks`), and how
 * training records are read and shown: their tables, their live state from their job (`withJob`)
 * as the API shows it (`presentTraining`), their artefacts.
 */
import fsp from 'node:fs/promises';
import path from 'node:path';
import type { Knex } from 'knex';
import {
  AppError,
  DEFAULT_SEARCH_SPACE,
  ErrorCode,
  HYPERPARAMETER_SCHEMAS,
  SEARCHABLE_HYPERPARAMETERS,
  algorithmHyperparameterIssues,
  defaultPolicyAlgorithm,
  hasDiscreteDecision,
  parseDecisionGraph,
  stopConditionsSchema,
  type ErrorCodeName,
  type Locale,
  type StopConditions,
} from '@decisio/domain';
import type { ServerCallUser } from '@decisio/sdk-plugin/server';
import { systemClock } from '../../clock';
import { SecretBox } from '../../db/secrets';
import { finalStates, JobState } from '../../jobs/states';
import { policyDeployed } from '../deploy/guards';
import type { BlobStore } from '../storage/blob-store';
import { iso, parseJson, presentRow, type ModellingDeps, type Row } from './common';
import type { Scope } from '../projects/access';
import type { TrainingConfig } from './engine/job-run';
import { SearchSpaceError, searchDims, type SearchParam } from './engine/autosearch';
import { checkReward } from './reward-try';

/** The record tables of trainings and what is not found in each. */
export const TRAINING_RECORDS = {
  simulators: { notFound: 'simulatorNotFound', kind: 'environment' },
  policies: { notFound: 'policyNotFound', kind: 'policy' },
  parameter_searches: { notFound: 'trainNotFound', kind: 'parameter' },
  deductions: { notFound: 'deductionNotFound', kind: 'deduction' },
} as const satisfies Record<string, { notFound: ErrorCodeName; kind: string }>;
export type TrainingTable = keyof typeof TRAINING_RECORDS;

/** Jobs still running or waiting (they block deletes). */
export const ACTIVE_STATES: readonly string[] = Object.values(JobState).filter((s) => !finalStates.includes(s));

/**
 * Stop conditions with the catalogue codes of the spec (workflow §5 "Training"), for the calls
 * whose schema does not carry them (`train/createTrainUpdate`): the domain's one schema.
 */
export function checkStopConditions(input: unknown): StopConditions {
  const r = stopConditionsSchema.safeParse(input);
  if (r.success) return r.data;
  const message = r.error.issues[0]?.message ?? '';
  throw new AppError(Object.hasOwn(ErrorCode, message) ? (message as ErrorCodeName) : 'trainNoStopCondition', { stopConditions: 'validation.invalid' });
}

/**
 * Hyperparameters of a kind checked by the domain's schema and the algorithm's rules
 * (`paramInvalid` naming `hyperparameters.<name>`): the merged settings of an update.
 */
export function checkHyperparameters(kind: 'environment' | 'policy', algorithm: string, hp: Record<string, unknown>): void {
  const r = HYPERPARAMETER_SCHEMAS[kind].safeParse(hp);
  const issue = r.success ? null : r.error.issues[0];
  if (issue) {
    const key = issue.code === 'unrecognized_keys' ? String(issue.keys[0]) : issue.path.map(String).join('.');
    throw new AppError('paramInvalid', { [`hyperparameters.${key}`]: 'validation.invalid' });
  }
  const [bad] = algorithmHyperparameterIssues(algorithm, hp);
  if (bad) throw new AppError('paramInvalid', { [`hyperparameters.${bad[0]}`]: bad[1] });
}

export interface CommonInput {
  name: string;
  workerId?: string | null | undefined;
  stopConditions: StopConditions;
  hyperparameters: Record<string, unknown>;
  autoSearch?: { enabled: boolean; algorithm?: string | undefined; trials?: number | undefined; trialEpochs?: number | undefined; hyperparameterSetId?: string | undefined; params?: SearchParam[] | undefined } | undefined;
  git?: { enabled: boolean; url?: string | undefined; commit?: string | undefined; username?: string | undefined; password?: string | undefined } | undefined;
  mode: 'run' | 'debug';
}

/** The config to store of a request its schema checked (stop conditions, auto-search, git, hyperparameters). */
export function checkTraining(input: CommonInput): TrainingConfig & Record<string, unknown> {
  const { params: _params, ...autoSearch } = input.autoSearch ?? { enabled: false };
  return { stopConditions: input.stopConditions, hyperparameters: input.hyperparameters, autoSearch: input.autoSearch ? autoSearch : undefined, git: input.git, mode: input.mode };
}

/** The files under a record's artefact prefix (`storeFiles` of the job kinds writes them flat), with their sizes. */
export async function artefactFiles(blobs: BlobStore, prefix: string): Promise<Array<{ name: string; size: number }>> {
  const dir = blobs.pathOf(prefix.replace(/\/+$/, ''));
  let entries;
  try {
    entries = await fsp.readdir(dir, { withFileTypes: true });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw err;
  }
  const out: Array<{ name: string; size: number }> = [];
  // Temporary files of a write in progress (`.tmp-*`) are not artefacts.
  for (const e of entries) if (e.isFile() && !e.name.startsWith('.')) out.push({ name: e.name, size: (await fsp.stat(path.join(dir, e.name))).size });
  return out.sort((a, b) => (a.name < b.name ? -1 : 1));
}

/** Joins the training's job for its live state. */
export function withJob(knex: Knex, table: string) {
  return knex(`${table} as t`)
    .leftJoin('jobs as j', 'j.id', 't.job_id')
    .select('t.*', 'j.state as job_state', 'j.progress as job_progress', 'j.metrics as job_metrics', 'j.error as job_error', 'j.started_at as job_started_at', 'j.ended_at as job_ended_at', 'j.worker_id as job_worker_id');
}

/** Config of a record (for callers that need the stop conditions). */
export function configOf(row: Row): TrainingConfig {
  return parseJson<TrainingConfig>(row.config, { stopConditions: { system: true }, hyperparameters: {} });
}

/** Display id prefixes of the spec (workflow §3): E-, P-, PT-, SD-, DD-. */
export const ID_PREFIX: Record<string, string> = { simulators: 'E-', policies: 'P-', parameter_searches: 'PT-', simulation: 'SD-', decision: 'DD-' };

/**
 * The id key of each record kind besides `id` (the name a create call of another kind takes:
 * `scheme/create` answers `schemeId` for `trainSimulator/create`), so replies name ids alike.
 */
export const ID_ALIAS: Record<string, string> = { simulators: 'simulatorId', policies: 'policyId', parameter_searches: 'parameterSearchId', deductions: 'deductionId' };

/** A training record as the API shows it. */
export type TrainingView = Record<string, unknown> & { id: string; state: string; progress: number | null; durationMs: number | null; score?: unknown };

/** A training record with its job's live state, progress, duration and display code. */
export function presentTraining(table: string, row: Row): TrainingView {
  const base = presentRow(row, { omit: ['job_state', 'job_progress', 'job_error', 'job_started_at', 'job_ended_at', 'job_metrics', 'job_worker_id'] });
  const state = (row.job_state as string | null) ?? row.state;
  const start = iso(row.job_started_at);
  const end = iso(row.job_ended_at);
  const prefix = ID_PREFIX[table === 'deductions' ? String(row.kind) : table] ?? '';
  let config = base.config as Record<string, unknown> | null | undefined;
  if (config && typeof config === 'object' && config.git && typeof config.git === 'object') {
    // Never echo git credentials.
    const { password: _p, ...git } = config.git as Record<string, unknown>;
    config = { ...config, git: { ...git, password: _p ? '******' : undefined } };
  }
  const alias = ID_ALIAS[table];
  return {
    ...base,
    ...(config !== undefined ? { config } : {}),
    ...(alias ? { [alias]: String(row.id) } : {}),
    id: String(row.id),
    code: `${prefix}${String(row.id).slice(0, 8).toUpperCase()}`,
    state,
    progress: row.job_progress === null || row.job_progress === undefined ? null : Number(row.job_progress),
    metrics: parseJson<Record<string, number>>(row.job_metrics, {}),
    error: row.job_error ?? null,
    /** The worker ("virtual machine") that runs or ran the job; null while it waits. */
    workerId: row.job_worker_id ?? null,
    startTime: start,
    endTime: end,
    durationMs: start ? (end ? Date.parse(end) : Date.now()) - Date.parse(start) : null,
  };
}

/** Deleting training records needs `acknowledged: true` (`deleteNotAcknowledged`). */
export function requireAcknowledged(acknowledged: boolean): void {
  if (!acknowledged) throw new AppError('deleteNotAcknowledged', { acknowledged: 'validation.required' });
}

/** True when `name` is used in `table` within the project (optionally for a `kind` of deduction). */
export async function nameUsed(knex: Knex, table: string, projectId: string, name: string, extra: Record<string, unknown> = {}): Promise<boolean> {
  const r = await knex(table).where({ project_id: projectId, name, ...extra }).first('id');
  return Boolean(r);
}

/** A copy's name: `<name>_copy`, `<name>_copy2`, ... unused in the project, within `max`. */
export async function copyName(knex: Knex, table: string, projectId: string, name: string, max: number, extra: Record<string, unknown> = {}): Promise<string> {
  for (let i = 1; i < 1000; i++) {
    const suffix = i === 1 ? '_copy' : `_copy${i}`;
    const candidate = name.slice(0, max - suffix.length) + suffix;
    if (!(await nameUsed(knex, table, projectId, candidate, extra))) return candidate;
  }
  throw new AppError('nameUsed');
}

/** The checks of {@link Trainings}, with the dependencies they read. */
export class TrainingChecks {
  private readonly secrets: SecretBox;

  constructor(private readonly deps: ModellingDeps) {
    this.secrets = new SecretBox(deps.db, systemClock);
  }

  private get knex() {
    return this.deps.db.executor();
  }

  /** The git password of a training is kept sealed (`SecretBox`); the job opens it for the checkout. */
  async sealGit<C extends TrainingConfig>(config: C): Promise<C> {
    const pw = config.git?.password;
    if (!pw || SecretBox.isSealed(pw)) return config;
    return { ...config, git: { ...config.git!, password: await this.secrets.seal(pw) } };
  }

  /** Memory rule of the spec: about 20 GB of memory per 1 GB of data on the chosen (or largest) worker. */
  async checkMemory(dataBytes: number, workerId?: string | null) {
    const workers = (await this.deps.jobs.workers()).filter((w) => w.status === 'online' && (!workerId || w.id === workerId));
    if (workerId && workers.length === 0) throw new AppError('insufficientResources');
    if (workers.length === 0) return; // BullMQ without a worker yet: the job waits for one
    const largest = Math.max(...workers.map((w) => w.memory));
    if (largest < dataBytes * 20) throw new AppError('insufficientResources');
  }

  /**
   * Resolves the search values of an auto-search once, when the training is created: from the
   * caller's hyperparameter set, else the request's `params`, else the default space of the kind.
   */
  async resolveAutoSearch(user: ServerCallUser, config: TrainingConfig, input: CommonInput, kind: 'environment' | 'policy'): Promise<void> {
    const auto = config.autoSearch;
    if (!auto?.enabled) return;
    let params = input.autoSearch?.params;
    if (auto.hyperparameterSetId) {
      const set = await this.knex('hyperparameter_sets').where({ id: auto.hyperparameterSetId, tenant_id: user.tenantId, user_id: user.id }).first('params');
      if (!set) throw new AppError('hyperparameterNotFound');
      params = parseJson<SearchParam[]>(set.params, []);
    }
    if (!params) {
      auto.space = DEFAULT_SEARCH_SPACE[kind];
      return;
    }
    try {
      const { dims } = searchDims(params, SEARCHABLE_HYPERPARAMETERS[kind]);
      if (dims.length === 0) throw new SearchSpaceError('', 'nothing to search');
      auto.space = dims;
    } catch (err) {
      if (err instanceof Error) throw new AppError('paramInvalid', { autoSearch: 'validation.invalid' }, err.message);
      throw err;
    }
  }

  /**
   * The policy algorithm of a `trainPolicy/create`: the one asked for, else the default of the
   * solution's decision graph (`defaultPolicyAlgorithm`: SAC when every decided field is
   * continuous, else PPO), with the hyperparameters checked against the one taken. SAC asked for
   * on a graph with discrete or category decisions is refused (`trainAlgorithmUnfit`).
   */
  async policyAlgorithm(solutionId: string, asked: 'ppo' | 'sac' | undefined, hp: Record<string, unknown>): Promise<'ppo' | 'sac'> {
    if (asked === 'ppo') return asked;
    const pattern = await this.knex('modelling_patterns').where({ solution_id: solutionId }).first('graph');
    const doc = parseJson<unknown>(pattern?.graph, null);
    // PPO decides every field kind; SAC continuous ones only.
    let fit: 'ppo' | 'sac' | null = null;
    let discrete = false;
    try {
      if (doc) {
        const graph = parseDecisionGraph(doc);
        fit = defaultPolicyAlgorithm(graph);
        discrete = hasDiscreteDecision(graph);
      }
    } catch {
      // a graph that no longer parses trained no environment either
    }
    if (asked === 'sac') {
      // SAC asked on a graph with discrete or category decisions would fail when its job starts.
      if (discrete) throw new AppError('trainAlgorithmUnfit', { algorithm: 'validation.invalid' });
      return asked;
    }
    const algorithm = fit ?? 'ppo';
    checkHyperparameters('policy', algorithm, hp);
    return algorithm;
  }

  async uniqueName(scope: Scope, table: TrainingTable, name: string, extra: Record<string, unknown> = {}) {
    if (await nameUsed(this.knex, table, scope.project.id, name, extra)) throw new AppError(table === 'simulators' ? 'environmentNameUsed' : 'trainNameUsed', { name: 'validation.invalid' });
  }

  /** A trained environment and a usable reward (see {@link usableReward}) of the same solution. */
  async environmentAndReward(input: { solutionId: string; simulatorId: string; objectiveId?: string | undefined }, locale: Locale) {
    const sim = await this.knex('simulators').where({ id: input.simulatorId, solution_id: input.solutionId }).first();
    if (!sim) throw new AppError('simulatorNotFound');
    if (!sim.artifact_key) throw new AppError('dataProcessUnfinished', { simulatorId: 'validation.invalid' });
    if (input.objectiveId) await this.usableReward(input.solutionId, input.objectiveId, locale);
    return sim;
  }

  /**
   * A reward a training may use: of the solution (`objectiveNotFound`) and not broken
   * (`objectiveBroken`, detail `objectiveId`). A reward saved before the check existed, or left
   * unchecked when saved (no data to sample then), is checked now and the result kept.
   */
  async usableReward(solutionId: string, objectiveId: string, locale: Locale) {
    const obj = await this.knex('objectives').where({ id: objectiveId, solution_id: solutionId }).first('id', 'tenant_id', 'files', 'check_state');
    if (!obj) throw new AppError('objectiveNotFound');
    let state = obj.check_state as string | null;
    if (state !== 'checked' && state !== 'broken') {
      const check = await checkReward(this.deps, String(obj.tenant_id), solutionId, parseJson<Record<string, string>>(obj.files, {}), locale);
      await this.knex('objectives').where({ id: objectiveId }).update({ check_state: check.state, check_message: check.message });
      state = check.state;
    }
    if (state === 'broken') throw new AppError('objectiveBroken', { objectiveId: 'validation.invalid' });
  }

  /** The chosen initial (search) dataset: a dataset of the record's project and tenant (`tableNotFound`, detail `datasetId`). */
  async initialDataset(user: ServerCallUser, scope: Scope, datasetId: string | undefined): Promise<string | null> {
    if (!datasetId) return null;
    const found = await this.knex('datasets').where({ id: datasetId, tenant_id: user.tenantId, project_id: scope.project.id }).first('id');
    if (!found) throw new AppError('tableNotFound', { datasetId: 'validation.invalid' });
    return datasetId;
  }

  /**
   * A policy behind a model service (any state until the service is deleted) keeps the weights
   * the service was started with: training it further in place would change what a restart of
   * the service loads without anyone deciding to. It is copied and the copy trained; the service
   * then takes the copy through its policy update (`modeldeploy/updatePolicy`).
   */
  async refuseServing(table: TrainingTable, id: string): Promise<void> {
    if (table === 'policies' && (await policyDeployed(this.knex, id))) throw new AppError('deployPolicyUsed');
  }
}
