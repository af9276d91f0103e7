/**
 * Behaviour cloning of a virtual environment (REVIVE's "BC" venv algorithm).
 *
 * Every learnable node of the decision graph (agents and environment nodes without a
 * function) becomes a conditional distribution given its inputs, an MLP trained by maximum
 * likelihood on the data's transitions (teacher forcing):
 * - continuous fields: a diagonal Normal in the scaled space (log-std bounded to [-5, 2]);
 *   `next_X` nodes predict the change from `X` (residual), which is what dynamics learn best;
 * - discrete ordered and category fields: a Categorical over the grid points / values.
 *
 * Rollouts run the graph in topological order step after step: states come from the previous
 * step's `next_X`, external factors and tunable parameters from the data. Held-out rollout
 * errors give the spec's environment step score per node and overall.
 *
 * Only the public API of `@decisio/compute` is used.
 */
import {
  Adam,
  Categorical,
  Generator,
  MLP,
  Normal,
  affine,
  add,
  exp,
  mul,
  narrow,
  neg,
  sum,
  tanh,
  tensor,
  tidy,
  type Tensor,
} from '@decisio/compute';
import { HYPERPARAMETER_DEFAULTS, type DecisionGraph } from '@decisio/domain';
import { decodeRows, encodeRows, type NodeCodec } from '../data/codec';
import type { Dataset } from '../data/dataset';
import { Rng, sampleRows, splitDataset, type DatasetSplit } from '../data/split';
import { LearningError } from '../errors';
import { ErrorAccumulator, type ScoreReport } from '../metrics/score';
import type { StepContext, StepResult, Trainer } from '../trainer/contract';
import type { BatchArray } from '../sandbox/python-sandbox';
import { historyPlan, nextHistory, shiftFrames } from './history';

/**
 * The venv trainers' defaults: `HYPERPARAMETER_DEFAULTS.environment` of `@decisio/domain`, the one
 * set the server's environment trainings, the `learn` CLI and the learning bench use (the bench's
 * tables measured it).
 */
export const VENV_DEFAULTS = HYPERPARAMETER_DEFAULTS.environment;

/**
 * Trainer steps between held-out evaluations of a venv training of `steps` steps (unset: as many
 * as the system decides): the defaults' cadence ({@link VENV_DEFAULTS} `evalEvery`, or
 * `adversarialEvalEvery` for revive-p / revive-t's adversarial steps), at most half the steps so
 * that a short training is still evaluated twice. The server's environment job and the `learn`
 * CLI both use it.
 */
export function venvEvalEvery(steps: number | undefined, adversarial = false): number {
  const cadence = adversarial ? VENV_DEFAULTS.adversarialEvalEvery : VENV_DEFAULTS.evalEvery;
  return steps ? Math.max(1, Math.min(cadence, Math.floor(steps / 2))) : cadence;
}

/** Options of the BC venv trainer. */
export interface BcOptions {
  /** Hidden layer sizes. Default `[128, 128]` ({@link VENV_DEFAULTS}, as every other default here). */
  hidden?: number[];
  activation?: 'relu' | 'silu' | 'tanh' | 'leaky-relu';
  /** Adam learning rate. Default 2e-3. */
  lr?: number;
  /** Rows per update. Default 256. */
  batchSize?: number;
  /** Gradient steps per trainer step. Default 25. */
  updatesPerStep?: number;
  /** Evaluate on held-out trajectories every this many trainer steps. Default 10. */
  evalEvery?: number;
  /** Rollout length of the evaluation. Default 10 (shorter when trajectories are shorter). */
  horizon?: number;
  /** Most rollout windows per evaluation. Default 256. */
  evalWindows?: number;
  validationFraction?: number;
  /** Trainer steps when the system decides. Default 120. */
  systemMaxSteps?: number;
  /** Stop ("converged") after this many evaluations without improvement. Default 5. */
  patience?: number;
  /** Predict `next_X` as `X` plus a change (default true). */
  residual?: boolean;
  /** Computes function nodes during rollouts (user Python); absent: built-ins only, others read from data. */
  nodeFunction?: NodeFunctionCall;
  /** Seed of the train / validation split (default: the run's seed); ensemble members share one split. */
  splitSeed?: number;
  /**
   * Train on a bootstrap resample of the training trajectories (drawn with replacement from the
   * run's seed), so that ensemble members see different data as well as different starts. Default false.
   */
  bootstrap?: boolean;
}

/** Decides an agent node from its encoded inputs; returns `[rows, width]` encoded. */
export type RolloutPolicy = (node: string, inputs: Record<string, Float32Array>, rows: number) => Promise<Float32Array> | Float32Array;

/**
 * The values of one rollout step in original units, as `reward.py` receives them: every node
 * (including `next_` nodes) as a `[rows, dim]` batch.
 */
export function decodeStep(ds: Dataset, step: Record<string, Float32Array>): Record<string, BatchArray> {
  const out: Record<string, BatchArray> = {};
  for (const [name, enc] of Object.entries(step)) {
    const codec = ds.codecs[name];
    if (!codec) continue;
    const rows = enc.length / codec.width;
    out[name] = { data: decodeRows(codec, enc, rows), shape: [rows, codec.dim] };
  }
  return out;
}

/** Calls a node function on a batch in original units; returns `[rows, dim]` original units. */
export type NodeFunctionCall = (node: string, inputs: Record<string, BatchArray>, rows: number) => Promise<Float32Array>;

interface Block {
  offset: number;
  k: number;
  discrete: boolean;
  fit: boolean;
}

/**
 * Bound of every continuous node output in the codec's normalised space (REVIVE's
 * `revive/computation/graph.py` clamps node outputs to [-1, 1] before de-normalising).
 */
export const OUTPUT_BOUND = 1;

/**
 * Clamps encoded values to [-{@link OUTPUT_BOUND}, {@link OUTPUT_BOUND}] in place (REVIVE's graph
 * clamps every node's output, function nodes included; one-hot and grid columns are already
 * inside).
 */
export function bounded(enc: Float32Array): Float32Array {
  for (let i = 0; i < enc.length; i++) enc[i] = Math.max(-OUTPUT_BOUND, Math.min(OUTPUT_BOUND, enc[i]!));
  return enc;
}

/** One learned node: its network and how its output maps onto the node's encoded vector. */
export class NodeModel {
  readonly net: MLP;
  /** Encoded offsets of continuous columns. */
  readonly cont: number[] = [];
  readonly blocks: Block[] = [];
  readonly fitCont: Float32Array;
  readonly inWidth: number;
  readonly outWidth: number;

  constructor(
    readonly name: string,
    readonly inputs: string[],
    readonly codec: NodeCodec,
    inputWidths: number[],
    hidden: number[],
    activation: BcOptions['activation'],
    generator: Generator,
    /** State whose value the continuous outputs are added to (residual `next_X`). */
    readonly residualOf?: string,
  ) {
    const fields = codec.fields;
    const fit: number[] = [];
    for (let j = 0; j < codec.dim; j++) {
      const f = fields[j % fields.length]!;
      const off = codec.offsets[j]!;
      const isFit = codec.fitMask[off] === 1;
      if (f.dataType === 'continuous') {
        this.cont.push(off);
        fit.push(isFit ? 1 : 0);
      } else this.blocks.push({ offset: off, k: f.dataType === 'category' ? f.width : Math.max(1, f.count), discrete: f.dataType === 'discrete', fit: isFit });
    }
    this.fitCont = Float32Array.from(fit);
    this.inWidth = Math.max(1, inputWidths.reduce((a, b) => a + b, 0));
    this.outWidth = 2 * this.cont.length + this.blocks.reduce((s, b) => s + b.k, 0);
    this.net = new MLP([this.inWidth, ...hidden, this.outWidth], { activation: activation ?? 'relu', generator });
  }

  /** Negative log-likelihood (mean over rows) of encoded targets. `base`: residual base `[B, C]`. */
  nll(x: Tensor, target: Float32Array, rows: number, base?: Float32Array): Tensor {
    const out = this.net.forward(x);
    const C = this.cont.length;
    let total: Tensor | undefined;
    if (C > 0) {
      const t = new Float32Array(rows * C);
      for (let r = 0; r < rows; r++) for (let c = 0; c < C; c++) t[r * C + c] = target[r * this.codec.width + this.cont[c]!]! - (base ? base[r * C + c]! : 0);
      const mu = narrow(out, 1, 0, C);
      const logStd = affine(tanh(narrow(out, 1, C, C)), 3.5, -1.5);
      const lp = new Normal(mu, exp(logStd)).logProb(tensor(t, [rows, C]));
      total = sum(mul(lp, tensor(this.fitCont, [C])));
    }
    let off = 2 * C;
    for (const b of this.blocks) {
      if (b.fit) {
        const idx = new Float32Array(rows);
        for (let r = 0; r < rows; r++) idx[r] = classOf(b, target, r * this.codec.width);
        const lp = sum(new Categorical(narrow(out, 1, off, b.k)).logProb(tensor(idx, [rows])));
        total = total ? add(total, lp) : lp;
      }
      off += b.k;
    }
    if (!total) return tensor([0], [1]);
    return affine(total, -1 / rows, 0);
  }

  /**
   * Log-likelihood per row `[rows]` of encoded targets (fields with `fit: false` left out),
   * differentiable; the generator objective of the adversarial venv trainers.
   */
  logProbRows(x: Tensor, target: Float32Array, rows: number, base?: Float32Array): Tensor {
    const out = this.net.forward(x);
    const C = this.cont.length;
    let total: Tensor | undefined;
    if (C > 0) {
      const t = new Float32Array(rows * C);
      for (let r = 0; r < rows; r++) for (let c = 0; c < C; c++) t[r * C + c] = target[r * this.codec.width + this.cont[c]!]! - (base ? base[r * C + c]! : 0);
      const mu = narrow(out, 1, 0, C);
      const logStd = affine(tanh(narrow(out, 1, C, C)), 3.5, -1.5);
      const lp = new Normal(mu, exp(logStd)).logProb(tensor(t, [rows, C]));
      total = sum(mul(lp, tensor(this.fitCont, [C])), 1);
    }
    let off = 2 * C;
    for (const b of this.blocks) {
      if (b.fit) {
        const idx = new Float32Array(rows);
        for (let r = 0; r < rows; r++) idx[r] = classOf(b, target, r * this.codec.width);
        const lp = new Categorical(narrow(out, 1, off, b.k)).logProb(tensor(idx, [rows]));
        total = total ? add(total, lp) : lp;
      }
      off += b.k;
    }
    return total ?? mul(sum(out, 1), tensor([0], [1]));
  }

  /**
   * Predicts encoded values `[rows, width]` from encoded inputs: the mode (mean / most likely
   * class) or a sample. Continuous outputs (after the residual base is added) are clamped to
   * [-1, 1] of the codec's space, i.e. to the field's [min, max] (the YAML's, else the data's)
   * once decoded, as REVIVE's graph does before it de-normalises a node's output: a reward
   * never sees a state the data's range does not hold (e.g. a cosine above 1).
   */
  async predict(x: Float32Array, rows: number, mode: 'mode' | 'sample', rng: Rng, base?: Float32Array): Promise<Float32Array> {
    const out = tidy(() => this.net.forward(tensor(x, [rows, this.inWidth])));
    const o = await out.data();
    out.dispose();
    const W = this.outWidth;
    const C = this.cont.length;
    const enc = new Float32Array(rows * this.codec.width);
    for (let r = 0; r < rows; r++) {
      for (let c = 0; c < C; c++) {
        let v = o[r * W + c]!;
        if (mode === 'sample') v += Math.exp(3.5 * Math.tanh(o[r * W + C + c]!) - 1.5) * rng.normal();
        if (base) v += base[r * C + c]!;
        enc[r * this.codec.width + this.cont[c]!] = Math.max(-OUTPUT_BOUND, Math.min(OUTPUT_BOUND, v));
      }
      let off = 2 * C;
      for (const b of this.blocks) {
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
        const at = r * this.codec.width + b.offset;
        if (b.discrete) enc[at] = b.k <= 1 ? 0 : (2 * k) / (b.k - 1) - 1;
        else for (let j = 0; j < b.k; j++) enc[at + j] = j === k ? 1 : 0;
        off += b.k;
      }
    }
    return enc;
  }
}

function classOf(b: Block, enc: ArrayLike<number>, rowOff: number): number {
  if (b.discrete) return b.k <= 1 ? 0 : Math.min(b.k - 1, Math.max(0, Math.round(((enc[rowOff + b.offset]! + 1) / 2) * (b.k - 1))));
  let k = 0;
  for (let j = 1; j < b.k; j++) if (enc[rowOff + b.offset + j]! > enc[rowOff + b.offset + k]!) k = j;
  return k;
}

/** Concatenates encoded inputs row by row. */
function concatRows(parts: Array<{ data: Float32Array; width: number }>, rows: number): Float32Array {
  const w = parts.reduce((s, p) => s + p.width, 0);
  const out = new Float32Array(rows * Math.max(1, w));
  for (let r = 0; r < rows; r++) {
    let o = r * w;
    for (const p of parts) {
      out.set(p.data.subarray(r * p.width, (r + 1) * p.width), o);
      o += p.width;
    }
  }
  return out;
}

/** A learned virtual environment: one model per learnable node, over a data set's codecs. */
export class VirtualEnvironment {
  readonly models = new Map<string, NodeModel>();

  constructor(
    readonly dataset: Dataset,
    options: Pick<BcOptions, 'hidden' | 'activation' | 'residual'>,
    generator: Generator,
  ) {
    const s = dataset.structure;
    for (const name of s.learnable) {
      const spec = s.nodes.get(name)!;
      const codec = dataset.codecs[name];
      if (!codec) throw new LearningError('data.missingNode', { node: name });
      const widths = spec.inputs.map((i) => {
        const c = dataset.codecs[i];
        if (!c) throw new LearningError('data.missingNode', { node: i });
        return c.width;
      });
      const residual = options.residual !== false && spec.stateOf !== undefined && dataset.codecs[spec.stateOf] !== undefined ? spec.stateOf : undefined;
      // a node's own MLP settings win (a user Python network class is refused by buildDataset)
      const net = spec.node.network?.kind === 'mlp' ? spec.node.network : undefined;
      const activation = net?.activation === 'leakyrelu' ? 'leaky-relu' : (net?.activation ?? options.activation);
      this.models.set(name, new NodeModel(name, spec.inputs, codec, widths, net?.hidden ?? options.hidden ?? [256, 256], activation, generator, residual));
    }
  }

  /** Every trainable parameter. */
  parameters(): Tensor[] {
    return [...this.models.values()].flatMap((m) => m.net.parameters());
  }

  /** Every trainable parameter by name, `<prefix><node>.<layer>.<weight|bias>` (read-only use: the debug page's tensor summaries). */
  namedParameters(prefix = ''): Array<[string, Tensor]> {
    return [...this.models].flatMap(([n, m]) => m.net.namedParameters(`${prefix}${n}.`));
  }

  /** Residual base of a model: the continuous columns of its state. */
  residualBase(m: NodeModel, values: (node: string) => Float32Array, rows: number): Float32Array | undefined {
    if (!m.residualOf) return undefined;
    const src = values(m.residualOf);
    const W = m.codec.width;
    const C = m.cont.length;
    const out = new Float32Array(rows * C);
    for (let r = 0; r < rows; r++) for (let c = 0; c < C; c++) out[r * C + c] = src[r * W + m.cont[c]!]!;
    return out;
  }

  /** Model inputs of `m` for the given encoded node values. */
  inputOf(m: NodeModel, values: (node: string) => Float32Array, rows: number): Float32Array {
    return concatRows(m.inputs.map((i) => ({ data: values(i), width: this.dataset.codecs[i]!.width })), rows);
  }

  /** Weights by node and parameter name. */
  weights(): Record<string, Record<string, number[]>> {
    const out: Record<string, Record<string, number[]>> = {};
    for (const [n, m] of this.models) out[n] = Object.fromEntries(m.net.namedParameters().map(([k, t]) => [k, Array.from(t.dataSync())]));
    return out;
  }

  /** Loads weights written by {@link VirtualEnvironment.weights}. */
  loadWeights(w: Record<string, Record<string, number[]>>): void {
    for (const [n, m] of this.models) {
      const p = w[n];
      if (p) m.net.loadStateDict(Object.fromEntries(Object.entries(p).map(([k, v]) => [k, Float32Array.from(v)])));
    }
  }

  /**
   * Rolls the graph forward for `horizon` steps from data rows `starts` (each window must stay
   * inside its trajectory). Learned nodes use their mode (or a sample); function nodes use
   * built-ins, then `nodeFunction`, else the data. Returns the encoded values of every output
   * node per step, and accumulates errors against the data when `errors` is given.
   */
  async rollout(
    ds: Dataset,
    starts: Int32Array,
    horizon: number,
    opts: {
      mode?: 'mode' | 'sample';
      rng?: Rng;
      errors?: ErrorAccumulator;
      nodeFunction?: NodeFunctionCall;
      /** `'data'`: agent nodes are predicted (and scored) but the logged decisions drive the rollout. Default `'model'`. */
      agents?: 'model' | 'data';
      /** Decides agent nodes instead of their BC model (policy training and evaluation); encoded in and out. */
      policy?: RolloutPolicy;
      /** Replaces `model.predict` for learned nodes (the adversarial trainers record their samples here). */
      sampler?: (model: NodeModel, x: Float32Array, rows: number, base: Float32Array | undefined, t: number) => Promise<Float32Array> | Float32Array;
    } = {},
  ): Promise<Array<Record<string, Float32Array>>> {
    const s = ds.structure;
    const B = starts.length;
    const rng = opts.rng ?? new Rng(0);
    const steps: Array<Record<string, Float32Array>> = [];
    let carried: Record<string, Float32Array> = {};
    const history = historyPlan(ds);
    const rowsAt = (t: number) => starts.map((r) => r + t);
    for (let t = 0; t < horizon; t++) {
      const rows = rowsAt(t);
      const cur: Record<string, Float32Array> = {};
      for (const name of s.inputs) {
        if (!ds.codecs[name]) continue;
        cur[name] = t > 0 && carried[name] ? carried[name]! : ds.gather(name, rows);
      }
      // a history the graph does not carry follows the rollout (see history.ts)
      if (t > 0) for (const h of history.rebuilt) if (cur[h.base]) cur[h.node] = nextHistory(ds, h.node, h.base, steps[t - 1]![h.node]!, cur[h.base]!, B);
      const values = (n: string): Float32Array => {
        const v = cur[n];
        if (!v) throw new LearningError('data.missingNode', { node: n });
        return v;
      };
      const spec = (n: string) => s.nodes.get(n)!;
      for (const name of s.order) {
        const model = this.models.get(name);
        if (opts.policy && spec(name).role === 'agent') {
          const ins: Record<string, Float32Array> = {};
          for (const i of spec(name).inputs) ins[i] = values(i);
          cur[name] = await opts.policy(name, ins, B);
        } else if (model && opts.sampler) {
          cur[name] = await opts.sampler(model, this.inputOf(model, values, B), B, this.residualBase(model, values, B), t);
        } else if (model) {
          cur[name] = await model.predict(this.inputOf(model, values, B), B, opts.mode ?? 'mode', rng, this.residualBase(model, values, B));
        } else {
          cur[name] = await this.functionNode(ds, name, values, B, rows, opts.nodeFunction);
        }
        // a learned history transition predicts only its newest frame; the older ones are the state's (history.ts)
        const shift = model ? history.shifted.find((h) => h.next === name) : undefined;
        if (shift) shiftFrames(values(shift.state), (cur[name] = Float32Array.from(cur[name]!)), B, shift.frameWidth);
        if ((opts.errors || opts.agents === 'data') && ds.scaled[name]) {
          const codec = ds.codecs[name]!;
          const truth = ds.gather(name, rows);
          opts.errors?.add(name, cur[name]!, truth, codec.width, codec.fitMask);
          if (opts.agents === 'data' && spec(name).role === 'agent') cur[name] = truth;
        }
      }
      steps.push(cur);
      carried = {};
      for (const [x, nx] of s.transitions) if (cur[nx]) carried[x] = cur[nx]!;
    }
    return steps;
  }

  private async functionNode(ds: Dataset, name: string, values: (n: string) => Float32Array, B: number, rows: Int32Array, call?: NodeFunctionCall): Promise<Float32Array> {
    const spec = ds.structure.nodes.get(name)!;
    const codec = ds.codecs[name];
    const fn = spec.node.function;
    if (!codec) throw new LearningError('data.functionNodeMissing', { node: name });
    const rawOf = (n: string) => decodeRows(ds.codecs[n]!, values(n), B);
    if (fn?.kind === 'builtin') {
      const ins = spec.inputs.map(rawOf);
      const out = new Float32Array(B * codec.dim);
      for (let i = 0; i < out.length; i++) {
        if (fn.name === 'identity') out[i] = ins[0]?.[i] ?? 0;
        else if (fn.name === 'sum') out[i] = ins.reduce((a, x) => a + (x[i] ?? 0), 0);
        else out[i] = (ins[0]?.[i] ?? 0) - ins.slice(1).reduce((a, x) => a + (x[i] ?? 0), 0);
      }
      return bounded(encodeRows(codec, out, B));
    }
    if (fn?.kind === 'python' && call) {
      const inputs: Record<string, BatchArray> = {};
      for (const i of spec.inputs) inputs[i] = { data: rawOf(i), shape: [B, ds.codecs[i]!.dim] };
      return bounded(encodeRows(codec, await call(name, inputs, B), B));
    }
    return ds.gather(name, rows);
  }
}

/**
 * Held-out evaluation: rollout errors per node and overall, and the step score. By default
 * the logged decisions drive the rollout (`agents: 'data'`), so environment nodes are judged
 * on the data's actions over `horizon` steps, and agent nodes on one-step predictions.
 */
export async function evaluateVenv(
  venv: VirtualEnvironment,
  ds: Dataset,
  options: { horizon?: number; windows?: number; seed?: number; nodeFunction?: NodeFunctionCall; agents?: 'model' | 'data' } = {},
): Promise<ScoreReport & { horizon: number; windows: number }> {
  let minLen = Infinity;
  for (let t = 0; t < ds.trajectoryCount; t++) minLen = Math.min(minLen, ds.ends[t]! - ds.starts[t]!);
  const horizon = Math.max(1, Math.min(options.horizon ?? 10, minLen));
  const starts: number[] = [];
  for (let t = 0; t < ds.trajectoryCount; t++) for (let r = ds.starts[t]!; r + horizon <= ds.ends[t]!; r += horizon) starts.push(r);
  const rng = new Rng(options.seed ?? 0);
  rng.shuffle(starts);
  const chosen = Int32Array.from(starts.slice(0, options.windows ?? 256));
  const errors = new ErrorAccumulator();
  await venv.rollout(ds, chosen, horizon, { errors, rng, agents: options.agents ?? 'data', ...(options.nodeFunction ? { nodeFunction: options.nodeFunction } : {}) });
  return { ...errors.report(ds.structure.metricNodes), horizon, windows: chosen.length };
}

/** Checkpoint of {@link BcTrainer}. */
export interface BcCheckpoint {
  weights: Record<string, Record<string, number[]>>;
  rngState: number;
  updates: number;
  bestScore: number;
  sinceBest: number;
  best?: Record<string, Record<string, number[]>>;
}

/**
 * The BC venv trainer (see the module comment). Works on an already built data set; splits it
 * by trajectories with the run's seed. After the run, {@link BcTrainer.venv} holds the model
 * (the best evaluated weights are in the last checkpoint's `best`).
 */
export class BcTrainer implements Trainer<BcCheckpoint> {
  readonly kind = 'venv.bc';
  readonly systemMaxSteps: number;
  venv: VirtualEnvironment | undefined;
  split: DatasetSplit | undefined;
  /** The rows updates sample from: the training split, or its bootstrap resample (`bootstrap`). */
  private rowsFrom: Dataset | undefined;
  private opt: Adam | undefined;
  private rng = new Rng(0);
  private updates = 0;
  private bestScore = -Infinity;
  private sinceBest = 0;
  private best: BcCheckpoint['weights'] | undefined;
  private readonly o: Required<Omit<BcOptions, 'nodeFunction' | 'splitSeed' | 'bootstrap'>>;

  constructor(
    readonly graph: DecisionGraph,
    readonly dataset: Dataset,
    private readonly options: BcOptions = {},
  ) {
    this.o = {
      hidden: options.hidden ?? [...VENV_DEFAULTS.hidden],
      activation: options.activation ?? 'relu',
      lr: options.lr ?? VENV_DEFAULTS.lr,
      batchSize: options.batchSize ?? VENV_DEFAULTS.batchSize,
      updatesPerStep: options.updatesPerStep ?? VENV_DEFAULTS.updatesPerStep,
      evalEvery: options.evalEvery ?? VENV_DEFAULTS.evalEvery,
      horizon: options.horizon ?? 10,
      evalWindows: options.evalWindows ?? 256,
      validationFraction: options.validationFraction ?? 0.2,
      systemMaxSteps: options.systemMaxSteps ?? VENV_DEFAULTS.steps,
      patience: options.patience ?? 5,
      residual: options.residual ?? true,
    };
    this.systemMaxSteps = this.o.systemMaxSteps;
  }

  init({ seed, checkpoint }: { seed: number; checkpoint?: BcCheckpoint }): void {
    this.split = splitDataset(this.dataset, { seed: this.options.splitSeed ?? seed, validationFraction: this.o.validationFraction });
    this.venv = new VirtualEnvironment(this.split.train, this.o, new Generator(seed));
    const T = this.split.train.trajectoryCount;
    if (this.options.bootstrap && T >= 2) {
      const draw = new Rng(seed + 7);
      this.rowsFrom = this.split.train.subset(Array.from({ length: T }, () => draw.int(T)));
    } else this.rowsFrom = this.split.train;
    this.opt = new Adam(this.venv.parameters(), { lr: this.o.lr });
    this.rng = new Rng(seed + 1);
    if (checkpoint) {
      this.venv.loadWeights(checkpoint.weights);
      this.rng.state = checkpoint.rngState;
      this.updates = checkpoint.updates;
      this.bestScore = checkpoint.bestScore;
      this.sinceBest = checkpoint.sinceBest;
      this.best = checkpoint.best;
    }
  }

  async step(ctx: StepContext): Promise<StepResult> {
    const venv = this.venv!;
    const train = this.rowsFrom!;
    const B = Math.min(this.o.batchSize, train.rows);
    const rows = new Int32Array(B);
    const nll: Record<string, number> = {};
    for (let u = 0; u < this.o.updatesPerStep; u++) {
      sampleRows(train, B, this.rng, rows);
      const values = (n: string) => train.gather(n, rows);
      const losses = tidy(() => {
        let total: Tensor | undefined;
        const per: Array<[string, Tensor]> = [];
        for (const m of venv.models.values()) {
          const x = tensor(venv.inputOf(m, values, B), [B, m.inWidth]);
          const l = m.nll(x, values(m.name), B, venv.residualBase(m, values, B));
          per.push([m.name, l]);
          total = total ? add(total, l) : l;
        }
        this.opt!.zeroGrad();
        total!.backward();
        this.opt!.step();
        return per.map(([n, t]) => [n, t.dataSync()[0]!] as const);
      });
      for (const [n, v] of losses) nll[n] = v;
      this.updates++;
    }
    const metrics: Record<string, number> = {};
    for (const [n, v] of Object.entries(nll)) metrics[`nll/${n}`] = v;
    const result: StepResult = { metrics };
    if ((ctx.step + 1) % this.o.evalEvery === 0 || ctx.step + 1 >= this.systemMaxSteps) {
      const r = await evaluateVenv(venv, this.split!.validation, {
        horizon: this.o.horizon,
        windows: this.o.evalWindows,
        seed: ctx.step,
        ...(this.options.nodeFunction ? { nodeFunction: this.options.nodeFunction } : {}),
      });
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

  /** The parameters being trained, by name (read-only use: the debug page's tensor summaries). */
  namedParameters(): Array<[string, Tensor]> {
    return this.venv?.namedParameters() ?? [];
  }

  checkpoint(): BcCheckpoint {
    const c: BcCheckpoint = { weights: this.venv!.weights(), rngState: this.rng.state, updates: this.updates, bestScore: this.bestScore, sinceBest: this.sinceBest };
    if (this.best) c.best = this.best;
    return c;
  }
}
