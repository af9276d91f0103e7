/**
 * Neural-network building blocks: Module base, Linear, MLP, LayerNorm, Dropout, residual MLP
 * (REVIVE-style ResNet), ensembles of k independent MLPs evaluated as batched matmuls.
 * Weights follow the `x @ W + b` convention: W is [in, out].
 */
import type { Activation, Backend } from '../backends/backend.ts';
import { getBackend } from '../backends/registry.ts';
import { Tensor, full, parameter, zeros } from '../tensor.ts';
import { add, addScalar, ge, mul, mulScalar, rsqrt, square, sub, unaryDef } from '../ops/elementwise.ts';
import { applyOp } from '../autograd.ts';
import { mean } from '../ops/reduce.ts';
import { linear, linearChainNoGrad } from '../ops/linear.fused.ts';
import { layerNormFused } from '../ops/layernorm.ts';
import { Generator, defaultGenerator, randomUniform } from '../ops/random.ts';

/** Base class: named parameters, sub-modules, train/eval mode, disposal. */
export abstract class Module {
  /** Training mode (Dropout active). */
  training = true;
  private readonly params = new Map<string, Tensor>();
  private readonly children = new Map<string, Module>();

  /** Registers a parameter (made a grad-requiring leaf, kept out of tidy scopes). */
  protected addParameter(name: string, t: Tensor): Tensor {
    parameter(t, name);
    this.params.set(name, t);
    return t;
  }

  /** Registers a sub-module. */
  protected addModule<M extends Module>(name: string, m: M): M {
    this.children.set(name, m);
    return m;
  }

  /** Parameters with dotted names, depth first, in registration order. */
  namedParameters(prefix = ''): [string, Tensor][] {
    const out: [string, Tensor][] = [];
    for (const [n, t] of this.params) out.push([prefix + n, t]);
    for (const [n, c] of this.children) out.push(...c.namedParameters(`${prefix}${n}.`));
    return out;
  }

  /** All parameters. */
  parameters(): Tensor[] {
    return this.namedParameters().map(([, t]) => t);
  }

  /** Number of scalar parameters. */
  parameterCount(): number {
    return this.parameters().reduce((s, t) => s + t.size, 0);
  }

  /** Sets training mode recursively; returns this. */
  train(flag = true): this {
    this.training = flag;
    for (const c of this.children.values()) c.train(flag);
    return this;
  }

  /** Evaluation mode (Dropout off). */
  eval(): this {
    return this.train(false);
  }

  /** Named parameter values (copies), e.g. for serialisation. */
  stateDict(): Map<string, Tensor> {
    return new Map(this.namedParameters());
  }

  /**
   * Copies values into the parameters by name.
   * @throws Error on a missing name or a shape mismatch (when `strict`, also on unknown names).
   */
  loadStateDict(values: Map<string, Float32Array> | Record<string, Float32Array>, strict = true): void {
    const m = values instanceof Map ? values : new Map(Object.entries(values));
    const named = new Map(this.namedParameters());
    for (const [n, t] of named) {
      const v = m.get(n);
      if (!v) throw new Error(`compute: loadStateDict: missing '${n}'`);
      if (v.length !== t.size) throw new Error(`compute: loadStateDict: '${n}' has ${v.length} values, expected ${t.size}`);
      t.backend.write(t.buffer, v);
    }
    if (strict) for (const n of m.keys()) if (!named.has(n)) throw new Error(`compute: loadStateDict: unexpected '${n}'`);
  }

  /** Frees every parameter's buffer. The module is unusable afterwards. */
  dispose(): void {
    for (const p of this.parameters()) p.dispose();
  }

  /** The forward computation. */
  abstract forward(x: Tensor): Tensor;
}

/** Options common to layer constructors. */
export interface InitOptions {
  generator?: Generator;
  backend?: Backend;
}

function uniformInit(shape: number[], bound: number, o: InitOptions): Tensor {
  const opts: { generator: Generator; backend: Backend } = { generator: o.generator ?? defaultGenerator, backend: o.backend ?? getBackend() };
  return randomUniform(shape, -bound, bound, opts);
}

/** Options of {@link Linear}. */
export interface LinearOptions extends InitOptions {
  bias?: boolean;
  /** Fused activation (default 'none'). */
  activation?: Activation;
  /** Leaky-relu slope. */
  alpha?: number;
}

/**
 * y = act(x @ W + b), one fused kernel. Init as PyTorch: U(-1/sqrt(in), 1/sqrt(in)) for W and b.
 */
export class Linear extends Module {
  readonly weight: Tensor;
  readonly bias: Tensor | null;
  readonly activation: Activation;
  readonly alpha: number;

  constructor(readonly inFeatures: number, readonly outFeatures: number, opts: LinearOptions = {}) {
    super();
    const bound = 1 / Math.sqrt(inFeatures);
    this.weight = this.addParameter('weight', uniformInit([inFeatures, outFeatures], bound, opts));
    this.bias = opts.bias === false ? null : this.addParameter('bias', uniformInit([outFeatures], bound, opts));
    this.activation = opts.activation ?? 'none';
    this.alpha = opts.alpha ?? 0.01;
  }

  forward(x: Tensor): Tensor {
    return linear(x, this.weight, this.bias, this.activation, this.alpha);
  }
}

/** Options of {@link MLP}. */
export interface MlpOptions extends InitOptions {
  /** Hidden activation (default 'relu'). */
  activation?: Activation;
  /** Output activation (default 'none'). */
  outputActivation?: Activation;
}

/** Multi-layer perceptron: sizes [in, h1, ..., out]; every layer is one fused Linear. */
export class MLP extends Module {
  readonly layers: Linear[] = [];

  constructor(readonly sizes: readonly number[], opts: MlpOptions = {}) {
    super();
    if (sizes.length < 2) throw new Error('compute: MLP needs at least [in, out]');
    for (let i = 0; i + 1 < sizes.length; i++) {
      const last = i + 2 === sizes.length;
      this.layers.push(
        this.addModule(`${i}`, new Linear(sizes[i]!, sizes[i + 1]!, { ...opts, activation: last ? (opts.outputActivation ?? 'none') : (opts.activation ?? 'relu') })),
      );
    }
  }

  forward(x: Tensor): Tensor {
    // Gradients off (inference): the layers straight on backend buffers, no per-layer tensors.
    const lean = linearChainNoGrad(x, this.layers);
    if (lean) return lean;
    let h = x;
    for (const l of this.layers) {
      const next = l.forward(h);
      if (h !== x) releaseUnrecorded(h);
      h = next;
    }
    return h;
  }
}

/**
 * Disposes an intermediate of a module's forward pass at once when no autograd node refers to
 * it (under `noGrad`, or when nothing requires gradients). Without this, a forward pass outside
 * `tidy` (`noGrad(() => net.forward(obs))`, the documented inference call) left its hidden
 * activations to the garbage collector: every call then allocated fresh arrays (page faults, GC)
 * instead of reusing the backend's free lists, and the wasm paths gave each new array a new
 * region of linear memory. Only for tensors the module created itself, never the caller's input.
 */
function releaseUnrecorded(t: Tensor): void {
  if (!t.requiresGrad && !t.gradNode) t.dispose();
}

/** Layer normalisation over the last dimension with learnable gain and shift. */
export class LayerNorm extends Module {
  readonly gamma: Tensor;
  readonly beta: Tensor;

  constructor(readonly dim: number, readonly eps = 1e-5, opts: InitOptions = {}) {
    super();
    const be = opts.backend ?? getBackend();
    this.gamma = this.addParameter('weight', full([dim], 1, be));
    this.beta = this.addParameter('bias', zeros([dim], be));
  }

  forward(x: Tensor): Tensor {
    return layerNorm(x, this.gamma, this.beta, this.eps);
  }
}

/**
 * Functional layer norm over the last axis: (x - mean) / sqrt(var + eps) * gamma + beta, one
 * fused kernel forward and one backward (`ops/layernorm.ts`).
 */
export function layerNorm(x: Tensor, gamma: Tensor | null, beta: Tensor | null, eps = 1e-5): Tensor {
  return layerNormFused(x, gamma, beta, eps);
}

/** The same layer norm composed of generic ops (the reference the fused op is tested against). */
export function layerNormComposed(x: Tensor, gamma: Tensor | null, beta: Tensor | null, eps = 1e-5): Tensor {
  const mu = mean(x, -1, true);
  const xc = sub(x, mu);
  const v = mean(square(xc), -1, true);
  let y = mul(xc, rsqrt(addScalar(v, eps)));
  if (gamma) y = mul(y, gamma);
  if (beta) y = add(y, beta);
  return y;
}

/** Inverted dropout: zeroes with probability p in training mode and scales by 1/(1-p). */
export class Dropout extends Module {
  constructor(readonly p = 0.1, readonly generator: Generator = defaultGenerator) {
    super();
    if (p < 0 || p >= 1) throw new Error('compute: Dropout p must be in [0, 1)');
  }

  forward(x: Tensor): Tensor {
    if (!this.training || this.p === 0) return x;
    const keepMask = ge(randomUniform(x.shape, 0, 1, { generator: this.generator, backend: x.backend }), this.p);
    return mul(x, mulScalar(keepMask, 1 / (1 - this.p)));
  }
}

/** Applies an activation as a standalone op. */
export function activate(x: Tensor, act: Activation, alpha = 0.01): Tensor {
  if (act === 'none') return x;
  return applyOp(unaryDef(act), [x], { alpha, beta: 0 });
}

/** Options of {@link ResidualMLP}. */
export interface ResidualMlpOptions extends InitOptions {
  /** Width of the residual stream (default 256). */
  hidden?: number;
  /** Number of residual blocks (default 3). */
  blocks?: number;
  activation?: Activation;
  outputActivation?: Activation;
  dropout?: number;
}

/**
 * REVIVE-style residual MLP: Linear(in, h) -> blocks x [h + Linear(act(Linear(LN(h))))]
 * -> LN -> act -> Linear(h, out).
 */
export class ResidualMLP extends Module {
  readonly input: Linear;
  readonly norms: LayerNorm[] = [];
  readonly fc1: Linear[] = [];
  readonly fc2: Linear[] = [];
  readonly finalNorm: LayerNorm;
  readonly output: Linear;
  readonly dropout: Dropout | null;
  readonly activation: Activation;

  constructor(readonly inFeatures: number, readonly outFeatures: number, opts: ResidualMlpOptions = {}) {
    super();
    const h = opts.hidden ?? 256;
    const nb = opts.blocks ?? 3;
    this.activation = opts.activation ?? 'relu';
    // Only fc1 is activated inside a block: the input and fc2 layers are linear (the options'
    // `activation` must not leak into them).
    const plain = { ...opts, activation: 'none' as const };
    this.input = this.addModule('input', new Linear(inFeatures, h, plain));
    for (let i = 0; i < nb; i++) {
      this.norms.push(this.addModule(`block${i}.norm`, new LayerNorm(h, 1e-5, opts)));
      this.fc1.push(this.addModule(`block${i}.fc1`, new Linear(h, h, { ...opts, activation: this.activation })));
      this.fc2.push(this.addModule(`block${i}.fc2`, new Linear(h, h, plain)));
    }
    this.finalNorm = this.addModule('norm', new LayerNorm(h, 1e-5, opts));
    this.output = this.addModule('output', new Linear(h, outFeatures, { ...opts, activation: opts.outputActivation ?? 'none' }));
    this.dropout = opts.dropout ? this.addModule('dropout', new Dropout(opts.dropout, opts.generator)) : null;
  }

  forward(x: Tensor): Tensor {
    let h = this.input.forward(x);
    for (let i = 0; i < this.fc1.length; i++) {
      const n = this.norms[i]!.forward(h);
      const a = this.fc1[i]!.forward(n);
      releaseUnrecorded(n);
      const f = this.fc2[i]!.forward(a);
      releaseUnrecorded(a);
      const r = this.dropout ? this.dropout.forward(f) : f;
      if (r !== f) releaseUnrecorded(f);
      const sum = add(h, r);
      releaseUnrecorded(h);
      releaseUnrecorded(r);
      h = sum;
    }
    const ln = this.finalNorm.forward(h);
    releaseUnrecorded(h);
    const act = activate(ln, this.activation);
    if (act !== ln) releaseUnrecorded(ln);
    const out = this.output.forward(act);
    releaseUnrecorded(act);
    return out;
  }
}

/**
 * k independent linear layers evaluated as one batched matmul: x [k, B, in] (or a shared
 * [B, in]) -> [k, B, out]. W is [k, in, out], b is [k, out].
 */
export class EnsembleLinear extends Module {
  readonly weight: Tensor;
  readonly bias: Tensor | null;
  readonly activation: Activation;

  constructor(readonly members: number, readonly inFeatures: number, readonly outFeatures: number, opts: LinearOptions = {}) {
    super();
    const bound = 1 / Math.sqrt(inFeatures);
    this.weight = this.addParameter('weight', uniformInit([members, inFeatures, outFeatures], bound, opts));
    this.bias = opts.bias === false ? null : this.addParameter('bias', uniformInit([members, outFeatures], bound, opts));
    this.activation = opts.activation ?? 'none';
  }

  forward(x: Tensor): Tensor {
    return linear(x, this.weight, this.bias, this.activation);
  }
}

/** An ensemble of k independent MLPs of the same sizes, evaluated as batched matmuls. */
export class EnsembleMLP extends Module {
  readonly layers: EnsembleLinear[] = [];

  constructor(readonly members: number, readonly sizes: readonly number[], opts: MlpOptions = {}) {
    super();
    for (let i = 0; i + 1 < sizes.length; i++) {
      const last = i + 2 === sizes.length;
      this.layers.push(
        this.addModule(`${i}`, new EnsembleLinear(members, sizes[i]!, sizes[i + 1]!, { ...opts, activation: last ? (opts.outputActivation ?? 'none') : (opts.activation ?? 'relu') })),
      );
    }
  }

  /** x [B, in] (shared) or [k, B, in] -> [k, B, out]. */
  forward(x: Tensor): Tensor {
    let h = x;
    for (const l of this.layers) {
      const next = l.forward(h);
      if (h !== x) releaseUnrecorded(h);
      h = next;
    }
    return h;
  }
}

/** Runs modules in order. */
export class Sequential extends Module {
  readonly modules: Module[];

  constructor(...modules: Module[]) {
    super();
    this.modules = modules.map((m, i) => this.addModule(`${i}`, m));
  }

  forward(x: Tensor): Tensor {
    let h = x;
    for (const m of this.modules) h = m.forward(h);
    return h;
  }
}

/**
 * Polyak averaging of parameters, in place and without autograd:
 * target = tau * source + (1 - tau) * target (SAC/TD3 target networks; tau = 1 copies).
 * @throws Error when the two modules' parameter lists differ in count or sizes.
 */
export function softUpdate(target: Module, source: Module, tau: number): void {
  const t = target.parameters();
  const s = source.parameters();
  if (t.length !== s.length) throw new Error('compute: softUpdate: modules differ in parameter count');
  t.forEach((tp, i) => {
    const sp = s[i]!;
    if (tp.size !== sp.size) throw new Error(`compute: softUpdate: parameter ${i} sizes differ`);
    const be = tp.backend;
    if (tau === 1) {
      be.dispatch({ kind: 'copy', shape: [tp.size], srcStrides: [1], srcOffset: 0, dstStrides: [1], dstOffset: 0, accumulate: false }, [sp.buffer], [tp.buffer]);
      return;
    }
    const tmp = be.alloc(tp.size);
    const tmp2 = be.alloc(tp.size);
    be.dispatch({ kind: 'unary', op: 'affine', size: tp.size, alpha: 1 - tau, beta: 0 }, [tp.buffer], [tmp]);
    be.dispatch({ kind: 'unary', op: 'affine', size: tp.size, alpha: tau, beta: 0 }, [sp.buffer], [tmp2]);
    be.dispatch({ kind: 'copy', shape: [tp.size], srcStrides: [1], srcOffset: 0, dstStrides: [1], dstOffset: 0, accumulate: true }, [tmp2], [tmp]);
    be.dispatch({ kind: 'copy', shape: [tp.size], srcStrides: [1], srcOffset: 0, dstStrides: [1], dstOffset: 0, accumulate: false }, [tmp], [tp.buffer]);
    be.free(tmp);
    be.free(tmp2);
  });
}

/** Copies all parameters of `source` into `target` (same architecture). */
export function hardUpdate(target: Module, source: Module): void {
  softUpdate(target, source, 1);
}
