/**
 * Reductions (sum, mean, max, min) over any set of axes, and the softmax family
 * (softmax, log-softmax, logsumexp over the middle axis of `[outer, size, inner]`), WGSL.
 *
 * The input is viewed as kept dims x reduced dims, each run of adjacent kept (or reduced) axes
 * merged into one dim. Long reductions (> 64 elements) use one 256-thread workgroup per output
 * with a shared-memory tree; short ones use one thread per output with a serial loop, so
 * row-wise reductions of small rows do not idle 255 threads. The softmax kernels take the
 * row max first and subtract it (numerically stable); a row of all -inf gives NaN-free results
 * (logsumexp = -inf).
 */
import type { ReduceKernel, SoftmaxKernel } from '../../backend.ts';
import { grid1d, type GpuRuntime } from '../runtime.ts';
import { MATH_WGSL, MAX_RANK, at, uniforms } from '../wgsl.ts';

const SERIAL_MAX = 64;

const REDUCE_PARAMS = uniforms([
  ['outSize', 'u32'],
  ['rSize', 'u32'],
  ['scale', 'f32'],
  ['kShape', 'u32x8'],
  ['kStride', 'i32x8'],
  ['rShape', 'u32x8'],
  ['rStride', 'i32x8'],
]);

interface ReducePlan {
  kShape: number[];
  kStride: number[];
  rShape: number[];
  rStride: number[];
  outSize: number;
  rSize: number;
}

/** Splits `shape` into merged kept and reduced dims with their input strides. */
export function planReduce(shape: readonly number[], axes: readonly number[]): ReducePlan {
  const red = new Set(axes);
  const kShape: number[] = [];
  const kStride: number[] = [];
  const rShape: number[] = [];
  const rStride: number[] = [];
  let stride = 1;
  let prev: 'k' | 'r' | null = null;
  const runs: { kind: 'k' | 'r'; size: number; stride: number }[] = [];
  for (let d = shape.length - 1; d >= 0; d--) {
    const n = shape[d]!;
    const kind = red.has(d) ? 'r' : 'k';
    if (n !== 1) {
      const last = runs[runs.length - 1];
      if (last && prev === kind) last.size *= n;
      else runs.push({ kind, size: n, stride });
      prev = kind;
    }
    stride *= n;
  }
  runs.reverse();
  let outSize = 1;
  let rSize = 1;
  for (const r of runs) {
    if (r.kind === 'k') {
      kShape.push(r.size);
      kStride.push(r.stride);
      outSize *= r.size;
    } else {
      rShape.push(r.size);
      rStride.push(r.stride);
      rSize *= r.size;
    }
  }
  // A zero-sized dim anywhere: sizes above already reflect it.
  for (let d = 0; d < shape.length; d++) {
    if (shape[d] === 0) {
      if (red.has(d)) rSize = 0;
      else outSize = 0;
    }
  }
  if (kShape.length > MAX_RANK || rShape.length > MAX_RANK) throw new RangeError('webgpu: reduce rank too large');
  return { kShape, kStride, rShape, rStride, outSize, rSize };
}

function offsetCode(idx: string, n: number, shapeF: string, strideF: string, out: string): string {
  const lines = [`var ${out}: i32 = 0;`, `{ var rem: u32 = ${idx};`];
  for (let d = n - 1; d >= 0; d--) {
    lines.push(
      d === 0
        ? `  ${out} = ${out} + i32(rem) * ${at(strideF, d)};`
        : `  { let s = ${at(shapeF, d)}; ${out} = ${out} + i32(rem % s) * ${at(strideF, d)}; rem = rem / s; }`,
    );
  }
  lines.push('}');
  return lines.join('\n');
}

function combine(op: ReduceKernel['op'], a: string, b: string): string {
  if (op === 'max') return `max(${a}, ${b})`;
  if (op === 'min') return `min(${a}, ${b})`;
  return `${a} + ${b}`;
}

function init(op: ReduceKernel['op']): string {
  return op === 'max' ? 'f_ninf()' : op === 'min' ? 'f_inf()' : '0.0';
}

function reduceSource(k: ReduceKernel, plan: ReducePlan, serial: boolean): string {
  const nk = plan.kShape.length;
  const nr = plan.rShape.length;
  const fin = k.op === 'mean' ? 'acc * p.scale' : 'acc';
  const head = `${REDUCE_PARAMS.wgsl}${MATH_WGSL}
@group(0) @binding(1) var<storage, read> xs: array<f32>;
@group(0) @binding(2) var<storage, read_write> ys: array<f32>;
`;
  const rOff = (r: string) => (nr === 1 ? `i32(${r}) * ${at('rStride', 0)}` : `ro`);
  const rOffDecl = (r: string) => (nr === 1 ? '' : offsetCode(r, nr, 'rShape', 'rStride', 'ro'));
  if (serial) {
    return `${head}
@compute @workgroup_size(256)
fn main(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>) {
  let o = gid.x + gid.y * nwg.x * 256u;
  if (o >= p.outSize) { return; }
  ${offsetCode('o', nk, 'kShape', 'kStride', 'base')}
  var acc: f32 = ${init(k.op)};
  for (var r = 0u; r < p.rSize; r++) {
    ${rOffDecl('r')}
    acc = ${combine(k.op, 'acc', `xs[base + ${rOff('r')}]`)};
  }
  ys[o] = ${fin};
}`;
  }
  return `${head}
var<workgroup> sh: array<f32, 256>;
@compute @workgroup_size(256)
fn main(@builtin(local_invocation_index) t: u32, @builtin(workgroup_id) wid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>) {
  let o = wid.x + wid.y * nwg.x;
  if (o >= p.outSize) { return; }
  ${offsetCode('o', nk, 'kShape', 'kStride', 'base')}
  var acc: f32 = ${init(k.op)};
  for (var r = t; r < p.rSize; r += 256u) {
    ${rOffDecl('r')}
    acc = ${combine(k.op, 'acc', `xs[base + ${rOff('r')}]`)};
  }
  sh[t] = acc;
  workgroupBarrier();
  for (var s = 128u; s > 0u; s = s >> 1u) {
    if (t < s) { sh[t] = ${combine(k.op, 'sh[t]', 'sh[t + s]')}; }
    workgroupBarrier();
  }
  if (t == 0u) { let acc = sh[0]; ys[o] = ${fin}; }
}`;
}

/** Records a reduction of `x` over `k.axes` into `y`. */
export function encodeReduce(rt: GpuRuntime, k: ReduceKernel, x: GPUBuffer, y: GPUBuffer): void {
  const plan = planReduce(k.shape, k.axes);
  if (plan.outSize === 0) return;
  const serial = plan.rSize <= SERIAL_MAX;
  const key = `reduce:${k.op}:${plan.kShape.length}:${plan.rShape.length}:${serial ? 's' : 'w'}`;
  // The workgroup variant's early `return` is uniform per workgroup (o depends on wid only).
  rt.dispatch(
    key,
    () => ({ bindings: ['r', 'rw'], code: reduceSource(k, plan, serial) }),
    [x, y],
    REDUCE_PARAMS.pack({
      outSize: plan.outSize,
      rSize: plan.rSize,
      scale: plan.rSize === 0 ? Number.NaN : 1 / plan.rSize,
      kShape: plan.kShape,
      kStride: plan.kStride,
      rShape: plan.rShape,
      rStride: plan.rStride,
    }),
    serial ? grid1d(Math.ceil(plan.outSize / 256)) : grid1d(plan.outSize),
  );
}

const SOFTMAX_PARAMS = uniforms([
  ['outer', 'u32'],
  ['size', 'u32'],
  ['inner', 'u32'],
  ['rows', 'u32'],
]);

function softmaxSource(k: SoftmaxKernel, serial: boolean): string {
  const write =
    k.op === 'softmax'
      ? 'ys[base + j * p.inner] = exp(xs[base + j * p.inner] - mx) / s;'
      : 'ys[base + j * p.inner] = xs[base + j * p.inner] - mx - ls;';
  const head = `${SOFTMAX_PARAMS.wgsl}${MATH_WGSL}
@group(0) @binding(1) var<storage, read> xs: array<f32>;
@group(0) @binding(2) var<storage, read_write> ys: array<f32>;
`;
  const rowBase = `let o = row / p.inner; let ii = row % p.inner; let base = o * p.size * p.inner + ii;`;
  const finish =
    k.op === 'logsumexp'
      ? 'ys[row] = mx + log(s);'
      : `let ls = log(s);
  for (var j = JSTART; j < p.size; j += JSTEP) { ${write} }`;
  if (serial) {
    return `${head}
@compute @workgroup_size(256)
fn main(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>) {
  let row = gid.x + gid.y * nwg.x * 256u;
  if (row >= p.rows) { return; }
  ${rowBase}
  var m = f_ninf();
  for (var j = 0u; j < p.size; j++) { m = max(m, xs[base + j * p.inner]); }
  let mx = select(m, 0.0, m == f_ninf());
  var s = 0.0;
  for (var j = 0u; j < p.size; j++) { s = s + exp(xs[base + j * p.inner] - mx); }
  ${finish.replace('JSTART', '0u').replace('JSTEP', '1u')}
}`;
  }
  return `${head}
var<workgroup> sh: array<f32, 256>;
@compute @workgroup_size(256)
fn main(@builtin(local_invocation_index) t: u32, @builtin(workgroup_id) wid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>) {
  let row = wid.x + wid.y * nwg.x;
  if (row >= p.rows) { return; }
  ${rowBase}
  var m = f_ninf();
  for (var j = t; j < p.size; j += 256u) { m = max(m, xs[base + j * p.inner]); }
  sh[t] = m;
  workgroupBarrier();
  for (var w = 128u; w > 0u; w = w >> 1u) {
    if (t < w) { sh[t] = max(sh[t], sh[t + w]); }
    workgroupBarrier();
  }
  let m0 = sh[0];
  let mx = select(m0, 0.0, m0 == f_ninf());
  workgroupBarrier();
  var s = 0.0;
  for (var j = t; j < p.size; j += 256u) { s = s + exp(xs[base + j * p.inner] - mx); }
  sh[t] = s;
  workgroupBarrier();
  for (var w = 128u; w > 0u; w = w >> 1u) {
    if (t < w) { sh[t] = sh[t] + sh[t + w]; }
    workgroupBarrier();
  }
  s = sh[0];
  ${k.op === 'logsumexp' ? 'if (t == 0u) { ys[row] = mx + log(s); }' : finish.replace('JSTART', 't').replace('JSTEP', '256u')}
}`;
}

/** Records softmax / log-softmax / logsumexp over the middle axis of `[outer, size, inner]`. */
export function encodeSoftmax(rt: GpuRuntime, k: SoftmaxKernel, x: GPUBuffer, y: GPUBuffer): void {
  const rows = k.outer * k.inner;
  if (rows === 0) return;
  const serial = k.size <= SERIAL_MAX;
  rt.dispatch(
    `softmax:${k.op}:${serial ? 's' : 'w'}`,
    () => ({ bindings: ['r', 'rw'], code: softmaxSource(k, serial) }),
    [x, y],
    SOFTMAX_PARAMS.pack({ outer: k.outer, size: k.size, inner: k.inner, rows }),
    serial ? grid1d(Math.ceil(rows / 256)) : grid1d(rows),
  );
}
