/**
 * Elementwise, reduction, softmax, layer-norm and optimizer kernels in WebAssembly SIMD
 * (`wasm/elementwise.c`, `wasm/gemm.c`), run on operands kept resident in the module's linear
 * memory by the {@link OperandCache}: an input that is the current output of an earlier wasm
 * kernel (a matmul, an activation) is not copied in again; every output is copied back to its
 * host array and remembered as resident for the next kernel.
 *
 * Each function returns `false` when it does not handle a descriptor (an op without a wasm
 * kernel, a broadcast that does not collapse to 4 dims, a tiny size where the call costs more
 * than the work); the CPU backend then runs the TypeScript reference kernel of `js-kernels.ts`.
 */
import type {
  ActivationGradKernel,
  AdamKernel,
  BinaryKernel,
  BinaryOp,
  LayerNormGradKernel,
  LayerNormKernel,
  ReduceKernel,
  SoftmaxKernel,
  UnaryGradKernel,
  UnaryKernel,
  UnaryOp,
} from '../backend.ts';
import { contiguousStrides, shapeSize } from '../backend.ts';
import { bumpGeneration } from './cpu-backend.ts';
import type { OperandCache } from './operand-cache.ts';

/** Exports of the wasm module used here. */
export interface ElementwiseExports {
  act_grad(dy: number, y: number, dx: number, n: number, act: number, alpha: number): void;
  adam(p: number, g: number, m: number, v: number, n: number, lr: number, b1: number, b2: number, eps: number, l2: number, dw: number, ibc1: number, ibc2: number, gs: number): void;
  sum_rows(x: number, rows: number, cols: number, out: number): void;
  unary_f(op: number, x: number, y: number, n: number, alpha: number, beta: number): void;
  unary_grad_f(op: number, dy: number, x: number, y: number, dx: number, n: number, alpha: number, beta: number): void;
  binary_f(op: number, a: number, b: number, out: number, d0: number, d1: number, d2: number, d3: number, sa0: number, sa1: number, sa2: number, sa3: number, sb0: number, sb1: number, sb2: number, sb3: number): void;
  reduce_f(op: number, x: number, y: number, outer: number, red: number, inner: number): void;
  softmax_rows(mode: number, x: number, y: number, rows: number, size: number): void;
  layer_norm_f(x: number, gamma: number, beta: number, y: number, mean: number, rstd: number, rows: number, d: number, eps: number): void;
  layer_norm_grad_f(dy: number, x: number, mean: number, rstd: number, gamma: number, dx: number, dgamma: number, dbeta: number, rows: number, d: number): void;
  add_inplace(a: number, b: number, n: number): void;
}

/** Access to a wasm instance with resident operands. */
export interface ResidentMemory {
  cache: OperandCache;
  ex: ElementwiseExports;
  /** Starts a kernel: makes room for `bytes` more in the arena (may reset it and grow memory). */
  ensure(bytes: number): void;
  /** Float view of the whole memory (refreshed after growth). */
  mem(): Float32Array;
}

/** Unary op codes of `wasm/elementwise.c` (ops without a code run in TypeScript). */
export const UNARY_CODE: Partial<Record<UnaryOp, number>> = {
  neg: 0, exp: 1, log: 2, sqrt: 3, rsqrt: 4, abs: 5, sign: 6, square: 7, reciprocal: 8, tanh: 9,
  relu: 10, 'leaky-relu': 11, silu: 12, sigmoid: 13, softplus: 14, clamp: 15, affine: 16, identity: 17, floor: 18,
};

/** Unary gradients that read the forward input x / the forward output y. */
const GRAD_USES_X = new Set<UnaryOp>(['log', 'abs', 'square', 'relu', 'leaky-relu', 'silu', 'softplus', 'clamp']);
const GRAD_USES_Y = new Set<UnaryOp>(['exp', 'sqrt', 'rsqrt', 'reciprocal', 'tanh', 'sigmoid']);

/** Binary op codes of `wasm/elementwise.c` ('pow' runs in TypeScript). */
export const BINARY_CODE: Partial<Record<BinaryOp, number>> = { add: 0, sub: 1, mul: 2, div: 3, max: 4, min: 5, gt: 6, ge: 7, lt: 8, le: 9, eq: 10 };

const ACT_CODE: Record<string, number> = { none: 0, relu: 1, 'leaky-relu': 2, tanh: 3, sigmoid: 4, silu: 5 };
const REDUCE_CODE = { sum: 0, mean: 1, max: 2, min: 3 } as const;
const SOFTMAX_CODE = { softmax: 0, 'log-softmax': 1, logsumexp: 2 } as const;

/**
 * Below this many elements an elementwise kernel stays in TypeScript: the wasm call, the
 * operand-cache look-ups and the copies cost more than the loop.
 */
export const MIN_WASM_ELEMENTS = 64;

/**
 * Memory-bound ops: one add or compare per element is as fast in a V8 loop as copying the
 * operand into linear memory, so these run in wasm only when their large operands are already
 * resident (outputs of earlier wasm kernels); otherwise the TypeScript loop is the faster choice.
 */
const CHEAP_UNARY = new Set<UnaryOp>(['neg', 'abs', 'sign', 'square', 'relu', 'leaky-relu', 'clamp', 'affine', 'identity', 'floor']);
const CHEAP_BINARY = new Set<BinaryOp>(['add', 'sub', 'mul', 'max', 'min', 'gt', 'ge', 'lt', 'le', 'eq']);
/** Operands up to this many elements are copied in regardless (a bias row, a column). */
const SMALL_OPERAND = 1024;

/**
 * Collapses a broadcast to at most 4 dims: drops size-1 dims and merges neighbours that are
 * contiguous in both operands. Returns null when more than 4 dims remain.
 */
export function collapseBroadcast(outShape: readonly number[], aShape: readonly number[], bShape: readonly number[]): { d: number[]; sa: number[]; sb: number[] } | null {
  const ca = contiguousStrides(aShape);
  const cb = contiguousStrides(bShape);
  const d: number[] = [];
  const sa: number[] = [];
  const sb: number[] = [];
  for (let i = 0; i < outShape.length; i++) {
    const n = outShape[i]!;
    if (n === 1) continue;
    const a = aShape[i] === 1 ? 0 : ca[i]!;
    const b = bShape[i] === 1 ? 0 : cb[i]!;
    const last = d.length - 1;
    if (last >= 0 && sa[last] === a * n && sb[last] === b * n) {
      d[last] = d[last]! * n;
      sa[last] = a;
      sb[last] = b;
    } else {
      d.push(n);
      sa.push(a);
      sb.push(b);
    }
  }
  if (d.length > 4) return null;
  while (d.length < 4) {
    d.unshift(1);
    sa.unshift(0);
    sb.unshift(0);
  }
  return { d, sa, sb };
}

/** Contiguous [outer, red, inner] plan of a reduction, or null when the axes are not contiguous. */
function reducePlan(shape: readonly number[], axes: readonly number[]): { outer: number; red: number; inner: number } | null {
  if (axes.length === 0) return null;
  const first = axes[0]!;
  const last = axes[axes.length - 1]!;
  if (last - first + 1 !== axes.length) return null;
  let outer = 1;
  let red = 1;
  let inner = 1;
  for (let d = 0; d < shape.length; d++) {
    if (d < first) outer *= shape[d]!;
    else if (d <= last) red *= shape[d]!;
    else inner *= shape[d]!;
  }
  return { outer, red, inner };
}

/** The wasm kernels of a CPU path, over a resident memory obtained lazily from `get`. */
export interface ResidentKernels {
  adam(k: AdamKernel, p: Float32Array, g: Float32Array, m: Float32Array, v: Float32Array): void;
  /** `adam` bumps the generations of p, m, v itself (m and v stay resident between steps). */
  adamBumps: true;
  activationGrad(k: ActivationGradKernel, dy: Float32Array, y: Float32Array, dx: Float32Array): void;
  sumRows(x: Float32Array, rows: number, cols: number, out: Float32Array): void;
  unary(k: UnaryKernel, x: Float32Array, y: Float32Array): boolean;
  unaryGrad(k: UnaryGradKernel, dy: Float32Array, x: Float32Array, y: Float32Array, dx: Float32Array): boolean;
  binary(k: BinaryKernel, a: Float32Array, b: Float32Array, out: Float32Array): boolean;
  reduce(k: ReduceKernel, x: Float32Array, y: Float32Array): boolean;
  softmax(k: SoftmaxKernel, x: Float32Array, y: Float32Array): boolean;
  layerNorm(k: LayerNormKernel, x: Float32Array, gamma: Float32Array | null, beta: Float32Array | null, y: Float32Array, mean: Float32Array, rstd: Float32Array): boolean;
  layerNormGrad(
    k: LayerNormGradKernel, dy: Float32Array, x: Float32Array, mean: Float32Array, rstd: Float32Array, gamma: Float32Array | null,
    dx: Float32Array, dgamma: Float32Array | null, dbeta: Float32Array | null,
  ): boolean;
  /** dst[0, n) += src[0, n). */
  accumulate(dst: Float32Array, src: Float32Array, n: number): boolean;
}

/** Wasm SIMD kernels on resident operands (see the module comment). */
export function residentKernels(get: () => ResidentMemory): ResidentKernels {
  const back = (r: ResidentMemory, host: Float32Array, ptr: number, n: number) => {
    host.set(r.mem().subarray(ptr >> 2, (ptr >> 2) + n));
    r.cache.remember(host, ptr, n);
  };
  return {
    adam(k, p, g, m, v) {
      const r = get();
      const n = k.size;
      r.ensure(n * 16 + 512);
      const mem = () => r.mem();
      const pp = r.cache.input(p, n, mem), pg = r.cache.input(g, n, mem), pm = r.cache.input(m, n, mem), pv = r.cache.input(v, n, mem);
      const l2 = k.decoupled ? 0 : k.weightDecay;
      const dw = k.decoupled ? k.weightDecay : 0;
      r.ex.adam(pp, pg, pm, pv, n, k.lr, k.beta1, k.beta2, k.eps, l2, dw, 1 / k.bc1, 1 / k.bc2, k.gradScale);
      bumpGeneration(p);
      bumpGeneration(m);
      bumpGeneration(v);
      back(r, p, pp, n);
      back(r, m, pm, n);
      back(r, v, pv, n);
    },
    adamBumps: true,
    activationGrad(k, dy, y, dx) {
      const r = get();
      const n = k.size;
      r.ensure(n * 12 + 512);
      const mem = () => r.mem();
      const pdy = r.cache.input(dy, n, mem), py = r.cache.input(y, n, mem), pdx = r.cache.output(dx, n, false, mem);
      r.ex.act_grad(pdy, py, pdx, n, ACT_CODE[k.activation] ?? 0, k.alpha);
      back(r, dx, pdx, n);
    },
    sumRows(x, rows, cols, out) {
      const r = get();
      r.ensure((rows * cols + cols) * 4 + 512);
      const mem = () => r.mem();
      const px = r.cache.input(x, rows * cols, mem), po = r.cache.output(out, cols, false, mem);
      r.ex.sum_rows(px, rows, cols, po);
      back(r, out, po, cols);
    },
    unary(k, x, y) {
      const code = UNARY_CODE[k.op];
      const n = k.size;
      if (code === undefined || n < MIN_WASM_ELEMENTS) return false;
      const r = get();
      if (CHEAP_UNARY.has(k.op) && n > SMALL_OPERAND && !r.cache.has(x, n)) return false;
      r.ensure(n * 8 + 256);
      const mem = () => r.mem();
      const px = r.cache.input(x, n, mem), py = r.cache.output(y, n, false, mem);
      r.ex.unary_f(code, px, py, n, k.alpha, k.beta);
      back(r, y, py, n);
      return true;
    },
    unaryGrad(k, dy, x, y, dx) {
      const code = UNARY_CODE[k.op];
      const n = k.size;
      if (code === undefined || n < MIN_WASM_ELEMENTS) return false;
      const r = get();
      r.ensure(n * 16 + 256);
      const mem = () => r.mem();
      const pdy = r.cache.input(dy, n, mem);
      const px = GRAD_USES_X.has(k.op) ? r.cache.input(x, n, mem) : pdy;
      const py = GRAD_USES_Y.has(k.op) ? r.cache.input(y, n, mem) : pdy;
      const pdx = r.cache.output(dx, n, false, mem);
      r.ex.unary_grad_f(code, pdy, px, py, pdx, n, k.alpha, k.beta);
      back(r, dx, pdx, n);
      return true;
    },
    binary(k, a, b, out) {
      const code = BINARY_CODE[k.op];
      const n = shapeSize(k.outShape);
      if (code === undefined || n < MIN_WASM_ELEMENTS) return false;
      const plan = collapseBroadcast(k.outShape, k.aShape, k.bShape);
      if (!plan) return false;
      const an = shapeSize(k.aShape);
      const bn = shapeSize(k.bShape);
      const r = get();
      if (CHEAP_BINARY.has(k.op) && ((an > SMALL_OPERAND && !r.cache.has(a, an)) || (bn > SMALL_OPERAND && !r.cache.has(b, bn)))) return false;
      r.ensure((n + an + bn) * 4 + 256);
      const mem = () => r.mem();
      const pa = r.cache.input(a, an, mem), pb = r.cache.input(b, bn, mem), po = r.cache.output(out, n, false, mem);
      const { d, sa, sb } = plan;
      r.ex.binary_f(code, pa, pb, po, d[0]!, d[1]!, d[2]!, d[3]!, sa[0]!, sa[1]!, sa[2]!, sa[3]!, sb[0]!, sb[1]!, sb[2]!, sb[3]!);
      back(r, out, po, n);
      return true;
    },
    reduce(k, x, y) {
      const n = shapeSize(k.shape);
      if (n < MIN_WASM_ELEMENTS) return false;
      const plan = reducePlan(k.shape, k.axes);
      if (!plan) return false;
      const outN = plan.outer * plan.inner;
      const r = get();
      r.ensure((n + outN) * 4 + 256);
      const mem = () => r.mem();
      const px = r.cache.input(x, n, mem), py = r.cache.output(y, outN, false, mem);
      r.ex.reduce_f(REDUCE_CODE[k.op], px, py, plan.outer, plan.red, plan.inner);
      back(r, y, py, outN);
      return true;
    },
    softmax(k, x, y) {
      const n = k.outer * k.size * k.inner;
      if (k.inner !== 1 || n < MIN_WASM_ELEMENTS || k.size === 0) return false;
      const outN = k.op === 'logsumexp' ? k.outer : n;
      const r = get();
      r.ensure((n + outN) * 4 + 256);
      const mem = () => r.mem();
      const px = r.cache.input(x, n, mem), py = r.cache.output(y, outN, false, mem);
      r.ex.softmax_rows(SOFTMAX_CODE[k.op], px, py, k.outer, k.size);
      back(r, y, py, outN);
      return true;
    },
    layerNorm(k, x, gamma, beta, y, mean, rstd) {
      const n = k.rows * k.size;
      if (n === 0) return false;
      const r = get();
      r.ensure((2 * n + 2 * k.size + 2 * k.rows) * 4 + 512);
      const mem = () => r.mem();
      const px = r.cache.input(x, n, mem);
      const pg = gamma ? r.cache.input(gamma, k.size, mem) : 0;
      const pb = beta ? r.cache.input(beta, k.size, mem) : 0;
      const py = r.cache.output(y, n, false, mem), pm = r.cache.output(mean, k.rows, false, mem), ps = r.cache.output(rstd, k.rows, false, mem);
      r.ex.layer_norm_f(px, pg, pb, py, pm, ps, k.rows, k.size, k.eps);
      back(r, y, py, n);
      back(r, mean, pm, k.rows);
      back(r, rstd, ps, k.rows);
      return true;
    },
    layerNormGrad(k, dy, x, mean, rstd, gamma, dx, dgamma, dbeta) {
      const n = k.rows * k.size;
      if (n === 0) return false;
      const r = get();
      r.ensure((3 * n + 3 * k.size + 2 * k.rows) * 4 + 512);
      const mem = () => r.mem();
      const pdy = r.cache.input(dy, n, mem), px = r.cache.input(x, n, mem);
      const pm = r.cache.input(mean, k.rows, mem), ps = r.cache.input(rstd, k.rows, mem);
      const pg = gamma ? r.cache.input(gamma, k.size, mem) : 0;
      const pdx = r.cache.output(dx, n, false, mem);
      const pdg = dgamma ? r.cache.output(dgamma, k.size, false, mem) : 0;
      const pdb = dbeta ? r.cache.output(dbeta, k.size, false, mem) : 0;
      r.ex.layer_norm_grad_f(pdy, px, pm, ps, pg, pdx, pdg, pdb, k.rows, k.size);
      back(r, dx, pdx, n);
      if (dgamma) back(r, dgamma, pdg, k.size);
      if (dbeta) back(r, dbeta, pdb, k.size);
      return true;
    },
    accumulate(dst, src, n) {
      if (n < MIN_WASM_ELEMENTS) return false;
      const r = get();
      r.ensure(n * 8 + 256);
      const mem = () => r.mem();
      const pd = r.cache.input(dst, n, mem), ps = r.cache.input(src, n, mem);
      r.ex.add_inplace(pd, ps, n);
      back(r, dst, pd, n);
      return true;
    },
  };
}
