/**
 * SAC (soft actor-critic) trained inside a learned virtual environment, for agent nodes with
 * continuous fields: a tanh-squashed Normal policy in the codec's [-1, 1] space, twin Q
 * networks over (every data input of the step, the agents' actions) with Polyak-averaged
 * target networks, and automatic entropy tuning (target entropy `-action dim`). Each trainer
 * step rolls `batchSize` windows of `horizon` steps out in the venv from states sampled from
 * the data set into a replay buffer (bootstrapped at the window end, no terminal), then runs
 * `updatesPerStep` gradient updates. The actor is warm started by behaviour cloning. Discrete
 * and category agent fields are not supported (use PPO). The behaviour regulariser
 * (`bcCoef`, `bcUncertainty`, as PPO's) adds its term to the actor loss (as TD3+BC / BRAC do),
 * with the tanh-squashed likelihood of the logged actions.
 */
import { Adam, Generator, MLP, TanhNormal, abs, add, affine, concat, exp, hardUpdate, mean, minimum, mul, narrow, noGrad, parameter, reshape, softUpdate, square, sub, sum, tensor, tidy, type Tensor } from '@decisio/compute';
import type { Dataset } from '../data/dataset';
import { Rng } from '../data/split';
import type { StepContext, StepResult, Trainer } from '../trainer/contract';
import type { NodeFunctionCall, RolloutPolicy, VirtualEnvironment } from '../venv/bc';
import { inputsAfter } from '../venv/history';
import type { VenvEnsemble } from '../venv/ensemble';
import { AgentPolicy, boundedLogStd, concatInputs, warmStartPolicy, type CloneResult, type HeadLogProb, type PolicyHead } from './agent-policy';
import { BehaviourCoefficient, behaviourRegulariser, loggedNll, type BehaviourCoefficientState, type BehaviourRegulariserOptions } from './behaviour-regulariser';
import { optimiseStep, pick, rewardScaleOf } from './ppo';
import { defaultSelect, evaluateInVenv, rolloutPolicy, rolloutWindows, sampleWindowIndices, selectionReturn, type RewardCallback, type Windows } from './rollout';

/**
 * Options of {@link SacTrainer}. The behaviour regulariser (`bcCoef`, `bcUncertainty`: same
 * meaning, defaults and errors as PPO's) is added to the actor loss multiplied by the
 * minibatch's mean |Q| (not differentiated), as TD3+BC normalises it: the coefficient weighs
 * the likelihood of the logged actions against the critics' values whatever their scale.
 */
export interface SacOptions extends BehaviourRegulariserOptions {
  hidden?: number[];
  lr?: number;
  /**
   * Rollout window length, of the training and of the evaluations. Default 50, as PPO's: the
   * window every SAC table of the learning bench measured (the trainer said 20 while the bench,
   * the CLI and so every measured figure used 50).
   */
  horizon?: number;
  /** Parallel rollouts per trainer step. Default 32. */
  batchSize?: number;
  /** Gradient updates per trainer step. Default 50. */
  updatesPerStep?: number;
  /** Minibatch size. Default 256. */
  minibatch?: number;
  gamma?: number;
  /** Target network averaging. Default 0.005. */
  tau?: number;
  /** Replay capacity in transitions. Default 100000. */
  bufferSize?: number;
  /** Most behaviour-cloning updates of the warm start (early stopping on held-out rows). Default 5000. */
  bcUpdates?: number;
  /** Learning rate of the warm start. Default 3e-3. */
  bcLr?: number;
  evalEvery?: number;
  evalWindows?: number;
  systemMaxSteps?: number;
  patience?: number;
  nodeFunction?: NodeFunctionCall;
  /**
   * Uncertainty penalty (as PPO's): `weight` x the ensemble's disagreement on each rollout
   * step is subtracted from the (scaled) reward stored in the replay buffer.
   */
  uncertainty?: { ensemble: VenvEnsemble; weight: number };
  /** Venvs trained on the same data, against model exploitation (as PPO's `ensemble`). */
  ensemble?: VenvEnsemble;
  /** Roll out in the ensemble (a random member per row and step). Default true with an `ensemble`. */
  ensembleRollouts?: boolean;
  /**
   * Which venv return picks the best policy (as PPO's). Default `'mean'` with an `ensemble`
   * (the members' mean), else `'venv'`. PPO keeps `'worst'`: SAC's evaluations swing more from
   * one to the next, and on the bench (2026-11-27, fourth session; README "SAC for continuous
   * decisions") the worst member picked SAC policies far below the later ones, the mean did not.
   */
  select?: 'venv' | 'mean' | 'worst';
  /**
   * With an ensemble: a later evaluated policy whose members' returns fall short of the best
   * one's by less than `selectTolerance` standard errors of the paired differences (member by
   * member, the same windows) is kept instead of it: the venvs cannot tell the two apart, and
   * the later one has trained longer. 0 keeps the best evaluation. Default {@link SAC_SELECT_TOLERANCE}.
   * It tests the members' mean, so it applies with `select: 'mean'` only (the default with an
   * ensemble); `'worst'` and `'venv'` keep their best evaluation.
   */
  selectTolerance?: number;
}

/** Checkpoint of {@link SacTrainer} (the replay buffer is not kept). */
export interface SacCheckpoint extends BehaviourCoefficientState {
  policy: Record<string, number[]>;
  q1: Record<string, number[]>;
  q2: Record<string, number[]>;
  logAlpha: number;
  best?: Record<string, number[]>;
  bestReward: number;
  /** The members' returns of the best evaluation (with an ensemble). */
  bestMembers?: number[];
  /** The selection return of the policy kept in `best` (the best evaluation's, or a later one within `selectTolerance`). */
  keptReward?: number;
  sinceBest: number;
  rngState: number;
  rewardScale: number;
}

/** SAC's default `selectTolerance` (see {@link SacOptions.selectTolerance}). */
export const SAC_SELECT_TOLERANCE = 1;

/** SAC's parallel rollouts (windows) per trainer step when a training leaves them out. */
export const SAC_BATCH_SIZE = 32;

/**
 * Whether `members` (a later evaluation's member returns) fall short of `best` (the best
 * evaluation's, member by member) by less than `k` standard errors of the paired differences.
 */
export function withinTolerance(members: readonly number[], best: readonly number[], k: number): boolean {
  const m = members.length;
  if (k <= 0 || m < 2 || best.length !== m) return false;
  const d = members.map((v, i) => v - best[i]!);
  const mean = d.reduce((a, b) => a + b, 0) / m;
  const sd = Math.sqrt(d.reduce((a, b) => a + (b - mean) ** 2, 0) / (m - 1));
  return mean >= -k * (sd / Math.sqrt(m));
}

const EPS = 0.999;
const named = (m: MLP): Record<string, number[]> => Object.fromEntries(m.namedParameters().map(([k, t]) => [k, Array.from(t.dataSync())]));
const load = (m: MLP, w: Record<string, number[]>): void => m.loadStateDict(Object.fromEntries(Object.entries(w).map(([k, v]) => [k, Float32Array.from(v)])));

/** Mean and std tensors of a head's continuous columns. */
function headDist(h: PolicyHead, x: Tensor): TanhNormal {
  const out = h.net.forward(x);
  const C = h.cont.length;
  return new TanhNormal(narrow(out, 1, 0, C), exp(boundedLogStd(narrow(out, 1, C, C))));
}

/**
 * SAC's likelihood `[rows]` of logged actions: the head's tanh-squashed Normal at the logged
 * codec values, kept inside (-1, 1). The warm start clones with it and the behaviour
 * regulariser uses it.
 */
export const tanhLogProb: HeadLogProb = (h, x, enc, rows) => {
  const a = h.fromEncoded(enc, rows).cont.map((v) => Math.max(-EPS, Math.min(EPS, v)));
  return headDist(h, x).logProb(tensor(a, [rows, h.cont.length]));
};

/** SAC in a virtual environment (see the module comment). */
export class SacTrainer implements Trainer<SacCheckpoint> {
  readonly kind = 'policy.sac';
  readonly systemMaxSteps: number;
  policy!: AgentPolicy;
  initialReward = NaN;
  /** What the behaviour-cloning warm start did (set by `init`). */
  warmStart: CloneResult | undefined;
  readonly dataset: Dataset;
  private q1!: MLP;
  private q2!: MLP;
  private t1!: MLP;
  private t2!: MLP;
  private logAlpha!: Tensor;
  private popt!: Adam;
  private qopt!: Adam;
  private aopt!: Adam;
  private rng = new Rng(0);
  private gen = new Generator(0);
  private windows!: Windows;
  private stateInputs: string[] = [];
  private sWidth = 0;
  private aWidth = 0;
  private rewardScale = 1;
  private bestReward = -Infinity;
  private bestMembers: number[] = [];
  private keptReward = -Infinity;
  private sinceBest = 0;
  /** The weights {@link SacTrainer.useBest} loads: of the best evaluation, or of a later one the venvs cannot tell from it. */
  private best: Record<string, number[]> | undefined;
  // replay buffer (ring)
  private buf = { s: new Float32Array(0), a: new Float32Array(0), r: new Float32Array(0), s2: new Float32Array(0), x: new Map<string, Float32Array>(), x2: new Map<string, Float32Array>() };
  private size = 0;
  private head = 0;
  /** The members' venv returns at the last evaluation (with an `ensemble` and `select` other than `'venv'`). */
  lastMemberReturns: number[] = [];
  private readonly o: Required<Omit<SacOptions, 'nodeFunction' | 'uncertainty' | 'ensemble'>>;
  /** The behaviour regulariser's coefficient over the run. */
  readonly bc: BehaviourCoefficient;

  constructor(
    readonly venv: VirtualEnvironment,
    readonly reward: RewardCallback,
    private readonly options: SacOptions = {},
    dataset?: Dataset,
  ) {
    this.dataset = dataset ?? venv.dataset;
    this.o = {
      hidden: options.hidden ?? [64, 64],
      lr: options.lr ?? 1e-3,
      horizon: options.horizon ?? 50,
      batchSize: options.batchSize ?? SAC_BATCH_SIZE,
      updatesPerStep: options.updatesPerStep ?? 50,
      minibatch: options.minibatch ?? 256,
      gamma: options.gamma ?? 0.99,
      tau: options.tau ?? 0.005,
      bufferSize: options.bufferSize ?? 100_000,
      bcUpdates: options.bcUpdates ?? 5000,
      bcLr: options.bcLr ?? 3e-3,
      evalEvery: options.evalEvery ?? 5,
      evalWindows: options.evalWindows ?? 128,
      systemMaxSteps: options.systemMaxSteps ?? 100,
      patience: options.patience ?? 10,
      ensembleRollouts: options.ensembleRollouts ?? options.ensemble !== undefined,
      select: options.select ?? defaultSelect('sac', options.ensemble !== undefined),
      selectTolerance: options.selectTolerance ?? SAC_SELECT_TOLERANCE,
      ...behaviourRegulariser('sac', options),
    };
    if ((this.o.ensembleRollouts || this.o.select !== 'venv') && !options.ensemble) throw new Error('sac: ensembleRollouts and select need an ensemble');
    this.systemMaxSteps = this.o.systemMaxSteps;
    this.bc = new BehaviourCoefficient(this.o);
  }

  private get heads(): PolicyHead[] {
    return [...this.policy.heads.values()];
  }

  async init({ seed, checkpoint }: { seed: number; checkpoint?: SacCheckpoint }): Promise<void> {
    const ds = this.dataset;
    this.gen = new Generator(seed);
    this.policy = AgentPolicy.forDataset(ds, this.o.hidden, this.gen);
    for (const h of this.heads) if (h.blocks.length > 0) throw new Error(`policy: SAC needs continuous agent fields; '${h.name}' has discrete or category fields (use PPO)`);
    this.stateInputs = ds.structure.inputs.filter((i) => ds.codecs[i]);
    this.sWidth = this.stateInputs.reduce((s, i) => s + ds.codecs[i]!.width, 0);
    this.aWidth = this.heads.reduce((s, h) => s + h.cont.length, 0);
    const mk = () => new MLP([this.sWidth + this.aWidth, ...this.o.hidden, 1], { activation: 'relu', generator: this.gen });
    this.q1 = mk();
    this.q2 = mk();
    this.t1 = mk();
    this.t2 = mk();
    hardUpdate(this.t1, this.q1);
    hardUpdate(this.t2, this.q2);
    this.logAlpha = parameter(tensor([Math.log(0.1)], [1]), 'logAlpha');
    this.popt = new Adam(this.policy.parameters(), { lr: this.o.lr });
    this.qopt = new Adam([...this.q1.parameters(), ...this.q2.parameters()], { lr: this.o.lr });
    this.aopt = new Adam([this.logAlpha], { lr: this.o.lr });
    this.rng = new Rng(seed + 29);
    this.windows = rolloutWindows(ds, this.o.horizon);
    const n = this.o.bufferSize;
    this.buf = { s: new Float32Array(n * this.sWidth), a: new Float32Array(n * this.aWidth), r: new Float32Array(n), s2: new Float32Array(n * this.sWidth), x: new Map(), x2: new Map() };
    for (const h of this.heads) {
      this.buf.x.set(h.name, new Float32Array(n * h.inWidth));
      this.buf.x2.set(h.name, new Float32Array(n * h.inWidth));
    }
    if (checkpoint) {
      this.policy.loadWeights(checkpoint.policy);
      load(this.q1, checkpoint.q1);
      load(this.q2, checkpoint.q2);
      hardUpdate(this.t1, this.q1);
      hardUpdate(this.t2, this.q2);
      this.logAlpha.backend.write(this.logAlpha.buffer, Float32Array.from([checkpoint.logAlpha]));
      this.best = checkpoint.best;
      this.bestReward = checkpoint.bestReward;
      this.bestMembers = checkpoint.bestMembers ?? [];
      this.keptReward = checkpoint.keptReward ?? checkpoint.bestReward;
      this.sinceBest = checkpoint.sinceBest;
      this.rng.state = checkpoint.rngState;
      this.rewardScale = checkpoint.rewardScale;
      this.bc.restore(checkpoint);
      return;
    }
    this.rewardScale = await rewardScaleOf(ds, this.reward, new Rng(seed + 3));
    if (this.o.bcUpdates > 0) this.warmStart = warmStartPolicy(this.policy, ds, { updates: this.o.bcUpdates, lr: this.o.bcLr, rng: this.rng, splitSeed: seed, logProb: tanhLogProb });
    this.initialReward = await this.evaluate();
    this.bestReward = this.initialReward;
    this.bestMembers = this.lastMemberReturns;
    this.keptReward = this.initialReward;
    this.best = this.policy.weights();
  }

  /** Deterministic tanh(mean) rollout policy. */
  private deterministic(): RolloutPolicy {
    return (node, inputs, rows) => {
      const h = this.policy.heads.get(node)!;
      const a = h.act(this.policy.inputOf(h, inputs, rows), rows, 'mode', this.rng);
      for (let r = 0; r < rows; r++) for (let c = 0; c < h.cont.length; c++) a.enc[r * h.codec.width + h.cont[c]!] = Math.tanh(a.cont[r * h.cont.length + c]!);
      return a.enc;
    };
  }

  /** Venv return of the deterministic policy on fixed windows (with an ensemble: the members' mean or worst, `select`). */
  async evaluate(): Promise<number> {
    const r = await selectionReturn(this.venv, this.options.ensemble, this.o.select, (venv) =>
      evaluateInVenv(venv, this.dataset, this.deterministic(), this.reward, { horizon: this.o.horizon, windows: this.o.evalWindows, seed: 12345, nodeFunction: this.options.nodeFunction }),
    );
    this.lastMemberReturns = r.members;
    this.bc.evaluated(r.members, this.rewardScale, this.windows.horizon);
    return r.value;
  }

  async step(ctx: StepContext): Promise<StepResult> {
    const ds = this.dataset;
    const B = this.o.batchSize;
    const H = this.windows.horizon;
    const idx = sampleWindowIndices(this.windows, B, this.rng);
    const starts = Int32Array.from(idx, (i) => this.windows.starts[i]!);
    const heads = this.heads;
    const recorded: Array<Map<string, { x: Float32Array; a: Float32Array }>> = [];
    let calls = 0;
    const act: RolloutPolicy = (node, inputs, rows) => {
      const t = Math.floor(calls++ / heads.length);
      if (!recorded[t]) recorded.push(new Map());
      const h = this.policy.heads.get(node)!;
      const x = this.policy.inputOf(h, inputs, rows);
      const s = h.act(x, rows, 'sample', this.rng);
      const C = h.cont.length;
      const a = new Float32Array(rows * C);
      for (let r = 0; r < rows; r++)
        for (let c = 0; c < C; c++) {
          a[r * C + c] = Math.tanh(s.cont[r * C + c]!);
          s.enc[r * h.codec.width + h.cont[c]!] = a[r * C + c]!;
        }
      recorded[t]!.set(node, { x, a });
      return s.enc;
    };
    const sampler = this.options.ensemble && this.o.ensembleRollouts ? this.options.ensemble.randomMemberSampler(this.rng, 'sample') : undefined;
    const roll = await rolloutPolicy(this.venv, ds, starts, H, act, this.reward, { rng: this.rng, nodeFunction: this.options.nodeFunction, mode: 'sample', sampler });
    const sOf = (values: Record<string, Float32Array>) => concatInputs(this.stateInputs.map((i) => values[i]!), this.stateInputs.map((i) => ds.codecs[i]!.width), B);
    // bootstrap state after the window
    const last = roll.steps[H - 1]!;
    const nextRows = Int32Array.from(idx, (i) => Math.min(this.windows.starts[i]! + H, this.windows.ends[i]! - 1));
    const boot = inputsAfter(ds, last, this.stateInputs, nextRows);
    const bootX = new Map(heads.map((h) => [h.name, this.policy.inputOf(h, { ...last, ...boot }, B)]));
    let rawReturn = 0;
    let penalty = 0;
    let stored = 0;
    const unc = this.options.uncertainty;
    for (let t = 0; t < H; t++) {
      const u = unc && unc.weight > 0 ? await unc.ensemble.disagreement(roll.steps[t]!, B) : undefined;
      const s = sOf(roll.steps[t]!);
      const s2 = t + 1 < H ? sOf(roll.steps[t + 1]!) : sOf(boot);
      for (let b = 0; b < B; b++) {
        const i = this.head;
        this.buf.s.set(s.subarray(b * this.sWidth, (b + 1) * this.sWidth), i * this.sWidth);
        this.buf.s2.set(s2.subarray(b * this.sWidth, (b + 1) * this.sWidth), i * this.sWidth);
        let off = 0;
        for (const h of heads) {
          const C = h.cont.length;
          const rec = recorded[t]!.get(h.name)!;
          this.buf.a.set(rec.a.subarray(b * C, (b + 1) * C), i * this.aWidth + off);
          off += C;
          this.buf.x.get(h.name)!.set(rec.x.subarray(b * h.inWidth, (b + 1) * h.inWidth), i * h.inWidth);
          const nx = t + 1 < H ? recorded[t + 1]!.get(h.name)!.x : bootX.get(h.name)!;
          this.buf.x2.get(h.name)!.set(nx.subarray(b * h.inWidth, (b + 1) * h.inWidth), i * h.inWidth);
        }
        this.buf.r[i] = roll.rewards[t]![b]! * this.rewardScale - (u ? unc!.weight * u[b]! : 0);
        if (u) penalty += u[b]!;
        stored += this.buf.r[i]!;
        rawReturn += roll.rewards[t]![b]!;
        this.head = (this.head + 1) % this.o.bufferSize;
        this.size = Math.min(this.size + 1, this.o.bufferSize);
      }
    }
    const M = Math.min(this.o.minibatch, this.size);
    let ql = 0;
    let pl = 0;
    let alpha = 0;
    const qparams = [...this.q1.parameters(), ...this.q2.parameters()];
    const pparams = this.policy.parameters();
    const targetEntropy = -this.aWidth;
    const bcRows = new Int32Array(M);
    let bcl = 0;
    for (let u = 0; u < this.o.updatesPerStep; u++) {
      const rows = Int32Array.from({ length: M }, () => Math.floor(this.rng.next() * this.size));
      const s = tensor(pick(this.buf.s, rows, this.sWidth), [M, this.sWidth]);
      const s2 = tensor(pick(this.buf.s2, rows, this.sWidth), [M, this.sWidth]);
      const a = tensor(pick(this.buf.a, rows, this.aWidth), [M, this.aWidth]);
      const r = tensor(pick(this.buf.r, rows, 1), [M, 1]);
      const x = new Map(heads.map((h) => [h.name, tensor(pick(this.buf.x.get(h.name)!, rows, h.inWidth), [M, h.inWidth])]));
      const x2 = new Map(heads.map((h) => [h.name, tensor(pick(this.buf.x2.get(h.name)!, rows, h.inWidth), [M, h.inWidth])]));
      const al = Math.exp(this.logAlpha.dataSync()[0]!);
      alpha = al;
      const sampleAll = (xs: Map<string, Tensor>) => {
        const acts: Tensor[] = [];
        let lp: Tensor | undefined;
        for (const h of heads) {
          const smp = headDist(h, xs.get(h.name)!).rsample(this.gen);
          acts.push(smp.action);
          lp = lp ? add(lp, smp.logProb) : smp.logProb;
        }
        return { a: acts.length === 1 ? acts[0]! : concat(acts, 1), logProb: lp! };
      };
      const target = tidy(() =>
        noGrad(() => {
          const n = sampleAll(x2);
          const sa = concat([s2, n.a], 1);
          const q = minimum(this.t1.forward(sa), this.t2.forward(sa));
          const v = sub(q, affine(reshape(n.logProb, [M, 1]), al, 0));
          return add(r, affine(v, this.o.gamma, 0));
        }),
      );
      ql += optimiseStep(this.qopt, qparams, () => {
        const sa = concat([s, a], 1);
        return add(mean(square(sub(this.q1.forward(sa), target))), mean(square(sub(this.q2.forward(sa), target))));
      });
      let lpMean = 0;
      if (this.bc.now > 0) for (let i = 0; i < M; i++) bcRows[i] = Math.floor(this.rng.next() * ds.rows);
      pl += optimiseStep(this.popt, pparams, () => {
        const n = sampleAll(x);
        const sa = concat([s, n.a], 1);
        const q = minimum(this.q1.forward(sa), this.q2.forward(sa));
        const lpm = mean(n.logProb);
        lpMean = lpm.dataSync()[0]!;
        const loss = sub(affine(lpm, al, 0), mean(q));
        if (this.bc.now === 0) return loss;
        // TD3+BC's normalisation: the term weighs against the critics' scale
        const qScale = mean(abs(q)).dataSync()[0]!;
        const nll = loggedNll(this.policy, ds, bcRows, tanhLogProb);
        bcl += nll.dataSync()[0]!;
        return add(loss, affine(nll, this.bc.now * qScale, 0));
      });
      optimiseStep(this.aopt, [this.logAlpha], () => mul(this.logAlpha, tensor([-(lpMean + targetEntropy)], [1])));
      softUpdate(this.t1, this.q1, this.o.tau);
      softUpdate(this.t2, this.q2, this.o.tau);
      for (const t of [s, s2, a, r, target, ...x.values(), ...x2.values()]) t.dispose();
    }
    const n = this.o.updatesPerStep || 1;
    const metrics: Record<string, number> = { 'train/return': rawReturn / B, 'loss/q': ql / n, 'loss/policy': pl / n, alpha, buffer: this.size, samples: H * B };
    // what the critics learn from: scaled rewards minus the penalty, as stored in the buffer
    metrics['train/stored-return'] = stored / B;
    if (unc && unc.weight > 0) metrics['uncertainty'] = penalty / (H * B);
    if (this.bc.now > 0) metrics['loss/bc'] = bcl / n;
    this.bc.report(metrics);
    const result: StepResult = { metrics };
    if ((ctx.step + 1) % this.o.evalEvery === 0 || ctx.step + 1 >= this.systemMaxSteps) {
      const rv = await this.evaluate();
      metrics['eval/return'] = rv;
      if (this.lastMemberReturns.length > 0) {
        metrics['eval/return-worst'] = Math.min(...this.lastMemberReturns);
        metrics['eval/return-mean'] = this.lastMemberReturns.reduce((a, b) => a + b, 0) / this.lastMemberReturns.length;
      }
      result.reward = rv;
      if (rv > this.bestReward + 1e-6) {
        this.bestReward = rv;
        this.bestMembers = this.lastMemberReturns;
        this.keptReward = rv;
        this.sinceBest = 0;
        this.best = this.policy.weights();
      } else {
        // the tolerance is a test on the members' mean, so it only applies to the mean's selection
        if (this.o.select === 'mean' && withinTolerance(this.lastMemberReturns, this.bestMembers, this.o.selectTolerance)) {
          this.keptReward = rv;
          this.best = this.policy.weights();
        }
        if (++this.sinceBest >= this.o.patience) result.converged = true;
      }
    }
    return result;
  }

  /** Loads the kept weights (see `selectTolerance`) into {@link SacTrainer.policy}; returns their venv return. */
  useBest(): number {
    if (this.best) this.policy.loadWeights(this.best);
    return this.keptReward;
  }

  /** The parameters being trained, by name: the policy heads, both critics and the temperature (read-only use: the debug page's tensor summaries). */
  namedParameters(): Array<[string, Tensor]> {
    if (!this.policy) return [];
    return [...[...this.policy.heads.values()].flatMap((h) => h.net.namedParameters(`policy.${h.name}.`)), ...this.q1.namedParameters('q1.'), ...this.q2.namedParameters('q2.'), ['logAlpha', this.logAlpha]];
  }

  checkpoint(): SacCheckpoint {
    const c: SacCheckpoint = {
      policy: this.policy.weights(),
      q1: named(this.q1),
      q2: named(this.q2),
      logAlpha: this.logAlpha.dataSync()[0]!,
      bestReward: this.bestReward,
      bestMembers: this.bestMembers,
      keptReward: this.keptReward,
      sinceBest: this.sinceBest,
      rngState: this.rng.state,
      rewardScale: this.rewardScale,
    };
    if (this.best) c.best = this.best;
    this.bc.save(c);
    return c;
  }
}
