/**
 * What must hold before a training is created, continued or restored (spec workflow §5
 * "Training"): a name unused in the project, a trained environment and a usable reward, an
 * initial dataset of the project, enough memory on the chosen worker, a policy not behind a
 * model service, the auto-search's space resolved once, the git password sealed.
 */
import { systemClock } from '../../clock';
import { SecretBox } from '../../db/secrets';
import { policyDeployed } from '../deploy/guards';
import { AppError, DEFAULT_SEARCH_SPACE, SEARCHABLE_HYPERPARAMETERS, type Locale } from '@decisio/domain';
import type { ServerCallUser } from '@decisio/sdk-plugin/server';
import { nameUsed, parseJson, type ModellingDeps, type Scope } from './common';
import type { TrainingConfig } from './engine/job-run';
import { SearchSpaceError, searchDims, type SearchParam } from './engine/autosearch';
import { checkReward } from './reward-try';
import type { CommonInput, TrainingTable } from './training-rules';

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
