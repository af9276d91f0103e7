/** Loss functions (mean over all elements unless stated). */
import { Tensor } from '../tensor.ts';
import { abs, add, addScalar, clamp, log, minimum, mul, mulScalar, neg, square, sub } from '../ops/elementwise.ts';
import { mean, sum } from '../ops/reduce.ts';
import { logSoftmax } from '../ops/softmax.ts';
import { reshape, takeAlongAxis } from '../ops/shape.ts';

/** Mean squared error. */
export function mseLoss(pred: Tensor, target: Tensor): Tensor {
  return mean(square(sub(pred, target)));
}

/** Mean absolute error. */
export function l1Loss(pred: Tensor, target: Tensor): Tensor {
  return mean(abs(sub(pred, target)));
}

/** Huber loss with threshold `delta`: 0.5 d^2 for |d| <= delta, else delta(|d| - delta/2). */
export function huberLoss(pred: Tensor, target: Tensor, delta = 1): Tensor {
  const a = abs(sub(pred, target));
  const q = minimum(a, delta);
  return mean(add(mulScalar(square(q), 0.5), mulScalar(sub(a, q), delta)));
}

/**
 * Cross-entropy of logits [B, K] against integer class indices [B] (float32 integers), mean
 * over the batch.
 */
export function crossEntropy(logits: Tensor, targets: Tensor): Tensor {
  const lp = logSoftmax(logits, -1);
  const picked = takeAlongAxis(lp, reshape(targets, [targets.size, 1]), -1);
  return neg(mean(picked));
}

/** Binary cross-entropy on probabilities in (0, 1), clamped to [1e-7, 1-1e-7] for stability. */
export function binaryCrossEntropy(p: Tensor, target: Tensor): Tensor {
  const pc = clamp(p, 1e-7, 1 - 1e-7);
  const l = add(mul(target, log(pc)), mul(addScalar(neg(target), 1), log(addScalar(neg(pc), 1))));
  return neg(mean(l));
}

/** Sum of squares of all elements of the given tensors (L2 penalty), not halved. */
export function l2Penalty(params: readonly Tensor[]): Tensor {
  let acc: Tensor | null = null;
  for (const p of params) {
    const s = sum(square(p));
    acc = acc ? add(acc, s) : s;
  }
  if (!acc) throw new Error('compute: l2Penalty of no parameters');
  return acc;
}
