/**
 * What policy trainers share: rewards (a `reward.py` through the sandbox, or a TypeScript
 * callback), rollout windows sampled from the data set, rollouts in a virtual environment
 * with a policy deciding the agent nodes, and the venv evaluation of a policy.
 */
import type { Dataset } from '../data/dataset';
import { Rng } from '../data/split';
import type { BatchArray } from '../sandbox/python-sandbox';
import { decodeStep, type NodeFunctionCall, type RolloutPolicy, type VirtualEnvironment } from '../venv/bc';
import type { RolloutSampler, VenvEnsemble } from '../venv/ensemble';
import type { AgentPolicy } from './agent-policy';

/** Rewards of one batch step: every node (and `next_` node) `[rows, dim]` in original units -> one reward per row. */
export type RewardCallback = (batch: Record<string, BatchArray>) => Float32Array | Promise<Float32Array>;

/** Adapts anything with `compute(batch)` (the sandbox's `RewardFunction`) to a {@link RewardCallback}. */
export function rewardFromFunction(fn: { compute(batch: Record<string, BatchArray>): Promise<Float32Array> }): RewardCallback {
  return (batch) => fn.compute(batch);
}

/** Rollout windows: data rows from which `horizon` steps stay inside their trajectory. */
export interface Windows {
  starts: Int32Array;
  /** End (exclusive) of each start's trajectory. */
  ends: Int32Array;
  horizon: number;
}

/** Every valid start of a `horizon`-step window (horizon shortened to the shortest trajectory). */
export function rolloutWindows(ds: Dataset, horizon: number): Windows {
  let minLen = Infinity;
  for (let t = 0; t < ds.trajectoryCount; t++) minLen = Math.min(minLen, ds.ends[t]! - ds.starts[t]!);
  const h = Math.max(1, Math.min(horizon, minLen));
  const starts: number[] = [];
  const ends: number[] = [];
  for (let t = 0; t < ds.trajectoryCount; t++) {
    for (let r = ds.starts[t]!; r + h <= ds.ends[t]!; r++) {
      starts.push(r);
      ends.push(ds.ends[t]!);
    }
  }
  return { starts: Int32Array.from(starts), ends: Int32Array.from(ends), horizon: h };
}

/** Samples `n` windows (indices into `w`). */
export function sampleWindowIndices(w: Windows, n: number, rng: Rng): Int32Array {
  const out = new Int32Array(n);
  for (let i = 0; i < n; i++) out[i] = Math.floor(rng.next() * w.starts.length);
  return out;
}

/** A rollout: encoded values per step and rewards `[horizon][rows]`. */
export interface PolicyRollout {
  steps: Array<Record<string, Float32Array>>;
  rewards: Float32Array[];
  rows: number;
}

/**
 * Rolls `policy` out in the venv from the given start rows and computes the rewards (one reward
 * call per step). `sampler`: predicts the learned nodes instead of the venv's own models (an
 * ensemble's `randomMemberSampler`).
 */
export async function rolloutPolicy(
  venv: VirtualEnvironment,
  ds: Dataset,
  starts: Int32Array,
  horizon: number,
  policy: RolloutPolicy,
  reward: RewardCallback,
  opts: { rng?: Rng; nodeFunction?: NodeFunctionCall | undefined; mode?: 'mode' | 'sample'; sampler?: RolloutSampler | undefined } = {},
): Promise<PolicyRollout> {
  const steps = await venv.rollout(ds, starts, horizon, {
    policy,
    rng: opts.rng ?? new Rng(0),
    mode: opts.mode ?? 'sample',
    ...(opts.nodeFunction ? { nodeFunction: opts.nodeFunction } : {}),
    ...(opts.sampler ? { sampler: opts.sampler } : {}),
  });
  const rewards: Float32Array[] = [];
  for (const s of steps) {
    const r = await reward(decodeStep(ds, s));
    if (r.length !== starts.length) throw new Error(`policy: reward returned ${r.length} values for ${starts.length} rows`);
    rewards.push(Float32Array.from(r));
  }
  return { steps, rewards, rows: starts.length };
}

/** Deterministic (mode) rollout policy of an {@link AgentPolicy}. */
export function modePolicy(policy: AgentPolicy, rng = new Rng(0)): RolloutPolicy {
  return (node, inputs, rows) => {
    const h = policy.heads.get(node);
    if (!h) throw new Error(`policy: no head for agent '${node}'`);
    return h.act(policy.inputOf(h, inputs, rows), rows, 'mode', rng).enc;
  };
}

/**
 * Mean return (sum of rewards over the horizon, averaged over windows) of a rollout policy in
 * the venv, on fixed seeded windows. `policy` undefined: the venv's own agent models (the
 * cloned behaviour policy, sampled).
 */
export async function evaluateInVenv(
  venv: VirtualEnvironment,
  ds: Dataset,
  policy: RolloutPolicy | undefined,
  reward: RewardCallback,
  opts: { horizon: number; windows: number; seed: number; nodeFunction?: NodeFunctionCall | undefined },
): Promise<number> {
  const w = rolloutWindows(ds, opts.horizon);
  const rng = new Rng(opts.seed);
  const idx = sampleWindowIndices(w, Math.min(opts.windows, Math.max(1, w.starts.length)), rng);
  const starts = Int32Array.from(idx, (i) => w.starts[i]!);
  const steps = await venv.rollout(ds, starts, w.horizon, {
    rng,
    mode: policy ? 'mode' : 'sample',
    ...(policy ? { policy } : {}),
    ...(opts.nodeFunction ? { nodeFunction: opts.nodeFunction } : {}),
  });
  let total = 0;
  for (const s of steps) {
    const r = await reward(decodeStep(ds, s));
    for (const v of r) total += v;
  }
  return total / starts.length;
}

/** How a policy trainer picks its best evaluated policy (see {@link selectionReturn}). */
export type PolicySelect = 'venv' | 'mean' | 'worst';

/**
 * The selection a policy trainer uses when none is asked for: one venv its own return; with an
 * ensemble PPO the worst member's return, SAC the members' mean (SAC's evaluations swing more,
 * and the worst member threw its better policies away on the bench: README "SAC for
 * continuous decisions"). The trainers, the CLI's metrics and the bench's output read it here.
 */
export function defaultSelect(algorithm: 'ppo' | 'sac', ensembled: boolean): PolicySelect {
  if (!ensembled) return 'venv';
  return algorithm === 'sac' ? 'mean' : 'worst';
}

/**
 * The venv return that picks a policy trainer's best evaluated policy: `select` `'venv'` the
 * return in `venv` alone, `'mean'` the ensemble members' mean, `'worst'` their lowest (a
 * conservative estimate). `returnIn` evaluates the policy in one venv. `members`: each
 * member's return (empty for `'venv'`).
 */
export async function selectionReturn(
  venv: VirtualEnvironment,
  ensemble: VenvEnsemble | undefined,
  select: 'venv' | 'mean' | 'worst',
  returnIn: (venv: VirtualEnvironment) => Promise<number>,
): Promise<{ value: number; members: number[] }> {
  if (!ensemble || select === 'venv') return { value: await returnIn(venv), members: [] };
  const members: number[] = [];
  for (const m of ensemble.members) members.push(await returnIn(m));
  const value = select === 'worst' ? Math.min(...members) : members.reduce((a, b) => a + b, 0) / members.length;
  return { value, members };
}
