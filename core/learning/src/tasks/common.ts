/**
 * Shared pieces of the reference tasks: the task interface, offline data in REVIVE's npz
 * layout, and the generic episode loop.
 */
import type { DecisionGraph } from '@decisio/domain';
import { importReviveYaml } from '../graph/yaml';
import { writeNpz, type NdArray } from '../data/npy';
import type { RawTrajectories } from '../data/raw';
import { Rng } from '../data/split';

/** One step's values by node name, original units. */
export type StepValues = Record<string, number[]>;

/** A policy for a task: the step's data inputs (states, external factors, tunables) -> agent outputs. */
export type TaskPolicy = (inputs: StepValues, rng: Rng) => StepValues;

/** Offline data in REVIVE's npz layout: `[N, dim]` float32 per node and `index` (cumulative trajectory ends). */
export interface OfflineData {
  arrays: Record<string, NdArray>;
  index: number[];
}

/** Result of running a policy in the true simulator. */
export interface SimulationResult {
  /** Sum of rewards over the episode. */
  return: number;
  rewards: number[];
  /** The episode, in the same layout as offline data. */
  data: OfflineData;
}

/** A reference task: a true simulator, its graph and reward, and a behaviour policy. */
export interface ReferenceTask {
  id: string;
  title: string;
  /** REVIVE YAML of the decision graph. */
  yaml: string;
  /** `reward.py` with `get_reward(data)`, runnable by REVIVE and by the sandbox. */
  rewardPy: string;
  /** Default episode length. */
  horizon: number;
  /** The agent node the policy decides. */
  agent: string;
  graph(): DecisionGraph;
  /** Reward of one step in TypeScript; mirrors `rewardPy` exactly. */
  reward(step: StepValues): number;
  /** The noisy, sub-optimal behaviour policy that generated the offline data. */
  behaviourPolicy: TaskPolicy;
  /** Runs `policy` for `steps` steps from a seeded initial state; returns the true return. */
  simulate(policy: TaskPolicy, steps?: number, seed?: number): SimulationResult;
  /** Offline data from the behaviour policy. */
  generate(options?: { trajectories?: number; steps?: number; seed?: number }): OfflineData;
}

/** Internal: a simulator as the episode loop needs it. */
export interface Simulator {
  /** Data inputs of the first step. */
  reset(rng: Rng): StepValues;
  /** Applies the agent outputs; returns the next values of the states and the next step's external inputs. */
  step(inputs: StepValues, decision: StepValues, rng: Rng): { next: StepValues; nextInputs: StepValues; extra?: StepValues };
}

/** Runs one episode; records every node (inputs, decision, extra, next_ states) per step. */
export function runEpisode(task: Pick<ReferenceTask, 'reward'>, sim: Simulator, policy: TaskPolicy, steps: number, rng: Rng): { rows: StepValues[]; rewards: number[] } {
  const rows: StepValues[] = [];
  const rewards: number[] = [];
  let inputs = sim.reset(rng);
  for (let t = 0; t < steps; t++) {
    const decision = policy(inputs, rng);
    const { next, nextInputs, extra } = sim.step(inputs, decision, rng);
    const row: StepValues = { ...inputs, ...decision, ...(extra ?? {}) };
    for (const [k, v] of Object.entries(next)) row[`next_${k}`] = v;
    rows.push(row);
    rewards.push(task.reward(row));
    inputs = nextInputs;
  }
  return { rows, rewards };
}

/** Stacks episodes into offline data (float32 per node, `index` of cumulative ends). */
export function toOfflineData(episodes: StepValues[][]): OfflineData {
  const keys = Object.keys(episodes[0]?.[0] ?? {});
  const N = episodes.reduce((s, e) => s + e.length, 0);
  const arrays: Record<string, NdArray> = {};
  for (const k of keys) {
    const dim = episodes[0]![0]![k]!.length;
    const data = new Float32Array(N * dim);
    let r = 0;
    for (const e of episodes) for (const row of e) data.set(row[k]!, dim * r++);
    arrays[k] = { dtype: 'f4', shape: [N, dim], data };
  }
  const index: number[] = [];
  let end = 0;
  for (const e of episodes) index.push((end += e.length));
  return { arrays, index };
}

/** Offline data as an `.npz` file (with `index` as int64, like REVIVE's examples). */
export function offlineToNpz(d: OfflineData): Uint8Array {
  return writeNpz({ ...d.arrays, index: { dtype: 'i8', shape: [d.index.length], data: BigInt64Array.from(d.index.map(BigInt)) } });
}

/** Offline data as raw trajectories for `buildDataset`. */
export function offlineToRaw(d: OfflineData): RawTrajectories {
  const arrays: RawTrajectories['arrays'] = {};
  for (const [k, a] of Object.entries(d.arrays)) arrays[k] = { rows: a.shape[0]!, cols: a.shape[1]!, data: Float64Array.from(a.data as Float32Array) };
  return { arrays, index: [...d.index] };
}

/** Builds the standard `graph()`, `simulate()` and `generate()` of a task; `makeSim` makes a fresh simulator per episode. */
export function defineTask(
  base: Omit<ReferenceTask, 'graph' | 'simulate' | 'generate'>,
  makeSim: () => Simulator,
  keep: (row: StepValues) => StepValues = (r) => r,
): ReferenceTask {
  const task: ReferenceTask = {
    ...base,
    graph: () => importReviveYaml(base.yaml).graph,
    simulate(policy, steps = base.horizon, seed = 0) {
      const rng = new Rng(seed);
      const { rows, rewards } = runEpisode(task, makeSim(), policy, steps, rng);
      return { return: rewards.reduce((a, b) => a + b, 0), rewards, data: toOfflineData([rows.map(keep)]) };
    },
    generate({ trajectories = 20, steps = base.horizon, seed = 0 } = {}) {
      const rng = new Rng(seed);
      const eps: StepValues[][] = [];
      for (let i = 0; i < trajectories; i++) eps.push(runEpisode(task, makeSim(), base.behaviourPolicy, steps, rng).rows.map(keep));
      return toOfflineData(eps);
    },
  };
  return task;
}

/** Clamps `x` to `[lo, hi]`. */
export const clamp = (x: number, lo: number, hi: number): number => Math.min(hi, Math.max(lo, x));
