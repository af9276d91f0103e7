/**
 * Fused layer normalisation over the last axis: ONE `layer-norm` kernel forward (mean, variance,
 * normalise, scale, shift) and ONE `layer-norm-grad` kernel backward (dx, dgamma, dbeta),
 * instead of the ~8 elementwise/reduction kernels of the composed form
 *   (x - mean(x)) * rsqrt(mean((x - mean(x))^2) + eps) * gamma + beta
 * which `test/fused.test.ts` checks it against.
 */
import { applyOp, defineOp } from '../autograd.ts';
import { Tensor, empty, isGradEnabled } from '../tensor.ts';

interface LayerNormParams {
  eps: number;
  gamma: boolean;
  beta: boolean;
}

/** Per-row mean and rstd of a forward pass, kept for its backward (keyed by the output). */
const saved = new WeakMap<Tensor, { mean: Tensor; rstd: Tensor }>();

export const layerNormDef = defineOp<LayerNormParams>({
  name: 'layer-norm',
  shape: (i, p) => {
    const x = i[0]!;
    const d = x.shape[x.rank - 1];
    if (x.rank === 0 || d === undefined) throw new Error('compute: layerNorm needs at least one axis');
    for (const t of i.slice(1)) {
      if (t.size !== d) throw new Error(`compute: layerNorm: parameter [${t.shape}] does not match the last axis of [${x.shape}]`);
    }
    if (i.length !== 1 + (p.gamma ? 1 : 0) + (p.beta ? 1 : 0)) throw new Error('compute: layerNorm: inputs do not match the gamma/beta flags');
    return [...x.shape];
  },
  forward: (i, out, p, be) => {
    const x = i[0]!;
    const size = x.shape[x.rank - 1]!;
    const rows = x.size / size;
    const mean = empty([rows], be);
    const rstd = empty([rows], be);
    be.dispatch({ kind: 'layer-norm', rows, size, eps: p.eps, gamma: p.gamma, beta: p.beta }, i.map((t) => t.buffer), [out.buffer, mean.buffer, rstd.buffer]);
    if (isGradEnabled() && i.some((t) => t.requiresGrad)) saved.set(out, { mean, rstd });
    else {
      mean.dispose();
      rstd.dispose();
    }
  },
  backward: (g, i, out, p) => {
    const x = i[0]!;
    const s = saved.get(out);
    if (!s) throw new Error('compute: layerNorm backward without saved statistics');
    const be = g.backend;
    const size = x.shape[x.rank - 1]!;
    const rows = x.size / size;
    const dx = empty(x.shape, be);
    const gamma = p.gamma ? i[1]! : null;
    const dgamma = gamma ? empty(gamma.shape, be) : null;
    const betaT = p.beta ? i[p.gamma ? 2 : 1]! : null;
    const dbeta = betaT ? empty(betaT.shape, be) : null;
    const ins = [g.buffer, x.buffer, s.mean.buffer, s.rstd.buffer];
    if (gamma) ins.push(gamma.buffer);
    const outs = [dx.buffer];
    if (dgamma) outs.push(dgamma.buffer);
    if (dbeta) outs.push(dbeta.buffer);
    be.dispatch({ kind: 'layer-norm-grad', rows, size, gamma: p.gamma, beta: p.beta }, ins, outs);
    const res: (Tensor | null)[] = [dx];
    if (p.gamma) res.push(dgamma);
    if (p.beta) res.push(dbeta);
    return res;
  },
});

/**
 * Layer norm over the last axis: (x - mean) / sqrt(var + eps) * gamma + beta (biased variance),
 * fused into one kernel each way. `gamma`/`beta` (shape [d] or any shape of d elements) may be null.
 */
export function layerNormFused(x: Tensor, gamma: Tensor | null, beta: Tensor | null, eps = 1e-5): Tensor {
  const inputs = [x];
  if (gamma) inputs.push(gamma);
  if (beta) inputs.push(beta);
  return applyOp(layerNormDef, inputs, { eps, gamma: !!gamma, beta: !!beta });
}
