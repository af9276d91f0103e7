/**
 * Test fixtures of the learning engine, shared by its tests, the server's tests and the e2e
 * (through the server's `modules/modelling/testing.ts`): tiny REVIVE graphs of the linear control
 * system `x' = 0.9 x + 0.5 a` and trajectories of it. Exported as `@decisio/learning/testing`,
 * never from the package root, so that no production bundle pulls it in.
 */
import type { RawTrajectories } from '../data/raw';
import { Rng } from '../data/split';

/** A field (column) of a REVIVE YAML fixture, written in this order: dim, type, max, min, num, values. */
export interface ReviveColumnSpec {
  name: string;
  dim: 'obs' | 'action' | 'parameter';
  type: 'continuous' | 'discrete' | 'category';
  max?: number;
  min?: number;
  /** Levels of a discrete field. */
  num?: number;
  /** Values of a category field. */
  values?: number[];
}

/**
 * REVIVE YAML of the graph `obs -> action -> next_obs` with `columns`; when a column is of the
 * `parameter` node, the parameter also feeds the action and is tunable.
 */
export function reviveYaml(columns: readonly ReviveColumnSpec[]): string {
  const tunable = columns.some((c) => c.dim === 'parameter');
  const lines = ['metadata:', '  graph:', '    action:', '    - obs'];
  if (tunable) lines.push('    - parameter');
  lines.push('    next_obs:', '    - obs', '    - action');
  if (tunable) lines.push('  tunable:', '  - parameter');
  lines.push('  columns:');
  for (const c of columns) {
    lines.push(`  - ${c.name}:`, `      dim: ${c.dim}`, `      type: ${c.type}`);
    if (c.max !== undefined) lines.push(`      max: ${c.max}`);
    if (c.min !== undefined) lines.push(`      min: ${c.min}`);
    if (c.num !== undefined) lines.push(`      num: ${c.num}`);
    if (c.values !== undefined) lines.push(`      values: [${c.values.join(', ')}]`);
  }
  return `${lines.join('\n')}\n`;
}

/** The state `x` in [-2, 2] of the tiny graphs. */
export const TINY_OBS: ReviveColumnSpec = { name: 'x', dim: 'obs', type: 'continuous', max: 2, min: -2 };
/** The action `a` in [-1, 1] of the tiny graphs. */
export const TINY_ACTION: ReviveColumnSpec = { name: 'a', dim: 'action', type: 'continuous', max: 1, min: -1 };

/** A tunable parameter `p_0` in [0, 1] (with {@link OBS_0} and {@link ACTION_0}: the tuning graphs of the search tests). */
export const PARAMETER_0: ReviveColumnSpec = { name: 'p_0', dim: 'parameter', type: 'continuous', max: 1, min: 0 };
/** A state `obs_0` in [-1, 1]. */
export const OBS_0: ReviveColumnSpec = { name: 'obs_0', dim: 'obs', type: 'continuous', max: 1, min: -1 };
/** An action `action_0` in [-1, 1]. */
export const ACTION_0: ReviveColumnSpec = { name: 'action_0', dim: 'action', type: 'continuous', max: 1, min: -1 };

/** The tiny REVIVE graph: obs (`x` in [-2, 2]) -> action (`a` in [-1, 1]) -> next_obs. */
export const TINY_YAML = reviveYaml([TINY_OBS, TINY_ACTION]);

/**
 * Trajectories of `x' = 0.9 x + 0.5 a` under the behaviour `a = clip(-0.5 x + 0.1 noise, -1, 1)`,
 * `x` starting uniform in [-1.5, 1.5]: `obs` and `action` arrays (one column each) and the
 * REVIVE `index`, for the tiny graph.
 */
export function linearTrajectories(trajectories: number, steps: number, seed: number): RawTrajectories {
  const rng = new Rng(seed);
  const xs: number[] = [];
  const as: number[] = [];
  const index: number[] = [];
  for (let t = 0; t < trajectories; t++) {
    let x = rng.next() * 3 - 1.5;
    for (let k = 0; k < steps; k++) {
      const a = Math.max(-1, Math.min(1, -0.5 * x + 0.1 * rng.normal()));
      xs.push(x);
      as.push(a);
      x = 0.9 * x + 0.5 * a;
    }
    index.push(xs.length);
  }
  const m = (v: number[]) => ({ rows: v.length, cols: 1, data: Float64Array.from(v) });
  return { arrays: { obs: m(xs), action: m(as) }, index };
}
