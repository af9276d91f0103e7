/**
 * Tiled, batched matrix product with fused bias + activation (the forward of a linear layer) and
 * in-place accumulation (gradient accumulation), WGSL.
 *
 *   C[b] = act(op(A[b]) @ op(B[b]) + bias)      op = transpose when transA / transB
 *
 * Each workgroup computes a TM x TN tile of C; each thread an RM x RN register block. The K
 * dimension is walked in KT-wide slabs staged through workgroup memory. Tile loads are mapped
 * so that consecutive threads read consecutive addresses for both storage orders of A and B
 * (this is what keeps the transposed products of backpropagation, dA = dY Bᵀ and dB = Aᵀ dY, as
 * fast as the plain one). Two tile shapes: 64x64 (4x4 per thread) for general shapes and
 * 16x64 (1x4 per thread) when m <= 16 (inference with small batches).
 *
 * A second family, 'direct' (no workgroup memory, no barriers, unrolled scalar accumulators),
 * is used on software fallback adapters: on SwiftShader every barrier is a coroutine switch and
 * the tiled kernel is 3-4x slower than direct reads. Both families are checked by the tests.
 *
 * The backward of a fused linear layer is: `activation-grad` (dPre), then this kernel with
 * transB (dA = dPre Wᵀ) and transA (dW = Aᵀ dPre, optionally accumulating), and a `reduce` sum
 * over rows for the bias.
 */
import type { MatmulKernel } from '../../backend.ts';
import type { GpuRuntime } from '../runtime.ts';
import { MATH_WGSL, activationExpr, uniforms } from '../wgsl.ts';

const PARAMS = uniforms([
  ['m', 'u32'],
  ['n', 'u32'],
  ['k', 'u32'],
  ['aBatch', 'u32'],
  ['bBatch', 'u32'],
  ['biasBatch', 'u32'],
  ['alpha', 'f32'],
]);

interface Tile {
  tm: number;
  tn: number;
  kt: number;
  rm: number;
  rn: number;
}

const TILE_LARGE: Tile = { tm: 64, tn: 64, kt: 16, rm: 4, rn: 4 };
const TILE_SMALL_M: Tile = { tm: 16, tn: 64, kt: 16, rm: 1, rn: 4 };

/** Picks the tile shape for a problem (part of the pipeline key). */
export function chooseTile(m: number): Tile {
  return m <= 16 ? TILE_SMALL_M : TILE_LARGE;
}

function source(k: MatmulKernel, t: Tile): string {
  const wx = t.tn / t.rn;
  const wy = t.tm / t.rm;
  const threads = wx * wy;
  const aLoads = (t.tm * t.kt) / threads;
  const bLoads = (t.tn * t.kt) / threads;
  // Element (row, col) of op(A) / op(B) in storage.
  const aAt = k.transA ? '(gk * p.m + gm)' : '(gm * p.k + gk)';
  const bAt = k.transB ? '(gn * p.k + gk)' : '(gk * p.n + gn)';
  // Map the e-th loaded element to (kk, mm): consecutive e along the storage-contiguous axis.
  const aMap = k.transA
    ? `let mm = e % ${t.tm}u; let kk = e / ${t.tm}u;`
    : `let kk = e % ${t.kt}u; let mm = e / ${t.kt}u;`;
  const bMap = k.transB
    ? `let kk = e % ${t.kt}u; let nn = e / ${t.kt}u;`
    : `let nn = e % ${t.tn}u; let kk = e / ${t.tn}u;`;
  const act = activationExpr(k.activation, 'v', 'p.alpha');
  return `${PARAMS.wgsl}${MATH_WGSL}
@group(0) @binding(1) var<storage, read> A: array<f32>;
@group(0) @binding(2) var<storage, read> B: array<f32>;
@group(0) @binding(3) var<storage, read_write> C: array<f32>;
${k.bias ? '@group(0) @binding(4) var<storage, read> bias: array<f32>;' : ''}
var<workgroup> As: array<f32, ${t.kt * t.tm}>;
var<workgroup> Bs: array<f32, ${t.kt * t.tn}>;
@compute @workgroup_size(${wx}, ${wy}, 1)
fn main(@builtin(local_invocation_id) lid: vec3<u32>, @builtin(workgroup_id) wid: vec3<u32>) {
  let batch = wid.z;
  let aBase = batch * p.aBatch;
  let bBase = batch * p.bBatch;
  let cBase = batch * p.m * p.n;
  let row0 = wid.y * ${t.tm}u;
  let col0 = wid.x * ${t.tn}u;
  let tid = lid.y * ${wx}u + lid.x;
  var acc: array<f32, ${t.rm * t.rn}>;
  for (var i = 0u; i < ${t.rm * t.rn}u; i++) { acc[i] = 0.0; }
  var ra: array<f32, ${t.rm}>;
  var rb: array<f32, ${t.rn}>;
  for (var k0 = 0u; k0 < p.k; k0 += ${t.kt}u) {
    for (var l = 0u; l < ${aLoads}u; l++) {
      let e = tid + l * ${threads}u;
      ${aMap}
      let gm = row0 + mm;
      let gk = k0 + kk;
      var v = 0.0;
      if (gm < p.m && gk < p.k) { v = A[aBase + ${aAt}]; }
      As[kk * ${t.tm}u + mm] = v;
    }
    for (var l = 0u; l < ${bLoads}u; l++) {
      let e = tid + l * ${threads}u;
      ${bMap}
      let gn = col0 + nn;
      let gk = k0 + kk;
      var v = 0.0;
      if (gn < p.n && gk < p.k) { v = B[bBase + ${bAt}]; }
      Bs[kk * ${t.tn}u + nn] = v;
    }
    workgroupBarrier();
    for (var kk = 0u; kk < ${t.kt}u; kk++) {
      for (var r = 0u; r < ${t.rm}u; r++) { ra[r] = As[kk * ${t.tm}u + lid.y + r * ${wy}u]; }
      for (var c = 0u; c < ${t.rn}u; c++) { rb[c] = Bs[kk * ${t.tn}u + lid.x + c * ${wx}u]; }
      for (var r = 0u; r < ${t.rm}u; r++) {
        for (var c = 0u; c < ${t.rn}u; c++) {
          acc[r * ${t.rn}u + c] = acc[r * ${t.rn}u + c] + ra[r] * rb[c];
        }
      }
    }
    workgroupBarrier();
  }
  for (var r = 0u; r < ${t.rm}u; r++) {
    let gm = row0 + lid.y + r * ${wy}u;
    if (gm >= p.m) { continue; }
    for (var c = 0u; c < ${t.rn}u; c++) {
      let gn = col0 + lid.x + c * ${wx}u;
      if (gn >= p.n) { continue; }
      let idx = cBase + gm * p.n + gn;
      var v = acc[r * ${t.rn}u + c];
      ${k.accumulate ? 'v = v + C[idx];' : ''}
      ${k.bias ? 'v = v + bias[batch * p.biasBatch + gn];' : ''}
      C[idx] = ${act};
    }
  }
}`;
}

/**
 * "Direct" variant for software adapters (SwiftShader): no workgroup memory and no barriers
 * (each barrier is a coroutine switch per invocation group there), each thread accumulates an
 * RM x RN block in scalar registers (fully unrolled), reading A and B straight from storage
 * with clamped indices (out-of-range rows/cols are computed but not written).
 */
function directSource(k: MatmulKernel, rm: number, rn: number): string {
  const aAt = (r: number) => (k.transA ? `aBase + kk * p.m + m${r}` : `aBase + m${r} * p.k + kk`);
  const bAt = (c: number) => (k.transB ? `bBase + n${c} * p.k + kk` : `bBase + kk * p.n + n${c}`);
  const L: string[] = [];
  for (let r = 0; r < rm; r++) L.push(`let m${r} = min(row0 + ${r}u, p.m - 1u);`);
  for (let c = 0; c < rn; c++) L.push(`let n${c} = min(col0 + ${c * 8}u, p.n - 1u);`);
  for (let r = 0; r < rm; r++) for (let c = 0; c < rn; c++) L.push(`var c${r}_${c} = 0.0;`);
  const body: string[] = [];
  for (let r = 0; r < rm; r++) body.push(`let a${r} = A[${aAt(r)}];`);
  for (let c = 0; c < rn; c++) body.push(`let b${c} = B[${bAt(c)}];`);
  for (let r = 0; r < rm; r++) for (let c = 0; c < rn; c++) body.push(`c${r}_${c} = c${r}_${c} + a${r} * b${c};`);
  const out: string[] = [];
  const act = activationExpr(k.activation, 'v', 'p.alpha');
  for (let r = 0; r < rm; r++) {
    for (let c = 0; c < rn; c++) {
      out.push(`if (row0 + ${r}u < p.m && col0 + ${c * 8}u < p.n) {
    let idx = cBase + (row0 + ${r}u) * p.n + col0 + ${c * 8}u;
    var v = c${r}_${c};
    ${k.accumulate ? 'v = v + C[idx];' : ''}
    ${k.bias ? `v = v + bias[batch * p.biasBatch + col0 + ${c * 8}u];` : ''}
    C[idx] = ${act};
  }`);
    }
  }
  return `${PARAMS.wgsl}${MATH_WGSL}
@group(0) @binding(1) var<storage, read> A: array<f32>;
@group(0) @binding(2) var<storage, read> B: array<f32>;
@group(0) @binding(3) var<storage, read_write> C: array<f32>;
${k.bias ? '@group(0) @binding(4) var<storage, read> bias: array<f32>;' : ''}
@compute @workgroup_size(8, 8, 1)
fn main(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(workgroup_id) wid: vec3<u32>, @builtin(local_invocation_id) lid: vec3<u32>) {
  let batch = gid.z;
  let aBase = batch * p.aBatch;
  let bBase = batch * p.bBatch;
  let cBase = batch * p.m * p.n;
  // Rows contiguous per thread (lanes along x share them: broadcast loads); columns strided by
  // 8 so that neighbouring lanes read neighbouring elements of B and write neighbouring C.
  let row0 = gid.y * ${rm}u;
  let col0 = wid.x * ${8 * rn}u + lid.x;
  if (row0 >= p.m || col0 >= p.n) { return; }
  ${L.join('\n  ')}
  for (var kk = 0u; kk < p.k; kk++) {
    ${body.join('\n    ')}
  }
  ${out.join('\n  ')}
}`;
}

/** Matmul kernel family: 'tiled' (workgroup memory, hardware GPUs) or 'direct' (software). */
export type MatmulVariant = 'tiled' | 'direct';

/**
 * Records a matmul. `bias` is required when `k.bias`. With `k.accumulate`, `c` is read and
 * added to. Register blocks are strided (`lid + r * wy`) so neighbouring threads touch
 * neighbouring elements of C and of the staged tiles.
 */
export function encodeMatmul(
  rt: GpuRuntime,
  k: MatmulKernel,
  a: GPUBuffer,
  b: GPUBuffer,
  c: GPUBuffer,
  bias?: GPUBuffer,
  variant: MatmulVariant = 'tiled',
): void {
  if (k.batch === 0 || k.m === 0 || k.n === 0) return;
  if (k.batch > 65535) throw new RangeError(`webgpu: matmul batch ${k.batch} exceeds 65,535 (split it)`);
  const uni = PARAMS.pack({ m: k.m, n: k.n, k: k.k, aBatch: k.aBatchStride, bBatch: k.bBatchStride, biasBatch: k.biasBatchStride ?? 0, alpha: k.alpha });
  const sig = `${k.transA ? 'T' : 'N'}${k.transB ? 'T' : 'N'}:${k.bias ? 'b' : '-'}:${k.activation}:${k.accumulate ? 'acc' : '-'}`;
  if (variant === 'direct') {
    const rm = k.m >= 4 ? 4 : 1;
    const rn = 4;
    rt.dispatch(
      `matmul-direct:${sig}:${rm}x${rn}`,
      () => ({ bindings: k.bias ? ['r', 'r', 'rw', 'r'] : ['r', 'r', 'rw'], code: directSource(k, rm, rn) }),
      k.bias ? [a, b, c, bias!] : [a, b, c],
      uni,
      [Math.ceil(k.n / (8 * rn)), Math.ceil(k.m / (8 * rm)), k.batch],
    );
    return;
  }
  const t = chooseTile(k.m);
  const key = `matmul:${sig}:${t.tm}x${t.tn}`;
  const bufs = k.bias ? [a, b, c, bias!] : [a, b, c];
  rt.dispatch(
    key,
    () => ({ bindings: k.bias ? ['r', 'r', 'rw', 'r'] : ['r', 'r', 'rw'], code: source(k, t) }),
    bufs,
    uni,
    [Math.ceil(k.n / t.tn), Math.ceil(k.m / t.tm), k.batch],
  );
}
