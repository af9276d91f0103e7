/**
 * Derivative-free search over a graph's tunable parameters (REVIVE's parameter tuning):
 * the space comes from the tunable nodes' fields (continuous ranges, discrete grids,
 * category values); a candidate is scored by venv rollouts with the tunables set to it
 * (constant along each trajectory). Two searchers: uniform random search and SRACOS
 * (sequential randomized coordinate shrinking, Hu, Qian & Yu 2017): keep the best
 * `positives` solutions; each new sample is drawn, with probability `1 - epsilon`, from a
 * box grown around a positive by shrinking random coordinates until it excludes every
 * negative, else uniformly; a better sample replaces the worst kept one.
 */
import { encodeRows } from '../data/codec';
import { Dataset } from '../data/dataset';
import { Rng } from '../data/split';
import type { NodeFunctionCall, RolloutPolicy, VirtualEnvironment } from '../venv/bc';
import { evaluateInVenv, type RewardCallback } from '../policy/rollout';

/** One searched coordinate: a field of a tunable node. */
export interface SearchDim {
  node: string;
  /** Column within the node (original units). */
  column: number;
  name: string;
  kind: 'continuous' | 'discrete' | 'category';
  min: number;
  max: number;
  /** Grid points (discrete) or values (category). */
  values: number[];
}

/** A candidate: tunable node -> values in original units. */
export type Candidate = Record<string, number[]>;

/** The search space of a data set's tunable nodes. */
export function tunableSpace(ds: Dataset): SearchDim[] {
  const dims: SearchDim[] = [];
  for (const node of ds.structure.tunables) {
    const codec = ds.codecs[node];
    if (!codec) continue;
    for (let j = 0; j < codec.dim; j++) {
      const f = codec.fields[j % codec.fields.length]!;
      const kind = f.dataType === 'category' ? 'category' : f.dataType === 'discrete' ? 'discrete' : 'continuous';
      const values =
        kind === 'category' ? [...f.values] : kind === 'discrete' ? Array.from({ length: f.count }, (_, i) => (f.count <= 1 ? f.min : f.min + ((f.max - f.min) * i) / (f.count - 1))) : [];
      dims.push({ node, column: j, name: f.name, kind, min: f.min, max: f.max, values });
    }
  }
  return dims;
}

/** A point of the unit cube -> a candidate (grids and categories by nearest / bucket). */
export function candidateAt(space: SearchDim[], u: ArrayLike<number>): Candidate {
  const c: Candidate = {};
  space.forEach((d, i) => {
    const x = Math.min(1, Math.max(0, u[i]!));
    let v: number;
    if (d.kind === 'continuous') v = d.min + x * (d.max - d.min);
    else v = d.values[Math.min(d.values.length - 1, Math.floor(x * d.values.length))]!;
    (c[d.node] ??= [])[d.column] = v;
  });
  return c;
}

/** A copy of `ds` whose tunable nodes hold `candidate` on every row. */
export function withTunables(ds: Dataset, candidate: Candidate): Dataset {
  const raw = { ...ds.raw };
  const scaled = { ...ds.scaled };
  for (const [node, values] of Object.entries(candidate)) {
    const codec = ds.codecs[node];
    if (!codec) continue;
    const r = new Float32Array(ds.rows * codec.dim);
    for (let i = 0; i < ds.rows; i++) r.set(values, i * codec.dim);
    raw[node] = r;
    scaled[node] = encodeRows(codec, r, ds.rows);
  }
  return new Dataset(ds.structure, ds.nodes, ds.starts, ds.ends, raw, scaled, ds.codecs, ds.done, ds.report);
}

/** Scores candidates by mean venv return (agents: `policy`, else the venv's cloned behaviour). */
export function venvObjective(
  venv: VirtualEnvironment,
  ds: Dataset,
  reward: RewardCallback,
  opts: { horizon?: number; windows?: number; seed?: number; policy?: RolloutPolicy; nodeFunction?: NodeFunctionCall } = {},
): (c: Candidate) => Promise<number> {
  return (c) =>
    evaluateInVenv(venv, withTunables(ds, c), opts.policy, reward, {
      horizon: opts.horizon ?? 20,
      windows: opts.windows ?? 64,
      seed: opts.seed ?? 0,
      nodeFunction: opts.nodeFunction,
    });
}

/** A search trial. */
export interface Trial {
  candidate: Candidate;
  score: number;
}

/** Result of a search: every trial in order and the best. */
export interface SearchResult {
  trials: Trial[];
  best: Trial;
}

/** Options common to the searchers. */
export interface SearchOptions {
  trials: number;
  seed?: number;
  /** Called after every trial (progress, stop requests by throwing). */
  onTrial?: (t: Trial, index: number) => void | Promise<void>;
}

/** Serialisable state of a searcher (checkpoints). */
export interface SearcherState {
  rngState: number;
  told: number;
  pool: Array<{ u: number[]; score: number }>;
}

/**
 * A searcher in ask / tell form over the unit cube of a space: `ask()` proposes a point,
 * `tell(u, score)` reports its score (one tell per ask, in order). Resumable through
 * `state()` / `restore()`.
 */
export interface Searcher {
  ask(): number[];
  tell(u: number[], score: number): void;
  state(): SearcherState;
  restore(s: SearcherState): void;
}

/** Uniform random search. */
export class RandomSearcher implements Searcher {
  private rng: Rng;
  private told = 0;
  constructor(
    readonly space: SearchDim[],
    seed = 0,
  ) {
    this.rng = new Rng(seed);
  }
  ask(): number[] {
    return this.space.map(() => this.rng.next());
  }
  tell(): void {
    this.told++;
  }
  state(): SearcherState {
    return { rngState: this.rng.state, told: this.told, pool: [] };
  }
  restore(s: SearcherState): void {
    this.rng.state = s.rngState;
    this.told = s.told;
  }
}

/** SRACOS (see the module comment) in ask / tell form. */
export class SracosSearcher implements Searcher {
  private rng: Rng;
  private told = 0;
  private pool: Array<{ u: number[]; score: number }> = [];
  private readonly initial: number;
  private readonly nPos: number;
  private readonly eps: number;

  constructor(
    readonly space: SearchDim[],
    private readonly opts: Omit<SracosOptions, 'onTrial'>,
  ) {
    this.rng = new Rng(opts.seed ?? 0);
    this.initial = Math.max(1, Math.min(opts.initial ?? 10, opts.trials));
    this.nPos = Math.max(1, opts.positives ?? 2);
    this.eps = opts.epsilon ?? 0.1;
  }

  ask(): number[] {
    const rng = this.rng;
    const space = this.space;
    const D = space.length;
    if (this.told < this.initial) return space.map(() => rng.next());
    const pool = this.pool;
    pool.sort((a, b) => b.score - a.score);
    const pos = pool.slice(0, this.nPos);
    const neg = pool.slice(this.nPos);
    if (D === 0 || rng.next() < this.eps || neg.length === 0) return space.map(() => rng.next());
    // RACOS region: start from the whole cube, shrink random coordinates around a positive
    const x = pos[Math.floor(rng.next() * pos.length)]!.u;
    const lo = new Array<number>(D).fill(0);
    const hi = new Array<number>(D).fill(1);
    const inside = (p: { u: number[] }) => p.u.every((v, d) => v >= lo[d]! && v <= hi[d]!);
    let remaining = neg.filter(inside);
    let guard = 0;
    while (remaining.length > 0 && guard++ < 100 * D) {
      const n = remaining[Math.floor(rng.next() * remaining.length)]!;
      const d = Math.floor(rng.next() * D);
      if (n.u[d]! < x[d]!) lo[d] = Math.max(lo[d]!, n.u[d]! + rng.next() * (x[d]! - n.u[d]!));
      else if (n.u[d]! > x[d]!) hi[d] = Math.min(hi[d]!, x[d]! + rng.next() * (n.u[d]! - x[d]!));
      remaining = remaining.filter(inside);
    }
    // sample in the region, keeping all but `uncertainBits` coordinates at the positive
    const free = new Set<number>();
    const bits = Math.min(D, Math.max(1, this.opts.uncertainBits ?? 1));
    while (free.size < bits) free.add(Math.floor(rng.next() * D));
    return x.map((v, d) => (free.has(d) ? lo[d]! + rng.next() * (hi[d]! - lo[d]!) : v));
  }

  tell(u: number[], score: number): void {
    if (this.told < this.initial) this.pool.push({ u, score });
    else {
      // sequential replacement: a better sample takes the worst kept one's place
      this.pool.sort((a, b) => b.score - a.score);
      if (score > this.pool[this.pool.length - 1]!.score) this.pool[this.pool.length - 1] = { u, score };
    }
    this.told++;
  }

  state(): SearcherState {
    return { rngState: this.rng.state, told: this.told, pool: this.pool.map((p) => ({ u: [...p.u], score: p.score })) };
  }

  restore(s: SearcherState): void {
    this.rng.state = s.rngState;
    this.told = s.told;
    this.pool = s.pool.map((p) => ({ u: [...p.u], score: p.score }));
  }
}

async function runSearcher(searcher: Searcher, space: SearchDim[], objective: (c: Candidate) => Promise<number> | number, opts: SearchOptions): Promise<SearchResult> {
  const trials: Trial[] = [];
  for (let i = 0; i < opts.trials; i++) {
    const u = searcher.ask();
    const candidate = candidateAt(space, u);
    const t = { candidate, score: await objective(candidate) };
    searcher.tell(u, t.score);
    trials.push(t);
    await opts.onTrial?.(t, i);
  }
  return { trials, best: bestOf(trials) };
}

/** Uniform random search (maximises `objective`). */
export function randomSearch(space: SearchDim[], objective: (c: Candidate) => Promise<number> | number, opts: SearchOptions): Promise<SearchResult> {
  return runSearcher(new RandomSearcher(space, opts.seed ?? 0), space, objective, opts);
}

function bestOf(trials: Trial[]): Trial {
  return trials.reduce((a, b) => (b.score > a.score ? b : a));
}

/** Options of {@link sracos}. */
export interface SracosOptions extends SearchOptions {
  /** Uniform samples before the model is used. Default `min(10, trials)`. */
  initial?: number;
  /** Positive solutions kept. Default 2. */
  positives?: number;
  /** Probability of a uniform sample. Default 0.1. */
  epsilon?: number;
  /** Coordinates left uncollapsed when sampling from the region. Default 1. */
  uncertainBits?: number;
}

/** SRACOS (see the module comment; maximises `objective`). */
export function sracos(space: SearchDim[], objective: (c: Candidate) => Promise<number> | number, opts: SracosOptions): Promise<SearchResult> {
  return runSearcher(new SracosSearcher(space, opts), space, objective, opts);
}
