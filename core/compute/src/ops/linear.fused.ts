/**
 * Fused linear layer: y = act(x @ W + b) in ONE matmul kernel (bias and activation applied in
 * the kernel's epilogue), with a hand-written backward (activation-grad, two transposed matmuls,
 * one row reduction). Also the ensemble form: k independent layers as one batched matmul.
 * Must match the generic path `act(add(matmul(x, W), b))` (see test/fused.test.ts).
 */
import type { Activation } from '../backends/backend.ts';
import type { BackendBuffer, MatmulKernel } from '../backends/backend.ts';
import { applyOp, defineOp } from '../autograd.ts';
import { Tensor, empty, isGradEnabled } from '../tensor.ts';
import { rawMatmul } from './matmul.ts';

interface LinearParams {
  activation: Activation;
  alpha: number;
}

/**
 * Fused linear op. Inputs `[x, W]` or `[x, W, b]`:
 * - single: x [..., in], W [in, out], b [out] -> [..., out]
 * - ensemble: x [E, B, in] (or [B, in], shared by all members), W [E, in, out], b [E, out] -> [E, B, out]
 */
export const linearDef = defineOp<LinearParams>({
  name: 'linear',
  shape: (i) => {
    const [x, w] = i as [Tensor, Tensor];
    const inDim = w.shape[w.rank - 2]!;
    const outDim = w.shape[w.rank - 1]!;
    if (x.shape[x.rank - 1] !== inDim) throw new Error(`compute: linear: input [${x.shape}] does not match weight [${w.shape}]`);
    const b = i[2];
    if (w.rank === 2) {
      if (b && b.size !== outDim) throw new Error(`compute: linear: bias [${b.shape}] does not match weight [${w.shape}]`);
      return [...x.shape.slice(0, -1), outDim];
    }
    if (w.rank !== 3) throw new Error('compute: linear: weight must be [in, out] or [E, in, out]');
    const e = w.shape[0]!;
    if (b && b.size !== e * outDim) throw new Error(`compute: linear: bias [${b.shape}] does not match weight [${w.shape}]`);
    if (x.rank === 3 && x.shape[0] !== e) throw new Error(`compute: linear: ensemble input [${x.shape}] vs weight [${w.shape}]`);
    if (x.rank !== 2 && x.rank !== 3) throw new Error('compute: linear: ensemble input must be [B, in] or [E, B, in]');
    return [e, x.shape[x.rank - 2]!, outDim];
  },
  forward: (i, out, p, be) => {
    const [x, w, b] = i as [Tensor, Tensor, Tensor | undefined];
    // silu's backward needs the pre-activation: compute it unfused and keep it on the output.
    const act = p.activation === 'silu' ? 'none' : p.activation;
    const ensemble = w.rank === 3;
    const n = w.shape[w.rank - 1]!;
    const k = w.shape[w.rank - 2]!;
    const ins = b ? [x.buffer, w.buffer, b.buffer] : [x.buffer, w.buffer];
    const target = p.activation === 'silu' ? empty(out.shape, be) : out;
    if (!ensemble) {
      be.dispatch({ kind: 'matmul', batch: 1, m: x.size / k, n, k, transA: false, transB: false, aBatchStride: 0, bBatchStride: 0, biasBatchStride: 0, bias: !!b, activation: act, alpha: p.alpha, accumulate: false }, ins, [target.buffer]);
    } else {
      const e = w.shape[0]!;
      const m = x.shape[x.rank - 2]!;
      be.dispatch({ kind: 'matmul', batch: e, m, n, k, transA: false, transB: false, aBatchStride: x.rank === 3 ? m * k : 0, bBatchStride: k * n, biasBatchStride: n, bias: !!b, activation: act, alpha: p.alpha, accumulate: false }, ins, [target.buffer]);
    }
    if (p.activation === 'silu') {
      be.dispatch({ kind: 'unary', op: 'silu', size: out.size, alpha: 0, beta: 0 }, [target.buffer], [out.buffer]);
      preActivation.set(out, target);
    }
  },
  backward: (g, i, out, p) => {
    const [x, w, b] = i as [Tensor, Tensor, Tensor | undefined];
    const be = g.backend;
    let dPre = g;
    if (p.activation !== 'none') {
      dPre = empty(out.shape, be);
      const second = p.activation === 'silu' ? preActivation.get(out)! : out;
      be.dispatch({ kind: 'activation-grad', activation: p.activation, size: out.size, alpha: p.alpha }, [g.buffer, second.buffer], [dPre.buffer]);
    }
    const ensemble = w.rank === 3;
    let gx: Tensor | null = null;
    let gw: Tensor | null = null;
    let gb: Tensor | null = null;
    const n = w.shape[w.rank - 1]!;
    if (x.requiresGrad) {
      // dX = dPre @ W^T (ensemble with shared x: summed over members)
      if (!ensemble) gx = rawMatmul(dPre.view([dPre.size / n, n]), w, false, true).view(x.shape);
      else gx = rawMatmul(dPre, w, false, true, {}, x.rank === 2);
    }
    if (w.requiresGrad) {
      if (!ensemble) {
        const xf = x.view([x.size / x.shape[x.rank - 1]!, x.shape[x.rank - 1]!]);
        const df = dPre.view([dPre.size / n, n]);
        gw = rawMatmul(xf, df, true, false);
      } else {
        gw = rawMatmul(x, dPre, true, false);
      }
    }
    if (b && b.requiresGrad) {
      const rows = dPre.size / n;
      if (!ensemble) {
        gb = empty(b.shape, be);
        be.dispatch({ kind: 'reduce', op: 'sum', shape: [rows, n], axes: [0] }, [dPre.buffer], [gb.buffer]);
      } else {
        const e = w.shape[0]!;
        gb = empty(b.shape, be);
        be.dispatch({ kind: 'reduce', op: 'sum', shape: [e, rows / e, n], axes: [1] }, [dPre.buffer], [gb.buffer]);
      }
    }
    return b ? [gx, gw, gb] : [gx, gw];
  },
});

/** Pre-activations kept for silu's backward, keyed weakly by the output tensor. */
const preActivation = new WeakMap<Tensor, Tensor>();

/**
 * y = act(x @ W + b), fused. `W` is [in, out] (or [E, in, out] for an ensemble), `b` is [out]
 * (or [E, out] / [E, 1, out]). `alpha` is the leaky-relu slope.
 * @throws Error on shape mismatch.
 */
export function linear(x: Tensor, w: Tensor, b: Tensor | null = null, activation: Activation = 'none', alpha = 0.01): Tensor {
  const y = applyOp(linearDef, b ? [x, w, b] : [x, w], { activation, alpha });
  if (activation === 'silu' && !y.gradNode) {
    // No backward will read the pre-activation: free it now rather than at garbage collection.
    preActivation.get(y)?.dispose();
    preActivation.delete(y);
  }
  return y;
}

/** A layer of {@link linearChainNoGrad}: `act(x @ weight + bias)`, weight `[in, out]`. */
export interface ChainLayer {
  readonly weight: Tensor;
  readonly bias: Tensor | null;
  readonly activation: Activation;
  readonly alpha: number;
}

/**
 * Inference through a chain of single (non-ensemble) linear layers with gradients off: one
 * matmul kernel per layer (bias and activation fused; silu as one more kernel) straight on
 * backend buffers, with no tensor, autograd bookkeeping or shape rule per hidden layer: only the
 * result is a tensor. Equal to applying {@link linear} layer by layer. This is what a batch-1 or
 * batch-32 forward pass costs beyond its arithmetic: on the CPU paths the per-op overhead
 * (tensor objects, finalizer registration, scope tracking) was ~5 us a layer against ~2 us of
 * work at batch 1. Returns null (the caller takes the generic path) when gradients are being
 * recorded, or for shapes it does not handle (the generic path then reports errors).
 */
export function linearChainNoGrad(x: Tensor, layers: readonly ChainLayer[]): Tensor | null {
  if (isGradEnabled() || layers.length === 0 || x.rank < 1) return null;
  const be = x.backend;
  let width = x.shape[x.rank - 1]!;
  const rows = width ? x.size / width : 0;
  if (rows === 0) return null;
  for (const l of layers) {
    const w = l.weight;
    if (w.rank !== 2 || w.shape[0] !== width || w.backend !== be || (l.bias && (l.bias.size !== w.shape[1] || l.bias.backend !== be))) return null;
    width = w.shape[1]!;
  }
  const out = empty([...x.shape.slice(0, -1), width], be);
  let input: BackendBuffer = x.buffer;
  let owned: BackendBuffer | null = null;
  for (let i = 0; i < layers.length; i++) {
    const l = layers[i]!;
    const k = l.weight.shape[0]!;
    const n = l.weight.shape[1]!;
    const last = i + 1 === layers.length;
    const silu = l.activation === 'silu';
    const target = last && !silu ? out.buffer : be.alloc(rows * n);
    const kernel: MatmulKernel = {
      kind: 'matmul', batch: 1, m: rows, n, k, transA: false, transB: false, aBatchStride: 0, bBatchStride: 0, biasBatchStride: 0,
      bias: !!l.bias, activation: silu ? 'none' : l.activation, alpha: l.alpha, accumulate: false,
    };
    be.dispatch(kernel, l.bias ? [input, l.weight.buffer, l.bias.buffer] : [input, l.weight.buffer], [target]);
    let result = target;
    if (silu) {
      result = last ? out.buffer : be.alloc(rows * n);
      be.dispatch({ kind: 'unary', op: 'silu', size: rows * n, alpha: 0, beta: 0 }, [target], [result]);
      be.free(target);
    }
    if (owned) be.free(owned);
    owned = last ? null : result;
    input = result;
  }
  return out;
}
