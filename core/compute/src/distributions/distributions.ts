/**
 * Probability distributions for policies and world models: diagonal Normal, tanh-squashed
 * Normal (SAC), Categorical (logits), and Discretized (ordered bins for discrete fields).
 * All log-probs and entropies are differentiable; `rsample` is reparameterised.
 * Event dims: log-probs are per element unless `sumLast` variants are used.
 */
import { Tensor, noGrad, tensor } from '../tensor.ts';
import { add, addScalar, affine, clamp, div, exp, floor, log, mul, mulScalar, neg, softplus, square, sub, tanh } from '../ops/elementwise.ts';
import { sum } from '../ops/reduce.ts';
import { logSoftmax, softmax } from '../ops/softmax.ts';
import { reshape, takeAlongAxis } from '../ops/shape.ts';
import { argmax } from '../ops/reduce.ts';
import { Generator, defaultGenerator, randomNormal, randomUniform } from '../ops/random.ts';

const HALF_LOG_2PI = 0.5 * Math.log(2 * Math.PI);

/** Diagonal Normal(mean, std); mean and std broadcast against each other. */
export class Normal {
  constructor(
    readonly mean: Tensor,
    readonly std: Tensor,
  ) {}

  /** Builds from mean and log-std (the usual policy head parametrisation). */
  static fromLogStd(mean: Tensor, logStd: Tensor): Normal {
    return new Normal(mean, exp(logStd));
  }

  /** Elementwise log density: -(x-mu)^2/(2 s^2) - log s - log(2 pi)/2. */
  logProb(x: Tensor): Tensor {
    const z = div(sub(x, this.mean), this.std);
    return sub(affine(square(z), -0.5, -HALF_LOG_2PI), log(this.std));
  }

  /** Elementwise entropy: 0.5 + log(2 pi)/2 + log s (broadcast to the mean's shape). */
  entropy(): Tensor {
    return add(addScalar(log(this.std), 0.5 + HALF_LOG_2PI), mulScalar(this.mean, 0));
  }

  /** Reparameterised sample mu + s * eps (gradients flow into mean and std). */
  rsample(generator: Generator = defaultGenerator): Tensor {
    const eps = randomNormal(this.mean.shape, 0, 1, { generator, backend: this.mean.backend });
    return add(this.mean, mul(this.std, eps));
  }

  /** Sample without gradient. */
  sample(generator: Generator = defaultGenerator): Tensor {
    return noGrad(() => this.rsample(generator));
  }

  /** The mode (= mean). */
  mode(): Tensor {
    return this.mean;
  }
}

/** A sample of {@link TanhNormal} with its (event-summed) log-probability. */
export interface SquashedSample {
  /** tanh(u) scaled to [low, high]. */
  action: Tensor;
  /** Pre-squash sample u. */
  raw: Tensor;
  /** log p(action), summed over the last axis: shape = batch shape. */
  logProb: Tensor;
}

/**
 * tanh-squashed diagonal Normal (SAC): a = low + (tanh(u) + 1)/2 * (high - low), u ~ N(mu, s).
 * log p(a) = sum_i [log N(u_i) - log(1 - tanh(u_i)^2) - log((high-low)/2)], with the stable form
 * log(1 - tanh(u)^2) = 2 (log 2 - u - softplus(-2u)).
 */
export class TanhNormal {
  readonly base: Normal;

  constructor(
    mean: Tensor,
    std: Tensor,
    readonly low = -1,
    readonly high = 1,
  ) {
    this.base = new Normal(mean, std);
  }

  private squash(u: Tensor): Tensor {
    const t = tanh(u);
    if (this.low === -1 && this.high === 1) return t;
    const h = (this.high - this.low) / 2;
    return affine(t, h, this.low + h);
  }

  /** log p(a) for pre-squash values u (summed over the last axis). */
  logProbRaw(u: Tensor): Tensor {
    const lp = this.base.logProb(u);
    // log(1 - tanh^2) = 2*(log2 - u - softplus(-2u))
    const corr = mulScalar(sub(addScalar(neg(u), Math.LN2), softplus(mulScalar(u, -2))), 2);
    let l = sub(lp, corr);
    const h = (this.high - this.low) / 2;
    if (h !== 1) l = addScalar(l, -Math.log(h));
    return sum(l, -1);
  }

  /** log p(a) for squashed actions a (inverted with atanh, clamped away from the bounds). */
  logProb(a: Tensor): Tensor {
    const h = (this.high - this.low) / 2;
    const t = affine(a, 1 / h, -(this.low + h) / h);
    const eps = 1e-6;
    // atanh(x) = 0.5 * (log(1+x) - log(1-x)), x clamped to (-1+eps, 1-eps)
    const x = clamp(t, -1 + eps, 1 - eps);
    const u = mulScalar(sub(log(addScalar(x, 1)), log(addScalar(neg(x), 1))), 0.5);
    return this.logProbRaw(u);
  }

  /** Reparameterised sample with its log-prob. */
  rsample(generator: Generator = defaultGenerator): SquashedSample {
    const u = this.base.rsample(generator);
    return { action: this.squash(u), raw: u, logProb: this.logProbRaw(u) };
  }

  /** Sample without gradient. */
  sample(generator: Generator = defaultGenerator): SquashedSample {
    return noGrad(() => this.rsample(generator));
  }

  /** Deterministic action squash(mean). */
  mode(): Tensor {
    return this.squash(this.base.mean);
  }
}


/** Categorical over the last axis, parametrised by unnormalised logits [..., K]. */
export class Categorical {
  /** Normalised log-probabilities (log-softmax of the logits). */
  readonly logits: Tensor;

  constructor(logits: Tensor) {
    this.logits = logSoftmax(logits, -1);
  }

  /** Probabilities. */
  probs(): Tensor {
    return softmax(this.logits, -1);
  }

  /** log p(k) for integer classes `k` of the batch shape (float32 integers). */
  logProb(k: Tensor): Tensor {
    const K = this.logits.shape[this.logits.rank - 1]!;
    const flat = reshape(this.logits, [-1, K]);
    const picked = takeAlongAxis(flat, reshape(k, [flat.shape[0]!, 1]), -1);
    return reshape(picked, this.logits.shape.slice(0, -1));
  }

  /** Entropy -sum p log p over the last axis. */
  entropy(): Tensor {
    return neg(sum(mul(exp(this.logits), this.logits), -1));
  }

  /**
   * Sample class indices (Gumbel-max). Reads the scores back synchronously: CPU only; on
   * asynchronous backends use {@link Categorical.sampleAsync}.
   */
  sample(generator: Generator = defaultGenerator): Tensor {
    return noGrad(() => argmax(this.gumbelScores(generator)));
  }

  /** Sample class indices on any backend (awaits the read-back). */
  async sampleAsync(generator: Generator = defaultGenerator): Promise<Tensor> {
    const scores = noGrad(() => this.gumbelScores(generator));
    const d = await scores.data();
    const k = scores.shape[scores.rank - 1]!;
    const rows = d.length / k;
    const out = new Float32Array(rows);
    for (let r = 0; r < rows; r++) {
      let bi = 0;
      for (let j = 1; j < k; j++) if (d[r * k + j]! > d[r * k + bi]!) bi = j;
      out[r] = bi;
    }
    const shape = scores.shape.slice(0, -1);
    const be = scores.backend;
    scores.dispose();
    return tensor(out, shape, be);
  }

  private gumbelScores(generator: Generator): Tensor {
    const u = randomUniform(this.logits.shape, 1e-12, 1, { generator, backend: this.logits.backend });
    return sub(this.logits, log(neg(log(u))));
  }

  /** Most likely class (sync read; CPU). */
  mode(): Tensor {
    return argmax(this.logits);
  }
}

/**
 * Discretised distribution for a discrete (ordered) field: K bins with values
 * low + i (high - low) / (K - 1). Log-probs of a value use its nearest bin.
 */
export class Discretized {
  readonly categorical: Categorical;

  constructor(
    logits: Tensor,
    readonly low: number,
    readonly high: number,
  ) {
    this.categorical = new Categorical(logits);
  }

  /** Number of bins. */
  get bins(): number {
    return this.categorical.logits.shape[this.categorical.logits.rank - 1]!;
  }

  private step(): number {
    return this.bins > 1 ? (this.high - this.low) / (this.bins - 1) : 1;
  }

  /** Index of the nearest bin for values x (not differentiable). */
  binOf(x: Tensor): Tensor {
    return noGrad(() => clamp(floor(addScalar(mulScalar(x, 1 / this.step()), -this.low / this.step() + 0.5)), 0, this.bins - 1));
  }

  /** log p(x) of the nearest bin. */
  logProb(x: Tensor): Tensor {
    return this.categorical.logProb(this.binOf(x));
  }

  /** Expected value sum_i p_i v_i (differentiable). */
  mean(): Tensor {
    const k = this.bins;
    const vals = new Float32Array(k);
    for (let i = 0; i < k; i++) vals[i] = this.low + i * this.step();
    const be = this.categorical.logits.backend;
    const v = tensor(vals, [k], be);
    return sum(mul(this.categorical.probs(), v), -1);
  }

  /** Sampled values (sync read; CPU). */
  sample(generator: Generator = defaultGenerator): Tensor {
    return noGrad(() => affine(this.categorical.sample(generator), this.step(), this.low));
  }

  /** Entropy of the bin distribution. */
  entropy(): Tensor {
    return this.categorical.entropy();
  }
}

