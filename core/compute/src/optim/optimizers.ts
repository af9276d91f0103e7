/**
 * Optimizers (SGD, Adam, AdamW), learning-rate schedules and gradient-norm clipping.
 * Updates run as fused in-place kernels (`adam`) or no-grad ops; nothing here reads data back,
 * so they work unchanged on asynchronous backends.
 */
import type { Backend } from '../backends/backend.ts';
import { Tensor, empty, keep, noGrad, tidy } from '../tensor.ts';
import { zeroGrad as zeroGradOf } from '../autograd.ts';
import { add, addScalar, minimum, mul, reciprocal, sqrt, square } from '../ops/elementwise.ts';
import { sum } from '../ops/reduce.ts';

/** A learning-rate schedule: step (0-based count of completed steps) -> learning rate. */
export type LrSchedule = (step: number) => number;

/** Base optimizer. */
export abstract class Optimizer {
  /** Completed steps. */
  stepCount = 0;
  /** Current base learning rate (schedules overwrite it each step). */
  lr: number;
  /** Optional schedule; when set, `lr = schedule(stepCount)` before each step. */
  schedule: LrSchedule | null = null;

  constructor(
    readonly params: readonly Tensor[],
    lr: number,
  ) {
    this.lr = lr;
  }

  /** Clears the gradients of all parameters. */
  zeroGrad(): void {
    zeroGradOf(this.params);
  }

  /** Applies one update from the accumulated gradients (parameters without grad are skipped). */
  step(): void {
    if (this.schedule) this.lr = this.schedule(this.stepCount);
    this.stepCount++;
    noGrad(() => tidy(() => this.update()));
  }

  /** Releases optimizer state. */
  abstract dispose(): void;

  protected abstract update(): void;
}

/** Options of {@link Adam}. */
export interface AdamOptions {
  lr?: number;
  beta1?: number;
  beta2?: number;
  eps?: number;
  /** L2 (Adam) or decoupled (AdamW) weight decay. */
  weightDecay?: number;
  /** Multiply gradients by this before the update (default 1). */
  gradScale?: number;
}

/** Adam (L2 weight decay added to the gradient). Fused in-place kernel per parameter. */
export class Adam extends Optimizer {
  readonly beta1: number;
  readonly beta2: number;
  readonly eps: number;
  weightDecay: number;
  protected decoupled = false;
  private readonly m = new Map<Tensor, Tensor>();
  private readonly v = new Map<Tensor, Tensor>();

  constructor(params: readonly Tensor[], opts: AdamOptions = {}) {
    super(params, opts.lr ?? 1e-3);
    this.beta1 = opts.beta1 ?? 0.9;
    this.beta2 = opts.beta2 ?? 0.999;
    this.eps = opts.eps ?? 1e-8;
    this.weightDecay = opts.weightDecay ?? 0;
  }

  protected update(): void {
    const t = this.stepCount;
    const bc1 = 1 - Math.pow(this.beta1, t);
    const bc2 = 1 - Math.pow(this.beta2, t);
    for (const p of this.params) {
      const g = p.grad;
      if (!g) continue;
      let m = this.m.get(p);
      let v = this.v.get(p);
      if (!m || !v) {
        m = keep(empty(p.shape, p.backend));
        v = keep(empty(p.shape, p.backend));
        this.m.set(p, m);
        this.v.set(p, v);
      }
      p.backend.dispatch(
        { kind: 'adam', size: p.size, lr: this.lr, beta1: this.beta1, beta2: this.beta2, eps: this.eps, weightDecay: this.weightDecay, decoupled: this.decoupled, bc1, bc2, gradScale: 1 },
        [p.buffer, g.buffer, m.buffer, v.buffer],
        [p.buffer, m.buffer, v.buffer],
      );
    }
  }

  /** Optimizer state tensors by parameter (moments), for checkpoints. */
  state(): { m: Map<Tensor, Tensor>; v: Map<Tensor, Tensor> } {
    return { m: this.m, v: this.v };
  }

  dispose(): void {
    for (const t of this.m.values()) t.dispose();
    for (const t of this.v.values()) t.dispose();
    this.m.clear();
    this.v.clear();
  }
}

/** AdamW: Adam with decoupled weight decay (default 0.01). */
export class AdamW extends Adam {
  constructor(params: readonly Tensor[], opts: AdamOptions = {}) {
    super(params, { weightDecay: 0.01, ...opts });
    this.decoupled = true;
  }
}

/** Plain SGD with optional momentum. */
export class SGD extends Optimizer {
  private readonly buf = new Map<Tensor, Tensor>();

  constructor(params: readonly Tensor[], lr = 1e-2, readonly momentum = 0) {
    super(params, lr);
  }

  protected update(): void {
    for (const p of this.params) {
      const g = p.grad;
      if (!g) continue;
      let d = g;
      if (this.momentum) {
        let b = this.buf.get(p);
        if (!b) {
          b = keep(empty(p.shape, p.backend));
          this.buf.set(p, b);
        }
        // b = momentum*b + g
        axpy(p.backend, b, b, this.momentum - 1);
        axpy(p.backend, b, g, 1);
        d = b;
      }
      axpy(p.backend, p, d, -this.lr);
    }
  }

  dispose(): void {
    for (const t of this.buf.values()) t.dispose();
    this.buf.clear();
  }
}

/** y += a * x in place (no autograd). */
function axpy(be: Backend, y: Tensor, x: Tensor, a: number): void {
  const tmp = empty(x.shape, be);
  be.dispatch({ kind: 'unary', op: 'affine', size: x.size, alpha: a, beta: 0 }, [x.buffer], [tmp.buffer]);
  be.dispatch({ kind: 'copy', shape: [x.size], srcStrides: [1], srcOffset: 0, dstStrides: [1], dstOffset: 0, accumulate: true }, [tmp.buffer], [y.buffer]);
  tmp.dispose();
}

/**
 * Scales all gradients so their global L2 norm is at most `maxNorm` (no host read-back: the
 * factor min(1, maxNorm / (norm + 1e-6)) is computed on the device). Returns the pre-clip norm
 * as a scalar tensor (read it with `await norm.data()` if needed; dispose it when done).
 */
export function clipGradNorm(params: readonly Tensor[], maxNorm: number): Tensor {
  return noGrad(() => {
    const withGrad = params.filter((p) => p.grad);
    if (withGrad.length === 0) throw new Error('compute: clipGradNorm: no gradients');
    const norm = tidy(() => {
      let acc: Tensor | null = null;
      for (const p of withGrad) {
        const s = sum(square(p.grad!));
        acc = acc ? add(acc, s) : s;
      }
      return sqrt(acc!);
    });
    tidy(() => {
      const factor = minimum(mul(reciprocal(addScalar(norm, 1e-6)), maxNorm), 1);
      for (const p of withGrad) {
        const g = p.grad!;
        const scaled = mul(g, factor);
        g.backend.dispatch({ kind: 'copy', shape: [g.size], srcStrides: [1], srcOffset: 0, dstStrides: [1], dstOffset: 0, accumulate: false }, [scaled.buffer], [g.buffer]);
      }
    });
    return norm;
  });
}


/** Constant learning rate. */
export function constantLr(lr: number): LrSchedule {
  return () => lr;
}

/** Linear warm-up from 0 over `warmup` steps, then constant. */
export function warmupLr(lr: number, warmup: number): LrSchedule {
  return (s) => (s < warmup ? (lr * (s + 1)) / warmup : lr);
}

/** Cosine decay from `lr` to `minLr` over `total` steps, after an optional linear warm-up. */
export function cosineLr(lr: number, total: number, minLr = 0, warmup = 0): LrSchedule {
  return (s) => {
    if (s < warmup) return (lr * (s + 1)) / warmup;
    const p = Math.min(1, (s - warmup) / Math.max(1, total - warmup));
    return minLr + 0.5 * (lr - minLr) * (1 + Math.cos(Math.PI * p));
  };
}

/** Multiply by `gamma` every `stepSize` steps. */
export function stepLr(lr: number, stepSize: number, gamma = 0.1): LrSchedule {
  return (s) => lr * Math.pow(gamma, Math.floor(s / stepSize));
}

/** Linear decay from `lr` to `endLr` over `total` steps (PPO's usual annealing). */
export function linearLr(lr: number, total: number, endLr = 0): LrSchedule {
  return (s) => lr + (endLr - lr) * Math.min(1, s / total);
}
