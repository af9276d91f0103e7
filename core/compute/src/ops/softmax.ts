/** Softmax family along one axis: softmax, log-softmax, logsumexp (numerically stable). */
import { applyOp, defineOp } from '../autograd.ts';
import { Tensor } from '../tensor.ts';
import { exp, mul, sub } from './elementwise.ts';
import { sum } from './reduce.ts';
import { normAxis } from './util.ts';

interface SoftmaxParams {
  axis: number;
  keepDims?: boolean;
}

function split(shape: readonly number[], axis: number): { outer: number; size: number; inner: number } {
  let outer = 1;
  let inner = 1;
  for (let i = 0; i < axis; i++) outer *= shape[i]!;
  for (let i = axis + 1; i < shape.length; i++) inner *= shape[i]!;
  return { outer, size: shape[axis]!, inner };
}

/** softmax op definition. Backward: dx = y * (g - sum(g*y)). */
export const softmaxDef = defineOp<SoftmaxParams>({
  name: 'softmax',
  shape: (i) => [...i[0]!.shape],
  forward: (i, out, p, be) => be.dispatch({ kind: 'softmax', op: 'softmax', ...split(i[0]!.shape, p.axis) }, [i[0]!.buffer], [out.buffer]),
  backward: (g, _i, y, p) => [mul(y, sub(g, sum(mul(g, y), p.axis, true)))],
});

/** log-softmax op definition. Backward: dx = g - softmax(x) * sum(g). */
export const logSoftmaxDef = defineOp<SoftmaxParams>({
  name: 'log-softmax',
  shape: (i) => [...i[0]!.shape],
  forward: (i, out, p, be) => be.dispatch({ kind: 'softmax', op: 'log-softmax', ...split(i[0]!.shape, p.axis) }, [i[0]!.buffer], [out.buffer]),
  backward: (g, _i, y, p) => [sub(g, mul(exp(y), sum(g, p.axis, true)))],
});

/** logsumexp op definition. Backward: dx = g * exp(x - out). */
export const logsumexpDef = defineOp<SoftmaxParams>({
  name: 'logsumexp',
  shape: (i, p) => {
    const s = [...i[0]!.shape];
    if (p.keepDims) s[p.axis] = 1;
    else s.splice(p.axis, 1);
    return s;
  },
  forward: (i, out, p, be) => be.dispatch({ kind: 'softmax', op: 'logsumexp', ...split(i[0]!.shape, p.axis) }, [i[0]!.buffer], [out.buffer]),
  backward: (g, i, out, p) => {
    const ks = [...i[0]!.shape];
    ks[p.axis] = 1;
    return [mul(g.view(ks), exp(sub(i[0]!, out.view(ks))))];
  },
});

/** Softmax along `axis` (default last). */
export function softmax(x: Tensor, axis = -1): Tensor {
  return applyOp(softmaxDef, [x], { axis: normAxis(axis, x.rank) });
}

/** Log-softmax along `axis` (default last). */
export function logSoftmax(x: Tensor, axis = -1): Tensor {
  return applyOp(logSoftmaxDef, [x], { axis: normAxis(axis, x.rank) });
}

/** log(sum(exp(x))) along `axis` (default last), stable. */
export function logsumexp(x: Tensor, axis = -1, keepDims = false): Tensor {
  return applyOp(logsumexpDef, [x], { axis: normAxis(axis, x.rank), keepDims });
}
