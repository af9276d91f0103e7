/**
 * Training forms (spec workflow §5 "Training", §9) as plain data with client-side checks that
 * mirror the server's rules. Errors are translation keys of the plugin (`errors.*`), keyed by
 * the form field they belong to. `toRequest` builds the body of the create call.
 */
import { HYPERPARAMETER_SCHEMAS, MODELLING_LIMITS, TRAINING_LIMITS, isGitUrl as gitUrlRule } from '@decisio/domain';

export type TrainKind = 'environment' | 'policy' | 'parameter';

export interface StopForm {
  system: boolean;
  durationOn: boolean;
  days: string;
  hours: string;
  minutes: string;
  expectedOn: boolean;
  expected: string;
}

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

export type FormErrors = Partial<Record<string, string>>;

/** The limits of `core/domain` (one definition for the form, the server and the engine). */
export const MAX_DURATION_MINUTES: number = TRAINING_LIMITS.maxDurationMinutes;
export const SEARCH_LIMIT: number = TRAINING_LIMITS.searchLimit;
export const ALGORITHMS: Record<TrainKind, readonly string[]> = {
  environment: ['bc', 'revive_p', 'revive_t'],
  policy: ['ppo', 'sac'],
  parameter: ['sracos', 'random', 'zoopt'],
};

export function emptyTrainForm(kind: TrainKind): TrainForm {
  return {
    kind,
    name: '',
    workerId: '',
    algorithm: ALGORITHMS[kind][0]!,
    schemeId: '',
    simulatorId: '',
    objectiveId: '',
    autoSearch: false,
    searchAlgorithm: 'random',
    trials: '3',
    searchCount: '',
    searchStep: '',
    hyperparameters: '{}',
    stop: { system: true, durationOn: false, days: '0', hours: '1', minutes: '0', expectedOn: false, expected: '' },
    gitOn: false,
    gitUrl: '',
    gitCommit: '',
    gitUser: '',
    gitPassword: '',
    debug: false,
  };
}

const isInt = (s: string) => /^\d+$/.test(s.trim());
const num = (s: string) => (s.trim() === '' ? NaN : Number(s));

/** Git URL: the one rule of `core/domain` (an http, https or git URL: what the training's checkout clones). */
export function isGitUrl(url: string): boolean {
  return gitUrlRule(url);
}

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

/** Checks a training form; an empty object means it can be sent. */
export function validateTrainForm(f: TrainForm): FormErrors {
  const e: FormErrors = {};
  if (!f.name.trim()) e.name = 'errors.required';
  else if (f.name.trim().length > MODELLING_LIMITS.trainingName) e.name = 'errors.nameTooLong';
  if (f.kind === 'environment' && !f.schemeId) e.schemeId = 'errors.required';
  if (f.kind !== 'environment') {
    if (!f.simulatorId) e.simulatorId = 'errors.required';
    if (!f.objectiveId) e.objectiveId = 'errors.required';
  }
  if (!ALGORITHMS[f.kind].includes(f.algorithm)) e.algorithm = 'errors.required';
  const s = f.stop;
  const searchSet = f.kind === 'parameter' && f.searchCount.trim() !== '';
  if (!s.system && !s.durationOn && !s.expectedOn && !searchSet) e.stop = 'errors.noStopCondition';
  if (s.durationOn) {
    if (![s.days, s.hours, s.minutes].every(isInt)) e.duration = 'errors.durationInvalid';
    else {
      const m = Number(s.days) * 1440 + Number(s.hours) * 60 + Number(s.minutes);
      if (m <= 0 || m > MAX_DURATION_MINUTES) e.duration = 'errors.durationInvalid';
    }
  }
  if (s.expectedOn) {
    const v = num(s.expected);
    if (!(v > 0 && v <= 99)) e.expected = 'errors.expectedRange';
  }
  if (f.kind === 'parameter') {
    const c = num(f.searchCount);
    if (!isInt(f.searchCount) || !(c > 0 && c < SEARCH_LIMIT)) e.searchCount = 'errors.searchRange';
    else if (f.algorithm === 'zoopt' && c < MODELLING_LIMITS.zooptMinTrials) e.searchCount = 'errors.zooptTrials';
    if (f.searchStep.trim() !== '') {
      const st = num(f.searchStep);
      if (!(st > 0 && st < SEARCH_LIMIT)) e.searchStep = 'errors.searchRange';
    }
  }
  if (f.autoSearch && f.kind !== 'parameter') {
    const t = num(f.trials);
    if (!isInt(f.trials) || t <= 0) e.trials = 'errors.positiveInt';
    else if (f.searchAlgorithm === 'zoopt' && t < MODELLING_LIMITS.zooptMinTrials) e.trials = 'errors.zooptTrials';
  }
  const hp = parseHyperparameters(f.hyperparameters);
  if (hp === null) e.hyperparameters = 'errors.hyperJson';
  // The kind's schema of `core/domain`, as the server checks it: unknown names, ranges.
  else if (!HYPERPARAMETER_SCHEMAS[f.kind].safeParse(hp).success) e.hyperparameters = 'errors.hyperInvalid';
  if (f.gitOn) {
    if (!f.gitUrl.trim()) e.gitUrl = 'errors.required';
    else if (!isGitUrl(f.gitUrl)) e.gitUrl = 'errors.gitUrl';
    if (!f.gitCommit.trim()) e.gitCommit = 'errors.required';
  }
  return e;
}

/** The stop conditions as the server reads them. */
export function stopConditionsOf(f: TrainForm): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  if (f.stop.system) out.system = true;
  if (f.stop.durationOn) out.duration = { days: Number(f.stop.days), hours: Number(f.stop.hours), minutes: Number(f.stop.minutes) };
  if (f.stop.expectedOn) out[f.kind === 'environment' ? 'expectedScore' : 'expectedReward'] = Number(f.stop.expected);
  if (f.kind === 'parameter') {
    if (f.searchCount.trim()) out.searchCount = Number(f.searchCount);
    if (f.searchStep.trim()) out.searchStep = Number(f.searchStep);
  }
  return out;
}

/** The body of `trainSimulator/create`, `trainPolicy/create` or `trainParameter/create`. */
export function toTrainRequest(f: TrainForm, solutionId: string): Record<string, unknown> {
  const body: Record<string, unknown> = {
    solutionId,
    name: f.name.trim(),
    algorithm: f.algorithm,
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

/** A deduction (simulation or decision) form. */
export interface DeductionForm {
  kind: 'simulation' | 'decision';
  name: string;
  simulatorId: string;
  policyId: string;
  objectiveId: string;
  stepSize: string;
  /** The initial dataset (empty: the environment's data). */
  datasetId?: string;
  workerId: string;
}

export function validateDeduction(f: DeductionForm): FormErrors {
  const e: FormErrors = {};
  if (!f.name.trim()) e.name = 'errors.required';
  else if (f.name.trim().length > MODELLING_LIMITS.trainingName) e.name = 'errors.nameTooLong';
  if (!f.simulatorId) e.simulatorId = 'errors.required';
  if (f.kind === 'decision' && !f.policyId) e.policyId = 'errors.required';
  const n = num(f.stepSize);
  if (f.stepSize.trim() === '') e.stepSize = 'errors.required';
  else if (!isInt(f.stepSize) || n < 1 || n > MODELLING_LIMITS.deductionStepMax) e.stepSize = 'errors.stepRange';
  return e;
}

/** Duration in ms as `1d 2h 3m 4s`. */
export function formatDuration(ms: number | null | undefined): string {
  if (ms === null || ms === undefined || !Number.isFinite(ms) || ms < 0) return '—';
  const s = Math.floor(ms / 1000);
  const d = Math.floor(s / 86400);
  const h = Math.floor((s % 86400) / 3600);
  const m = Math.floor((s % 3600) / 60);
  const parts = [d ? `${d}d` : '', h ? `${h}h` : '', m ? `${m}m` : '', `${s % 60}s`].filter(Boolean);
  return parts.slice(0, 3).join(' ');
}

/** The job state after a manual stop (server `JobState.stoppedManually`). */
export const STOPPED_MANUALLY = 'successful by manual stop';

/** Running states of a job (spec §4): progress shows, stop is possible. */
export const ACTIVE = new Set(['waiting', 'processing', 'restoring', 'stopping', 'debugging']);
