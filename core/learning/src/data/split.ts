/**
 * Seeded randomness, train/validation splits by whole trajectories, and batch sampling.
 */
import { LearningError } from '../errors';
import type { Dataset } from './dataset';

/** A seeded pseudo-random generator (mulberry32): `next()` in [0, 1). */
export class Rng {
  private s: number;
  constructor(seed: number) {
    this.s = seed >>> 0 || 0x9e3779b9;
  }
  /** Uniform in [0, 1). */
  next(): number {
    let t = (this.s = (this.s + 0x6d2b79f5) >>> 0);
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }
  /** Integer in [0, n). */
  int(n: number): number {
    return Math.floor(this.next() * n);
  }
  /** Standard normal (Box-Muller). */
  normal(): number {
    const u = 1 - this.next();
    const v = this.next();
    return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * v);
  }
  /** Shuffles in place (Fisher-Yates). */
  shuffle<T>(a: T[]): T[] {
    for (let i = a.length - 1; i > 0; i--) {
      const j = this.int(i + 1);
      [a[i], a[j]] = [a[j]!, a[i]!];
    }
    return a;
  }
  /** Internal state, to resume a sequence. */
  get state(): number {
    return this.s;
  }
  set state(v: number) {
    this.s = v >>> 0;
  }
}

/** Options of {@link splitDataset}. */
export interface SplitOptions {
  /** Share of trajectories (or of steps, for one trajectory) kept for validation. Default 0.2. */
  validationFraction?: number;
  seed?: number;
  /** Minimum steps per part when one trajectory is split in time. Default 2. */
  minSteps?: number;
}

/** A train/validation pair. `mode` says whether whole trajectories or one trajectory in time were split. */
export interface DatasetSplit {
  train: Dataset;
  validation: Dataset;
  mode: 'trajectories' | 'time';
}

/**
 * Splits by whole trajectories (seeded shuffle; at least one on each side). With a single
 * trajectory, splits it in time: the first part trains, the last part validates. Throws
 * `data.splitTooSmall` when a side would be empty.
 */
export function splitDataset(ds: Dataset, options: SplitOptions = {}): DatasetSplit {
  const frac = options.validationFraction ?? 0.2;
  const T = ds.trajectoryCount;
  if (T >= 2) {
    const order = new Rng(options.seed ?? 0).shuffle(Array.from({ length: T }, (_, i) => i));
    const nVal = Math.min(T - 1, Math.max(1, Math.round(T * frac)));
    const val = order.slice(0, nVal).sort((a, b) => a - b);
    const train = order.slice(nVal).sort((a, b) => a - b);
    return { train: ds.subset(train), validation: ds.subset(val), mode: 'trajectories' };
  }
  const min = options.minSteps ?? 2;
  const s = ds.starts[0] ?? 0;
  const e = ds.ends[0] ?? 0;
  const len = e - s;
  const cut = s + Math.round(len * (1 - frac));
  if (cut - s < min || e - cut < min) throw new LearningError('data.splitTooSmall');
  return { train: ds.slice([[s, cut]]), validation: ds.slice([[cut, e]]), mode: 'time' };
}

/** Random row indexes (transitions) for a batch. */
export function sampleRows(ds: Dataset, batch: number, rng: Rng, out = new Int32Array(batch)): Int32Array {
  for (let i = 0; i < batch; i++) out[i] = rng.int(ds.rows);
  return out;
}

/**
 * Random start rows of windows of `horizon` consecutive steps inside one trajectory (for
 * multi-step rollouts). Trajectories shorter than `horizon` are never chosen; throws
 * `data.splitTooSmall` when none is long enough.
 */
export function sampleWindows(ds: Dataset, batch: number, horizon: number, rng: Rng): Int32Array {
  const weights: number[] = [];
  let total = 0;
  for (let t = 0; t < ds.trajectoryCount; t++) {
    const n = Math.max(0, ds.ends[t]! - ds.starts[t]! - horizon + 1);
    weights.push(n);
    total += n;
  }
  if (total === 0) throw new LearningError('data.splitTooSmall');
  const out = new Int32Array(batch);
  for (let i = 0; i < batch; i++) {
    let k = rng.int(total);
    let t = 0;
    while (k >= weights[t]!) k -= weights[t++]!;
    out[i] = ds.starts[t]! + k;
  }
  return out;
}
