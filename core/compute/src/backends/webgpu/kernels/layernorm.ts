/**
 * Fused layer norm in WGSL (see LayerNormKernel / LayerNormGradKernel in backend.ts).
 * Forward: one thread per row (mean, variance, normalise, scale, shift; writes mean and rstd).
 * Backward: one thread per row for dx, then one thread per column for dgamma / dbeta (sums over
 * rows, no atomics). Rows of a layer norm are short (hidden widths), so the serial loops are
 * the simple and adequate choice here.
 */
import type { LayerNormGradKernel, LayerNormKernel } from '../../backend.ts';
import { grid1d, type GpuRuntime } from '../runtime.ts';
import { LINEAR_ENTRY, uniforms } from '../wgsl.ts';

const LN_PARAMS = uniforms([
  ['rows', 'u32'],
  ['size', 'u32'],
  ['eps', 'f32'],
]);

function decl(names: readonly [string, 'r' | 'rw'][]): string {
  return names
    .map(([n, m], i) => `@group(0) @binding(${i + 1}) var<storage, ${m === 'r' ? 'read' : 'read_write'}> ${n}: array<f32>;`)
    .join('\n');
}

/** Records the forward layer norm. */
export function encodeLayerNorm(rt: GpuRuntime, k: LayerNormKernel, x: GPUBuffer, params: readonly GPUBuffer[], y: GPUBuffer, mean: GPUBuffer, rstd: GPUBuffer): void {
  if (k.rows === 0 || k.size === 0) return;
  const binds: [string, 'r' | 'rw'][] = [['xs', 'r']];
  if (k.gamma) binds.push(['gs', 'r']);
  if (k.beta) binds.push(['bs', 'r']);
  binds.push(['ys', 'rw'], ['ms', 'rw'], ['rs', 'rw']);
  rt.dispatch(
    `layer-norm:${k.gamma ? 'g' : ''}${k.beta ? 'b' : ''}`,
    () => ({
      bindings: binds.map(([, m]) => m),
      code: `${LN_PARAMS.wgsl}
${decl(binds)}
${LINEAR_ENTRY}
  if (i >= p.rows) { return; }
  let base = i * p.size;
  var s = 0.0;
  for (var j = 0u; j < p.size; j++) { s = s + xs[base + j]; }
  let mu = s / f32(p.size);
  var v = 0.0;
  for (var j = 0u; j < p.size; j++) { let c = xs[base + j] - mu; v = v + c * c; }
  let r = 1.0 / sqrt(v / f32(p.size) + p.eps);
  ms[i] = mu;
  rs[i] = r;
  for (var j = 0u; j < p.size; j++) {
    var h = (xs[base + j] - mu) * r;
    ${k.gamma ? 'h = h * gs[j];' : ''}
    ${k.beta ? 'h = h + bs[j];' : ''}
    ys[base + j] = h;
  }
}`,
    }),
    [x, ...params, y, mean, rstd],
    LN_PARAMS.pack({ rows: k.rows, size: k.size, eps: k.eps }),
    grid1d(Math.ceil(k.rows / 256)),
  );
}

/** Records the layer-norm backward (dx, then dgamma/dbeta when requested). */
export function encodeLayerNormGrad(
  rt: GpuRuntime, k: LayerNormGradKernel, dy: GPUBuffer, x: GPUBuffer, mean: GPUBuffer, rstd: GPUBuffer, gamma: GPUBuffer | null,
  dx: GPUBuffer, dgamma: GPUBuffer | null, dbeta: GPUBuffer | null,
): void {
  if (k.rows === 0 || k.size === 0) return;
  const packed = LN_PARAMS.pack({ rows: k.rows, size: k.size, eps: 0 });
  const b1: [string, 'r' | 'rw'][] = [['dys', 'r'], ['xs', 'r'], ['ms', 'r'], ['rs', 'r']];
  if (gamma) b1.push(['gs', 'r']);
  b1.push(['dxs', 'rw']);
  const g = gamma ? ' * gs[j]' : '';
  rt.dispatch(
    `layer-norm-grad-dx:${gamma ? 'g' : ''}`,
    () => ({
      bindings: b1.map(([, m]) => m),
      code: `${LN_PARAMS.wgsl}
${decl(b1)}
${LINEAR_ENTRY}
  if (i >= p.rows) { return; }
  let base = i * p.size;
  let mu = ms[i];
  let r = rs[i];
  var a1 = 0.0;
  var a2 = 0.0;
  for (var j = 0u; j < p.size; j++) {
    let gj = dys[base + j]${g};
    a1 = a1 + gj;
    a2 = a2 + gj * (xs[base + j] - mu) * r;
  }
  let m1 = a1 / f32(p.size);
  let m2 = a2 / f32(p.size);
  for (var j = 0u; j < p.size; j++) {
    let gj = dys[base + j]${g};
    let xh = (xs[base + j] - mu) * r;
    dxs[base + j] = r * (gj - m1 - xh * m2);
  }
}`,
    }),
    gamma ? [dy, x, mean, rstd, gamma, dx] : [dy, x, mean, rstd, dx],
    packed,
    grid1d(Math.ceil(k.rows / 256)),
  );
  if (!dgamma && !dbeta) return;
  const b2: [string, 'r' | 'rw'][] = [['dys', 'r'], ['xs', 'r'], ['ms', 'r'], ['rs', 'r']];
  if (dgamma) b2.push(['dgs', 'rw']);
  if (dbeta) b2.push(['dbs', 'rw']);
  const bufs = [dy, x, mean, rstd];
  if (dgamma) bufs.push(dgamma);
  if (dbeta) bufs.push(dbeta);
  rt.dispatch(
    `layer-norm-grad-params:${dgamma ? 'g' : ''}${dbeta ? 'b' : ''}`,
    () => ({
      bindings: b2.map(([, m]) => m),
      code: `${LN_PARAMS.wgsl}
${decl(b2)}
${LINEAR_ENTRY}
  if (i >= p.size) { return; }
  var sg = 0.0;
  var sb = 0.0;
  for (var row = 0u; row < p.rows; row++) {
    let d = dys[row * p.size + i];
    sg = sg + d * (xs[row * p.size + i] - ms[row]) * rs[row];
    sb = sb + d;
  }
  ${dgamma ? 'dgs[i] = sg;' : ''}
  ${dbeta ? 'dbs[i] = sb;' : ''}
}`,
    }),
    bufs,
    packed,
    grid1d(Math.ceil(k.size / 256)),
  );
}
