/**
 * History nodes (`ts_X`: the last k frames of X, REVIVE's `nodes: X: ts: k`) in rollouts.
 *
 * In the data a history row is the previous row shifted by one frame plus the new frame of X;
 * a rollout must keep that, or the policy and the learned nodes read histories no real process
 * can produce:
 * - `ts_X` with its own learned transition `next_ts_X` (the history is the state): the learned
 *   node predicts all k frames, but only the newest is new. The first k − 1 frames of
 *   `next_ts_X` are copied from the last k − 1 frames of `ts_X` (a `next_` node shares its
 *   state's codec), so the older frames never drift from what the rollout did (measured on
 *   the plant task: a learned shift drifted by 0.65 units per value in 50 steps).
 * - `ts_X` without a transition of its own (the graph carries X, `next_X`): after the first
 *   step it is rebuilt from the previous step's `ts_X` and the current X, instead of being read
 *   from the logged rows, which would feed the policy the logged history rather than the
 *   rollout's.
 */
import { decodeRows, encodeRows } from '../data/codec';
import type { Dataset } from '../data/dataset';

/** What a rollout does with the dataset's history nodes (see the module comment). */
export interface HistoryPlan {
  /** `next_ts_X` nodes whose older frames are copied from `ts_X`: `[state, next, frame width (encoded)]`. */
  shifted: Array<{ state: string; next: string; frameWidth: number }>;
  /** `ts_X` inputs rebuilt from the previous step and the current `X` after the first step. */
  rebuilt: Array<{ node: string; base: string }>;
}

const plans = new WeakMap<Dataset, HistoryPlan>();

/**
 * The history nodes of a dataset, as {@link HistoryPlan}: worked out once per dataset (its
 * structure and codecs do not change), since every rollout and every value bootstrap asks.
 */
export function historyPlan(ds: Dataset): HistoryPlan {
  let plan = plans.get(ds);
  if (!plan) {
    plan = planOf(ds);
    plans.set(ds, plan);
  }
  return plan;
}

function planOf(ds: Dataset): HistoryPlan {
  const s = ds.structure;
  const plan: HistoryPlan = { shifted: [], rebuilt: [] };
  const carried = new Set(s.transitions.map(([x]) => x));
  for (const name of s.inputs) {
    const spec = s.nodes.get(name)!;
    const codec = ds.codecs[name];
    if (!spec.historyOf || spec.frames < 2 || !codec) continue;
    const transition = s.transitions.find(([x]) => x === name);
    if (transition) {
      const next = ds.codecs[transition[1]];
      if (next && next.width === codec.width) plan.shifted.push({ state: name, next: transition[1], frameWidth: codec.width / spec.frames });
    } else if (!carried.has(name) && ds.codecs[spec.historyOf]) plan.rebuilt.push({ node: name, base: spec.historyOf });
  }
  return plan;
}

/** Copies the last k − 1 frames of `state` into the first k − 1 frames of `next` (encoded, `[rows, width]`, in place). */
export function shiftFrames(state: Float32Array, next: Float32Array, rows: number, frameWidth: number): void {
  const width = state.length / rows;
  for (let r = 0; r < rows; r++) next.set(state.subarray(r * width + frameWidth, (r + 1) * width), r * width);
}

/** `ts_X` after one step: the previous history without its oldest frame, then the current `X` (encoded, `[rows, width]`). */
export function nextHistory(ds: Dataset, node: string, base: string, previous: Float32Array, current: Float32Array, rows: number): Float32Array {
  const codec = ds.codecs[node]!;
  const baseCodec = ds.codecs[base]!;
  const prev = decodeRows(codec, previous, rows);
  const cur = decodeRows(baseCodec, current, rows);
  const dim = codec.dim;
  const frame = baseCodec.dim;
  const raw = new Float32Array(rows * dim);
  for (let r = 0; r < rows; r++) {
    raw.set(prev.subarray(r * dim + frame, (r + 1) * dim), r * dim);
    raw.set(cur.subarray(r * frame, (r + 1) * frame), r * dim + dim - frame);
  }
  return encodeRows(codec, raw, rows);
}

/**
 * The inputs `names` after a rollout's `last` step, for bootstrapping values: states from the
 * step's `next_` nodes, histories the graph does not carry rebuilt from the step (as the next
 * rollout step would), the rest (external factors) from the logged rows `nextRows`.
 */
export function inputsAfter(ds: Dataset, last: Record<string, Float32Array>, names: readonly string[], nextRows: Int32Array): Record<string, Float32Array> {
  const rows = nextRows.length;
  const out: Record<string, Float32Array> = {};
  const next = (x: string) => {
    const t = ds.structure.transitions.find(([state]) => state === x);
    return t ? last[t[1]] : undefined;
  };
  for (const name of names) out[name] = next(name) ?? ds.gather(name, nextRows);
  for (const h of historyPlan(ds).rebuilt) {
    const base = next(h.base);
    if (names.includes(h.node) && last[h.node] && base) out[h.node] = nextHistory(ds, h.node, h.base, last[h.node]!, base, rows);
  }
  return out;
}
