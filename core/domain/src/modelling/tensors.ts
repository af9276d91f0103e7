/**
 * Tensor summaries on the wire: what a training in debug mode keeps of its networks at each
 * breakpoint (made by the learning engine, served by `train/getTrainDisplayDataList`, shown by
 * the debug page).
 */

/** Histogram of the finite values of a tensor: `counts[i]` values in the i-th of equal bins over [lo, hi]. */
export interface TensorHistogram {
  lo: number;
  hi: number;
  counts: number[];
}

/** Summary of one parameter tensor. Statistics are over its finite values (null when it has none). */
export interface TensorSummary {
  name: string;
  shape: number[];
  size: number;
  mean: number | null;
  std: number | null;
  min: number | null;
  max: number | null;
  /** L2 norm. */
  norm: number | null;
  /** Fractions of the values that are zero, NaN and infinite. */
  zeros: number;
  nan: number;
  inf: number;
  /** Null when no value is finite. */
  hist: TensorHistogram | null;
  /** L2 norm of the gradient the last update left (finite entries); null without one. */
  gradNorm: number | null;
}
