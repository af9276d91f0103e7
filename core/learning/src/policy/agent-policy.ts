/**
 * The policy of a decision graph's agent node(s), in the data set's encoded space.
 *
 * Each agent node gets one MLP head over the concatenation of its inputs' encoded values:
 * continuous fields are a diagonal Normal (mean and bounded log-std per column; actions are
 * clipped to the codec's [-1, 1] range when applied), discrete ordered and category fields
 * a Categorical over grid points / values. A joint action's log-probability is the sum over
 * fields and agent nodes. Used by PPO (stochastic), by SAC's discrete fallback and by the
 * exported {@link PolicyRunner}.
 */
import { Adam, Categorical, Generator, MLP, Normal, add, affine, exp, mul, narrow, noGrad, sum, tanh, tensor, tidy, type Tensor } from '@decisio/compute';
import type { NodeCodec } from '../data/codec';
import type { Dataset } from '../data/dataset';
import { splitDataset, type Rng } from '../data/split';

/** A discrete / category block of a node's encoded vector. */
export interface ActionBlock {
  offset: number;
  k: number;
  discrete: boolean;
}

/** Log-std range of continuous heads. */
const LOG_STD_MIN = -5;
const LOG_STD_MAX = 0.5;

/** Maps a tanh-bounded raw output to a log-std in [LOG_STD_MIN, LOG_STD_MAX]. */
export function boundedLogStd(raw: Tensor): Tensor {
  const h = (LOG_STD_MAX - LOG_STD_MIN) / 2;
  return affine(tanh(raw), h, LOG_STD_MIN + h);
}

/** Continuous offsets and discrete blocks of a codec. */
export function actionLayout(codec: NodeCodec): { cont: number[]; blocks: ActionBlock[] } {
  const cont: number[] = [];
  const blocks: ActionBlock[] = [];
  for (let j = 0; j < codec.dim; j++) {
    const f = codec.fields[j % codec.fields.length]!;
    const off = codec.offsets[j]!;
    if (f.dataType === 'continuous') cont.push(off);
    else blocks.push({ offset: off, k: f.dataType === 'category' ? f.width : Math.max(1, f.count), discrete: f.dataType === 'discrete' });
  }
  return { cont, blocks };
}

/** Class index of a block in an encoded row. */
export function blockClass(b: ActionBlock, enc: ArrayLike<number>, rowOff: number): number {
  if (b.discrete) return b.k <= 1 ? 0 : Math.min(b.k - 1, Math.max(0, Math.round(((enc[rowOff + b.offset]! + 1) / 2) * (b.k - 1))));
  let k = 0;
  for (let j = 1; j < b.k; j++) if (enc[rowOff + b.offset + j]! > enc[rowOff + b.offset + k]!) k = j;
  return k;
}

/** Writes class `k` of a block into an encoded row. */
export function writeClass(b: ActionBlock, enc: Float32Array, rowOff: number, k: number): void {
  if (b.discrete) enc[rowOff + b.offset] = b.k <= 1 ? 0 : (2 * k) / (b.k - 1) - 1;
  else for (let j = 0; j < b.k; j++) enc[rowOff + b.offset + j] = j === k ? 1 : 0;
}

/** Sampled (or modal) actions of one node: raw continuous values, classes and the encoded vector. */
export interface NodeAction {
  /** `[rows, C]` unclipped continuous samples (encoded units). */
  cont: Float32Array;
  /** `[rows, blocks]` class indices. */
  cls: Float32Array;
  /** `[rows, width]` encoded node value (continuous clipped to [-1, 1]). */
  enc: Float32Array;
}

/** One agent node's policy head. */
export class PolicyHead {
  readonly net: MLP;
  readonly cont: number[];
  readonly blocks: ActionBlock[];
  readonly inWidth: number;
  readonly outWidth: number;

  constructor(
    readonly name: string,
    readonly inputs: string[],
    readonly codec: NodeCodec,
    readonly inputWidths: number[],
    hidden: number[],
    generator: Generator,
  ) {
    const l = actionLayout(codec);
    this.cont = l.cont;
    this.blocks = l.blocks;
    this.inWidth = Math.max(1, inputWidths.reduce((a, b) => a + b, 0));
    this.outWidth = 2 * this.cont.length + this.blocks.reduce((s, b) => s + b.k, 0);
    this.net = new MLP([this.inWidth, ...hidden, this.outWidth], { activation: 'tanh', generator });
  }

  /** Log-probability `[B]` and entropy `[B]` of given actions (differentiable). */
  logProbEntropy(x: Tensor, cont: Float32Array, cls: Float32Array, rows: number): { logProb: Tensor; entropy: Tensor } {
    const out = this.net.forward(x);
    const C = this.cont.length;
    let lp: Tensor | undefined;
    let ent: Tensor | undefined;
    if (C > 0) {
      const d = new Normal(narrow(out, 1, 0, C), exp(boundedLogStd(narrow(out, 1, C, C))));
      lp = sum(d.logProb(tensor(cont, [rows, C])), 1);
      ent = sum(d.entropy(), 1);
    }
    let off = 2 * C;
    this.blocks.forEach((b, i) => {
      const idx = new Float32Array(rows);
      for (let r = 0; r < rows; r++) idx[r] = cls[r * this.blocks.length + i]!;
      const d = new Categorical(narrow(out, 1, off, b.k));
      const l = d.logProb(tensor(idx, [rows]));
      const e = d.entropy();
      lp = lp ? add(lp, l) : l;
      ent = ent ? add(ent, e) : e;
      off += b.k;
    });
    if (!lp || !ent) return { logProb: mul(sum(out, 1), tensor([0], [1])), entropy: mul(sum(out, 1), tensor([0], [1])) };
    return { logProb: lp, entropy: ent };
  }

  /** Splits logged encoded actions into continuous targets (clipped to [-1, 1]) and classes. */
  fromEncoded(enc: Float32Array, rows: number): { cont: Float32Array; cls: Float32Array } {
    const C = this.cont.length;
    const nb = this.blocks.length;
    const W = this.codec.width;
    const cont = new Float32Array(rows * C);
    const cls = new Float32Array(rows * nb);
    for (let r = 0; r < rows; r++) {
      for (let c = 0; c < C; c++) cont[r * C + c] = Math.max(-1, Math.min(1, enc[r * W + this.cont[c]!]!));
      for (let i = 0; i < nb; i++) cls[r * nb + i] = blockClass(this.blocks[i]!, enc, r * W);
    }
    return { cont, cls };
  }

  /** Acts from encoded inputs `[rows, inWidth]`: a sample or the mode. */
  act(x: Float32Array, rows: number, mode: 'mode' | 'sample', rng: Rng): NodeAction {
    return this.actFrom(tidy(() => noGrad(() => this.net.forward(tensor(x, [rows, this.inWidth])).dataSync())), rows, mode, rng);
  }

  /** Acts from the network's raw outputs `o` (`[rows, outWidth]`; e.g. of a frozen copy of `net`). */
  actFrom(o: Float32Array, rows: number, mode: 'mode' | 'sample', rng: Rng): NodeAction {
    const W = this.outWidth;
    const C = this.cont.length;
    const nb = this.blocks.length;
    const cont = new Float32Array(rows * C);
    const cls = new Float32Array(rows * nb);
    const enc = new Float32Array(rows * this.codec.width);
    const h = (LOG_STD_MAX - LOG_STD_MIN) / 2;
    for (let r = 0; r < rows; r++) {
      for (let c = 0; c < C; c++) {
        let v = o[r * W + c]!;
        if (mode === 'sample') v += Math.exp(h * Math.tanh(o[r * W + C + c]!) + LOG_STD_MIN + h) * rng.normal();
        cont[r * C + c] = v;
        enc[r * this.codec.width + this.cont[c]!] = Math.max(-1, Math.min(1, v));
      }
      let off = 2 * C;
      this.blocks.forEach((b, i) => {
        let k = 0;
        if (mode === 'mode') {
          for (let j = 1; j < b.k; j++) if (o[r * W + off + j]! > o[r * W + off + k]!) k = j;
        } else {
          let m = -Infinity;
          for (let j = 0; j < b.k; j++) m = Math.max(m, o[r * W + off + j]!);
          let z = 0;
          for (let j = 0; j < b.k; j++) z += Math.exp(o[r * W + off + j]! - m);
          let u = rng.next() * z;
          for (k = 0; k < b.k - 1; k++) {
            u -= Math.exp(o[r * W + off + k]! - m);
            if (u <= 0) break;
          }
        }
        cls[r * nb + i] = k;
        writeClass(b, enc, r * this.codec.width, k);
        off += b.k;
      });
    }
    return { cont, cls, enc };
  }
}

/** Concatenates encoded node values row by row. */
export function concatInputs(parts: Float32Array[], widths: number[], rows: number): Float32Array {
  const w = widths.reduce((s, p) => s + p, 0);
  const out = new Float32Array(rows * Math.max(1, w));
  for (let r = 0; r < rows; r++) {
    let o = r * w;
    parts.forEach((p, i) => {
      const pw = widths[i]!;
      out.set(p.subarray(r * pw, (r + 1) * pw), o);
      o += pw;
    });
  }
  return out;
}

/** The policy of every agent node of a graph (see the module comment). */
export class AgentPolicy {
  readonly heads = new Map<string, PolicyHead>();

  constructor(
    readonly codecs: Record<string, NodeCodec>,
    agents: Array<{ name: string; inputs: string[] }>,
    readonly hidden: number[],
    generator: Generator,
  ) {
    for (const a of agents) {
      const codec = codecs[a.name];
      if (!codec) throw new Error(`policy: no codec for agent node '${a.name}'`);
      this.heads.set(a.name, new PolicyHead(a.name, a.inputs, codec, a.inputs.map((i) => codecs[i]!.width), hidden, generator));
    }
  }

  /** The agent nodes of a data set's graph. */
  static forDataset(ds: Dataset, hidden: number[], generator: Generator): AgentPolicy {
    const s = ds.structure;
    return new AgentPolicy(
      ds.codecs,
      s.agents.map((a) => ({ name: a, inputs: s.nodes.get(a)!.inputs })),
      hidden,
      generator,
    );
  }

  /** Every trainable parameter. */
  parameters(): Tensor[] {
    return [...this.heads.values()].flatMap((h) => h.net.parameters());
  }

  /** Named parameters, prefixed by node name (`node/0.weight`). */
  namedParameters(): [string, Tensor][] {
    return [...this.heads.values()].flatMap((h) => h.net.namedParameters().map(([k, t]) => [`${h.name}/${k}`, t] as [string, Tensor]));
  }

  /** Weights as plain arrays (checkpoints). */
  weights(): Record<string, number[]> {
    return Object.fromEntries(this.namedParameters().map(([k, t]) => [k, Array.from(t.dataSync())]));
  }

  /** Loads {@link AgentPolicy.weights} or a map of float arrays. */
  loadWeights(w: Record<string, ArrayLike<number>> | Map<string, Float32Array>): void {
    const m = w instanceof Map ? w : new Map(Object.entries(w).map(([k, v]) => [k, Float32Array.from(v)]));
    for (const h of this.heads.values()) {
      const own: Record<string, Float32Array> = {};
      for (const [k] of h.net.namedParameters()) {
        const v = m.get(`${h.name}/${k}`);
        if (!v) throw new Error(`policy: missing weights '${h.name}/${k}'`);
        own[k] = v;
      }
      h.net.loadStateDict(own);
    }
  }

  /** Input of a head from encoded node values. */
  inputOf(head: PolicyHead, values: Record<string, Float32Array>, rows: number): Float32Array {
    return concatInputs(head.inputs.map((i) => {
      const v = values[i];
      if (!v) throw new Error(`policy: missing input '${i}' of agent '${head.name}'`);
      return v;
    }), head.inputWidths, rows);
  }
}

/** Options of {@link cloneBehaviour}. */
export interface CloneOptions {
  /** Most gradient updates (with `validation`, fewer when the held-out likelihood stops improving). */
  updates: number;
  batchSize: number;
  rng: Rng;
  /** One optimiser step on the given loss; returns the loss value. */
  step: (loss: () => Tensor) => number;
  /**
   * Held-out rows: every `evalEvery` updates the mean negative log-likelihood on them is
   * measured, the best weights are kept and restored at the end, and cloning stops after
   * `patience` measurements without improvement.
   */
  validation?: Dataset;
  evalEvery?: number;
  patience?: number;
  /** Log-likelihood `[rows]` of a head's logged encoded values (default: the head's own distribution; SAC passes its tanh-squashed one). */
  logProb?: HeadLogProb;
}

/** Log-likelihood `[rows]` of logged encoded values `enc` (`[rows, width]`) of head `h` given inputs `x`. */
export type HeadLogProb = (h: PolicyHead, x: Tensor, enc: Float32Array, rows: number) => Tensor;

const defaultLogProb: HeadLogProb = (h, x, enc, rows) => {
  const a = h.fromEncoded(enc, rows);
  return h.logProbEntropy(x, a.cont, a.cls, rows).logProb;
};

/** What {@link cloneBehaviour} did. */
export interface CloneResult {
  /** Last training batch's mean negative log-likelihood. */
  nll: number;
  /** Held-out mean negative log-likelihood of the kept weights (NaN without validation rows). */
  validationNll: number;
  /** Updates run. */
  updates: number;
}

/** Mean negative log-likelihood of a data set's logged decisions under the policy (no gradient). */
export function policyNll(policy: AgentPolicy, ds: Dataset, maxRows = 4096, logProb: HeadLogProb = defaultLogProb): number {
  const n = Math.min(ds.rows, maxRows);
  const rows = Int32Array.from({ length: n }, (_, i) => Math.floor((i * ds.rows) / n));
  const values: Record<string, Float32Array> = {};
  for (const h of policy.heads.values()) for (const name of [...h.inputs, h.name]) values[name] ??= ds.gather(name, rows);
  return tidy(() =>
    noGrad(() => {
      let total = 0;
      for (const h of policy.heads.values()) total += sum(logProb(h, tensor(policy.inputOf(h, values, n), [n, h.inWidth]), values[h.name]!, n)).dataSync()[0]!;
      return -total / n;
    }),
  );
}

/**
 * Behaviour cloning of the policy on logged decisions (maximum likelihood), the warm start of
 * policy training. With `validation` rows it runs until the held-out likelihood stops
 * improving (early stopping, best weights kept): a fixed small number of updates leaves the
 * clone far from the logged behaviour (measured on the pendulum task: 300 updates gave a
 * policy 2.4 times worse than the behaviour in the true simulator).
 */
export function cloneBehaviour(policy: AgentPolicy, ds: Dataset, opts: CloneOptions): CloneResult {
  let last = NaN;
  const B = Math.min(opts.batchSize, ds.rows);
  const rows = new Int32Array(B);
  const every = Math.max(1, opts.evalEvery ?? 100);
  const patience = opts.patience ?? 5;
  const logProb = opts.logProb ?? defaultLogProb;
  let best = opts.validation ? policyNll(policy, opts.validation, 4096, logProb) : NaN;
  let bestWeights = opts.validation ? policy.weights() : undefined;
  let since = 0;
  let u = 0;
  while (u < opts.updates) {
    for (let i = 0; i < B; i++) rows[i] = Math.floor(opts.rng.next() * ds.rows);
    const values: Record<string, Float32Array> = {};
    for (const h of policy.heads.values()) for (const n of [...h.inputs, h.name]) values[n] ??= ds.gather(n, rows);
    last = opts.step(() => {
      let total: Tensor | undefined;
      for (const h of policy.heads.values()) {
        const l = sum(logProb(h, tensor(policy.inputOf(h, values, B), [B, h.inWidth]), values[h.name]!, B));
        total = total ? add(total, l) : l;
      }
      return affine(total!, -1 / B, 0);
    });
    u++;
    if (opts.validation && (u % every === 0 || u === opts.updates)) {
      const v = policyNll(policy, opts.validation, 4096, logProb);
      if (v < best - 1e-4) {
        best = v;
        bestWeights = policy.weights();
        since = 0;
      } else if (++since >= patience) break;
    }
  }
  if (bestWeights) policy.loadWeights(bestWeights);
  return { nll: last, validationNll: best, updates: u };
}

/** Options of {@link warmStartPolicy}. */
export interface WarmStartOptions {
  /** Most updates. */
  updates: number;
  /** Adam learning rate. Default 3e-3. */
  lr?: number;
  batchSize?: number;
  rng: Rng;
  /** Seed of the held-out split. Default 0. */
  splitSeed?: number;
  logProb?: HeadLogProb;
}

/**
 * The policy trainers' warm start: behaviour cloning on the data set's logged decisions with
 * early stopping on held-out trajectories (10 %, or the end of a single trajectory); when the
 * data set is too small to split, all rows train for `updates` updates.
 */
export function warmStartPolicy(policy: AgentPolicy, ds: Dataset, o: WarmStartOptions): CloneResult {
  let train = ds;
  let validation: Dataset | undefined;
  try {
    const split = splitDataset(ds, { validationFraction: 0.1, seed: o.splitSeed ?? 0, minSteps: 8 });
    if (split.train.rows >= 16 && split.validation.rows >= 8) ({ train, validation } = split);
  } catch {
    // too small to hold rows out
  }
  const opt = new Adam(policy.parameters(), { lr: o.lr ?? 3e-3 });
  try {
    return cloneBehaviour(policy, train, {
      updates: o.updates,
      batchSize: o.batchSize ?? 256,
      rng: o.rng,
      ...(validation ? { validation } : {}),
      ...(o.logProb ? { logProb: o.logProb } : {}),
      step: (loss) =>
        tidy(() => {
          opt.zeroGrad();
          const l = loss();
          l.backward();
          opt.step();
          return l.dataSync()[0]!;
        }),
    });
  } finally {
    opt.dispose();
  }
}
