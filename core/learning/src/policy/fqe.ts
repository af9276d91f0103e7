/**
 * Fitted Q evaluation (FQE, Le et al. 2019) of a fixed policy on the logged data alone, with no
 * virtual environment: a Q network over (every data input of the step, the agents' encoded
 * decisions) is regressed on the logged transitions with the target
 * `r + gamma * Q'(s', pi(s'))`, where `Q'` is the previous iteration's network and `pi(s')` the
 * policy's deterministic decision at the next logged row. The policy's value is `Q(s0, pi(s0))`
 * averaged over the trajectories' first rows. With `gamma` 1 and `iterations` H, the estimate is
 * the policy's H-step return (each iteration adds one step). A diagnosis for ranking policies
 * independently of the venvs (README "Fitted Q evaluation"); no training uses it.
 */
import { Adam, Generator, MLP, hardUpdate, mean, noGrad, square, sub, tensor, tidy } from '@decisio/compute';
import type { Dataset } from '../data/dataset';
import { Rng } from '../data/split';
import { decodeStep } from '../venv/bc';
import type { RolloutPolicy } from '../venv/bc';
import { concatInputs, type AgentPolicy } from './agent-policy';
import { optimiseStep, pick, rewardScaleOf } from './ppo';
import type { RewardCallback } from './rollout';

export interface FqeOptions {
  /** Discount. Default 1 (with `iterations` = the evaluation horizon: the finite-horizon return). */
  gamma?: number;
  /** Regression rounds (each one moves the target network). Default 50. */
  iterations?: number;
  /** Gradient updates per round. Default 100. */
  updatesPerIteration?: number;
  minibatch?: number;
  hidden?: number[];
  lr?: number;
  seed?: number;
}

export interface FqeResult {
  /** Mean estimated return from the trajectories' first rows (reward units). */
  value: number;
  /** Mean estimated return from every logged row (reward units). */
  allRows: number;
  /** Mean squared TD error of the last round (scaled rewards). */
  loss: number;
}

/** A policy's encoded decisions at `rows` of the data set (inputs as logged), every agent node side by side. */
async function decisionsAt(ds: Dataset, decide: RolloutPolicy, rows: Int32Array): Promise<Float32Array> {
  const agents = ds.structure.agents;
  const parts: Float32Array[] = [];
  for (const node of agents) {
    // the step's logged values, as a venv rollout hands them to the policy (its node inputs among them)
    const values: Record<string, Float32Array> = {};
    for (const i of ds.structure.inputs) if (ds.scaled[i]) values[i] = ds.gather(i, rows);
    for (const i of ds.structure.nodes.get(node)!.inputs) if (ds.scaled[i]) values[i] ??= ds.gather(i, rows);
    parts.push(await decide(node, values, rows.length));
  }
  return concatInputs(parts, agents.map((a) => ds.codecs[a]!.width), rows.length);
}

/** An {@link AgentPolicy}'s deterministic decisions, applied as SAC (`'tanh'`) or PPO (`'clip'`) applies them. */
export function deterministicDecisions(policy: AgentPolicy, squash: 'tanh' | 'clip'): RolloutPolicy {
  const rng = new Rng(0);
  return (node, inputs, rows) => {
    const h = policy.heads.get(node);
    if (!h) throw new Error(`fqe: no head for agent '${node}'`);
    const a = h.act(policy.inputOf(h, inputs, rows), rows, 'mode', rng);
    if (squash === 'tanh') for (let r = 0; r < rows; r++) for (let c = 0; c < h.cont.length; c++) a.enc[r * h.codec.width + h.cont[c]!] = Math.tanh(a.cont[r * h.cont.length + c]!);
    return a.enc;
  };
}

/** Fitted Q evaluation of the decisions `decide` (deterministic; see {@link deterministicDecisions}) on `ds` (see the module comment). */
export async function fittedQEvaluation(ds: Dataset, decide: RolloutPolicy, reward: RewardCallback, options: FqeOptions = {}): Promise<FqeResult> {
  const o = { gamma: 1, iterations: 50, updatesPerIteration: 100, minibatch: 256, hidden: [64, 64], lr: 1e-3, seed: 0, ...options };
  const stateInputs = ds.structure.inputs.filter((i) => ds.codecs[i]);
  const sWidth = stateInputs.reduce((s, i) => s + ds.codecs[i]!.width, 0);
  const agents = ds.structure.agents;
  const aWidth = agents.reduce((s, a) => s + ds.codecs[a]!.width, 0);
  const stateAt = (rows: Int32Array) => concatInputs(stateInputs.map((i) => ds.gather(i, rows)), stateInputs.map((i) => ds.codecs[i]!.width), rows.length);
  const loggedAt = (rows: Int32Array) => concatInputs(agents.map((a) => ds.gather(a, rows)), agents.map((a) => ds.codecs[a]!.width), rows.length);
  // transitions: every row but a trajectory's last, which has no next row (the data's ends are
  // where logging stopped, not terminal states, so those rows are left out of the regression)
  const all = Int32Array.from({ length: ds.rows }, (_, i) => i);
  const last = new Uint8Array(ds.rows);
  for (let t = 0; t < ds.trajectoryCount; t++) if (ds.ends[t]! > ds.starts[t]!) last[ds.ends[t]! - 1] = 1;
  const next = Int32Array.from(all, (r) => (last[r] ? r : r + 1));
  const scale = await rewardScaleOf(ds, reward, new Rng(o.seed + 3));
  const step: Record<string, Float32Array> = {};
  for (const node of ds.nodes) if (ds.scaled[node]) step[node] = ds.gather(node, all);
  const r = Float32Array.from(await reward(decodeStep(ds, step)), (v) => v * scale);
  const sa = new Float32Array(ds.rows * (sWidth + aWidth));
  const s = stateAt(all);
  const a = loggedAt(all);
  const s2 = stateAt(next);
  const a2 = await decisionsAt(ds, decide, next);
  const sa2 = new Float32Array(ds.rows * (sWidth + aWidth));
  for (let i = 0; i < ds.rows; i++) {
    sa.set(s.subarray(i * sWidth, (i + 1) * sWidth), i * (sWidth + aWidth));
    sa.set(a.subarray(i * aWidth, (i + 1) * aWidth), i * (sWidth + aWidth) + sWidth);
    sa2.set(s2.subarray(i * sWidth, (i + 1) * sWidth), i * (sWidth + aWidth));
    sa2.set(a2.subarray(i * aWidth, (i + 1) * aWidth), i * (sWidth + aWidth) + sWidth);
  }
  const gen = new Generator(o.seed);
  const q = new MLP([sWidth + aWidth, ...o.hidden, 1], { activation: 'relu', generator: gen });
  const target = new MLP([sWidth + aWidth, ...o.hidden, 1], { activation: 'relu', generator: gen });
  const opt = new Adam(q.parameters(), { lr: o.lr });
  const rng = new Rng(o.seed + 17);
  const W = sWidth + aWidth;
  const trainRows = all.filter((i) => !last[i]);
  const M = Math.min(o.minibatch, trainRows.length);
  const y = new Float32Array(ds.rows);
  const predict = (net: MLP, x: Float32Array, n: number) => tidy(() => noGrad(() => net.forward(tensor(x, [n, W])).dataSync().slice()));
  let loss = 0;
  for (let it = 0; it < o.iterations; it++) {
    hardUpdate(target, q);
    // the first round regresses on the reward alone (the target network's Q is the zero return)
    const q2 = it === 0 ? new Float32Array(ds.rows) : predict(target, sa2, ds.rows);
    for (let i = 0; i < ds.rows; i++) y[i] = r[i]! + o.gamma * q2[i]!;
    loss = 0;
    for (let u = 0; u < o.updatesPerIteration; u++) {
      const rows = Int32Array.from({ length: M }, () => trainRows[Math.floor(rng.next() * trainRows.length)]!);
      const x = tensor(pick(sa, rows, W), [M, W]);
      const t = tensor(pick(y, rows, 1), [M, 1]);
      loss += optimiseStep(opt, q.parameters(), () => mean(square(sub(q.forward(x), t))));
      x.dispose();
      t.dispose();
    }
    loss /= Math.max(1, o.updatesPerIteration);
  }
  // the policy's value: Q at its own decision in the logged states
  const a0 = await decisionsAt(ds, decide, all);
  const sa0 = new Float32Array(ds.rows * W);
  for (let i = 0; i < ds.rows; i++) {
    sa0.set(s.subarray(i * sWidth, (i + 1) * sWidth), i * W);
    sa0.set(a0.subarray(i * aWidth, (i + 1) * aWidth), i * W + sWidth);
  }
  const v = predict(q, sa0, ds.rows);
  let first = 0;
  let n0 = 0;
  for (let t = 0; t < ds.trajectoryCount; t++) {
    if (ds.ends[t]! <= ds.starts[t]!) continue;
    first += v[ds.starts[t]!]!;
    n0++;
  }
  let every = 0;
  for (const x of v) every += x;
  return { value: first / Math.max(1, n0) / scale, allRows: every / Math.max(1, ds.rows) / scale, loss };
}
