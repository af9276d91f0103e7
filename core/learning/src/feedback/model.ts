/**
 * The networks of the feedback-control trial, on whatever compute backend is active:
 *
 * - **encoder**: an MLP from the flattened observation history (the last `history` rows) to a
 *   latent vector;
 * - **response model** (PID-style predictor): the next observation is the last one plus a
 *   linear term of the proportional (last value), derivative (last difference) and integral
 *   (window mean) features and the action, plus a learned correction from the encoder's latent
 *   and the action;
 * - **controller**: a PID law on the error to the set-point (`e`, window-mean error, change of
 *   `e`) squashed by `tanh` into the logged action range, so it never asks the model to
 *   extrapolate outside the actions it has seen.
 *
 * All in normalised units. `rollout` runs either the controller or given actions through the
 * model for `horizon` steps and returns the predicted observations (differentiable).
 */
import {
  Linear,
  MLP,
  Module,
  add,
  concat,
  matmul,
  mean,
  mul,
  reshape,
  slice,
  sub,
  tanh,
  tensor,
  zeros,
  type Tensor,
} from '@decisio/compute';

/** Sizes of the trial networks. */
export interface TrialShape {
  obsDim: number;
  actDim: number;
  /** Rows of observation history the encoder sees (>= 2). */
  history: number;
  /** Latent size of the encoder. */
  latent: number;
  /** Hidden width of the encoder and the correction. */
  hidden: number;
}

/** Encoder + response model. */
export class ResponseModel extends Module {
  readonly encoder: MLP;
  readonly pid: Linear;
  readonly correction: MLP;

  constructor(readonly shape: TrialShape) {
    super();
    const { obsDim: n, actDim: m, history: h, latent, hidden } = shape;
    this.encoder = this.addModule('encoder', new MLP([h * n, hidden, latent], { activation: 'tanh', outputActivation: 'tanh' }));
    this.pid = this.addModule('pid', new Linear(3 * n + m, n));
    this.correction = this.addModule('correction', new MLP([latent + m, hidden, n], { activation: 'tanh' }));
  }

  /** Module contract: the encoder's latent of windows `[B, history*obsDim]`. */
  forward(window: Tensor): Tensor {
    return this.encode(window);
  }

  /** Latent of windows `[B, history*obsDim]` -> `[B, latent]`. */
  encode(window: Tensor): Tensor {
    return this.encoder.forward(window);
  }

  /** The P, D and I features of windows: last row, last difference, window mean (each `[B, n]`). */
  features(window: Tensor): { last: Tensor; diff: Tensor; avg: Tensor } {
    const { obsDim: n, history: h } = this.shape;
    const b = window.shape[0]!;
    const last = slice(window, [0, (h - 1) * n], [b, n]);
    const prev = slice(window, [0, (h - 2) * n], [b, n]);
    const avg = mean(reshape(window, [b, h, n]), 1);
    return { last, diff: sub(last, prev), avg };
  }

  /** Next observation `[B, n]` from windows `[B, h*n]` and actions `[B, m]`. */
  predict(window: Tensor, action: Tensor): Tensor {
    const f = this.features(window);
    const linearPart = this.pid.forward(concat([f.last, f.diff, f.avg, action], 1));
    const corr = this.correction.forward(concat([this.encode(window), action], 1));
    return add(f.last, add(linearPart, corr));
  }

  /** The window shifted by one row with `next` appended. */
  shift(window: Tensor, next: Tensor): Tensor {
    const { obsDim: n, history: h } = this.shape;
    const b = window.shape[0]!;
    return concat([slice(window, [0, n], [b, (h - 1) * n]), next], 1);
  }
}

/** PID controller: gains `[obsDim, actDim]` for P, I, D and a bias `[actDim]`. */
export class PidController extends Module {
  readonly kp: Tensor;
  readonly ki: Tensor;
  readonly kd: Tensor;
  readonly bias: Tensor;
  private readonly mid: Tensor;
  private readonly half: Tensor;

  constructor(obsDim: number, actDim: number, actMin: Float32Array, actMax: Float32Array) {
    super();
    this.kp = this.addParameter('kp', zeros([obsDim, actDim]));
    this.ki = this.addParameter('ki', zeros([obsDim, actDim]));
    this.kd = this.addParameter('kd', zeros([obsDim, actDim]));
    this.bias = this.addParameter('bias', zeros([actDim]));
    const mid = new Float32Array(actDim);
    const half = new Float32Array(actDim);
    for (let j = 0; j < actDim; j++) {
      mid[j] = (actMin[j]! + actMax[j]!) / 2;
      half[j] = Math.max(1e-3, (actMax[j]! - actMin[j]!) / 2);
    }
    this.mid = tensor(mid, [actDim]);
    this.half = tensor(half, [actDim]);
  }

  /** Action `[B, m]` for windows (through the model's features) and set-points `[B, n]`. */
  act(model: ResponseModel, window: Tensor, target: Tensor): Tensor {
    const f = model.features(window);
    return this.forward(concat([sub(target, f.last), sub(target, f.avg), mul(f.diff, -1)], 1));
  }

  /** Action `[B, m]` from the error terms `[B, 3n]`: proportional, integral (window mean), derivative. */
  forward(terms: Tensor): Tensor {
    const n = this.kp.shape[0]!;
    const b = terms.shape[0]!;
    const e = slice(terms, [0, 0], [b, n]);
    const integral = slice(terms, [0, n], [b, n]);
    const derivative = slice(terms, [0, 2 * n], [b, n]);
    const u = add(add(add(matmul(e, this.kp), matmul(integral, this.ki)), matmul(derivative, this.kd)), this.bias);
    return add(this.mid, mul(this.half, tanh(u)));
  }

  /** Frees the constant tensors (parameters are freed by `dispose`). */
  disposeAll(): void {
    this.dispose();
    this.mid.dispose();
    this.half.dispose();
  }
}

/**
 * Rolls `horizon` steps from windows `[B, h*n]`. `targets[k]` is the set-point `[B, n]` of step
 * `k+1`; `actions[k]` (logged actions `[B, m]`) replaces the controller when given.
 * @returns predicted observations per step (each `[B, n]`).
 */
export function rollout(
  model: ResponseModel,
  window: Tensor,
  targets: readonly Tensor[],
  policy: { controller: PidController } | { actions: readonly Tensor[] },
): Tensor[] {
  const out: Tensor[] = [];
  let w = window;
  for (let k = 0; k < targets.length; k++) {
    const a = 'actions' in policy ? policy.actions[k]! : policy.controller.act(model, w, targets[k]!);
    const next = model.predict(w, a);
    out.push(next);
    w = model.shift(w, next);
  }
  return out;
}
