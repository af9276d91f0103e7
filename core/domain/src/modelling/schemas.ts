import { z } from 'zod';

/**
 * Modelling workflow calls (spec workflow §3, §5, §7): solution pattern and table correlation,
 * schemes, environments (simulators), rewards (objectives), policies, hyperparameter sets,
 * deductions and the training calls. Business rules with their own error codes (stop
 * conditions, names, git, ...) are checked by the server after these shapes.
 */

/** Limits of the modelling area (spec workflow §9). */
export const MODELLING_LIMITS = {
  schemesPerSolution: 26,
  objectiveName: 20,
  trainingName: 50,
  description: 200,
  deductionStepMax: 10_000,
  /** Trials at least this many when the search algorithm is zoopt. */
  zooptMinTrials: 3,
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
    datetimeField: z.string().min(1),
    relations: z.array(z.object({ from: z.string(), to: z.string(), fromField: z.string(), toField: z.string() })).default([]),
  }),
});
export type SetTableCorrelationRequest = z.infer<typeof setTableCorrelationSchema>;

/** `scheme/create` and `scheme/set`. */
export const schemeSchema = z.object({
  solutionId: id,
  name: name(50),
  description,
  /** Business time period (`day`, `week`, ...) and range: required. */
  period: z.string().trim().min(1),
  startTime: z.iso.datetime({ offset: true, local: true }).or(z.iso.date()),
  endTime: z.iso.datetime({ offset: true, local: true }).or(z.iso.date()),
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

/** One hyperparameter of a set: default and how auto-search varies it (`fixed`, `grid`, `choice`, `continuous` [min, max]). */
export const hyperparameterParamSchema = z.object({ name: z.string().min(1), description: z.string().optional(), type: z.string().optional(), default: z.unknown().optional(), searchMode: z.string().optional(), searchValues: z.array(z.unknown()).optional() });

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

/** Stop conditions as sent (checked with their own codes by the server). */
export const stopConditionsInputSchema = z.record(z.string(), z.unknown());

/** Git source of the training code. */
export const gitSourceSchema = z.object({
  enabled: z.boolean().default(false),
  url: z.string().optional(),
  commit: z.string().optional(),
  username: z.string().optional(),
  password: z.string().optional(),
});

const trainCommon = {
  solutionId: id,
  name: name(MODELLING_LIMITS.trainingName),
  description,
  /** Worker ("virtual machine") to run on; any when absent. */
  workerId: z.string().max(64).nullish(),
  stopConditions: stopConditionsInputSchema,
  hyperparameters: z.record(z.string(), z.unknown()).default({}),
  /**
   * Hyperparameter auto-search: `trials` settings tried by `algorithm` (`random`, `zoopt`), each
   * trained `trialEpochs` steps; the search values come from a hyperparameter set
   * (`hyperparameterSetId`) or `params` (same shape as a set's), else a default space.
   */
  autoSearch: z
    .object({
      enabled: z.boolean(),
      algorithm: z.string().optional(),
      trials: z.number().optional(),
      trialEpochs: z.number().int().min(1).max(10_000).optional(),
      hyperparameterSetId: id.optional(),
      params: z.array(hyperparameterParamSchema).max(50).optional(),
    })
    .optional(),
  git: gitSourceSchema.optional(),
  mode: z.enum(['run', 'debug']).default('run'),
};

/** `trainSimulator/create`: an environment training (BC). */
export const trainSimulatorSchema = z.object({ ...trainCommon, schemeId: id, algorithm: z.enum(['bc', 'revive_p', 'revive_t']).default('bc') });
export type TrainSimulatorRequest = z.infer<typeof trainSimulatorSchema>;

/** `trainPolicy/create`: PPO or SAC in a trained environment with a reward. */
export const trainPolicySchema = z.object({ ...trainCommon, simulatorId: id, objectiveId: id, algorithm: z.enum(['ppo', 'sac']).default('ppo') });
export type TrainPolicyRequest = z.infer<typeof trainPolicySchema>;

/** `trainParameter/create`: tunable-parameter search. */
export const trainParameterSchema = z.object({
  ...trainCommon,
  simulatorId: id,
  objectiveId: id,
  algorithm: z.enum(['sracos', 'random', 'zoopt']).default('sracos'),
  /** Initial search dataset: a dataset of the project whose rows start the search's rollouts (the environment's data when absent). */
  datasetId: id.optional(),
});
export type TrainParameterRequest = z.infer<typeof trainParameterSchema>;

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
