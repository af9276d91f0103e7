import { z } from 'zod';
import { LIMITS } from '../common/limits';
import {
  algorithmHyperparameterIssues,
  autoSearchSchema,
  environmentHyperparametersSchema,
  gitSourceSchema,
  hyperparameterParamSchema,
  parameterHyperparametersSchema,
  policyHyperparametersSchema,
  stopConditionsInputSchema,
  stopConditionsSchema,
  TRAINING_LIMITS,
} from './training';

/**
 * Modelling workflow calls (spec workflow §3, §5, §7): solution pattern and table correlation,
 * schemes, environments (simulators), rewards (objectives), policies, hyperparameter sets,
 * deductions and the training calls. The rules of a training request (stop conditions,
 * hyperparameters, auto-search, git) are in `training.ts` and name their catalogue codes;
 * rules that need the database (names, records, memory) are the server's.
 */

/** Limits of the modelling area (spec workflow §9): the platform's `LIMITS` where it has them. */
export const MODELLING_LIMITS = {
  schemesPerSolution: LIMITS.schemesPerSolution,
  objectiveName: LIMITS.rewardNameMax,
  trainingName: TRAINING_LIMITS.nameMax,
  description: LIMITS.descriptionMax,
  deductionStepMax: LIMITS.simulationStepMax,
  /** Trials at least this many when the search algorithm is zoopt. */
  zooptMinTrials: TRAINING_LIMITS.zooptMinTrials,
} as const;

const id = z.string().regex(/^[0-9a-f]{32}$/, 'validation.invalid');
const name = (max: number) => z.string().trim().min(1).max(max);
const description = z.string().max(MODELLING_LIMITS.description).optional();

/** `{solutionId}` */
export const solutionRefSchema = z.object({ solutionId: id });
export type SolutionRefRequest = z.infer<typeof solutionRefSchema>;

/** `{id}` of any modelling record. */
export const recordIdSchema = z.object({ id });
export type RecordIdRequest = z.infer<typeof recordIdSchema>;

/** `solution/setPattern`: the decision graph document (checked by `validateGraph`). */
export const setPatternSchema = z.object({ solutionId: id, graph: z.unknown(), files: z.record(z.string(), z.string()).optional() });
export type SetPatternRequest = z.infer<typeof setPatternSchema>;

/** `solution/setTableCorrelation`: how the solution's tables connect (primary table, keys). */
export const setTableCorrelationSchema = z.object({
  solutionId: id,
  correlation: z.object({
    primaryTableId: z.string().min(1),
    /** Dataset of the primary table, read by the data processing. */
    datasetId: z.string().min(1).optional(),
    trajectoryField: z.string().min(1),
    sequenceField: z.string().min(1),
    /** The time column; a table without one names none (the scheme's range is then not applied). */
    datetimeField: z.string().min(1).optional(),
    relations: z.array(z.object({ from: z.string(), to: z.string(), fromField: z.string(), toField: z.string() })).default([]),
  }),
});
export type SetTableCorrelationRequest = z.infer<typeof setTableCorrelationSchema>;

/** `scheme/create` and `scheme/set`. */
export const schemeSchema = z.object({
  solutionId: id,
  name: name(50),
  description,
  /**
   * Business time period (`hour`, `day`, `week`, `month`, `quarter`, `year`): needed only by
   * aggregations. Business range: rows whose time lies in it are kept (either end optional;
   * none: every row, as for a table without a time column).
   */
  period: z.string().trim().min(1).optional(),
  startTime: z.iso.datetime({ offset: true, local: true }).or(z.iso.date()).optional(),
  endTime: z.iso.datetime({ offset: true, local: true }).or(z.iso.date()).optional(),
  /** Dimensions, field types, aggregation, filter, partial order (kept as given). */
  data: z.record(z.string(), z.unknown()).default({}),
});
export type SchemeRequest = z.infer<typeof schemeSchema>;

/** `objective/create` and `objective/edit` (reward). */
export const objectiveSchema = z.object({
  solutionId: id,
  name: name(MODELLING_LIMITS.objectiveName),
  description,
  /** Code files by name; `reward.py` is the primary file. */
  files: z.record(z.string().min(1).max(100), z.string().max(1_000_000)),
});
export type ObjectiveRequest = z.infer<typeof objectiveSchema>;
export const objectiveEditSchema = objectiveSchema.omit({ solutionId: true }).extend({ id });


/** `hyperparameter/create` and `edit`. */
export const hyperparameterSchema = z.object({
  name: name(50),
  description,
  trainType: z.enum(['environment', 'policy', 'parameter']),
  algorithm: z.string().min(1).max(50),
  params: z.array(hyperparameterParamSchema).default([]),
});
export type HyperparameterRequest = z.infer<typeof hyperparameterSchema>;
export const hyperparameterEditSchema = hyperparameterSchema.extend({ id });

const trainCommon = {
  solutionId: id,
  name: name(MODELLING_LIMITS.trainingName),
  description,
  /** Worker ("virtual machine") to run on; any when absent. */
  workerId: z.string().max(64).nullish(),
  /** The system decides when left out (`DEFAULT_STOP_CONDITIONS`). */
  stopConditions: stopConditionsInputSchema,
  autoSearch: autoSearchSchema.optional(),
  git: gitSourceSchema.optional(),
  mode: z.enum(['run', 'debug']).default('run'),
};

/** Adds the rules of the chosen algorithm to a request's hyperparameters (`hyperparameters.<name>`). */
const algorithmRules = (r: { algorithm?: string | undefined; hyperparameters: Record<string, unknown> }, ctx: z.RefinementCtx) => {
  for (const [name, message] of algorithmHyperparameterIssues(r.algorithm ?? '', r.hyperparameters)) ctx.addIssue({ code: 'custom', path: ['hyperparameters', name], message });
};

/** `trainSimulator/create`: an environment training (BC, revive_p, revive_t). */
export const trainSimulatorSchema = z
  .object({ ...trainCommon, schemeId: id, algorithm: z.enum(['bc', 'revive_p', 'revive_t']).default('bc'), hyperparameters: environmentHyperparametersSchema.default({}) })
  .superRefine(algorithmRules);
export type TrainSimulatorRequest = z.infer<typeof trainSimulatorSchema>;

/**
 * `trainPolicy/create`: PPO or SAC in a trained environment with a reward. Without `algorithm`
 * the server takes the graph's default ({@link defaultPolicyAlgorithm}: SAC when every decided
 * field is continuous, else PPO) and the record names the one taken.
 */
export const trainPolicySchema = z
  .object({ ...trainCommon, simulatorId: id, objectiveId: id, algorithm: z.enum(['ppo', 'sac']).optional(), hyperparameters: policyHyperparametersSchema.default({}) })
  .superRefine(algorithmRules);
export type TrainPolicyRequest = z.infer<typeof trainPolicySchema>;

/** `trainParameter/create`: tunable-parameter search. */
export const trainParameterSchema = z.object({
  ...trainCommon,
  simulatorId: id,
  objectiveId: id,
  algorithm: z.enum(['sracos', 'random', 'zoopt']).default('sracos'),
  hyperparameters: parameterHyperparametersSchema.default({}),
  /** Initial search dataset: a dataset of the project whose rows start the search's rollouts (the environment's data when absent). */
  datasetId: id.optional(),
});
export type TrainParameterRequest = z.infer<typeof trainParameterSchema>;

/**
 * `train/createTrainUpdate`: trains a finished environment or policy further (new stop conditions
 * and hyperparameters optional; the merged settings are checked against the record's algorithm).
 */
export const trainUpdateSchema = z.object({
  id,
  kind: z.enum(['environment', 'policy']),
  stopConditions: stopConditionsSchema.optional(),
  hyperparameters: z.union([environmentHyperparametersSchema, policyHyperparametersSchema]).optional(),
  /** Environment updates: datasets whose rows are added to the scheme's data for this run. */
  datasetIds: z.array(id).max(10).optional(),
});
export type TrainUpdateRequest = z.infer<typeof trainUpdateSchema>;

/** `simulation/create` and `decision/create`. */
export const deductionSchema = z.object({
  solutionId: id,
  name: name(50),
  description,
  simulatorId: id,
  policyId: id.optional(),
  objectiveId: id.optional(),
  /** Steps rolled, all of them (1 .. `MODELLING_LIMITS.deductionStepMax`). */
  stepSize: z.number().int().min(1).max(MODELLING_LIMITS.deductionStepMax),
  /** Initial dataset: a dataset of the project whose trajectories start the deduction (the environment's data when absent). */
  datasetId: id.optional(),
  workerId: z.string().max(64).nullish(),
});
export type DeductionRequest = z.infer<typeof deductionSchema>;

/** `copy` of a record: a new name. */
export const copySchema = z.object({ id, name: name(50).optional() });

/** `train/*` calls on one training job. */
export const trainJobSchema = z.object({ jobId: id });
/**
 * `train/getTrainDisplayDataList`: a job's metrics series by range (its `job_metrics` rows):
 * points after `afterPoint` (the last one the caller has), from `fromStep` (closing points, step
 * -1, always), only `names`; `step`: the tensor summaries of that debug-mode breakpoint.
 */
export const trainDisplaySchema = trainJobSchema.extend({
  step: z.number().int().min(-1).max(100_000_000).optional(),
  afterPoint: z.number().int().min(0).optional(),
  fromStep: z.number().int().min(-1).max(100_000_000).optional(),
  names: z.array(z.string().min(1).max(128)).min(1).max(50).optional(),
});
export const trainLogSchema = z.object({ jobId: id, afterId: z.number().int().min(0).optional(), limit: z.number().int().min(1).max(1000).optional() });
export const trainListSchema = z.object({
  /** Only the trainings of this project (the project log). */
  projectId: id.optional(),
  solutionId: id.optional(),
  kind: z.enum(['scheme', 'environment', 'policy', 'parameter', 'simulation', 'decision']).optional(),
  page: z.number().int().min(1).default(1),
  pageSize: z.number().int().min(1).max(100).default(20),
});
export const deleteRecordsSchema = z.object({ jobIds: z.array(id).min(1).max(100), acknowledged: z.boolean() });

/** Training kinds of the spec, and the job kind that runs each. */
export const MODELLING_JOB_KINDS = {
  scheme: 'modelling.schemeProcess',
  environment: 'modelling.trainSimulator',
  policy: 'modelling.trainPolicy',
  parameter: 'modelling.trainParameter',
  simulation: 'modelling.simulation',
  decision: 'modelling.decision',
} as const;
export type TrainingKind = keyof typeof MODELLING_JOB_KINDS;
