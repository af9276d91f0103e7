/**
 * Float64 reference implementations of the backend kernels, written from the contract in
 * `backend.ts` (plain loops, no cleverness), for the WebGPU kernel checks in Node and Chromium.
 */
import type {
  Activation,
  AdamKernel,
  BinaryOp,
  CopyKernel,
  MatmulKernel,
  ReduceOp,
  SoftmaxKernel,
  UnaryOp,
} from '../../src/backends/backend.ts';

/** Deterministic PRNG (mulberry32) for test inputs. */
export function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** `n` uniform values in [lo, hi), rounded to float32. */
export function randArray(r: () => number, n: number, lo = -1, hi = 1): Float32Array {
  const a = new Float32Array(n);
  for (let i = 0; i < n; i++) a[i] = lo + (hi - lo) * r();
  return a;
}

const sigmoid = (x: number): number => (x >= 0 ? 1 / (1 + Math.exp(-x)) : Math.exp(x) / (1 + Math.exp(x)));

/** Unary op in float64. */
export function unaryRef(op: UnaryOp, x: number, alpha: number, beta: number): number {
  switch (op) {
    case 'neg': return -x;
    case 'exp': return Math.exp(x);
    case 'log': return Math.log(x);
    case 'sqrt': return Math.sqrt(x);
    case 'rsqrt': return 1 / Math.sqrt(x);
    case 'abs': return Math.abs(x);
    case 'sign': return Math.sign(x);
    case 'square': return x * x;
    case 'reciprocal': return 1 / x;
    case 'tanh': return Math.tanh(x);
    case 'relu': return Math.max(x, 0);
    case 'leaky-relu': return x > 0 ? x : alpha * x;
    case 'silu': return x * sigmoid(x);
    case 'sigmoid': return sigmoid(x);
    case 'softplus': return Math.max(x, 0) + Math.log1p(Math.exp(-Math.abs(x)));
    case 'clamp': return Math.min(Math.max(x, alpha), beta);
    case 'pow-scalar': return Math.pow(x, alpha);
    case 'affine': return alpha * x + beta;
    case 'identity': return x;
    case 'floor': return Math.floor(x);
  }
}

/** Activation in float64. */
export function activationRef(act: Activation, x: number, alpha: number): number {
  switch (act) {
    case 'none': return x;
    case 'relu': return Math.max(x, 0);
    case 'leaky-relu': return x > 0 ? x : alpha * x;
    case 'tanh': return Math.tanh(x);
    case 'sigmoid': return sigmoid(x);
    case 'silu': return x * sigmoid(x);
  }
}

/** Binary op in float64. */
export function binaryRef(op: BinaryOp, a: number, b: number): number {
  switch (op) {
    case 'add': return a + b;
    case 'sub': return a - b;
    case 'mul': return a * b;
    case 'div': return a / b;
    case 'pow': return Math.pow(a, b);
    case 'max': return Math.max(a, b);
    case 'min': return Math.min(a, b);
    case 'gt': return a > b ? 1 : 0;
    case 'ge': return a >= b ? 1 : 0;
    case 'lt': return a < b ? 1 : 0;
    case 'le': return a <= b ? 1 : 0;
    case 'eq': return a === b ? 1 : 0;
  }
}

function strides(shape: readonly number[]): number[] {
  const st = new Array<number>(shape.length).fill(1);
  for (let d = shape.length - 2; d >= 0; d--) st[d] = st[d + 1]! * shape[d + 1]!;
  return st;
}

/** Offset in an operand of shape `shape` (padded to out's rank) for out multi-index `idx`. */
function bcastOffset(idx: readonly number[], shape: readonly number[]): number {
  const st = strides(shape);
  let o = 0;
  for (let d = 0; d < idx.length; d++) o += (shape[d] === 1 ? 0 : idx[d]!) * st[d]!;
  return o;
}

function unravel(i: number, shape: readonly number[]): number[] {
  const idx = new Array<number>(shape.length).fill(0);
  for (let d = shape.length - 1; d >= 0; d--) {
    idx[d] = i % shape[d]!;
    i = Math.floor(i / shape[d]!);
  }
  return idx;
}

/** Broadcasting elementwise map in float64. */
export function broadcastRef(
  outShape: readonly number[],
  operands: ReadonlyArray<{ data: ArrayLike<number>; shape: readonly number[] }>,
  f: (...v: number[]) => number,
): Float64Array {
  const n = outShape.reduce((a, b) => a * b, 1);
  const out = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    const idx = unravel(i, outShape);
    out[i] = f(...operands.map((o) => o.data[bcastOffset(idx, o.shape)]!));
  }
  return out;
}

/** Batched matmul (+bias, activation, accumulate) in float64. */
export function matmulRef(
  k: MatmulKernel,
  a: ArrayLike<number>,
  b: ArrayLike<number>,
  bias?: ArrayLike<number>,
  cIn?: ArrayLike<number>,
): Float64Array {
  const { batch, m, n, k: K } = k;
  const c = new Float64Array(batch * m * n);
  for (let z = 0; z < batch; z++) {
    for (let i = 0; i < m; i++) {
      for (let j = 0; j < n; j++) {
        let s = 0;
        for (let q = 0; q < K; q++) {
          const av = a[z * k.aBatchStride + (k.transA ? q * m + i : i * K + q)]!;
          const bv = b[z * k.bBatchStride + (k.transB ? j * K + q : q * n + j)]!;
          s += av * bv;
        }
        const o = z * m * n + i * n + j;
        if (k.accumulate && cIn) s += cIn[o]!;
        if (bias) s += bias[z * (k.biasBatchStride ?? 0) + j]!;
        c[o] = activationRef(k.activation, s, k.alpha);
      }
    }
  }
  return c;
}

/** Reduction over axes in float64. */
export function reduceRef(op: ReduceOp, shape: readonly number[], axes: readonly number[], x: ArrayLike<number>): Float64Array {
  const outShape = shape.filter((_, d) => !axes.includes(d));
  const n = outShape.reduce((a, b) => a * b, 1);
  const init = op === 'max' ? -Infinity : op === 'min' ? Infinity : 0;
  const out = new Float64Array(n).fill(init);
  const total = shape.reduce((a, b) => a * b, 1);
  let rsize = 1;
  for (const a of axes) rsize *= shape[a]!;
  const ost = strides(outShape);
  for (let i = 0; i < total; i++) {
    const idx = unravel(i, shape);
    let o = 0;
    let dd = 0;
    for (let d = 0; d < shape.length; d++) if (!axes.includes(d)) o += idx[d]! * ost[dd++]!;
    const v = x[i]!;
    out[o] = op === 'max' ? Math.max(out[o]!, v) : op === 'min' ? Math.min(out[o]!, v) : out[o]! + v;
  }
  if (op === 'mean') for (let i = 0; i < n; i++) out[i] = out[i]! / rsize;
  return out;
}

/** Softmax family in float64. */
export function softmaxRef(k: SoftmaxKernel, x: ArrayLike<number>): Float64Array {
  const { outer, size, inner } = k;
  const out = new Float64Array(k.op === 'logsumexp' ? outer * inner : outer * size * inner);
  for (let o = 0; o < outer; o++) {
    for (let i = 0; i < inner; i++) {
      const at = (j: number): number => o * size * inner + j * inner + i;
      let m = -Infinity;
      for (let j = 0; j < size; j++) m = Math.max(m, x[at(j)]!);
      let s = 0;
      for (let j = 0; j < size; j++) s += Math.exp(x[at(j)]! - m);
      if (k.op === 'logsumexp') out[o * inner + i] = m + Math.log(s);
      else
        for (let j = 0; j < size; j++)
          out[at(j)] = k.op === 'softmax' ? Math.exp(x[at(j)]! - m) / s : x[at(j)]! - m - Math.log(s);
    }
  }
  return out;
}

/** Strided copy in float64 (sequential semantics). */
export function copyRef(k: CopyKernel, src: ArrayLike<number>, dst: ArrayLike<number>): Float64Array {
  const out = Float64Array.from(dst);
  const n = k.shape.reduce((a, b) => a * b, 1);
  for (let i = 0; i < n; i++) {
    const idx = unravel(i, k.shape);
    let so = k.srcOffset;
    let d = k.dstOffset;
    idx.forEach((c, q) => {
      so += c * k.srcStrides[q]!;
      d += c * k.dstStrides[q]!;
    });
    out[d] = (k.accumulate ? out[d]! : 0) + src[so]!;
  }
  return out;
}

/** Adam step in float64; returns [param, m, v]. */
export function adamRef(k: AdamKernel, p: ArrayLike<number>, g: ArrayLike<number>, m: ArrayLike<number>, v: ArrayLike<number>): Float64Array[] {
  const P = Float64Array.from(p);
  const M = Float64Array.from(m);
  const V = Float64Array.from(v);
  for (let i = 0; i < k.size; i++) {
    const w = P[i]!;
    const gi = g[i]! * k.gradScale + (k.decoupled ? 0 : k.weightDecay * w);
    M[i] = k.beta1 * M[i]! + (1 - k.beta1) * gi;
    V[i] = k.beta2 * V[i]! + (1 - k.beta2) * gi * gi;
    P[i] = w - k.lr * (M[i]! / k.bc1 / (Math.sqrt(V[i]! / k.bc2) + k.eps) + (k.decoupled ? k.weightDecay * w : 0));
  }
  return [P, M, V];
}
