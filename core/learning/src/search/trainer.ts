/**
 * Searches as trainers: {@link SearchTrainer} runs a searcher (random or SRACOS) one trial per
 * trainer step under the trainer contract (seed, metrics, checkpoints, the spec's stop
 * conditions: `searchCount` trials, expected reward, duration, stop request, budget), and
 * {@link HyperparameterSearchTrainer} uses the same searchers over a trainer's settings
 * (hyperparameter auto-search): each trial builds a trainer from the proposed settings, runs
 * it for a budget and is scored by its best score (venv trainers) or reward (policy trainers).
 */
import type { StepContext, StepResult, Trainer } from '../trainer/contract';
import { runTrainer } from '../trainer/contract';
import { RandomSearcher, SracosSearcher, candidateAt, type Candidate, type SearchDim, type Searcher, type SearcherState, type SracosOptions, type Trial } from './search';

/** Options of {@link SearchTrainer}. */
export interface SearchTrainerOptions extends Omit<SracosOptions, 'trials' | 'seed' | 'onTrial'> {
  algo: 'sracos' | 'random';
  /** Trials when the system decides (and SRACOS's planning length). Default 100. */
  trials?: number;
}

/** Checkpoint of {@link SearchTrainer}. */
export interface SearchCheckpoint {
  searcher: SearcherState;
  trials: Trial[];
}

/**
 * One trial per step (see the module comment). Each step reports `trial/score` and
 * `best/score` and gives the best score so far as `reward` (for the expected-reward stop).
 * `best` holds the best trial.
 */
export class SearchTrainer implements Trainer<SearchCheckpoint> {
  readonly kind: string;
  readonly systemMaxSteps: number;
  trials: Trial[] = [];
  private searcher!: Searcher;

  constructor(
    readonly space: SearchDim[],
    readonly objective: (c: Candidate) => Promise<number> | number,
    readonly options: SearchTrainerOptions,
  ) {
    this.kind = `search.${options.algo}`;
    this.systemMaxSteps = options.trials ?? 100;
  }

  init({ seed, checkpoint }: { seed: number; checkpoint?: SearchCheckpoint }): void {
    this.searcher = this.options.algo === 'random' ? new RandomSearcher(this.space, seed) : new SracosSearcher(this.space, { ...this.options, trials: this.systemMaxSteps, seed });
    this.trials = [];
    if (checkpoint) {
      this.searcher.restore(checkpoint.searcher);
      this.trials = checkpoint.trials.map((t) => ({ candidate: structuredClone(t.candidate), score: t.score }));
    }
  }

  /** The best trial so far. */
  get best(): Trial | undefined {
    return this.trials.reduce<Trial | undefined>((a, b) => (!a || b.score > a.score ? b : a), undefined);
  }

  async step(_ctx: StepContext): Promise<StepResult> {
    const u = this.searcher.ask();
    const candidate = candidateAt(this.space, u);
    const score = await this.objective(candidate);
    if (!Number.isFinite(score)) throw new Error(`search: the objective returned ${score}`);
    this.searcher.tell(u, score);
    this.trials.push({ candidate, score });
    const best = this.best!.score;
    return { metrics: { 'trial/score': score, 'best/score': best }, reward: best, logs: [`trial ${this.trials.length}: ${JSON.stringify(candidate)} -> ${score}`] };
  }

  checkpoint(): SearchCheckpoint {
    return { searcher: this.searcher.state(), trials: this.trials.map((t) => ({ candidate: structuredClone(t.candidate), score: t.score })) };
  }
}

/** One trainer setting to search. */
export type HyperparameterDim =
  | { name: string; kind: 'float'; min: number; max: number }
  /** Log-uniform in [min, max] (learning rates). */
  | { name: string; kind: 'log'; min: number; max: number }
  | { name: string; kind: 'int'; min: number; max: number }
  | { name: string; kind: 'choice'; values: Array<string | number | boolean | number[]> };

/** Settings proposed by the search: setting name -> value. */
export type HyperparameterSettings = Record<string, string | number | boolean | number[]>;

/** The search space of trainer settings (one coordinate per setting). */
export function hyperparameterSpace(dims: HyperparameterDim[]): SearchDim[] {
  return dims.map((d) => {
    if (d.kind !== 'choice' && !(d.min < d.max)) throw new Error(`hyperparameter '${d.name}': min must be below max`);
    if (d.kind === 'float') return { node: d.name, column: 0, name: d.name, kind: 'continuous', min: d.min, max: d.max, values: [] };
    if (d.kind === 'log') {
      if (d.min <= 0) throw new Error(`hyperparameter '${d.name}': a log range needs min > 0`);
      return { node: d.name, column: 0, name: d.name, kind: 'continuous', min: Math.log(d.min), max: Math.log(d.max), values: [] };
    }
    if (d.kind === 'int') {
      const values = Array.from({ length: Math.floor(d.max) - Math.ceil(d.min) + 1 }, (_, i) => Math.ceil(d.min) + i);
      return { node: d.name, column: 0, name: d.name, kind: 'discrete', min: d.min, max: d.max, values };
    }
    if (d.values.length === 0) throw new Error(`hyperparameter '${d.name}': no values`);
    return { node: d.name, column: 0, name: d.name, kind: 'category', min: 0, max: d.values.length - 1, values: d.values.map((_, i) => i) };
  });
}

/** Turns a candidate of {@link hyperparameterSpace} into settings. */
export function hyperparameterSettings(dims: HyperparameterDim[], c: Candidate): HyperparameterSettings {
  const out: HyperparameterSettings = {};
  for (const d of dims) {
    const v = c[d.name]![0]!;
    if (d.kind === 'log') out[d.name] = Math.exp(v);
    else if (d.kind === 'choice') out[d.name] = d.values[v]!;
    else out[d.name] = v;
  }
  return out;
}

/** Options of {@link HyperparameterSearchTrainer}. */
export interface HyperparameterSearchOptions extends SearchTrainerOptions {
  /** Builds the trainer of one trial from its settings. */
  build: (settings: HyperparameterSettings) => Trainer<unknown>;
  /** What a trial is scored by: the run's best `score` (venv) or best `reward` (policy). */
  metric: 'score' | 'reward';
  /** Steps (and optionally milliseconds) each trial's trainer runs. */
  budget: { maxSteps?: number; maxMs?: number };
  /** Seed of every trial's run (the same for all trials, so settings are compared fairly). Default 0. */
  trialSeed?: number;
}

/**
 * Hyperparameter auto-search: a {@link SearchTrainer} whose objective trains a fresh trainer
 * with the proposed settings (see the module comment). A trial whose run fails or reports no
 * score / reward scores `-1e9`. `bestSettings()` gives the winner.
 */
export class HyperparameterSearchTrainer extends SearchTrainer {
  override readonly kind: string;

  constructor(
    readonly dims: HyperparameterDim[],
    readonly hyper: HyperparameterSearchOptions,
  ) {
    super(
      hyperparameterSpace(dims),
      async (c) => {
        const trainer = hyper.build(hyperparameterSettings(dims, c));
        const r = await runTrainer(trainer, { seed: hyper.trialSeed ?? 0, stop: { system: true }, budget: hyper.budget, onEvent: () => {} });
        const v = hyper.metric === 'score' ? r.bestScore : r.bestReward;
        return r.reason === 'failed' || v === undefined || !Number.isFinite(v) ? -1e9 : v;
      },
      hyper,
    );
    this.kind = `hyper.${hyper.algo}`;
  }

  /** Settings of the best trial so far. */
  bestSettings(): HyperparameterSettings | undefined {
    const b = this.best;
    return b ? hyperparameterSettings(this.dims, b.candidate) : undefined;
  }
}
