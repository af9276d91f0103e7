/**
 * Reductions over axes: sum, mean, max, min (optionally keeping reduced dims), plus argmax.
 */
import type { ReduceOp } from '../backends/backend.ts';
import { applyOp, defineOp } from '../autograd.ts';
import { Tensor, empty } from '../tensor.ts';
import { div, eq, mul } from './elementwise.ts';
import { normAxes } from './util.ts';

interface ReduceParams {
  axes: number[];
  keepDims: boolean;
}

function reducedShape(shape: readonly number[], p: ReduceParams): number[] {
  const out: number[] = [];
  shape.forEach((d, i) => {
    if (!p.axes.includes(i)) out.push(d);
    else if (p.keepDims) out.push(1);
  });
  return out;
}

function keptShape(shape: readonly number[], axes: number[]): number[] {
  return shape.map((d, i) => (axes.includes(i) ? 1 : d));
}

/** Expands g (reduced shape) back to `shape` via broadcast copy (no autograd). */
function expandGrad(g: Tensor, shape: readonly number[], axes: number[]): Tensor {
  const ks = keptShape(shape, axes);
  const out = empty(shape, g.backend);
  // broadcast copy: src strides of the kept shape with 0 on reduced axes
  const st: number[] = [];
  let s = 1;
  for (let i = ks.length - 1; i >= 0; i--) {
    st[i] = ks[i] === 1 ? 0 : s;
    s *= ks[i]!;
  }
  const dstStrides: number[] = [];
  let d = 1;
  for (let i = shape.length - 1; i >= 0; i--) {
    dstStrides[i] = d;
    d *= shape[i]!;
  }
  if (out.size) g.backend.dispatch({ kind: 'copy', shape: [...shape], srcStrides: st, srcOffset: 0, dstStrides, dstOffset: 0, accumulate: false }, [g.buffer], [out.buffer]);
  return out;
}

function makeReduce(op: ReduceOp) {
  return defineOp<ReduceParams>({
    name: op,
    shape: (i, p) => reducedShape(i[0]!.shape, p),
    forward: (i, out, p, be) => be.dispatch({ kind: 'reduce', op, shape: [...i[0]!.shape], axes: p.axes }, [i[0]!.buffer], [out.buffer]),
    backward: (g, i, out, p) => {
      const x = i[0]!;
      const ge = expandGrad(g, x.shape, p.axes);
      if (op === 'sum') return [ge];
      if (op === 'mean') {
        let n = 1;
        for (const a of p.axes) n *= x.shape[a]!;
        const r = empty(x.shape, x.backend);
        x.backend.dispatch({ kind: 'unary', op: 'affine', size: x.size, alpha: 1 / n, beta: 0 }, [ge.buffer], [r.buffer]);
        return [r];
      }
      // max/min: gradient split evenly among ties.
      const oe = expandGrad(out, x.shape, p.axes);
      const mask = eq(x, oe);
      const cnt = expandGrad(applyOp(reduceDefs.sum, [mask], p), x.shape, p.axes);
      return [div(mul(ge, mask), cnt)];
    },
  });
}

/** The reduction op definitions. */
export const reduceDefs = {
  sum: makeReduce('sum'),
  mean: makeReduce('mean'),
  max: makeReduce('max'),
  min: makeReduce('min'),
};

function reduce(op: ReduceOp, x: Tensor, axes?: number | readonly number[], keepDims = false): Tensor {
  const ax = normAxes(axes, x.rank);
  return applyOp(reduceDefs[op], [x], { axes: ax, keepDims });
}

/** Sum over `axes` (default: all). */
export const sum = (x: Tensor, axes?: number | readonly number[], keepDims = false): Tensor => reduce('sum', x, axes, keepDims);
/** Mean over `axes` (default: all). */
export const mean = (x: Tensor, axes?: number | readonly number[], keepDims = false): Tensor => reduce('mean', x, axes, keepDims);
/** Max over `axes` (default: all); gradient shared among ties. */
export const max = (x: Tensor, axes?: number | readonly number[], keepDims = false): Tensor => reduce('max', x, axes, keepDims);
/** Min over `axes` (default: all); gradient shared among ties. */
export const min = (x: Tensor, axes?: number | readonly number[], keepDims = false): Tensor => reduce('min', x, axes, keepDims);

/**
 * Index of the maximum along the last axis (float32 holding integers; first index on ties).
 * Not differentiable. Reads synchronously on backends that can, else computes via ops.
 */
export function argmax(x: Tensor): Tensor {
  const n = x.shape[x.rank - 1]!;
  const rows = x.size / n;
  const d = x.dataSync();
  const out = new Float32Array(rows);
  for (let r = 0; r < rows; r++) {
    let bi = 0;
    let bv = -Infinity;
    for (let j = 0; j < n; j++) {
      const v = d[r * n + j]!;
      if (v > bv) { bv = v; bi = j; }
    }
    out[r] = bi;
  }
  const t = empty(x.shape.slice(0, -1), x.backend);
  x.backend.write(t.buffer, out);
  return t;
}
