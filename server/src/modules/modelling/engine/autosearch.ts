/**
 * Hyperparameter auto-search of a training (spec workflow §3 "Environment training record":
 * auto search of hyperparameters). The search values come from a hyperparameter set (or the
 * request's `params`, same shape): `grid` and `choice` try the listed values, `continuous` a
 * `[min, max]` range (integers for `int`, log-uniform for a positive range spanning 100x or
 * more), `fixed` keeps the default. Trials are proposed by random search or SRACOS (`zoopt`),
 * each trains a fresh trainer with the proposed settings for a few steps; an environment trial
 * is judged by its validation loss (the lowest held-out rollout MSE, `val/mse`), a policy trial
 * by its best return. The best settings then train the record for real.
 */
import {
  hyperparameterSettings,
  hyperparameterSpace,
  randomSearch,
  runTrainer,
  sracos,
  type HyperparameterDim,
  type HyperparameterSettings,
  type Trainer,
} from '@decisio/learning';

/** A hyperparameter as a set stores it. */
export interface SearchParam {
  name: string;
  type?: string | undefined;
  default?: unknown;
  searchMode?: string | undefined;
  searchValues?: unknown[] | undefined;
}

/** A search value that cannot be used: `name` is the hyperparameter at fault. */
export class SearchSpaceError extends Error {
  constructor(
    readonly param: string,
    message: string,
  ) {
    super(message);
    this.name = 'SearchSpaceError';
  }
}

type Choice = string | number | boolean | number[];
const isChoice = (v: unknown): v is Choice => ['string', 'number', 'boolean'].includes(typeof v) || (Array.isArray(v) && v.length > 0 && v.every((x) => typeof x === 'number' && Number.isFinite(x)));

/**
 * The searched dimensions of a set's hyperparameters. Parameters outside `allowed`, `fixed`
 * ones and those without search values are left out (`ignored` names them).
 */
export function searchDims(params: readonly SearchParam[], allowed: readonly string[]): { dims: HyperparameterDim[]; ignored: string[] } {
  const dims: HyperparameterDim[] = [];
  const ignored: string[] = [];
  for (const p of params) {
    const mode = (p.searchMode ?? 'fixed').toLowerCase();
    const values = p.searchValues ?? [];
    if (mode === 'fixed' || values.length === 0) continue;
    if (!allowed.includes(p.name)) {
      ignored.push(p.name);
      continue;
    }
    if (mode === 'continuous' || mode === 'range') {
      const [min, max] = values.map(Number);
      if (values.length !== 2 || !Number.isFinite(min) || !Number.isFinite(max) || !(min! < max!)) throw new SearchSpaceError(p.name, `${p.name}: a continuous search needs [min, max] with min below max`);
      if (p.type === 'int') dims.push({ name: p.name, kind: 'int', min: Math.ceil(min!), max: Math.floor(max!) });
      else if (min! > 0 && max! / min! >= 100) dims.push({ name: p.name, kind: 'log', min: min!, max: max! });
      else dims.push({ name: p.name, kind: 'float', min: min!, max: max! });
    } else if (mode === 'grid' || mode === 'choice') {
      if (!values.every(isChoice)) throw new SearchSpaceError(p.name, `${p.name}: search values must be numbers, text, booleans or lists of numbers`);
      if (values.length === 1) continue;
      dims.push({ name: p.name, kind: 'choice', values: values as Choice[] });
    } else throw new SearchSpaceError(p.name, `${p.name}: unknown search mode "${p.searchMode}" (fixed, grid, choice, continuous)`);
  }
  hyperparameterSpace(dims); // checks ranges once more
  return { dims, ignored };
}

/** What the search keeps in the training's config. */
export interface AutoSearchConfig {
  enabled: boolean;
  algorithm?: string | undefined;
  trials?: number | undefined;
  trialEpochs?: number | undefined;
  hyperparameterSetId?: string | undefined;
  /** The resolved space (filled when the training is created). */
  space?: HyperparameterDim[];
}

/** One trial. */
export interface AutoSearchTrial {
  trial: number;
  settings: HyperparameterSettings;
  /** Environment: lowest validation MSE; null when the trial never evaluated. */
  valLoss: number | null;
  /** Policy: best return. */
  reward: number | null;
  error?: string;
}

/** The search's outcome, stored in the training's config as `autoSearchResult`. */
export interface AutoSearchResult {
  algorithm: 'random' | 'sracos';
  metric: 'val/mse' | 'reward';
  trials: AutoSearchTrial[];
  best: HyperparameterSettings | null;
  bestTrial: number | null;
  stopped: boolean;
}

/** Options of {@link runAutoSearch}. */
export interface AutoSearchOptions {
  dims: HyperparameterDim[];
  algorithm: string | undefined;
  trials: number;
  trialSteps: number;
  seed: number;
  /** `valLoss` (environment, lower is better) or `reward` (policy, higher is better). */
  measure: 'valLoss' | 'reward';
  build: (settings: HyperparameterSettings) => Trainer<unknown>;
  signal?: AbortSignal | undefined;
  /** After every trial (logs, metrics); `best` is the best trial so far. */
  onTrial: (t: AutoSearchTrial, best: AutoSearchTrial | null) => Promise<void>;
  shouldStop: () => boolean;
}

const HALT = new Error('auto search halted');

/** Runs the search (see the module comment). */
export async function runAutoSearch(o: AutoSearchOptions): Promise<AutoSearchResult> {
  const algorithm = o.algorithm === 'zoopt' || o.algorithm === 'sracos' ? 'sracos' : 'random';
  const space = hyperparameterSpace(o.dims);
  const trials: AutoSearchTrial[] = [];
  let best: AutoSearchTrial | null = null;
  const value = (t: AutoSearchTrial) => (o.measure === 'valLoss' ? (t.valLoss === null ? -Infinity : -t.valLoss) : (t.reward ?? -Infinity));
  const objective = async (c: Parameters<typeof hyperparameterSettings>[1]) => {
    const settings = hyperparameterSettings(o.dims, c);
    let valLoss = Infinity;
    const r = await runTrainer(o.build(settings), {
      seed: o.seed,
      stop: { system: true },
      budget: { maxSteps: o.trialSteps },
      ...(o.signal ? { signal: o.signal } : {}),
      onEvent: (e) => {
        const v = e.type === 'metrics' ? e.metrics['val/mse'] : undefined;
        if (v !== undefined && Number.isFinite(v)) valLoss = Math.min(valLoss, v);
      },
    });
    const t: AutoSearchTrial = {
      trial: trials.length + 1,
      settings,
      valLoss: Number.isFinite(valLoss) ? valLoss : null,
      reward: r.bestReward !== undefined && Number.isFinite(r.bestReward) ? r.bestReward : null,
    };
    if (r.reason === 'failed') t.error = r.error instanceof Error ? r.error.message : String(r.error);
    trials.push(t);
    if (!t.error && Number.isFinite(value(t)) && (!best || value(t) > value(best))) best = t;
    await o.onTrial(t, best);
    if (o.shouldStop()) throw HALT;
    const v = value(t);
    return Number.isFinite(v) && !t.error ? v : -1e9;
  };
  let stopped = false;
  try {
    if (algorithm === 'sracos') await sracos(space, objective, { trials: o.trials, seed: o.seed });
    else await randomSearch(space, objective, { trials: o.trials, seed: o.seed });
  } catch (err) {
    if (err !== HALT) throw err;
    stopped = true;
  }
  const winner = best as AutoSearchTrial | null;
  return { algorithm, metric: o.measure === 'valLoss' ? 'val/mse' : 'reward', trials, best: winner?.settings ?? null, bestTrial: winner?.trial ?? null, stopped };
}
