import { z } from 'zod';
import { LIMITS } from '../common/limits';
import type { DecisionGraph } from '../graph/model';

/**
 * The rules of a training request (spec workflow §5 "Training", §9) in one place, read by the
 * training forms, the server and the learning engine: stop conditions, each algorithm's
 * hyperparameters with their defaults, the hyperparameter auto-search and its default space,
 * and the git source. A rule with its own catalogue code names it as the zod message
 * (`trainDurationInvalid`, ...): the server answers that code, the form shows its message.
 * The training form of the trainings kit is here too (its fields, its checks, the create body it
 * sends, and where a server error of that body stands in the form), beside the schemas that body
 * must satisfy (`trainSimulatorSchema`, ... of `schemas.ts`; `training-form.test.ts` holds them
 * together).
 */

/** Limits of a training request. */
export const TRAINING_LIMITS = {
  /** Longest training name (`MODELLING_LIMITS.trainingName`). */
  nameMax: 50,
  /** Longest training, minutes (7 days; `LIMITS.trainingMaxDurationMs`). */
  maxDurationMinutes: LIMITS.trainingMaxDurationMs / 60_000,
  /** Search count, search step and auto-search trials are below this. */
  searchLimit: LIMITS.searchCountMax,
  /** Expected score or reward: in (0, expectedMax]. */
  expectedMax: 99,
  /** Trials at least this many when the search algorithm is zoopt. */
  zooptMinTrials: 3,
  /** Steps of one auto-search trial, at most. */
  trialEpochsMax: 10_000,
  /** Members of a BC environment ensemble: default and most. */
  ensembleDefault: 5,
  ensembleMax: 10,
} as const;

/** Total minutes of a duration. */
export function durationMinutes(d: { days?: number | undefined; hours?: number | undefined; minutes?: number | undefined }): number {
  return (d.days ?? 0) * 1440 + (d.hours ?? 0) * 60 + (d.minutes ?? 0);
}

const wholeMinutes = z.number({ error: 'trainDurationInvalid' }).int({ error: 'trainDurationInvalid' }).min(0, { error: 'trainDurationInvalid' });
const expected = z.number({ error: 'trainExpectedValueRange' }).gt(0, { error: 'trainExpectedValueRange' }).lte(TRAINING_LIMITS.expectedMax, { error: 'trainExpectedValueRange' });
const searchNumber = z.number({ error: 'trainSearchRange' }).gt(0, { error: 'trainSearchRange' }).lt(TRAINING_LIMITS.searchLimit, { error: 'trainSearchRange' });

/**
 * Stop conditions: at least one of "the system decides", a duration (whole days, hours and
 * minutes, above 0 and at most 7 days), an expected score (environments) or reward (policies,
 * tuning) in (0, 99], or a search count (tuning). A request that leaves them out gets
 * {@link DEFAULT_STOP_CONDITIONS}.
 */
export const stopConditionsSchema = z
  .strictObject({
    /** The system decides (the trainer's convergence or its default length). */
    system: z.boolean().optional(),
    duration: z
      .strictObject({ days: wholeMinutes.optional(), hours: wholeMinutes.optional(), minutes: wholeMinutes.optional() })
      .refine((d) => {
        const m = durationMinutes(d);
        return m > 0 && m <= TRAINING_LIMITS.maxDurationMinutes;
      }, { error: 'trainDurationInvalid' })
      .optional(),
    /** Expected environment score. */
    expectedScore: expected.optional(),
    /** Expected policy or tuning reward value. */
    expectedReward: expected.optional(),
    /** Parameter search: number of trials; stops the search when reached. */
    searchCount: searchNumber.int({ error: 'trainSearchRange' }).optional(),
    /** Parameter search: step. */
    searchStep: searchNumber.optional(),
  })
  .refine((s) => s.system === true || s.duration !== undefined || s.expectedScore !== undefined || s.expectedReward !== undefined || s.searchCount !== undefined, {
    error: 'trainNoStopCondition',
  });
export type StopConditions = z.infer<typeof stopConditionsSchema>;

/** "The system decides": the stop condition of a request that names none. */
export const DEFAULT_STOP_CONDITIONS: StopConditions = { system: true };

/** A request's stop conditions: the system decides when left out. */
export const stopConditionsInputSchema = stopConditionsSchema.default(DEFAULT_STOP_CONDITIONS);

// ---- hyperparameters ----------------------------------------------------------------------

const posInt = z.number().int().min(1);
const nonNegInt = z.number().int().min(0);
const positive = z.number().gt(0);
const nonNegative = z.number().min(0);
/** Hidden layer widths, e.g. `[64, 64]`. */
const hidden = z.array(z.number().int().min(1).max(4096)).min(1).max(8);

/** Environment algorithms, and what each kind of training may use. */
export const TRAINING_ALGORITHMS = {
  environment: ['bc', 'revive_p', 'revive_t'],
  policy: ['ppo', 'sac'],
  parameter: ['sracos', 'random', 'zoopt'],
} as const;
export type TrainingAlgorithmKind = keyof typeof TRAINING_ALGORITHMS;

/**
 * The policy algorithm a graph gets when none is asked for: SAC when every field of every
 * decided agent node (an `agent` without a node function) is continuous, else PPO (SAC cannot
 * decide discrete or category fields). Chosen by the learning bench (core/learning README,
 * "SAC for continuous decisions"): with the members' mean as its selection, SAC closed 85% of
 * the gap on the multi-node plant task where PPO did on none of five seeds, and stayed above
 * 85% on the continuous pendulum and thermal tasks.
 */
export function defaultPolicyAlgorithm(graph: Pick<DecisionGraph, 'nodes'>): 'ppo' | 'sac' {
  const fields = decidedFields(graph);
  return fields.length > 0 && !hasDiscreteDecision(graph) ? 'sac' : 'ppo';
}

/** The fields a policy decides: those of the agent nodes without an expert function. */
export function decidedFields(graph: Pick<DecisionGraph, 'nodes'>): DecisionGraph['nodes'][number]['fields'] {
  return graph.nodes.filter((n) => n.role === 'agent' && !n.function).flatMap((n) => n.fields);
}

/** Whether a policy decides a discrete or category field (SAC cannot: `trainAlgorithmUnfit`). */
export function hasDiscreteDecision(graph: Pick<DecisionGraph, 'nodes'>): boolean {
  return decidedFields(graph).some((f) => f.dataType !== 'continuous');
}

/**
 * Hyperparameters of an environment training (`bc`, `revive_p`, `revive_t`). Unknown names are
 * refused (a typo would otherwise be ignored silently). Defaults: {@link HYPERPARAMETER_DEFAULTS}.
 */
export const environmentHyperparametersSchema = z.strictObject({
  seed: z.number().int().optional(),
  /** Training steps (the system decides when left out). */
  epochs: posInt.optional(),
  evalEvery: posInt.optional(),
  batchSize: posInt.optional(),
  hidden: hidden.optional(),
  updatesPerStep: posInt.optional(),
  lr: positive.optional(),
  /** BC only: members of the ensemble (1 .. 10); the adversarial algorithms train one. */
  ensemble: z.number().int().min(1).max(TRAINING_LIMITS.ensembleMax).optional(),
  /** revive_p / revive_t: BC warm-start steps, generator learning rate, rollouts per step. */
  bcSteps: posInt.optional(),
  generatorLr: positive.optional(),
  rollouts: posInt.optional(),
});
export type EnvironmentHyperparameters = z.infer<typeof environmentHyperparametersSchema>;

/** Hyperparameters of a policy training (`ppo`, `sac`), ensemble use and behaviour regulariser included. */
export const policyHyperparametersSchema = z
  .strictObject({
    seed: z.number().int().optional(),
    epochs: posInt.optional(),
    horizon: posInt.optional(),
    batchSize: posInt.optional(),
    bcUpdates: nonNegInt.optional(),
    hidden: hidden.optional(),
    evalEvery: posInt.optional(),
    evalWindows: posInt.optional(),
    lr: positive.optional(),
    gamma: z.number().gt(0).lte(1).optional(),
    uncertaintyPenalty: nonNegative.optional(),
    /** PPO only. */
    uncertaintyRelative: z.boolean().optional(),
    ensembleRollouts: z.boolean().optional(),
    select: z.enum(['venv', 'mean', 'worst']).optional(),
    /** SAC only: a later policy within this many standard errors of the best one's members is kept. */
    selectTolerance: nonNegative.optional(),
    bcUncertainty: nonNegative.optional(),
    bcUncertaintyBaseline: z.enum(['warmStart', 'zero']).optional(),
    bcCoef: nonNegative.optional(),
  })
  .superRefine((h, ctx) => {
    if (h.select === 'venv' && (h.bcUncertainty ?? 0) > 0) ctx.addIssue({ code: 'custom', path: ['bcUncertainty'], message: 'validation.invalid' });
  });
export type PolicyHyperparameters = z.infer<typeof policyHyperparametersSchema>;

/** Hyperparameters of a parameter search (`sracos`, `random`, `zoopt`). */
export const parameterHyperparametersSchema = z.strictObject({
  seed: z.number().int().optional(),
  /** Trials when the stop conditions name no search count. */
  trials: posInt.optional(),
  /** Rollout steps that score one candidate. */
  horizon: posInt.optional(),
});
export type ParameterHyperparameters = z.infer<typeof parameterHyperparametersSchema>;

/** The hyperparameter schema of each kind of training. */
export const HYPERPARAMETER_SCHEMAS = {
  environment: environmentHyperparametersSchema,
  policy: policyHyperparametersSchema,
  parameter: parameterHyperparametersSchema,
} as const;

/**
 * The defaults of what a request leaves out, the one set the engine uses: the server's jobs, the
 * learning engine's trainers and its `learn` CLI, and the learning bench, whose tables measured
 * them (`core/learning/README.md`). Policy settings not listed keep the learning engine's own
 * (benchmarked) defaults.
 *
 * `environment`: BC venvs of two 128-unit layers, `updatesPerStep` updates of `batchSize` rows per
 * step at `lr`, at most `steps` steps when the system decides, evaluated every `evalEvery`;
 * revive-p / revive-t start from the same BC venv (`bcSteps` steps), then run at most
 * `adversarialSteps` adversarial steps evaluated every `adversarialEvalEvery`.
 */
export const HYPERPARAMETER_DEFAULTS = {
  environment: {
    seed: 0,
    hidden: [128, 128],
    lr: 2e-3,
    batchSize: 256,
    updatesPerStep: 25,
    steps: 120,
    evalEvery: 10,
    bcSteps: 120,
    adversarialSteps: 30,
    adversarialEvalEvery: 5,
    generatorLr: 1e-4,
    rollouts: 64,
    ensemble: TRAINING_LIMITS.ensembleDefault,
  },
  policy: { seed: 0, evalWindows: 128 },
  parameter: { seed: 0, trials: 20, horizon: 10 },
} as const;

/**
 * Where `hyperparameters` break the rules of `algorithm` beyond their shape: `[name, message]`
 * pairs (the adversarial environments train one model; SAC has no relative uncertainty, PPO no
 * select tolerance, and SAC's select tolerance goes with the members' mean only).
 */
export function algorithmHyperparameterIssues(algorithm: string, hp: Record<string, unknown>): Array<[string, string]> {
  const out: Array<[string, string]> = [];
  if ((algorithm === 'revive_p' || algorithm === 'revive_t') && typeof hp.ensemble === 'number' && hp.ensemble > 1) out.push(['ensemble', 'validation.invalid']);
  if (algorithm === 'sac' && hp.uncertaintyRelative === true) out.push(['uncertaintyRelative', 'validation.invalid']);
  if (algorithm === 'ppo' && hp.selectTolerance !== undefined) out.push(['selectTolerance', 'validation.invalid']);
  // SAC's tolerance tests the members' mean: it has no meaning for the worst member's or one venv's choice
  if (algorithm === 'sac' && hp.selectTolerance !== undefined && hp.select !== undefined && hp.select !== 'mean') out.push(['selectTolerance', 'validation.invalid']);
  return out;
}

// ---- auto-search ---------------------------------------------------------------------------

/** One searched hyperparameter (the learning engine's `HyperparameterDim`). */
export type SearchDim =
  | { name: string; kind: 'float' | 'int' | 'log'; min: number; max: number }
  | { name: string; kind: 'choice'; values: Array<string | number | boolean | number[]> };

/** Settings an auto-search may vary, by kind (the others do not change the trainer). */
export const SEARCHABLE_HYPERPARAMETERS = {
  environment: ['lr', 'hidden', 'batchSize', 'updatesPerStep', 'bcSteps', 'rollouts', 'generatorLr'],
  policy: ['lr', 'hidden', 'batchSize', 'horizon', 'gamma', 'bcUpdates'],
} as const;

/** The space an auto-search tries when the request names no search values: the one default space. */
export const DEFAULT_SEARCH_SPACE: Record<'environment' | 'policy', SearchDim[]> = {
  environment: [
    { name: 'lr', kind: 'log', min: 3e-4, max: 3e-3 },
    { name: 'hidden', kind: 'choice', values: [[32, 32], [64, 64], [128, 128]] },
    { name: 'batchSize', kind: 'choice', values: [64, 128, 256] },
  ],
  policy: [
    { name: 'lr', kind: 'log', min: 1e-4, max: 3e-3 },
    { name: 'horizon', kind: 'int', min: 10, max: 100 },
    { name: 'gamma', kind: 'float', min: 0.9, max: 0.999 },
    { name: 'hidden', kind: 'choice', values: [[32, 32], [64, 64]] },
  ],
};

/** One hyperparameter of a set: default and how auto-search varies it (`fixed`, `grid`, `choice`, `continuous` [min, max]). */
export const hyperparameterParamSchema = z.object({
  name: z.string().min(1),
  description: z.string().optional(),
  type: z.string().optional(),
  default: z.unknown().optional(),
  searchMode: z.string().optional(),
  searchValues: z.array(z.unknown()).optional(),
});

/**
 * Hyperparameter auto-search: `trials` settings tried by `algorithm`, each trained `trialEpochs`
 * steps; the search values come from a hyperparameter set (`hyperparameterSetId`) or `params`
 * (same shape as a set's), else {@link DEFAULT_SEARCH_SPACE}.
 */
export const autoSearchSchema = z
  .object({
    enabled: z.boolean(),
    algorithm: z.enum(['random', 'zoopt', 'sracos']).optional(),
    trials: z.number({ error: 'trainSearchRange' }).int({ error: 'trainSearchRange' }).gt(0, { error: 'trainSearchRange' }).lt(TRAINING_LIMITS.searchLimit, { error: 'trainSearchRange' }).optional(),
    trialEpochs: z.number().int().min(1).max(TRAINING_LIMITS.trialEpochsMax).optional(),
    hyperparameterSetId: z.string().regex(/^[0-9a-f]{32}$/, 'validation.invalid').optional(),
    params: z.array(hyperparameterParamSchema).max(50).optional(),
  })
  .refine((a) => !(a.enabled && a.algorithm === 'zoopt' && (a.trials ?? 0) < TRAINING_LIMITS.zooptMinTrials), { error: 'trainZooptTrials', path: ['trials'] });

// ---- git -----------------------------------------------------------------------------------

/**
 * The git URL rule: an `http`, `https` or `git` URL with a host and a repository path — what
 * the training's checkout can clone (ssh, file and scp-like `user@host:path` are not).
 */
export function isGitUrl(url: string): boolean {
  let u: URL;
  try {
    u = new URL(url.trim());
  } catch {
    return false;
  }
  return ['http:', 'https:', 'git:'].includes(u.protocol) && u.hostname.length > 0 && u.pathname.length > 1;
}

/** Git source of the training code: when enabled, a URL ({@link isGitUrl}) and a commit id or branch. */
export const gitSourceSchema = z
  .object({
    enabled: z.boolean().default(false),
    url: z.string().max(2000).optional(),
    commit: z.string().max(200).optional(),
    username: z.string().max(200).optional(),
    password: z.string().max(2000).optional(),
  })
  .refine((g) => !g.enabled || (g.url !== undefined && isGitUrl(g.url) && (g.commit ?? '').trim() !== ''), { error: 'gitUrlInvalid', path: ['url'] });
export type GitSource = z.infer<typeof gitSourceSchema>;

// ---- the training form ---------------------------------------------------------------------

/** The kinds of training a form starts. */
export type TrainKind = TrainingAlgorithmKind;

/** The form's stop conditions, as typed (text fields). */
export interface StopForm {
  system: boolean;
  durationOn: boolean;
  days: string;
  hours: string;
  minutes: string;
  expectedOn: boolean;
  expected: string;
}

/** The training form (spec workflow §5 "Training") of an environment, a policy or a parameter search, as typed. */
export interface TrainForm {
  kind: TrainKind;
  name: string;
  workerId: string;
  algorithm: string;
  schemeId: string;
  simulatorId: string;
  objectiveId: string;
  /** Parameter search: the initial search dataset (empty: the environment's data). */
  datasetId?: string;
  autoSearch: boolean;
  searchAlgorithm: string;
  trials: string;
  /** Parameter search: search count and step. */
  searchCount: string;
  searchStep: string;
  /** Hyperparameters as JSON text (filled from a hyperparameter set or typed). */
  hyperparameters: string;
  stop: StopForm;
  gitOn: boolean;
  gitUrl: string;
  gitCommit: string;
  gitUser: string;
  gitPassword: string;
  debug: boolean;
}

/** Errors of a form by field: translation keys of the trainings kit (`errors.*`) or the server's messages. */
export type TrainFormErrors = Partial<Record<string, string>>;

/**
 * An empty form of `kind`: its first algorithm (a policy: `''`, the graph's default the server
 * takes, {@link defaultPolicyAlgorithm}), "the system decides" as the stop condition.
 */
export function emptyTrainForm(kind: TrainKind): TrainForm {
  const text = { name: '', workerId: '', schemeId: '', simulatorId: '', objectiveId: '', searchCount: '', searchStep: '', gitUrl: '', gitCommit: '', gitUser: '', gitPassword: '' };
  const stop = { system: true, durationOn: false, days: '0', hours: '1', minutes: '0', expectedOn: false, expected: '' };
  return { ...text, kind, algorithm: kind === 'policy' ? '' : TRAINING_ALGORITHMS[kind][0], autoSearch: false, searchAlgorithm: 'random', trials: '3', hyperparameters: '{}', stop, gitOn: false, debug: false };
}

const isInt = (s: string) => /^\d+$/.test(s.trim());
const num = (s: string) => (s.trim() === '' ? NaN : Number(s));

/** Parses the hyperparameter text; `null` when it is not a JSON object. */
export function parseHyperparameters(text: string): Record<string, unknown> | null {
  if (text.trim() === '') return {};
  try {
    const v: unknown = JSON.parse(text);
    return v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

/**
 * Checks a training form with the rules above (each error a key of the form's translations, under
 * the field it belongs to); an empty object means {@link toTrainRequest} can be sent.
 */
export function validateTrainForm(f: TrainForm): TrainFormErrors {
  const e: TrainFormErrors = {};
  const L = TRAINING_LIMITS;
  if (!f.name.trim()) e.name = 'errors.required';
  else if (f.name.trim().length > L.nameMax) e.name = 'errors.nameTooLong';
  if (f.kind === 'environment' && !f.schemeId) e.schemeId = 'errors.required';
  if (f.kind !== 'environment') {
    if (!f.simulatorId) e.simulatorId = 'errors.required';
    if (!f.objectiveId) e.objectiveId = 'errors.required';
  }
  const graphDefault = f.kind === 'policy' && f.algorithm === '';
  if (!graphDefault && !(TRAINING_ALGORITHMS[f.kind] as readonly string[]).includes(f.algorithm)) e.algorithm = 'errors.required';
  const s = f.stop;
  const searchSet = f.kind === 'parameter' && f.searchCount.trim() !== '';
  if (!s.system && !s.durationOn && !s.expectedOn && !searchSet) e.stop = 'errors.noStopCondition';
  if (s.durationOn) {
    const m = [s.days, s.hours, s.minutes].every(isInt) ? durationMinutes({ days: Number(s.days), hours: Number(s.hours), minutes: Number(s.minutes) }) : NaN;
    if (!(m > 0 && m <= L.maxDurationMinutes)) e.duration = 'errors.durationInvalid';
  }
  if (s.expectedOn) {
    const v = num(s.expected);
    if (!(v > 0 && v <= L.expectedMax)) e.expected = 'errors.expectedRange';
  }
  if (f.kind === 'parameter') {
    const c = num(f.searchCount);
    if (!isInt(f.searchCount) || !(c > 0 && c < L.searchLimit)) e.searchCount = 'errors.searchRange';
    else if (f.algorithm === 'zoopt' && c < L.zooptMinTrials) e.searchCount = 'errors.zooptTrials';
    if (f.searchStep.trim() !== '') {
      const st = num(f.searchStep);
      if (!(st > 0 && st < L.searchLimit)) e.searchStep = 'errors.searchRange';
    }
  }
  if (f.autoSearch && f.kind !== 'parameter') {
    const t = num(f.trials);
    if (!isInt(f.trials) || t <= 0) e.trials = 'errors.positiveInt';
    else if (f.searchAlgorithm === 'zoopt' && t < L.zooptMinTrials) e.trials = 'errors.zooptTrials';
  }
  const hp = parseHyperparameters(f.hyperparameters);
  if (hp === null) e.hyperparameters = 'errors.hyperJson';
  else {
    // The kind's schema, as the server checks it: unknown names, ranges; the error names the setting.
    const r = HYPERPARAMETER_SCHEMAS[f.kind].safeParse(hp);
    const issue = r.success ? null : r.error.issues[0];
    if (issue) e.hyperparameters = trainFormMessage(`hyperparameters.${issue.code === 'unrecognized_keys' ? String(issue.keys[0]) : String(issue.path[0] ?? '')}`, 'errors.hyperInvalid');
  }
  if (f.gitOn) {
    if (!f.gitUrl.trim()) e.gitUrl = 'errors.required';
    else if (!isGitUrl(f.gitUrl)) e.gitUrl = 'errors.gitUrl';
    if (!f.gitCommit.trim()) e.gitCommit = 'errors.required';
  }
  return e;
}

/** The form's stop conditions as {@link stopConditionsSchema} reads them. */
export function stopConditionsOf(f: TrainForm): StopConditions {
  const out: StopConditions = {};
  if (f.stop.system) out.system = true;
  if (f.stop.durationOn) out.duration = { days: Number(f.stop.days), hours: Number(f.stop.hours), minutes: Number(f.stop.minutes) };
  if (f.stop.expectedOn) out[f.kind === 'environment' ? 'expectedScore' : 'expectedReward'] = Number(f.stop.expected);
  if (f.kind === 'parameter') {
    if (f.searchCount.trim()) out.searchCount = Number(f.searchCount);
    if (f.searchStep.trim()) out.searchStep = Number(f.searchStep);
  }
  return out;
}

/** The body of `trainSimulator/create`, `trainPolicy/create` or `trainParameter/create` a checked form sends. */
export function toTrainRequest(f: TrainForm, solutionId: string): Record<string, unknown> {
  const body: Record<string, unknown> = {
    solutionId,
    name: f.name.trim(),
    // a policy's '' asks for the graph's default (the server decides)
    ...(f.algorithm === '' ? {} : { algorithm: f.algorithm }),
    stopConditions: stopConditionsOf(f),
    hyperparameters: parseHyperparameters(f.hyperparameters) ?? {},
    mode: f.debug ? 'debug' : 'run',
  };
  if (f.workerId) body.workerId = f.workerId;
  if (f.kind === 'environment') body.schemeId = f.schemeId;
  else {
    body.simulatorId = f.simulatorId;
    body.objectiveId = f.objectiveId;
    if (f.kind === 'parameter' && f.datasetId) body.datasetId = f.datasetId;
  }
  if (f.autoSearch && f.kind !== 'parameter') body.autoSearch = { enabled: true, algorithm: f.searchAlgorithm, trials: Number(f.trials) };
  if (f.gitOn) body.git = { enabled: true, url: f.gitUrl.trim(), commit: f.gitCommit.trim(), ...(f.gitUser ? { username: f.gitUser } : {}), ...(f.gitPassword ? { password: f.gitPassword } : {}) };
  return body;
}

/** The form field a server error of {@link toTrainRequest}'s body stands under (`stopConditions.duration` → `duration`, `git.url` → `gitUrl`, ...). */
export function trainFormField(path: string): string {
  if (path.startsWith('stopConditions.duration')) return 'duration';
  if (path.startsWith('stopConditions.expected')) return 'expected';
  if (path.startsWith('stopConditions.searchCount')) return 'searchCount';
  if (path.startsWith('stopConditions.searchStep')) return 'searchStep';
  if (path.startsWith('stopConditions')) return 'stop';
  if (path === 'git.url') return 'gitUrl';
  if (path === 'git.commit') return 'gitCommit';
  if (path.startsWith('autoSearch')) return 'trials';
  if (path.startsWith('hyperparameters')) return 'hyperparameters';
  return path;
}

/**
 * The text a server error of {@link toTrainRequest}'s body shows under its form field: an error on
 * one hyperparameter (`hyperparameters.selectTolerance`) stands under the one hyperparameters
 * field, so it names the setting (`selectTolerance: Invalid value`); other errors as they are. The
 * form's own check ({@link validateTrainForm}) names it the same way before a translation key
 * (`epoch: errors.hyperInvalid`), which the form's field translates after the name.
 */
export function trainFormMessage(path: string, message: string): string {
  // a message may be a translation key (`errors.hyperInvalid`): the form translates what follows the name
  const name = path.startsWith('hyperparameters.') ? path.slice('hyperparameters.'.length) : '';
  return name ? `${name}: ${message}` : message;
}
