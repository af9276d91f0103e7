/**
 * The headless part of the training and deduction charts: which metric goes in which group, the
 * colours, integer step ticks, EMA smoothing, min/max downsampling and the legend's values.
 * Only measured values go in; nothing here invents a point.
 */

/**
 * Metric groups, decided by the metric's name (lower case, `/`-separated parts), first rule
 * that matches wins:
 *
 * | group | rule (a part of the name) | examples |
 * |---|---|---|
 * | `counter` | the last part is `samples`, `members`, `buffer`, `trial`, `step`, `epoch`, `episodes`, `count`, `size`, `horizon` | `samples`, `ensemble/members`, `buffer`, `trial` |
 * | `rate` | a part is `lr`, `alpha`, `beta`, `weight`, or it contains `coef` or `learning` + `rate` | `lr`, `alpha`, `bc/weight`, `bc-coef` |
 * | `return` | contains `return` or `reward` | `train/return`, `eval/return`, `reward`, `search/bestReward` |
 * | `loss` | contains `loss`, `nll`, `kl`, `uncertainty` | `loss/bc`, `nll/a`, `approx-kl` |
 * | `error` | contains `mse`, `mae`, `error` | `val/mse`, `val/mae` |
 * | `score` | contains `score`, `acc`, `best` | `score`, `trial/score`, `best` |
 * | `other` | anything else (each chart draws it on its own axis) | `entropy`, `disc/real` |
 *
 * Besides, any series with a single measured value, or with the same value at every point (a
 * constant), is shown as a number beside the chart rather than as a line, whatever its group.
 */
export type MetricGroup = 'return' | 'loss' | 'error' | 'score' | 'rate' | 'other' | 'counter';

/** The order in which the groups' panels are drawn. */
export const GROUP_ORDER: readonly MetricGroup[] = ['return', 'loss', 'error', 'score', 'rate', 'other'];

const COUNTERS = new Set(['samples', 'members', 'buffer', 'trial', 'trials', 'step', 'steps', 'epoch', 'epochs', 'episodes', 'count', 'size', 'horizon']);

export function groupOf(name: string): MetricGroup {
  const parts = name.toLowerCase().split(/[/.:]/);
  const low = name.toLowerCase();
  const isPart = (...words: string[]) => parts.some((p) => words.includes(p));
  if (COUNTERS.has(parts[parts.length - 1]!)) return 'counter';
  if (isPart('lr', 'alpha', 'beta', 'weight') || /coef|learning[_ -]?rate/.test(low)) return 'rate';
  if (/return|reward/.test(low)) return 'return';
  if (/loss|nll|(^|[^a-z])kl([^a-z]|$)|uncertainty/.test(low)) return 'loss';
  if (/mse|mae|error/.test(low)) return 'error';
  if (/score|acc|best/.test(low)) return 'score';
  return 'other';
}

/** The finite values of a series. */
function finite(values: readonly (number | null)[]): number[] {
  return values.filter((v): v is number => typeof v === 'number' && Number.isFinite(v));
}

/** Whether a series is better read as a number: a counter, one measured value, or a constant. */
export function isNumberOnly(name: string, values: readonly (number | null)[]): boolean {
  if (groupOf(name) === 'counter') return true;
  const f = finite(values);
  return f.length <= 1 || f.every((v) => v === f[0]);
}

export interface GroupedSeries {
  /** Drawn panels, in {@link GROUP_ORDER}: each holds the indices (into `names`) of its series. */
  panels: { group: MetricGroup; series: number[] }[];
  /** Series shown as numbers (their latest value). */
  numbers: number[];
}

/** Splits the series of a chart into panels (one per group, one y axis each) and numbers. */
export function groupSeries(names: readonly string[], values: readonly (readonly (number | null)[])[]): GroupedSeries {
  const numbers: number[] = [];
  const byGroup = new Map<MetricGroup, number[]>();
  names.forEach((n, i) => {
    if (isNumberOnly(n, values[i] ?? [])) numbers.push(i);
    else {
      const g = groupOf(n);
      byGroup.set(g, [...(byGroup.get(g) ?? []), i]);
    }
  });
  return { panels: GROUP_ORDER.filter((g) => byGroup.has(g)).map((g) => ({ group: g, series: byGroup.get(g)! })), numbers };
}

/**
 * Line colours: Blueprint's palette at the middle shades (3), readable on the light and the dark
 * background; past 15 series, further hues by the golden angle, so no two series of one chart
 * share a colour.
 */
export const PALETTE: readonly string[] = [
  '#2d72d2', // blue3
  '#c87619', // orange3
  '#238551', // green3
  '#cd4246', // red3
  '#7961db', // indigo3
  '#00a396', // turquoise3
  '#d1980b', // gold3
  '#db2c6f', // rose3
  '#147eb3', // cerulean3
  '#8eb125', // lime3
  '#9d3f9d', // violet3
  '#946638', // sepia3
  '#29a634', // forest3
  '#d33d17', // vermilion3
  '#738091', // gray3
];

export function chartColours(n: number): string[] {
  const out: string[] = [];
  for (let i = 0; i < n; i++) {
    if (i < PALETTE.length) out.push(PALETTE[i]!);
    else out.push(`hsl(${Math.round((i * 137.508) % 360)}, 62%, ${48 + ((i * 7) % 3) * 6}%)`);
  }
  return out;
}

/**
 * Integer tick positions between `min` and `max`, at most about `maxTicks` of them, spaced by
 * 1, 2, 5, 10, 20, 50, ... (steps are whole numbers: no tick at 1.5).
 */
export function integerTicks(min: number, max: number, maxTicks = 8): number[] {
  if (!Number.isFinite(min) || !Number.isFinite(max)) return [];
  if (max < min) [min, max] = [max, min];
  const lo = Math.ceil(min);
  const hi = Math.floor(max);
  if (hi < lo) return [];
  const span = hi - lo;
  let incr = 1;
  for (let mag = 1; ; mag *= 10) {
    const c = [1, 2, 5].map((m) => m * mag).find((s) => span / s <= Math.max(1, maxTicks - 1));
    if (c !== undefined) {
      incr = c;
      break;
    }
  }
  const ticks: number[] = [];
  for (let v = Math.ceil(lo / incr) * incr; v <= hi; v += incr) ticks.push(v + 0); // + 0: no -0
  return ticks;
}

/** Smoothing choices of the charts (EMA weights; 0 is off). */
export const SMOOTHING = [0, 0.6, 0.8, 0.9, 0.95, 0.99] as const;

/**
 * Exponential moving average with the start debiased (as TensorBoard does), over the measured
 * points only: gaps (null) stay gaps and do not move the average.
 */
export function ema(values: readonly (number | null)[], weight: number): (number | null)[] {
  if (weight <= 0) return [...values];
  let acc = 0;
  let n = 0;
  return values.map((v) => {
    if (typeof v !== 'number' || !Number.isFinite(v)) return null;
    acc = acc * weight + (1 - weight) * v;
    n++;
    return acc / (1 - weight ** n);
  });
}

/**
 * Indices of the points to draw out of `xs.length` aligned points: the first and the last, and
 * in each of `buckets` equal slices of the x range the points holding each series' minimum and
 * maximum in that slice (min/max buckets), so peaks and the full x range survive. Below
 * `2 * buckets` points, every index.
 */
export function downsampleIndices(xs: readonly number[], series: readonly (readonly (number | null)[])[], buckets = 500): number[] {
  const n = xs.length;
  if (n <= 2 * buckets) return Array.from({ length: n }, (_, i) => i);
  const keep = new Set<number>([0, n - 1]);
  const x0 = xs[0]!;
  const width = (xs[n - 1]! - x0) / buckets || 1;
  let start = 0;
  for (let b = 0; b < buckets && start < n; b++) {
    const limit = b === buckets - 1 ? Infinity : x0 + (b + 1) * width;
    let end = start;
    while (end < n && xs[end]! < limit) end++;
    if (end === start) continue;
    for (const s of series) {
      let lo = -1;
      let hi = -1;
      for (let i = start; i < end; i++) {
        const v = s[i];
        if (typeof v !== 'number' || !Number.isFinite(v)) continue;
        if (lo < 0 || v < s[lo]!) lo = i;
        if (hi < 0 || v > s[hi]!) hi = i;
      }
      if (lo >= 0) keep.add(lo);
      if (hi >= 0) keep.add(hi);
    }
    start = end;
  }
  return [...keep].sort((a, b) => a - b);
}

/** The points kept by {@link downsampleIndices}, x and every series. */
export function downsample(xs: readonly number[], series: readonly (readonly (number | null)[])[], buckets = 500): { xs: number[]; series: (number | null)[][] } {
  const idx = downsampleIndices(xs, series, buckets);
  return { xs: idx.map((i) => xs[i]!), series: series.map((s) => idx.map((i) => s[i] ?? null)) };
}

/** The latest measured value of a series (null when it has none). */
export function latestValue(values: readonly (number | null)[]): number | null {
  for (let i = values.length - 1; i >= 0; i--) {
    const v = values[i];
    if (typeof v === 'number' && Number.isFinite(v)) return v;
  }
  return null;
}

/** The value a legend shows: at the hovered point when there is one (and it was measured there), else the latest. */
export function legendValue(values: readonly (number | null)[], hovered: number | null | undefined): number | null {
  if (hovered !== null && hovered !== undefined && hovered >= 0 && hovered < values.length) {
    const v = values[hovered];
    return typeof v === 'number' && Number.isFinite(v) ? v : null;
  }
  return latestValue(values);
}

/** A measured value as the charts print it (4 significant digits, integers whole). */
export function formatValue(v: number | null, locale?: string): string {
  if (v === null) return '';
  if (Number.isInteger(v) && Math.abs(v) < 1e15) return v.toLocaleString(locale);
  const a = Math.abs(v);
  if (a !== 0 && (a < 1e-3 || a >= 1e6)) return v.toExponential(3);
  return Number(v.toPrecision(4)).toLocaleString(locale, { maximumSignificantDigits: 4 });
}

/** The y scale distribution for the log toggle: logarithmic where every value is positive, else arcsinh (handles zero and negatives). */
export function logDistr(series: readonly (readonly (number | null)[])[]): 3 | 4 {
  return series.every((s) => finite(s).every((v) => v > 0)) ? 3 : 4;
}
