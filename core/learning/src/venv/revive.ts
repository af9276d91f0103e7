/**
 * Adversarial virtual environments (REVIVE's `revive-p` and `revive-t` venv algorithms).
 *
 * The node networks of a BC venv ({@link VirtualEnvironment}) are the generator. They are
 * warm started by behaviour cloning (`bcSteps` BC trainer steps), then each trainer step:
 * 1. rolls `rollouts` windows of `rolloutHorizon` steps out in the venv from data rows, every
 *    learnable node (agents included) sampling from its distribution, and records each node's
 *    (inputs, output) pair at every step;
 * 2. updates one discriminator per node (an MLP on the concatenated encoded inputs and
 *    output) with binary cross-entropy: real pairs are the data's (inputs, output) at the same
 *    rows of the same trajectories, fake pairs the rollout's;
 * 3. gives every node a reward per step, `discWeight * clip(logit D, -5, 5) - maeWeight * MAE`
 *    (MAE of the sampled output against the data at that step, scaled space);
 * 4. updates the generator:
 *    - `revive-p`: PPO per node (a value network per node over its inputs, GAE over the
 *      window, clipped objective), plus `bcWeight` x the maximum-likelihood loss on data;
 *    - `revive-t`: TD3-style: twin critics per node `Q(inputs, output)` with Polyak targets,
 *      a target generator (a copy of each node network taken after the warm start, moved by
 *      Polyak averaging with the same `tau` after every generator update) whose smoothed
 *      output (clipped noise on the continuous columns) gives the critics' targets, critics trained every step,
 *      the generator moved every `policyDelay` updates along `Q1(x, mean output(x))` (the
 *      mean of continuous columns, softmax probabilities for category blocks and the expected
 *      grid value for discrete ordered blocks), plus `bcWeight` x the likelihood loss.
 * The held-out evaluation is {@link evaluateVenv}'s (rollout MAE, step score); the best
 * evaluated weights are kept (`useBest`).
 */
import {
  Adam,
  Generator,
  MLP,
  add,
  affine,
  clamp,
  concat,
  hardUpdate,
  matmul,
  mean,
  minimum,
  mul,
  narrow,
  neg,
  noGrad,
  softmax,
  softplus,
  softUpdate,
  square,
  sub,
  tensor,
  tidy,
  type Tensor,
} from '@decisio/compute';
import type { DecisionGraph } from '@decisio/domain';
import type { Dataset } from '../data/dataset';
import { Rng, sampleRows, type DatasetSplit } from '../data/split';
import { gae, optimiseStep, pick, ppoClipLoss } from '../policy/ppo';
import { rolloutWindows, sampleWindowIndices, type Windows } from '../policy/rollout';
import type { StepContext, StepResult, Trainer } from '../trainer/contract';
import { LearningError } from '../errors';
import type { BatchArray } from '../sandbox/python-sandbox';
import { BcTrainer, VENV_DEFAULTS, decodeStep, evaluateVenv, type BcOptions, type NodeModel, type VirtualEnvironment } from './bc';

/** Options of {@link ReviveTrainer}. */
export interface ReviveOptions extends Pick<BcOptions, 'hidden' | 'activation' | 'batchSize' | 'horizon' | 'evalWindows' | 'validationFraction' | 'residual' | 'nodeFunction'> {
  /** BC trainer steps of the warm start. Default 120 (`VENV_DEFAULTS`, as the BC settings and the generator's here). */
  bcSteps?: number;
  /** Gradient updates per BC warm-start step. Default 25. */
  bcUpdatesPerStep?: number;
  /** Learning rate of the BC warm start. Default 2e-3. */
  bcLr?: number;
  /** Generator learning rate. Default 1e-4. */
  lr?: number;
  /** Window length of the generator rollouts. Default 10. */
  rolloutHorizon?: number;
  /** Rollout windows per trainer step. Default 64. */
  rollouts?: number;
  /** Discriminator hidden sizes. Default `[64, 64]`. */
  discHidden?: number[];
  discLr?: number;
  /** Discriminator updates per trainer step. Default 2. */
  discUpdates?: number;
  /** Weight of the discriminator reward. Default 1. */
  discWeight?: number;
  /** Weight of the (negative) MAE reward. Default 10. */
  maeWeight?: number;
  /** Weight of the likelihood loss added to the generator loss. Default 1. */
  bcWeight?: number;
  gamma?: number;
  /** revive-p: GAE lambda, clip range, passes and minibatch size. */
  lambda?: number;
  clip?: number;
  epochs?: number;
  minibatch?: number;
  /** revive-t: critic updates per step, target averaging, smoothing noise, actor delay. */
  criticUpdates?: number;
  tau?: number;
  targetNoise?: number;
  policyDelay?: number;
  /** Evaluate on held-out trajectories every this many steps. Default 5. */
  evalEvery?: number;
  /** Adversarial steps when the system decides. Default 30. */
  systemMaxSteps?: number;
  patience?: number;
  /**
   * revive-p's rule-based matcher reward (a REVIVE `get_reward(data)` file through the
   * sandbox, or any function): called once per rollout step with every node of the step in
   * original units (`[B, dim]`), its value per row added, times `matcherWeight`, to every
   * learned node's reward at that step. Refused for revive-t.
   */
  matcherReward?: (batch: Record<string, BatchArray>) => Promise<Float32Array> | Float32Array;
  /** Weight of the matcher reward. Default 1. */
  matcherWeight?: number;
}

type W = Record<string, number[]>;
const named = (m: MLP): W => Object.fromEntries(m.namedParameters().map(([k, t]) => [k, Array.from(t.dataSync())]));
const load = (m: MLP, w: W): void => m.loadStateDict(Object.fromEntries(Object.entries(w).map(([k, v]) => [k, Float32Array.from(v)])));

/** Checkpoint of {@link ReviveTrainer}. */
export interface ReviveCheckpoint {
  weights: Record<string, Record<string, number[]>>;
  best?: Record<string, Record<string, number[]>>;
  disc: Record<string, W>;
  /** revive-p: value nets; revive-t: critics, their targets and the target generator (`node/q1`, `node/t1`, `node/gt`, ...). */
  aux: Record<string, W>;
  rngState: number;
  bestScore: number;
  sinceBest: number;
  initialScore: number;
  initialMae: number;
  updates: number;
}

/** Binary cross-entropy of a discriminator: real labelled 1, fake 0 (logits in, scalar out). */
export function discriminatorLoss(realLogits: Tensor, fakeLogits: Tensor): Tensor {
  return add(mean(softplus(neg(realLogits))), mean(softplus(fakeLogits)));
}

/** Concatenates two row-major matrices column-wise. */
function hcat(a: Float32Array, wa: number, b: Float32Array, wb: number, rows: number): Float32Array {
  const out = new Float32Array(rows * (wa + wb));
  for (let r = 0; r < rows; r++) {
    out.set(a.subarray(r * wa, (r + 1) * wa), r * (wa + wb));
    out.set(b.subarray(r * wb, (r + 1) * wb), r * (wa + wb) + wa);
  }
  return out;
}

/**
 * The deterministic, differentiable output of a node in its encoded layout `[rows, width]`:
 * continuous means (+ residual base), category softmax, discrete ordered expected grid value.
 * `net`: another network of the same shape (revive-t's target generator); default the node's.
 */
export function meanOutput(m: NodeModel, x: Tensor, rows: number, base?: Float32Array, net: MLP = m.net): Tensor {
  const out = net.forward(x);
  const C = m.cont.length;
  const pieces: Array<{ offset: number; t: Tensor }> = [];
  const baseT = base ? tensor(base, [rows, C]) : undefined;
  for (let c = 0; c < C; c++) {
    let v = narrow(out, 1, c, 1);
    if (baseT) v = add(v, narrow(baseT, 1, c, 1));
    pieces.push({ offset: m.cont[c]!, t: v });
  }
  let off = 2 * C;
  for (const b of m.blocks) {
    const p = softmax(narrow(out, 1, off, b.k), 1);
    if (b.discrete) {
      const grid = Float32Array.from({ length: b.k }, (_, j) => (b.k <= 1 ? 0 : (2 * j) / (b.k - 1) - 1));
      pieces.push({ offset: b.offset, t: matmul(p, tensor(grid, [b.k, 1])) });
    } else pieces.push({ offset: b.offset, t: p });
    off += b.k;
  }
  pieces.sort((a, b) => a.offset - b.offset);
  return pieces.length === 1 ? pieces[0]!.t : concat(pieces.map((p) => p.t), 1);
}

/** Mean absolute error per row over the fitted columns of a node's encoding. */
function rowMae(m: NodeModel, y: Float32Array, truth: Float32Array, rows: number): Float32Array {
  const W = m.codec.width;
  const mask = m.codec.fitMask;
  let n = 0;
  for (let j = 0; j < W; j++) n += mask[j] ? 1 : 0;
  const out = new Float32Array(rows);
  if (n === 0) return out;
  for (let r = 0; r < rows; r++) {
    let s = 0;
    for (let j = 0; j < W; j++) if (mask[j]) s += Math.abs(y[r * W + j]! - truth[r * W + j]!);
    out[r] = s / n;
  }
  return out;
}

interface NodeRecord {
  x: Float32Array[];
  y: Float32Array[];
  base: Array<Float32Array | undefined>;
}

/**
 * `revive-p` (`algo: 'p'`) and `revive-t` (`algo: 't'`) venv trainers (see the module comment).
 * After the run, {@link ReviveTrainer.venv} holds the generator; `useBest()` loads the best
 * evaluated weights.
 */
export class ReviveTrainer implements Trainer<ReviveCheckpoint> {
  readonly kind: string;
  readonly systemMaxSteps: number;
  venv: VirtualEnvironment | undefined;
  split: DatasetSplit | undefined;
  /** Held-out step score and MAE of the BC warm start (set by `init`). */
  initialScore = NaN;
  initialMae = NaN;
  private bc: BcTrainer;
  private gopt!: Adam;
  private disc = new Map<string, { net: MLP; opt: Adam }>();
  private value = new Map<string, { net: MLP; opt: Adam }>();
  /** revive-t per node: twin critics, their targets, and the target generator `gt` (a Polyak copy of the node network). */
  private critics = new Map<string, { q1: MLP; q2: MLP; t1: MLP; t2: MLP; gt: MLP; opt: Adam }>();
  private rng = new Rng(0);
  private windows!: Windows;
  private bestScore = -Infinity;
  private sinceBest = 0;
  private best: ReviveCheckpoint['best'];
  private updates = 0;
  private readonly o: Required<Omit<ReviveOptions, 'nodeFunction' | 'activation' | 'residual' | 'matcherReward'>>;

  constructor(
    readonly graph: DecisionGraph,
    readonly dataset: Dataset,
    readonly algo: 'p' | 't',
    private readonly options: ReviveOptions = {},
  ) {
    this.kind = algo === 'p' ? 'venv.revive-p' : 'venv.revive-t';
    this.o = {
      hidden: options.hidden ?? [...VENV_DEFAULTS.hidden],
      batchSize: options.batchSize ?? VENV_DEFAULTS.batchSize,
      horizon: options.horizon ?? 10,
      evalWindows: options.evalWindows ?? 256,
      validationFraction: options.validationFraction ?? 0.2,
      bcSteps: options.bcSteps ?? VENV_DEFAULTS.bcSteps,
      bcUpdatesPerStep: options.bcUpdatesPerStep ?? VENV_DEFAULTS.updatesPerStep,
      bcLr: options.bcLr ?? VENV_DEFAULTS.lr,
      lr: options.lr ?? VENV_DEFAULTS.generatorLr,
      rolloutHorizon: options.rolloutHorizon ?? 10,
      rollouts: options.rollouts ?? VENV_DEFAULTS.rollouts,
      discHidden: options.discHidden ?? [64, 64],
      discLr: options.discLr ?? 1e-3,
      discUpdates: options.discUpdates ?? 2,
      discWeight: options.discWeight ?? 1,
      maeWeight: options.maeWeight ?? 10,
      bcWeight: options.bcWeight ?? 1,
      gamma: options.gamma ?? 0.9,
      lambda: options.lambda ?? 0.95,
      clip: options.clip ?? 0.2,
      epochs: options.epochs ?? 2,
      minibatch: options.minibatch ?? 256,
      criticUpdates: options.criticUpdates ?? 10,
      tau: options.tau ?? 0.01,
      targetNoise: options.targetNoise ?? 0.05,
      policyDelay: options.policyDelay ?? 2,
      evalEvery: options.evalEvery ?? VENV_DEFAULTS.adversarialEvalEvery,
      systemMaxSteps: options.systemMaxSteps ?? VENV_DEFAULTS.adversarialSteps,
      patience: options.patience ?? 5,
      matcherWeight: options.matcherWeight ?? 1,
    };
    if (options.matcherReward && algo !== 'p') throw new LearningError('revive.matcherReward', { algo: `revive-${algo}` });
    this.systemMaxSteps = this.o.systemMaxSteps;
    this.bc = new BcTrainer(graph, dataset, {
      hidden: this.o.hidden,
      ...(options.activation ? { activation: options.activation } : {}),
      ...(options.residual !== undefined ? { residual: options.residual } : {}),
      lr: this.o.bcLr,
      batchSize: this.o.batchSize,
      updatesPerStep: this.o.bcUpdatesPerStep,
      validationFraction: this.o.validationFraction,
      evalEvery: Number.MAX_SAFE_INTEGER,
      systemMaxSteps: Number.MAX_SAFE_INTEGER,
    });
  }

  private evaluate() {
    return evaluateVenv(this.venv!, this.split!.validation, {
      horizon: this.o.horizon,
      windows: this.o.evalWindows,
      seed: 0,
      ...(this.options.nodeFunction ? { nodeFunction: this.options.nodeFunction } : {}),
    });
  }

  async init({ seed, checkpoint }: { seed: number; checkpoint?: ReviveCheckpoint }): Promise<void> {
    this.bc.init({ seed });
    this.venv = this.bc.venv!;
    this.split = this.bc.split!;
    const train = this.split.train;
    const g = new Generator(seed + 7);
    for (const m of this.venv.models.values()) {
      const inW = m.inWidth + m.codec.width;
      const d = new MLP([inW, ...this.o.discHidden, 1], { activation: 'relu', generator: g });
      this.disc.set(m.name, { net: d, opt: new Adam(d.parameters(), { lr: this.o.discLr }) });
      if (this.algo === 'p') {
        const v = new MLP([m.inWidth, ...this.o.discHidden, 1], { activation: 'tanh', generator: g });
        this.value.set(m.name, { net: v, opt: new Adam(v.parameters(), { lr: 1e-3 }) });
      } else {
        const mk = () => new MLP([inW, ...this.o.discHidden, 1], { activation: 'relu', generator: g });
        const q1 = mk();
        const q2 = mk();
        const t1 = mk();
        const t2 = mk();
        hardUpdate(t1, q1);
        hardUpdate(t2, q2);
        // same shape as the node network; copied from it once the warm start (or the checkpoint) is in
        const gt = new MLP(m.net.sizes, { activation: m.net.layers[0]!.activation, generator: g });
        this.critics.set(m.name, { q1, q2, t1, t2, gt, opt: new Adam([...q1.parameters(), ...q2.parameters()], { lr: 1e-3 }) });
      }
    }
    this.gopt = new Adam(this.venv.parameters(), { lr: this.o.lr });
    this.rng = new Rng(seed + 11);
    this.windows = rolloutWindows(train, this.o.rolloutHorizon);
    if (checkpoint) {
      this.venv.loadWeights(checkpoint.weights);
      for (const [n, d] of this.disc) if (checkpoint.disc[n]) load(d.net, checkpoint.disc[n]!);
      for (const [n, v] of this.value) if (checkpoint.aux[n]) load(v.net, checkpoint.aux[n]!);
      for (const [n, c] of this.critics) {
        for (const k of ['q1', 'q2', 't1', 't2', 'gt'] as const) {
          const w = checkpoint.aux[`${n}/${k}`];
          if (w) load(c[k], w);
          // checkpoints written before the target generator existed: start it from the generator
          else if (k === 'gt') hardUpdate(c.gt, this.venv.models.get(n)!.net);
        }
      }
      this.best = checkpoint.best;
      this.rng.state = checkpoint.rngState;
      this.bestScore = checkpoint.bestScore;
      this.sinceBest = checkpoint.sinceBest;
      this.initialScore = checkpoint.initialScore;
      this.initialMae = checkpoint.initialMae;
      this.updates = checkpoint.updates;
      return;
    }
    const signal = new AbortController().signal;
    for (let s = 0; s < this.o.bcSteps; s++) await this.bc.step({ step: s, signal });
    for (const [n, c] of this.critics) hardUpdate(c.gt, this.venv.models.get(n)!.net);
    const r = await this.evaluate();
    this.initialScore = r.score;
    this.initialMae = r.mae;
    this.bestScore = r.score;
    this.best = this.venv.weights();
  }

  /** Likelihood loss of every node on a teacher-forced data batch (the generator's regulariser). */
  private nllLoss(): () => Tensor {
    const train = this.split!.train;
    const venv = this.venv!;
    const B = Math.min(this.o.batchSize, train.rows);
    const rows = sampleRows(train, B, this.rng, new Int32Array(B));
    const values = (n: string) => train.gather(n, rows);
    const parts = [...venv.models.values()].map((m) => ({ m, x: venv.inputOf(m, values, B), y: values(m.name), base: venv.residualBase(m, values, B) }));
    return () => {
      let total: Tensor | undefined;
      for (const p of parts) {
        const l = p.m.nll(tensor(p.x, [B, p.m.inWidth]), p.y, B, p.base);
        total = total ? add(total, l) : l;
      }
      return total!;
    };
  }

  async step(ctx: StepContext): Promise<StepResult> {
    const venv = this.venv!;
    const train = this.split!.train;
    const B = this.o.rollouts;
    const idx = sampleWindowIndices(this.windows, B, this.rng);
    const starts = Int32Array.from(idx, (i) => this.windows.starts[i]!);
    const H = this.windows.horizon;
    const rec = new Map<string, NodeRecord>();
    for (const n of venv.models.keys()) rec.set(n, { x: [], y: [], base: [] });
    const rolled = await venv.rollout(train, starts, H, {
      rng: this.rng,
      mode: 'sample',
      ...(this.options.nodeFunction ? { nodeFunction: this.options.nodeFunction } : {}),
      sampler: async (m, x, rows, base) => {
        const y = await m.predict(x, rows, 'sample', this.rng, base);
        const r = rec.get(m.name)!;
        r.x.push(x);
        r.y.push(y);
        r.base.push(base);
        return y;
      },
    });
    const N = H * B;
    const metrics: Record<string, number> = { samples: N };
    // real pairs: the data at the same rows of the same trajectories
    const realX = new Map<string, Float32Array>();
    const realY = new Map<string, Float32Array>();
    const values = (t: number) => (n: string) => train.gather(n, starts.map((s) => s + t));
    for (const m of venv.models.values()) {
      const xs = new Float32Array(N * m.inWidth);
      const ys = new Float32Array(N * m.codec.width);
      for (let t = 0; t < H; t++) {
        const v = values(t);
        xs.set(venv.inputOf(m, v, B), t * B * m.inWidth);
        ys.set(v(m.name), t * B * m.codec.width);
      }
      realX.set(m.name, xs);
      realY.set(m.name, ys);
    }
    const flat = (parts: Array<Float32Array | undefined>, w: number): Float32Array => {
      const out = new Float32Array(N * w);
      parts.forEach((p, t) => p && out.set(p, t * B * w));
      return out;
    };
    // discriminators and rewards
    const rewards = new Map<string, Float32Array>();
    let discLoss = 0;
    let dReal = 0;
    let dFake = 0;
    let genMae = 0;
    for (const m of venv.models.values()) {
      const r = rec.get(m.name)!;
      const fx = flat(r.x, m.inWidth);
      const fy = flat(r.y, m.codec.width);
      const D = this.disc.get(m.name)!;
      const inW = m.inWidth + m.codec.width;
      const real = hcat(realX.get(m.name)!, m.inWidth, realY.get(m.name)!, m.codec.width, N);
      const fake = hcat(fx, m.inWidth, fy, m.codec.width, N);
      for (let u = 0; u < this.o.discUpdates; u++) {
        discLoss += optimiseStep(D.opt, D.net.parameters(), () => discriminatorLoss(D.net.forward(tensor(real, [N, inW])), D.net.forward(tensor(fake, [N, inW])))) / (this.o.discUpdates * venv.models.size);
      }
      const logits = tidy(() => noGrad(() => Float32Array.from(D.net.forward(tensor(fake, [N, inW])).dataSync())));
      const realLogits = tidy(() => noGrad(() => Float32Array.from(D.net.forward(tensor(real, [N, inW])).dataSync())));
      const mae = rowMae(m, fy, realY.get(m.name)!, N);
      const rw = new Float32Array(N);
      for (let i = 0; i < N; i++) {
        rw[i] = this.o.discWeight * Math.max(-5, Math.min(5, logits[i]!)) - this.o.maeWeight * mae[i]!;
        dFake += 1 / (1 + Math.exp(-logits[i]!));
        dReal += 1 / (1 + Math.exp(-realLogits[i]!));
        genMae += mae[i]!;
      }
      rewards.set(m.name, rw);
    }
    if (this.options.matcherReward) {
      // the rule-based matcher reward of each step, for every node (row i = t * B + b)
      let msum = 0;
      for (let t = 0; t < H; t++) {
        const mr = await this.options.matcherReward(decodeStep(train, rolled[t]!));
        if (mr.length !== B) throw new Error(`revive-p: the matcher reward returned ${mr.length} values for ${B} rows`);
        for (let b = 0; b < B; b++) {
          msum += mr[b]!;
          for (const rw of rewards.values()) rw[t * B + b] = rw[t * B + b]! + this.o.matcherWeight * mr[b]!;
        }
      }
      metrics['gen/matcher'] = msum / N;
    }
    const K = venv.models.size * N;
    metrics['disc/loss'] = discLoss;
    metrics['disc/real'] = dReal / K;
    metrics['disc/fake'] = dFake / K;
    metrics['gen/mae'] = genMae / K;
    let rsum = 0;
    for (const rw of rewards.values()) for (const v of rw) rsum += v;
    metrics['gen/reward'] = rsum / K;
    if (this.algo === 'p') Object.assign(metrics, this.ppoUpdate(rec, rewards, H, B, flat));
    else Object.assign(metrics, this.td3Update(rec, rewards, H, B, flat));
    const result: StepResult = { metrics };
    if ((ctx.step + 1) % this.o.evalEvery === 0 || ctx.step + 1 >= this.systemMaxSteps) {
      const r = await this.evaluate();
      metrics['val/mae'] = r.mae;
      metrics['val/mse'] = r.mse;
      for (const [n, e] of Object.entries(r.nodes)) {
        metrics[`val/mae/${n}`] = e.mae;
        metrics[`val/score/${n}`] = e.score;
      }
      result.score = r.score;
      if (r.score > this.bestScore + 1e-6) {
        this.bestScore = r.score;
        this.sinceBest = 0;
        this.best = venv.weights();
      } else if (++this.sinceBest >= this.o.patience) result.converged = true;
    }
    return result;
  }

  private ppoUpdate(rec: Map<string, NodeRecord>, rewards: Map<string, Float32Array>, H: number, B: number, flat: (p: Array<Float32Array | undefined>, w: number) => Float32Array): Record<string, number> {
    const venv = this.venv!;
    const N = H * B;
    const data = new Map<string, { x: Float32Array; y: Float32Array; base: Float32Array | undefined; adv: Float32Array; ret: Float32Array; old: Float32Array }>();
    for (const m of venv.models.values()) {
      const r = rec.get(m.name)!;
      const x = flat(r.x, m.inWidth);
      const y = flat(r.y, m.codec.width);
      const base = r.base[0] ? flat(r.base, m.cont.length) : undefined;
      const V = this.value.get(m.name)!;
      const values = tidy(() => noGrad(() => Float32Array.from(V.net.forward(tensor(x, [N, m.inWidth])).dataSync())));
      // bootstrap with the value of the last step (no next input is recorded)
      const last = values.subarray((H - 1) * B, H * B);
      const { advantages, returns } = gae(rewards.get(m.name)!, values, last, H, B, this.o.gamma, this.o.lambda);
      let am = 0;
      for (const a of advantages) am += a;
      am /= N;
      let as = 0;
      for (const a of advantages) as += (a - am) ** 2;
      as = Math.sqrt(as / N) + 1e-8;
      for (let i = 0; i < N; i++) advantages[i] = (advantages[i]! - am) / as;
      const old = tidy(() => noGrad(() => Float32Array.from(m.logProbRows(tensor(x, [N, m.inWidth]), y, N, base).dataSync())));
      data.set(m.name, { x, y, base, adv: advantages, ret: returns, old });
    }
    const M = Math.min(this.o.minibatch, N);
    const order = Array.from({ length: N }, (_, i) => i);
    let pl = 0;
    let vl = 0;
    let n = 0;
    const params = venv.parameters();
    for (let e = 0; e < this.o.epochs; e++) {
      this.rng.shuffle(order);
      for (let o = 0; o + M <= N; o += M) {
        const rows = Int32Array.from(order.slice(o, o + M));
        const nll = this.nllLoss();
        pl += optimiseStep(this.gopt, params, () => {
          let total: Tensor = affine(nll(), this.o.bcWeight, 0);
          for (const m of venv.models.values()) {
            const d = data.get(m.name)!;
            const lp = m.logProbRows(tensor(pick(d.x, rows, m.inWidth), [M, m.inWidth]), pick(d.y, rows, m.codec.width), M, d.base ? pick(d.base, rows, m.cont.length) : undefined);
            total = add(total, ppoClipLoss(lp, tensor(pick(d.old, rows, 1), [M]), tensor(pick(d.adv, rows, 1), [M]), this.o.clip));
          }
          return total;
        }, 0.5);
        for (const m of venv.models.values()) {
          const d = data.get(m.name)!;
          const V = this.value.get(m.name)!;
          vl += optimiseStep(V.opt, V.net.parameters(), () => mean(square(sub(V.net.forward(tensor(pick(d.x, rows, m.inWidth), [M, m.inWidth])), tensor(pick(d.ret, rows, 1), [M, 1])))), 0.5);
        }
        n++;
        this.updates++;
      }
    }
    return { 'loss/generator': pl / Math.max(1, n), 'loss/value': vl / Math.max(1, n * venv.models.size) };
  }

  private td3Update(rec: Map<string, NodeRecord>, rewards: Map<string, Float32Array>, H: number, B: number, flat: (p: Array<Float32Array | undefined>, w: number) => Float32Array): Record<string, number> {
    const venv = this.venv!;
    // transitions (x_t, y_t, r_t, x_{t+1}) of steps 0..H-2 of each window
    const T = Math.max(1, H - 1);
    const N = T * B;
    const gamma = H > 1 ? this.o.gamma : 0;
    const tr = new Map<string, { x: Float32Array; y: Float32Array; r: Float32Array; x2: Float32Array; base2: Float32Array | undefined }>();
    for (const m of venv.models.values()) {
      const rc = rec.get(m.name)!;
      const x = flat(rc.x, m.inWidth).subarray(0, N * m.inWidth);
      const y = flat(rc.y, m.codec.width).subarray(0, N * m.codec.width);
      const r = rewards.get(m.name)!.subarray(0, N);
      const x2 = H > 1 ? flat(rc.x, m.inWidth).subarray(B * m.inWidth) : x;
      const base2 = rc.base[0] ? (H > 1 ? flat(rc.base, m.cont.length).subarray(B * m.cont.length) : flat(rc.base, m.cont.length)) : undefined;
      tr.set(m.name, { x, y, r, x2, base2 });
    }
    const M = Math.min(this.o.minibatch, N);
    let ql = 0;
    let al = 0;
    let an = 0;
    const params = venv.parameters();
    for (let u = 0; u < this.o.criticUpdates; u++) {
      const rows = Int32Array.from({ length: M }, () => Math.floor(this.rng.next() * N));
      for (const m of venv.models.values()) {
        const d = tr.get(m.name)!;
        const c = this.critics.get(m.name)!;
        const inW = m.inWidth + m.codec.width;
        const x2 = pick(d.x2, rows, m.inWidth);
        const base2 = d.base2 ? pick(d.base2, rows, m.cont.length) : undefined;
        const target = tidy(() =>
          noGrad(() => {
            // TD3: the next output comes from the target generator, smoothed by clipped noise
            const y2 = Float32Array.from(meanOutput(m, tensor(x2, [M, m.inWidth]), M, base2, c.gt).dataSync());
            for (let r = 0; r < M; r++) for (const off of m.cont) y2[r * m.codec.width + off] = y2[r * m.codec.width + off]! + Math.max(-2 * this.o.targetNoise, Math.min(2 * this.o.targetNoise, this.o.targetNoise * this.rng.normal()));
            const sa = tensor(hcat(x2, m.inWidth, y2, m.codec.width, M), [M, inW]);
            const q = minimum(c.t1.forward(sa), c.t2.forward(sa));
            const r = tensor(pick(d.r, rows, 1), [M, 1]);
            return Float32Array.from(add(r, affine(q, gamma, 0)).dataSync());
          }),
        );
        const sa = hcat(pick(d.x, rows, m.inWidth), m.inWidth, pick(d.y, rows, m.codec.width), m.codec.width, M);
        ql += optimiseStep(c.opt, [...c.q1.parameters(), ...c.q2.parameters()], () => {
          const s = tensor(sa, [M, inW]);
          const t = tensor(target, [M, 1]);
          return add(mean(square(sub(c.q1.forward(s), t))), mean(square(sub(c.q2.forward(s), t))));
        }, 10);
      }
      this.updates++;
      if (this.updates % this.o.policyDelay === 0) {
        const nll = this.nllLoss();
        const batch = [...venv.models.values()].map((m) => {
          const d = tr.get(m.name)!;
          const rc = rec.get(m.name)!;
          const base = rc.base[0] ? pick(flat(rc.base, m.cont.length), rows, m.cont.length) : undefined;
          return { m, x: pick(d.x, rows, m.inWidth), base };
        });
        al += optimiseStep(this.gopt, params, () => {
          let total: Tensor = affine(nll(), this.o.bcWeight, 0);
          for (const { m, x, base } of batch) {
            const c = this.critics.get(m.name)!;
            const xt = tensor(x, [M, m.inWidth]);
            const y = meanOutput(m, xt, M, base);
            // the critic's value is normalised by its mean magnitude (TD3+BC style)
            const q = c.q1.forward(concat([xt, y], 1));
            const scale = 1 / (noGrad(() => mean(clamp(square(q), 1e-6, 1e12)).dataSync()[0]!) ** 0.5 + 1e-6);
            total = sub(total, affine(mean(q), scale, 0));
          }
          return total;
        }, 0.5);
        an++;
        for (const [n, c] of this.critics) {
          softUpdate(c.t1, c.q1, this.o.tau);
          softUpdate(c.t2, c.q2, this.o.tau);
          softUpdate(c.gt, venv.models.get(n)!.net, this.o.tau);
        }
      }
    }
    return { 'loss/critic': ql / (this.o.criticUpdates * venv.models.size), 'loss/generator': an > 0 ? al / an : 0 };
  }

  /** revive-t: the target generator's weights, by node and parameter as {@link VirtualEnvironment.weights}; undefined for revive-p. */
  targetGenerator(): Record<string, Record<string, number[]>> | undefined {
    if (this.critics.size === 0) return undefined;
    return Object.fromEntries([...this.critics].map(([n, c]) => [n, named(c.gt)]));
  }

  /** Loads the best evaluated weights into the venv; returns their held-out score. */
  useBest(): number {
    if (this.best) this.venv!.loadWeights(this.best);
    return this.bestScore;
  }

  /**
   * The parameters being trained, by name: the generator's node networks, the discriminators
   * (`disc.`), the value nets of revive-p (`value.`) or the critics of revive-t (`critic.`).
   * Read-only use: the debug page's tensor summaries.
   */
  namedParameters(): Array<[string, Tensor]> {
    const out = this.venv?.namedParameters() ?? [];
    for (const [n, d] of this.disc) out.push(...d.net.namedParameters(`disc.${n}.`));
    for (const [n, v] of this.value) out.push(...v.net.namedParameters(`value.${n}.`));
    for (const [n, c] of this.critics) out.push(...c.q1.namedParameters(`critic.${n}.q1.`), ...c.q2.namedParameters(`critic.${n}.q2.`));
    return out;
  }

  checkpoint(): ReviveCheckpoint {
    const aux: Record<string, W> = {};
    for (const [n, v] of this.value) aux[n] = named(v.net);
    for (const [n, c] of this.critics) for (const k of ['q1', 'q2', 't1', 't2', 'gt'] as const) aux[`${n}/${k}`] = named(c[k]);
    const c: ReviveCheckpoint = {
      weights: this.venv!.weights(),
      disc: Object.fromEntries([...this.disc].map(([n, d]) => [n, named(d.net)])),
      aux,
      rngState: this.rng.state,
      bestScore: this.bestScore,
      sinceBest: this.sinceBest,
      initialScore: this.initialScore,
      initialMae: this.initialMae,
      updates: this.updates,
    };
    if (this.best) c.best = this.best;
    return c;
  }
}
