/**
 * The environment step score of the spec (workflow §9) and the duration and score buckets
 * used by overview charts.
 *
 * `score(MAE) = 100 * clip((ln 2 - ln MAE) / 15, 0, 1)`: 0 at an MAE of 2 (the whole [-1, 1]
 * range) or worse, 100 at MAE <= 2·e^-15 ≈ 6.1e-7. Errors are measured in the scaled
 * network space, so nodes with different units weigh the same.
 */

/** Step score of one mean absolute error (scaled space). */
export function stepScore(mae: number): number {
  if (Number.isNaN(mae)) return 0;
  if (mae <= 0) return 100;
  const s = (Math.LN2 - Math.log(mae)) / 15;
  return 100 * Math.min(1, Math.max(0, s));
}

/** Error of one node: MAE, MSE, values counted, score, R². */
export interface NodeError {
  mae: number;
  mse: number;
  count: number;
  score: number;
  /**
   * Coefficient of determination of the counted values, `1 - SSE / SST` with `SST` the squared
   * deviations from each column's own mean (so a node of several fields is not credited for
   * their different levels); 1 is a perfect fit, 0 no better than each column's mean, below 0
   * worse. NaN when the targets do not vary (SST = 0).
   */
  r2: number;
}

/** Per-node errors and the overall figures. */
export interface ScoreReport {
  nodes: Record<string, NodeError>;
  /** Mean of the node MAEs (each node weighs the same). */
  mae: number;
  mse: number;
  /** `stepScore(mae)`. */
  score: number;
}

/**
 * Accumulates absolute and squared errors per node (scaled space) over batches, then reports
 * MAE, MSE and scores. `mask` (per column, 1 = counted) leaves out columns that are not fitted.
 */
export class ErrorAccumulator {
  private readonly sums = new Map<string, { abs: number; sq: number; n: number; cols: { n: number; sum: number; sq: number }[] }>();

  /** Adds `[rows, width]` predictions against targets. */
  add(node: string, predicted: ArrayLike<number>, target: ArrayLike<number>, width: number, mask?: ArrayLike<number>): void {
    const s = this.sums.get(node) ?? { abs: 0, sq: 0, n: 0, cols: [] };
    const len = Math.min(predicted.length, target.length);
    for (let i = 0; i < len; i++) {
      const c = i % width;
      if (mask && !mask[c]) continue;
      const d = predicted[i]! - target[i]!;
      s.abs += Math.abs(d);
      s.sq += d * d;
      s.n += 1;
      const col = (s.cols[c] ??= { n: 0, sum: 0, sq: 0 });
      col.n += 1;
      col.sum += target[i]!;
      col.sq += target[i]! * target[i]!;
    }
    this.sums.set(node, s);
  }

  /**
   * The report so far. Nodes with nothing counted are left out. `overallOf`: the nodes the
   * overall MAE, MSE and score average (REVIVE's `metric_nodes`); every node when absent or
   * when none of them was counted.
   */
  report(overallOf?: readonly string[]): ScoreReport {
    const nodes: Record<string, NodeError> = {};
    let mae = 0;
    let mse = 0;
    let k = 0;
    for (const [name, s] of this.sums) {
      if (s.n === 0) continue;
      let sst = 0;
      for (const col of s.cols) if (col && col.n > 0) sst += Math.max(0, col.sq - (col.sum * col.sum) / col.n);
      const e = { mae: s.abs / s.n, mse: s.sq / s.n, count: s.n, score: stepScore(s.abs / s.n), r2: sst > 1e-12 ? 1 - s.sq / sst : NaN };
      nodes[name] = e;
    }
    const counted = Object.keys(nodes);
    const chosen = overallOf ? counted.filter((n) => overallOf.includes(n)) : [];
    for (const name of chosen.length > 0 ? chosen : counted) {
      const e = nodes[name]!;
      mae += e.mae;
      mse += e.mse;
      k++;
    }
    mae = k > 0 ? mae / k : NaN;
    mse = k > 0 ? mse / k : NaN;
    return { nodes, mae, mse, score: stepScore(mae) };
  }
}

/** Duration buckets of the spec: up to 1 h, 6 h, 12 h, 24 h, over 24 h. */
export const DURATION_BUCKETS = ['1h', '6h', '12h', '24h', 'over24h'] as const;
export type DurationBucket = (typeof DURATION_BUCKETS)[number];

/** Bucket of a duration in milliseconds (upper bounds inclusive). */
export function durationBucket(ms: number): DurationBucket {
  const h = ms / 3_600_000;
  if (h <= 1) return '1h';
  if (h <= 6) return '6h';
  if (h <= 12) return '12h';
  if (h <= 24) return '24h';
  return 'over24h';
}

/** Score buckets of the spec: up to 60, 70, 80, 90, 100. */
export const SCORE_BUCKETS = ['60', '70', '80', '90', '100'] as const;
export type ScoreBucket = (typeof SCORE_BUCKETS)[number];

/** Bucket of a score in [0, 100] (upper bounds inclusive). */
export function scoreBucket(score: number): ScoreBucket {
  if (score <= 60) return '60';
  if (score <= 70) return '70';
  if (score <= 80) return '80';
  if (score <= 90) return '90';
  return '100';
}
