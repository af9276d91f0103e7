/**
 * Series of a feedback-control trial and their normalisation. Rows are time steps; `obs` is
 * `[rows, obsDim]`, `act` `[rows, actDim]`, `target` (the set-point) `[rows, obsDim]`, all
 * row-major float32. Without a target series the per-dimension median of `obs` is the target.
 */

/** The checked series of a trial file. */
export interface TrialSeries {
  rows: number;
  obsDim: number;
  actDim: number;
  obs: Float32Array;
  act: Float32Array;
  /** Set-point per row; `null` = median of obs per dimension. */
  target: Float32Array | null;
}

/** Per-dimension mean and standard deviation (std >= 1e-6). */
export interface Scaler {
  mean: Float64Array;
  std: Float64Array;
}

/** Normalised copies of the series and the scalers that undo them. */
export interface NormalisedSeries {
  rows: number;
  obsDim: number;
  actDim: number;
  obs: Float32Array;
  act: Float32Array;
  target: Float32Array;
  obsScale: Scaler;
  actScale: Scaler;
  /** Normalised range of each action dimension over the log (controller outputs stay inside). */
  actMin: Float32Array;
  actMax: Float32Array;
}

/** Mean and std of each column of a row-major `[rows, dim]` array. */
export function fitScaler(x: Float32Array, rows: number, dim: number): Scaler {
  const mean = new Float64Array(dim);
  const std = new Float64Array(dim);
  for (let r = 0; r < rows; r++) for (let d = 0; d < dim; d++) mean[d]! += x[r * dim + d]!;
  for (let d = 0; d < dim; d++) mean[d]! /= rows;
  for (let r = 0; r < rows; r++) {
    for (let d = 0; d < dim; d++) {
      const v = x[r * dim + d]! - mean[d]!;
      std[d]! += v * v;
    }
  }
  for (let d = 0; d < dim; d++) std[d] = Math.max(1e-6, Math.sqrt(std[d]! / rows));
  return { mean, std };
}

function applyScaler(x: Float32Array, s: Scaler, dim: number): Float32Array {
  const out = new Float32Array(x.length);
  for (let i = 0; i < x.length; i++) {
    const d = i % dim;
    out[i] = (x[i]! - s.mean[d]!) / s.std[d]!;
  }
  return out;
}

/** Undoes the normalisation of one value of dimension `d`. */
export function unscale(v: number, s: Scaler, d: number): number {
  return v * s.std[d]! + s.mean[d]!;
}

/** Per-dimension median of a row-major `[rows, dim]` array. */
export function columnMedian(x: Float32Array, rows: number, dim: number): Float64Array {
  const out = new Float64Array(dim);
  const col = new Float64Array(rows);
  for (let d = 0; d < dim; d++) {
    for (let r = 0; r < rows; r++) col[r] = x[r * dim + d]!;
    col.sort();
    out[d] = rows % 2 ? col[rows >> 1]! : (col[rows / 2 - 1]! + col[rows / 2]!) / 2;
  }
  return out;
}

/** Normalises obs, act and target with the obs and act statistics of the whole log. */
export function normaliseSeries(s: TrialSeries): NormalisedSeries {
  const obsScale = fitScaler(s.obs, s.rows, s.obsDim);
  const actScale = fitScaler(s.act, s.rows, s.actDim);
  let target = s.target;
  if (!target) {
    const med = columnMedian(s.obs, s.rows, s.obsDim);
    target = new Float32Array(s.rows * s.obsDim);
    for (let i = 0; i < target.length; i++) target[i] = med[i % s.obsDim]!;
  }
  const act = applyScaler(s.act, actScale, s.actDim);
  const actMin = new Float32Array(s.actDim).fill(Infinity);
  const actMax = new Float32Array(s.actDim).fill(-Infinity);
  for (let i = 0; i < act.length; i++) {
    const d = i % s.actDim;
    actMin[d] = Math.min(actMin[d]!, act[i]!);
    actMax[d] = Math.max(actMax[d]!, act[i]!);
  }
  return {
    rows: s.rows,
    obsDim: s.obsDim,
    actDim: s.actDim,
    obs: applyScaler(s.obs, obsScale, s.obsDim),
    act,
    target: applyScaler(target, obsScale, s.obsDim),
    obsScale,
    actScale,
    actMin,
    actMax,
  };
}

/** Small deterministic PRNG (mulberry32) for batch sampling; same seed, same batches. */
export function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
