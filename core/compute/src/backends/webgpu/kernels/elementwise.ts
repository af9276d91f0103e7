/**
 * Elementwise WGSL kernels: unary ops and their gradients, broadcasting binary ops, `where`,
 * activation gradients, fill, counter-based random numbers and the fused Adam step.
 *
 * All are one thread per output element (`@workgroup_size(256)`, 2-D grid past 65,535 groups).
 * Broadcasting kernels collapse dimensions first (`collapseDims`), so the common cases
 * (same shape, scalar operand, row/column broadcast) compile to rank 0-2 index arithmetic; the
 * pipeline key holds the op and the collapsed rank, never the sizes.
 */
import type {
  ActivationGradKernel,
  AdamKernel,
  BinaryKernel,
  FillKernel,
  RandomKernel,
  UnaryGradKernel,
  UnaryKernel,
  UnaryOp,
  WhereKernel,
} from '../../backend.ts';
import { grid1d, type GpuRuntime } from '../runtime.ts';
import {
  LINEAR_ENTRY,
  MATH_WGSL,
  MAX_RANK,
  RNG_WGSL,
  broadcastStrides,
  collapseDims,
  decompose,
  uniforms,
  type ActivationName,
} from '../wgsl.ts';

const SIZE_PARAMS = uniforms([
  ['size', 'u32'],
  ['alpha', 'f32'],
  ['beta', 'f32'],
]);

/** WGSL expression of a unary op on `v` (uses `p.alpha`, `p.beta`). */
export function unaryExpr(op: UnaryOp): string {
  switch (op) {
    case 'neg': return '-v';
    case 'exp': return 'exp(v)';
    case 'log': return 'log(v)';
    case 'sqrt': return 'sqrt(v)';
    case 'rsqrt': return '1.0 / sqrt(v)';
    case 'abs': return 'abs(v)';
    case 'sign': return 'sign(v)';
    case 'square': return 'v * v';
    case 'reciprocal': return '1.0 / v';
    case 'tanh': return 'tanhf(v)';
    case 'relu': return 'max(v, 0.0)';
    case 'leaky-relu': return 'select(p.alpha * v, v, v > 0.0)';
    case 'silu': return 'v * sigmoidf(v)';
    case 'sigmoid': return 'sigmoidf(v)';
    case 'softplus': return 'softplusf(v)';
    case 'clamp': return 'min(max(v, p.alpha), p.beta)';
    case 'pow-scalar': return 'powf(v, p.alpha)';
    case 'affine': return 'p.alpha * v + p.beta';
    case 'identity': return 'v';
    case 'floor': return 'floor(v)';
  }
}

/** WGSL expression of dx for a unary op from `g` (upstream), `x` (input) and `y` (output). */
export function unaryGradExpr(op: UnaryOp): string {
  switch (op) {
    case 'neg': return '-g';
    case 'exp': return 'g * y';
    case 'log': return 'g / x';
    case 'sqrt': return 'g * 0.5 / y';
    case 'rsqrt': return 'g * -0.5 * y * y * y';
    case 'abs': return 'g * sign(x)';
    case 'sign': return '0.0';
    case 'square': return '2.0 * x * g';
    case 'reciprocal': return '-g * y * y';
    case 'tanh': return 'g * (1.0 - y * y)';
    case 'relu': return 'select(0.0, g, x > 0.0)';
    case 'leaky-relu': return 'select(p.alpha * g, g, x > 0.0)';
    case 'silu': return 'g * (sigmoidf(x) * (1.0 + x * (1.0 - sigmoidf(x))))';
    case 'sigmoid': return 'g * y * (1.0 - y)';
    case 'softplus': return 'g * sigmoidf(x)';
    case 'clamp': return 'select(0.0, g, x >= p.alpha && x <= p.beta)';
    case 'pow-scalar': return 'g * p.alpha * powf(x, p.alpha - 1.0)';
    case 'affine': return 'g * p.alpha';
    case 'identity': return 'g';
    case 'floor': return '0.0';
  }
}

/** Records `y = op(x)`. */
export function encodeUnary(rt: GpuRuntime, k: UnaryKernel, x: GPUBuffer, y: GPUBuffer): void {
  rt.dispatch(
    `unary:${k.op}`,
    () => ({
      bindings: ['r', 'rw'],
      code: `${SIZE_PARAMS.wgsl}${MATH_WGSL}
@group(0) @binding(1) var<storage, read> xs: array<f32>;
@group(0) @binding(2) var<storage, read_write> ys: array<f32>;
${LINEAR_ENTRY}
  if (i >= p.size) { return; }
  let v = xs[i];
  ys[i] = ${unaryExpr(k.op)};
}`,
    }),
    [x, y],
    SIZE_PARAMS.pack({ size: k.size, alpha: k.alpha, beta: k.beta }),
    grid1d(Math.ceil(k.size / 256)),
  );
}

/** Records `dx = dy * op'(x)` from inputs `[dy, x, y]`. */
export function encodeUnaryGrad(rt: GpuRuntime, k: UnaryGradKernel, dy: GPUBuffer, x: GPUBuffer, y: GPUBuffer, dx: GPUBuffer): void {
  rt.dispatch(
    `unary-grad:${k.op}`,
    () => ({
      bindings: ['r', 'r', 'r', 'rw'],
      code: `${SIZE_PARAMS.wgsl}${MATH_WGSL}
@group(0) @binding(1) var<storage, read> gs: array<f32>;
@group(0) @binding(2) var<storage, read> xs: array<f32>;
@group(0) @binding(3) var<storage, read> ys: array<f32>;
@group(0) @binding(4) var<storage, read_write> out: array<f32>;
${LINEAR_ENTRY}
  if (i >= p.size) { return; }
  let g = gs[i];
  let x = xs[i];
  let y = ys[i];
  out[i] = ${unaryGradExpr(k.op)};
}`,
    }),
    [dy, x, y, dx],
    SIZE_PARAMS.pack({ size: k.size, alpha: k.alpha, beta: k.beta }),
    grid1d(Math.ceil(k.size / 256)),
  );
}

/** WGSL expression of dPre for a fused activation from `g` (dY) and `s` (Y, or pre for silu). */
export function activationGradExpr(act: ActivationName): string {
  switch (act) {
    case 'none': return 'g';
    case 'relu': return 'select(0.0, g, s > 0.0)';
    case 'leaky-relu': return 'select(p.alpha * g, g, s > 0.0)';
    case 'tanh': return 'g * (1.0 - s * s)';
    case 'sigmoid': return 'g * s * (1.0 - s)';
    case 'silu': return 'g * (sigmoidf(s) * (1.0 + s * (1.0 - sigmoidf(s))))';
  }
}

/** Records `dPre = dY * act'(.)` from inputs `[dY, Y]` (`[dY, pre]` for silu). */
export function encodeActivationGrad(rt: GpuRuntime, k: ActivationGradKernel, dy: GPUBuffer, saved: GPUBuffer, out: GPUBuffer): void {
  rt.dispatch(
    `activation-grad:${k.activation}`,
    () => ({
      bindings: ['r', 'r', 'rw'],
      code: `${SIZE_PARAMS.wgsl}${MATH_WGSL}
@group(0) @binding(1) var<storage, read> gs: array<f32>;
@group(0) @binding(2) var<storage, read> ss: array<f32>;
@group(0) @binding(3) var<storage, read_write> out: array<f32>;
${LINEAR_ENTRY}
  if (i >= p.size) { return; }
  let g = gs[i];
  let s = ss[i];
  out[i] = ${activationGradExpr(k.activation)};
}`,
    }),
    [dy, saved, out],
    SIZE_PARAMS.pack({ size: k.size, alpha: k.alpha, beta: 0 }),
    grid1d(Math.ceil(k.size / 256)),
  );
}

function binaryExpr(op: BinaryKernel['op']): string {
  switch (op) {
    case 'add': return 'a + b';
    case 'sub': return 'a - b';
    case 'mul': return 'a * b';
    case 'div': return 'a / b';
    case 'pow': return 'powf(a, b)';
    case 'max': return 'max(a, b)';
    case 'min': return 'min(a, b)';
    case 'gt': return 'select(0.0, 1.0, a > b)';
    case 'ge': return 'select(0.0, 1.0, a >= b)';
    case 'lt': return 'select(0.0, 1.0, a < b)';
    case 'le': return 'select(0.0, 1.0, a <= b)';
    case 'eq': return 'select(0.0, 1.0, a == b)';
  }
}

const BCAST_FIELDS = ['sa', 'sb', 'sc'] as const;

function bcastParams(n: number) {
  return uniforms([
    ['size', 'u32'],
    ['shape', 'u32x8'],
    ...BCAST_FIELDS.slice(0, n).map((f) => [f, 'i32x8'] as const),
  ]);
}

/**
 * Plans a broadcasting elementwise kernel: collapses dims of the output and every operand.
 * @throws RangeError when the collapsed rank exceeds {@link MAX_RANK}.
 */
function planBroadcast(outShape: readonly number[], shapes: ReadonlyArray<readonly number[]>) {
  const strides = shapes.map((s) => broadcastStrides(s, outShape));
  const c = collapseDims(outShape, strides);
  if (c.shape.length > MAX_RANK) throw new RangeError(`webgpu: broadcast rank ${c.shape.length} > ${MAX_RANK}`);
  let size = 1;
  for (const d of outShape) size *= d;
  // Per operand: 'i' when it is indexed exactly like the output (contiguous, no broadcast).
  const contiguous = c.strides.map((st) => {
    let s = 1;
    for (let d = st.length - 1; d >= 0; d--) {
      if (st[d] !== s) return false;
      s *= c.shape[d]!;
    }
    return true;
  });
  return { size, rank: c.shape.length, shape: c.shape, strides: c.strides, contiguous };
}

function operandIndexing(plan: ReturnType<typeof planBroadcast>): string {
  const need = plan.contiguous.map((c, k) => !c && plan.rank > 0 && k >= 0);
  const offs = BCAST_FIELDS.slice(0, plan.strides.length).map((f) => `o_${f}`);
  const lines = offs.map((o, k) => (need[k] ? `var ${o}: i32 = 0;` : `let ${o}: i32 = i32(i);`));
  const fields = BCAST_FIELDS.slice(0, plan.strides.length).filter((_, k) => need[k]);
  if (fields.length) lines.push(decompose('i', plan.rank, 'shape', fields, fields.map((f) => `o_${f}`)));
  return lines.join('\n');
}

function bcastKey(plan: ReturnType<typeof planBroadcast>): string {
  return `${plan.rank}:${plan.contiguous.map((c) => (c ? 'c' : 's')).join('')}`;
}

/** Records `out = op(a, b)` with numpy broadcasting. */
export function encodeBinary(rt: GpuRuntime, k: BinaryKernel, a: GPUBuffer, b: GPUBuffer, out: GPUBuffer): void {
  const plan = planBroadcast(k.outShape, [k.aShape, k.bShape]);
  const P = bcastParams(2);
  rt.dispatch(
    `binary:${k.op}:${bcastKey(plan)}`,
    () => ({
      bindings: ['r', 'r', 'rw'],
      code: `${P.wgsl}${MATH_WGSL}
@group(0) @binding(1) var<storage, read> as_: array<f32>;
@group(0) @binding(2) var<storage, read> bs_: array<f32>;
@group(0) @binding(3) var<storage, read_write> out: array<f32>;
${LINEAR_ENTRY}
  if (i >= p.size) { return; }
${operandIndexing(plan)}
  let a = as_[o_sa];
  let b = bs_[o_sb];
  out[i] = ${binaryExpr(k.op)};
}`,
    }),
    [a, b, out],
    P.pack({ size: plan.size, shape: plan.shape, sa: plan.strides[0]!, sb: plan.strides[1]! }),
    grid1d(Math.ceil(plan.size / 256)),
  );
}

/** Records `out = cond != 0 ? a : b` with broadcasting. */
export function encodeWhere(rt: GpuRuntime, k: WhereKernel, cond: GPUBuffer, a: GPUBuffer, b: GPUBuffer, out: GPUBuffer): void {
  const plan = planBroadcast(k.outShape, [k.condShape, k.aShape, k.bShape]);
  const P = bcastParams(3);
  rt.dispatch(
    `where:${bcastKey(plan)}`,
    () => ({
      bindings: ['r', 'r', 'r', 'rw'],
      code: `${P.wgsl}
@group(0) @binding(1) var<storage, read> cs_: array<f32>;
@group(0) @binding(2) var<storage, read> as_: array<f32>;
@group(0) @binding(3) var<storage, read> bs_: array<f32>;
@group(0) @binding(4) var<storage, read_write> out: array<f32>;
${LINEAR_ENTRY}
  if (i >= p.size) { return; }
${operandIndexing(plan)}
  out[i] = select(bs_[o_sc], as_[o_sb], cs_[o_sa] != 0.0);
}`,
    }),
    [cond, a, b, out],
    P.pack({ size: plan.size, shape: plan.shape, sa: plan.strides[0]!, sb: plan.strides[1]!, sc: plan.strides[2]! }),
    grid1d(Math.ceil(plan.size / 256)),
  );
}

/** Records `out[i] = value`. */
export function encodeFill(rt: GpuRuntime, k: FillKernel, out: GPUBuffer): void {
  rt.dispatch(
    'fill',
    () => ({
      bindings: ['rw'],
      code: `${SIZE_PARAMS.wgsl}
@group(0) @binding(1) var<storage, read_write> out: array<f32>;
${LINEAR_ENTRY}
  if (i >= p.size) { return; }
  out[i] = p.alpha;
}`,
    }),
    [out],
    SIZE_PARAMS.pack({ size: k.size, alpha: k.value, beta: 0 }),
    grid1d(Math.ceil(k.size / 256)),
  );
}

const RANDOM_PARAMS = uniforms([
  ['size', 'u32'],
  ['s0', 'u32'],
  ['s1', 'u32'],
  ['a', 'f32'],
  ['b', 'f32'],
]);

/** Records counter-based uniform/normal samples (bit-identical to `randomUniformAt`). */
export function encodeRandom(rt: GpuRuntime, k: RandomKernel, out: GPUBuffer): void {
  const body =
    k.dist === 'uniform'
      ? 'out[i] = random_uniform(p.s0, p.s1, i) * (p.b - p.a) + p.a;'
      : `let u = random_uniform(p.s0, p.s1, 2u * i);
  let u2 = random_uniform(p.s0, p.s1, 2u * i + 1u);
  out[i] = sqrt(-2.0 * log_one_minus(u)) * cos_2pi(u2) * p.b + p.a;`;
  rt.dispatch(
    `random:${k.dist}`,
    () => ({
      bindings: ['rw'],
      code: `${RANDOM_PARAMS.wgsl}${RNG_WGSL}
@group(0) @binding(1) var<storage, read_write> out: array<f32>;
${LINEAR_ENTRY}
  if (i >= p.size) { return; }
  ${body}
}`,
    }),
    [out],
    RANDOM_PARAMS.pack({ size: k.size, s0: k.seed[0], s1: k.seed[1], a: k.a, b: k.b }),
    grid1d(Math.ceil(k.size / 256)),
  );
}

const ADAM_PARAMS = uniforms([
  ['size', 'u32'],
  ['lr', 'f32'],
  ['beta1', 'f32'],
  ['beta2', 'f32'],
  ['eps', 'f32'],
  ['wd', 'f32'],
  ['bc1', 'f32'],
  ['bc2', 'f32'],
  ['gscale', 'f32'],
]);

/** Records the fused Adam/AdamW step, in place on param, m and v. */
export function encodeAdam(rt: GpuRuntime, k: AdamKernel, param: GPUBuffer, grad: GPUBuffer, m: GPUBuffer, v: GPUBuffer): void {
  rt.dispatch(
    `adam:${k.decoupled ? 'w' : 'l2'}`,
    () => ({
      bindings: ['rw', 'r', 'rw', 'rw'],
      code: `${ADAM_PARAMS.wgsl}
@group(0) @binding(1) var<storage, read_write> ps: array<f32>;
@group(0) @binding(2) var<storage, read> gs: array<f32>;
@group(0) @binding(3) var<storage, read_write> ms: array<f32>;
@group(0) @binding(4) var<storage, read_write> vs: array<f32>;
${LINEAR_ENTRY}
  if (i >= p.size) { return; }
  let w = ps[i];
  ${k.decoupled ? 'let g = gs[i] * p.gscale;' : 'let g = gs[i] * p.gscale + p.wd * w;'}
  let m = p.beta1 * ms[i] + (1.0 - p.beta1) * g;
  let v = p.beta2 * vs[i] + (1.0 - p.beta2) * g * g;
  ms[i] = m;
  vs[i] = v;
  ps[i] = w - p.lr * ((m / p.bc1) / (sqrt(v / p.bc2) + p.eps)${k.decoupled ? ' + p.wd * w' : ''});
}`,
    }),
    [param, grad, m, v],
    ADAM_PARAMS.pack({
      size: k.size,
      lr: k.lr,
      beta1: k.beta1,
      beta2: k.beta2,
      eps: k.eps,
      wd: k.weightDecay,
      bc1: k.bc1,
      bc2: k.bc2,
      gscale: k.gradScale,
    }),
    grid1d(Math.ceil(k.size / 256)),
  );
}
