/**
 * Tensor summaries of the networks a trainer trains (the debug page of a training in debug
 * mode): per named parameter its shape, mean, standard deviation, extremes, L2 norm, the share
 * of zeros, NaN and infinities, a small histogram and the norm of the gradient of the last
 * update. Compact enough to keep one snapshot per breakpoint: numbers are rounded to 6
 * significant digits and a snapshot stays under a size bound (the parameters past it are
 * counted in `omitted`).
 */
import type { Tensor } from '@decisio/compute';
import type { TensorHistogram, TensorSummary } from '@decisio/domain';

export type { TensorHistogram, TensorSummary };

/** The summaries of a trainer's parameters at one point of the training. */
export interface TensorSnapshot {
  tensors: TensorSummary[];
  /** Parameters left out to keep the snapshot under its size bound. */
  omitted: number;
}

/** Options of {@link summarizeParameters}. */
export interface SummaryOptions {
  /** Histogram bins (default 20). */
  bins?: number;
  /** Most parameters summarised (default 256). */
  maxTensors?: number;
  /** Bound on the snapshot's JSON length in characters (default 60,000). */
  maxChars?: number;
}

const DEFAULT_BINS = 20;
const MAX_NAME = 120;

/** `x` to 6 significant digits; null when not finite. */
function round(x: number): number | null {
  return Number.isFinite(x) ? Number(x.toPrecision(6)) : null;
}

/** L2 norm of the finite entries of `data`. */
function finiteNorm(data: ArrayLike<number>): number {
  let s = 0;
  for (let i = 0; i < data.length; i++) {
    const v = data[i]!;
    if (Number.isFinite(v)) s += v * v;
  }
  return Math.sqrt(s);
}

/**
 * Summary of one tensor from its values (row-major, `shape`), and the values of its gradient
 * when it has one. Pure.
 */
export function summarizeValues(name: string, shape: readonly number[], data: ArrayLike<number>, grad: ArrayLike<number> | null = null, bins = DEFAULT_BINS): TensorSummary {
  const n = data.length;
  let finite = 0;
  let zeros = 0;
  let nan = 0;
  let inf = 0;
  let sum = 0;
  let sumSq = 0;
  let min = Infinity;
  let max = -Infinity;
  for (let i = 0; i < n; i++) {
    const v = data[i]!;
    if (Number.isNaN(v)) nan++;
    else if (!Number.isFinite(v)) inf++;
    else {
      finite++;
      if (v === 0) zeros++;
      sum += v;
      sumSq += v * v;
      if (v < min) min = v;
      if (v > max) max = v;
    }
  }
  const mean = finite > 0 ? sum / finite : NaN;
  let variance = 0;
  if (finite > 0) {
    // Second pass about the mean (steadier than sumSq / n - mean^2).
    for (let i = 0; i < n; i++) {
      const v = data[i]!;
      if (Number.isFinite(v)) variance += (v - mean) * (v - mean);
    }
    variance /= finite;
  }
  let hist: TensorHistogram | null = null;
  if (finite > 0) {
    const k = Math.max(1, Math.floor(bins));
    const counts = new Array<number>(k).fill(0);
    const width = (max - min) / k;
    for (let i = 0; i < n; i++) {
      const v = data[i]!;
      if (!Number.isFinite(v)) continue;
      // One value throughout: all in the middle bin.
      const b = width > 0 ? Math.min(k - 1, Math.floor((v - min) / width)) : Math.floor(k / 2);
      counts[b]!++;
    }
    hist = { lo: round(min)!, hi: round(max)!, counts };
  }
  return {
    name: name.length > MAX_NAME ? `${name.slice(0, MAX_NAME - 1)}…` : name,
    shape: [...shape],
    size: n,
    mean: round(mean),
    std: finite > 0 ? round(Math.sqrt(variance)) : null,
    min: finite > 0 ? round(min) : null,
    max: finite > 0 ? round(max) : null,
    norm: finite > 0 ? round(Math.sqrt(sumSq)) : null,
    zeros: n > 0 ? round(zeros / n)! : 0,
    nan: n > 0 ? round(nan / n)! : 0,
    inf: n > 0 ? round(inf / n)! : 0,
    hist,
    gradNorm: grad ? round(finiteNorm(grad)) : null,
  };
}

/**
 * Summaries of named parameter tensors, read from the live tensors (their values and `.grad`),
 * in order, within the size bound of `options`.
 */
export function summarizeParameters(named: Iterable<readonly [string, Tensor]>, options: SummaryOptions = {}): TensorSnapshot {
  const bins = options.bins ?? DEFAULT_BINS;
  const maxTensors = options.maxTensors ?? 256;
  const maxChars = options.maxChars ?? 60_000;
  const tensors: TensorSummary[] = [];
  let omitted = 0;
  let chars = 40;
  for (const [name, t] of named) {
    if (omitted > 0 || tensors.length >= maxTensors) {
      omitted++;
      continue;
    }
    const s = summarizeValues(name, t.shape, t.dataSync(), t.grad ? t.grad.dataSync() : null, bins);
    const size = JSON.stringify(s).length + 1;
    if (chars + size > maxChars) {
      omitted++;
      continue;
    }
    chars += size;
    tensors.push(s);
  }
  return { tensors, omitted };
}

/** The named parameters a trainer exposes (`namedParameters()`), or null when it has none (e.g. a parameter search). */
export function trainerParameters(trainer: unknown): Array<[string, Tensor]> | null {
  const fn = (trainer as { namedParameters?: unknown } | null)?.namedParameters;
  if (typeof fn !== 'function') return null;
  return (fn as () => Array<[string, Tensor]>).call(trainer);
}
