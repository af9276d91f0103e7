/**
 * Matrix products. `matmul(a, b)` is batched over leading dims (numpy rules for the batch part
 * when one side is a plain matrix or both batch shapes are equal; otherwise broadcast first).
 */
import type { Activation } from '../backends/backend.ts';
import { applyOp, defineOp } from '../autograd.ts';
import { Tensor, empty } from '../tensor.ts';
import { broadcastTo } from './shape.ts';
import { broadcastShapes, sameShape } from './util.ts';

/** Options of the raw (non-differentiable) matmul. */
export interface RawMatmulOptions {
  bias?: Tensor | null;
  /** 0 = one bias for all batches (length n); n = a bias per batch entry. */
  biasPerBatch?: boolean;
  activation?: Activation;
  alpha?: number;
}

/**
 * op(x) @ op(y) without autograd, where op transposes the last two dims when the flag is set.
 * Accepts x and y both batched with the same batch shape, or one of them a plain matrix (it is
 * broadcast over the other's batch). When both operands are batched and `sumBatch` is set, the
 * result is summed over the batch (computed as ONE flattened product when the layout allows).
 * @throws Error on inner-dimension mismatch.
 */
export function rawMatmul(x: Tensor, y: Tensor, tX: boolean, tY: boolean, opts: RawMatmulOptions = {}, sumBatch = false): Tensor {
  const xr = x.rank;
  const yr = y.rank;
  const xm = x.shape[xr - 2]!, xk = x.shape[xr - 1]!;
  const ym = y.shape[yr - 2]!, yk = y.shape[yr - 1]!;
  const m = tX ? xk : xm;
  const k = tX ? xm : xk;
  const k2 = tY ? yk : ym;
  const n = tY ? ym : yk;
  if (k !== k2) throw new Error(`compute: matmul: inner dims differ: [${x.shape}]${tX ? 'ᵀ' : ''} @ [${y.shape}]${tY ? 'ᵀ' : ''}`);
  const xb = x.shape.slice(0, -2);
  const yb = y.shape.slice(0, -2);
  const be = x.backend;
  const act = opts.activation ?? 'none';
  const alpha = opts.alpha ?? 0.01;
  const bias = opts.bias ?? null;
  const base = {
    kind: 'matmul' as const,
    bias: !!bias,
    activation: act,
    alpha,
    accumulate: false,
    biasBatchStride: 0,
  };
  const ins = bias ? [x.buffer, y.buffer, bias.buffer] : [x.buffer, y.buffer];
  // Plain matrix on the right, x batched and not transposed: flatten x's batch into rows.
  if (yb.length === 0 && !tX && !opts.biasPerBatch) {
    const rows = x.size / xk;
    const out = empty([...xb, m, n], be);
    if (out.size) be.dispatch({ ...base, batch: 1, m: rows, n, k, transA: false, transB: tY, aBatchStride: 0, bBatchStride: 0 }, ins, [out.buffer]);
    return out;
  }
  // Both batched, summed over batch, contraction over the rows of both (x^T y form): flatten.
  if (sumBatch && tX && !tY && xb.length > 0 && sameShape(xb, yb) && !bias && act === 'none') {
    const rows = x.size / xk;
    const out = empty([m, n], be);
    if (out.size) be.dispatch({ ...base, batch: 1, m, n, k: rows, transA: true, transB: false, aBatchStride: 0, bBatchStride: 0 }, [x.buffer, y.buffer], [out.buffer]);
    return out;
  }
  let batchShape: number[];
  if (xb.length === 0) batchShape = yb;
  else if (yb.length === 0) batchShape = xb;
  else if (sameShape(xb, yb)) batchShape = xb;
  else throw new Error(`compute: matmul: batch shapes [${xb}] and [${yb}] differ (broadcast first)`);
  let batch = 1;
  for (const d of batchShape) batch *= d;
  const out = empty([...batchShape, m, n], be);
  if (out.size) {
    be.dispatch(
      {
        ...base,
        batch,
        m,
        n,
        k,
        transA: tX,
        transB: tY,
        aBatchStride: xb.length ? m * k : 0,
        bBatchStride: yb.length ? k * n : 0,
        biasBatchStride: opts.biasPerBatch ? n : 0,
      },
      ins,
      [out.buffer],
    );
  }
  if (sumBatch && batchShape.length) {
    const s = empty([m, n], be);
    be.dispatch({ kind: 'reduce', op: 'sum', shape: [batch, m * n], axes: [0] }, [out.buffer], [s.buffer]);
    return s;
  }
  return out;
}

interface MatmulParams {
  transA: boolean;
  transB: boolean;
}

/** Gradient of C = op(A) op(B) w.r.t. A and B (raw, no autograd). */
export function matmulGrads(g: Tensor, a: Tensor, b: Tensor, tA: boolean, tB: boolean): [Tensor | null, Tensor | null] {
  const aBatched = a.rank > 2;
  const bBatched = b.rank > 2;
  let ga: Tensor | null = null;
  let gb: Tensor | null = null;
  if (a.requiresGrad) {
    const sum = !aBatched && bBatched;
    ga = tA ? rawMatmul(b, g, tB, true, {}, sum) : rawMatmul(g, b, false, !tB, {}, sum);
  }
  if (b.requiresGrad) {
    const sum = !bBatched && aBatched;
    gb = tB ? rawMatmul(g, a, true, tA, {}, sum) : rawMatmul(a, g, !tA, false, {}, sum);
  }
  return [ga, gb];
}

/** matmul op definition (inputs already batch-compatible). */
export const matmulDef = defineOp<MatmulParams>({
  name: 'matmul',
  shape: (i, p) => {
    const [a, b] = i as [Tensor, Tensor];
    if (a.rank < 2 || b.rank < 2) throw new Error('compute: matmul needs rank >= 2 operands');
    const m = p.transA ? a.shape[a.rank - 1]! : a.shape[a.rank - 2]!;
    const k = p.transA ? a.shape[a.rank - 2]! : a.shape[a.rank - 1]!;
    const k2 = p.transB ? b.shape[b.rank - 1]! : b.shape[b.rank - 2]!;
    const n = p.transB ? b.shape[b.rank - 2]! : b.shape[b.rank - 1]!;
    if (k !== k2) throw new Error(`compute: matmul: inner dims differ: [${a.shape}] @ [${b.shape}]`);
    const ab = a.shape.slice(0, -2);
    const bb = b.shape.slice(0, -2);
    return [...(ab.length ? ab : bb), m, n];
  },
  forward: (i, out, p, be) => {
    const [a, b] = i as [Tensor, Tensor];
    const ar = a.rank, br = b.rank;
    const m = out.shape[out.rank - 2]!, n = out.shape[out.rank - 1]!;
    const k = p.transA ? a.shape[ar - 2]! : a.shape[ar - 1]!;
    const ab = ar > 2, bbat = br > 2;
    if (!bbat && !p.transA) {
      be.dispatch({ kind: 'matmul', batch: 1, m: a.size / a.shape[ar - 1]!, n, k, transA: false, transB: p.transB, aBatchStride: 0, bBatchStride: 0, biasBatchStride: 0, bias: false, activation: 'none', alpha: 0, accumulate: false }, [a.buffer, b.buffer], [out.buffer]);
      return;
    }
    const batch = out.size / (m * n);
    be.dispatch({ kind: 'matmul', batch, m, n, k, transA: p.transA, transB: p.transB, aBatchStride: ab ? m * k : 0, bBatchStride: bbat ? k * n : 0, biasBatchStride: 0, bias: false, activation: 'none', alpha: 0, accumulate: false }, [a.buffer, b.buffer], [out.buffer]);
  },
  backward: (g, i, _o, p) => matmulGrads(g, i[0]!, i[1]!, p.transA, p.transB),
});

/**
 * Batched matrix product op(a) @ op(b) (`transA`/`transB` transpose the last two dims).
 * Batch dims broadcast (numpy rules). @throws Error on shape mismatch.
 */
export function matmul(a: Tensor, b: Tensor, transA = false, transB = false): Tensor {
  let aa = a;
  let bb = b;
  const ab = a.shape.slice(0, -2);
  const bbs = b.shape.slice(0, -2);
  if (ab.length && bbs.length && !sameShape(ab, bbs)) {
    const bs = broadcastShapes(ab, bbs, 'matmul');
    aa = broadcastTo(a, [...bs, ...a.shape.slice(-2)]);
    bb = broadcastTo(b, [...bs, ...b.shape.slice(-2)]);
  }
  return applyOpMatmul(aa, bb, { transA, transB });
}

function applyOpMatmul(a: Tensor, b: Tensor, p: MatmulParams): Tensor {
  return applyOp(matmulDef, [a, b], p);
}
