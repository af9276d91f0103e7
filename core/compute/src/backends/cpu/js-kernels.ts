/**
 * Plain TypeScript kernels on Float32Array: the reference implementation of every kernel of the
 * backend contract and the last-resort fallback of the CPU backend. Fast paths (wasm SIMD,
 * native BLAS) replace the hot ones (matmul, elementwise) in `cpu-backend.ts`.
 */
import type {
  ActivationGradKernel,
  AdamKernel,
  BinaryKernel,
  BinaryOp,
  CopyKernel,
  GatherKernel,
  LayerNormGradKernel,
  LayerNormKernel,
  MatmulKernel,
  RandomKernel,
  ReduceKernel,
  ScatterAddKernel,
  SoftmaxKernel,
  UnaryGradKernel,
  UnaryKernel,
  WhereKernel,
  Activation,
} from '../backend.ts';
import { contiguousStrides, randomNormalAt, randomUniformAt, shapeSize } from '../backend.ts';

/** Applies `op` elementwise from x into y (length `k.size`). */
export function unaryJs(k: UnaryKernel, x: Float32Array, y: Float32Array): void {
  const n = k.size;
  const a = k.alpha;
  const b = k.beta;
  switch (k.op) {
    case 'neg': for (let i = 0; i < n; i++) y[i] = -x[i]!; break;
    case 'exp': for (let i = 0; i < n; i++) y[i] = Math.exp(x[i]!); break;
    case 'log': for (let i = 0; i < n; i++) y[i] = Math.log(x[i]!); break;
    case 'sqrt': for (let i = 0; i < n; i++) y[i] = Math.sqrt(x[i]!); break;
    case 'rsqrt': for (let i = 0; i < n; i++) y[i] = 1 / Math.sqrt(x[i]!); break;
    case 'abs': for (let i = 0; i < n; i++) y[i] = Math.abs(x[i]!); break;
    case 'sign': for (let i = 0; i < n; i++) y[i] = Math.sign(x[i]!); break;
    case 'square': for (let i = 0; i < n; i++) { const v = x[i]!; y[i] = v * v; } break;
    case 'reciprocal': for (let i = 0; i < n; i++) y[i] = 1 / x[i]!; break;
    case 'tanh': for (let i = 0; i < n; i++) y[i] = Math.tanh(x[i]!); break;
    case 'relu': for (let i = 0; i < n; i++) { const v = x[i]!; y[i] = v > 0 ? v : 0; } break;
    case 'leaky-relu': for (let i = 0; i < n; i++) { const v = x[i]!; y[i] = v > 0 ? v : a * v; } break;
    case 'silu': for (let i = 0; i < n; i++) { const v = x[i]!; y[i] = v / (1 + Math.exp(-v)); } break;
    case 'sigmoid': for (let i = 0; i < n; i++) y[i] = sigmoid(x[i]!); break;
    case 'softplus': for (let i = 0; i < n; i++) y[i] = softplus(x[i]!); break;
    case 'clamp': for (let i = 0; i < n; i++) { const v = x[i]!; y[i] = v < a ? a : v > b ? b : v; } break;
    case 'pow-scalar': for (let i = 0; i < n; i++) y[i] = Math.pow(x[i]!, a); break;
    case 'affine': for (let i = 0; i < n; i++) y[i] = a * x[i]! + b; break;
    case 'identity': y.set(x.subarray(0, n)); break;
    case 'floor': for (let i = 0; i < n; i++) y[i] = Math.floor(x[i]!); break;
    default: throw new Error(`cpu: unknown unary op ${String((k as UnaryKernel).op)}`);
  }
}

function sigmoid(v: number): number {
  return v >= 0 ? 1 / (1 + Math.exp(-v)) : Math.exp(v) / (1 + Math.exp(v));
}
function softplus(v: number): number {
  return v > 20 ? v : v < -20 ? Math.exp(v) : Math.log1p(Math.exp(v));
}

/** dx = dy * f'(x) for a unary op. */
export function unaryGradJs(k: UnaryGradKernel, dy: Float32Array, x: Float32Array, y: Float32Array, dx: Float32Array): void {
  const n = k.size;
  const a = k.alpha;
  const b = k.beta;
  switch (k.op) {
    case 'neg': for (let i = 0; i < n; i++) dx[i] = -dy[i]!; break;
    case 'exp': for (let i = 0; i < n; i++) dx[i] = dy[i]! * y[i]!; break;
    case 'log': for (let i = 0; i < n; i++) dx[i] = dy[i]! / x[i]!; break;
    case 'sqrt': for (let i = 0; i < n; i++) dx[i] = (0.5 * dy[i]!) / y[i]!; break;
    case 'rsqrt': for (let i = 0; i < n; i++) { const v = y[i]!; dx[i] = -0.5 * dy[i]! * v * v * v; } break;
    case 'abs': for (let i = 0; i < n; i++) dx[i] = dy[i]! * Math.sign(x[i]!); break;
    case 'sign': case 'floor': for (let i = 0; i < n; i++) dx[i] = 0; break;
    case 'square': for (let i = 0; i < n; i++) dx[i] = 2 * dy[i]! * x[i]!; break;
    case 'reciprocal': for (let i = 0; i < n; i++) { const v = y[i]!; dx[i] = -dy[i]! * v * v; } break;
    case 'tanh': for (let i = 0; i < n; i++) { const v = y[i]!; dx[i] = dy[i]! * (1 - v * v); } break;
    case 'relu': for (let i = 0; i < n; i++) dx[i] = x[i]! > 0 ? dy[i]! : 0; break;
    case 'leaky-relu': for (let i = 0; i < n; i++) dx[i] = x[i]! > 0 ? dy[i]! : a * dy[i]!; break;
    case 'silu': for (let i = 0; i < n; i++) { const v = x[i]!; const s = sigmoid(v); dx[i] = dy[i]! * s * (1 + v * (1 - s)); } break;
    case 'sigmoid': for (let i = 0; i < n; i++) { const v = y[i]!; dx[i] = dy[i]! * v * (1 - v); } break;
    case 'softplus': for (let i = 0; i < n; i++) dx[i] = dy[i]! * sigmoid(x[i]!); break;
    case 'clamp': for (let i = 0; i < n; i++) { const v = x[i]!; dx[i] = v >= a && v <= b ? dy[i]! : 0; } break;
    case 'pow-scalar': for (let i = 0; i < n; i++) dx[i] = a === 0 ? 0 : dy[i]! * a * Math.pow(x[i]!, a - 1); break;
    case 'affine': for (let i = 0; i < n; i++) dx[i] = a * dy[i]!; break;
    case 'identity': dx.set(dy.subarray(0, n)); break;
    default: throw new Error(`cpu: unknown unary-grad op ${String(k.op)}`);
  }
}

function binFn(op: BinaryOp): (a: number, b: number) => number {
  switch (op) {
    case 'add': return (a, b) => a + b;
    case 'sub': return (a, b) => a - b;
    case 'mul': return (a, b) => a * b;
    case 'div': return (a, b) => a / b;
    case 'pow': return Math.pow;
    case 'max': return (a, b) => (a > b || Number.isNaN(a) ? a : b);
    case 'min': return (a, b) => (a < b || Number.isNaN(a) ? a : b);
    case 'gt': return (a, b) => (a > b ? 1 : 0);
    case 'ge': return (a, b) => (a >= b ? 1 : 0);
    case 'lt': return (a, b) => (a < b ? 1 : 0);
    case 'le': return (a, b) => (a <= b ? 1 : 0);
    case 'eq': return (a, b) => (a === b ? 1 : 0);
  }
}

/** Strides of `shape` for broadcasting into `outShape` (0 where the dim is 1). */
export function broadcastStrides(shape: readonly number[], outShape: readonly number[]): number[] {
  const st = contiguousStrides(shape);
  return outShape.map((d, i) => (shape[i] === 1 && d !== 1 ? 0 : st[i]!));
}

function sameShape(a: readonly number[], b: readonly number[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/** Broadcasting binary op. */
export function binaryJs(k: BinaryKernel, a: Float32Array, b: Float32Array, out: Float32Array): void {
  const n = shapeSize(k.outShape);
  const aN = shapeSize(k.aShape);
  const bN = shapeSize(k.bShape);
  const op = k.op;
  // Fast paths for the common arithmetic cases.
  if (aN === n && bN === n) {
    switch (op) {
      case 'add': for (let i = 0; i < n; i++) out[i] = a[i]! + b[i]!; return;
      case 'sub': for (let i = 0; i < n; i++) out[i] = a[i]! - b[i]!; return;
      case 'mul': for (let i = 0; i < n; i++) out[i] = a[i]! * b[i]!; return;
      case 'div': for (let i = 0; i < n; i++) out[i] = a[i]! / b[i]!; return;
      default: break;
    }
  }
  const f = binFn(op);
  if (aN === n && bN === 1) { const s = b[0]!; for (let i = 0; i < n; i++) out[i] = f(a[i]!, s); return; }
  if (bN === n && aN === 1) { const s = a[0]!; for (let i = 0; i < n; i++) out[i] = f(s, b[i]!); return; }
  // Trailing-row broadcast: b covers the last dims of out (e.g. bias [n] over [m, n]).
  if (aN === n && n % bN === 0 && sameShape(trimLeadingOnes(k.bShape), k.outShape.slice(k.outShape.length - trimLeadingOnes(k.bShape).length))) {
    for (let o = 0; o < n; o += bN) for (let j = 0; j < bN; j++) out[o + j] = f(a[o + j]!, b[j]!);
    return;
  }
  const sa = broadcastStrides(k.aShape, k.outShape);
  const sb = broadcastStrides(k.bShape, k.outShape);
  stridedBinary(k.outShape, sa, sb, (i, ia, ib) => { out[i] = f(a[ia]!, b[ib]!); });
}

function trimLeadingOnes(s: readonly number[]): number[] {
  let i = 0;
  while (i < s.length && s[i] === 1) i++;
  return s.slice(i);
}

/** Iterates a shape with two broadcast strides; callback gets (flat out index, a index, b index). */
function stridedBinary(shape: readonly number[], sa: number[], sb: number[], cb: (i: number, ia: number, ib: number) => void): void {
  const r = shape.length;
  const n = shapeSize(shape);
  if (r === 0) { cb(0, 0, 0); return; }
  const idx = new Array<number>(r).fill(0);
  let ia = 0;
  let ib = 0;
  const last = r - 1;
  const dl = shape[last]!;
  const sal = sa[last]!;
  const sbl = sb[last]!;
  for (let i = 0; i < n; ) {
    // inner loop over last dim
    let pa = ia;
    let pb = ib;
    for (let j = 0; j < dl; j++, i++) { cb(i, pa, pb); pa += sal; pb += sbl; }
    // advance odometer on dims < last
    let d = last - 1;
    while (d >= 0) {
      idx[d]!++;
      ia += sa[d]!;
      ib += sb[d]!;
      if (idx[d]! < shape[d]!) break;
      ia -= sa[d]! * shape[d]!;
      ib -= sb[d]! * shape[d]!;
      idx[d] = 0;
      d--;
    }
    if (d < 0) break;
  }
}

/** where(cond, a, b) with broadcasting. */
export function whereJs(k: WhereKernel, c: Float32Array, a: Float32Array, b: Float32Array, out: Float32Array): void {
  const n = shapeSize(k.outShape);
  if (shapeSize(k.condShape) === n && shapeSize(k.aShape) === n && shapeSize(k.bShape) === n) {
    for (let i = 0; i < n; i++) out[i] = c[i] !== 0 ? a[i]! : b[i]!;
    return;
  }
  const sc = broadcastStrides(k.condShape, k.outShape);
  const sa = broadcastStrides(k.aShape, k.outShape);
  const sb = broadcastStrides(k.bShape, k.outShape);
  const r = k.outShape.length;
  const idx = new Array<number>(r).fill(0);
  for (let i = 0; i < n; i++) {
    let ic = 0, ia = 0, ib = 0;
    for (let d = 0; d < r; d++) { const v = idx[d]!; ic += v * sc[d]!; ia += v * sa[d]!; ib += v * sb[d]!; }
    out[i] = c[ic] !== 0 ? a[ia]! : b[ib]!;
    for (let d = r - 1; d >= 0; d--) { idx[d]!++; if (idx[d]! < k.outShape[d]!) break; idx[d] = 0; }
  }
}

/** Applies an activation in place on `c[off .. off+len)`. */
export function applyActivation(act: Activation, alpha: number, c: Float32Array, off: number, len: number): void {
  const end = off + len;
  switch (act) {
    case 'none': return;
    case 'relu': for (let i = off; i < end; i++) { const v = c[i]!; if (v < 0) c[i] = 0; } return;
    case 'leaky-relu': for (let i = off; i < end; i++) { const v = c[i]!; if (v < 0) c[i] = alpha * v; } return;
    case 'tanh': for (let i = off; i < end; i++) c[i] = Math.tanh(c[i]!); return;
    case 'sigmoid': for (let i = off; i < end; i++) c[i] = sigmoid(c[i]!); return;
    case 'silu': for (let i = off; i < end; i++) { const v = c[i]!; c[i] = v * sigmoid(v); } return;
  }
}

/**
 * Plain-JS batched matmul with fused bias/activation. op(B) is packed into 4-column panels
 * ([k][4], zero padded) and C is computed in 4x4 register blocks (V8 does not vectorise, so
 * register reuse is what matters: ~5x faster than a plain i-k-j loop).
 */
export function matmulJs(k: MatmulKernel, A: Float32Array, B: Float32Array, bias: Float32Array | null, C: Float32Array): void {
  const { batch, m, n, k: kk, transA, transB } = k;
  if (m < 4 && !transB) {
    matmulSmallJs(k, A, B, bias, C);
    return;
  }
  const panels = (n + 3) >> 2;
  const bp = new Float32Array(panels * kk * 4);
  let at: Float32Array | null = null;
  for (let bi = 0; bi < batch; bi++) {
    const aOff = bi * k.aBatchStride;
    const bOff = bi * k.bBatchStride;
    const cOff = bi * m * n;
    // op(A) as row-major m x k
    let Am: Float32Array;
    let aBase: number;
    if (transA) {
      at ??= new Float32Array(m * kk);
      for (let p = 0; p < kk; p++) for (let i = 0; i < m; i++) at[i * kk + p] = A[aOff + p * m + i]!;
      Am = at;
      aBase = 0;
    } else {
      Am = A;
      aBase = aOff;
    }
    // pack op(B) into panels (only once when B is shared across the batch)
    if (bi === 0 || k.bBatchStride !== 0) {
      bp.fill(0);
      for (let q = 0; q < panels; q++) {
        const j0 = q * 4;
        const w = Math.min(4, n - j0);
        const po = q * kk * 4;
        for (let p = 0; p < kk; p++) {
          for (let c = 0; c < w; c++) bp[po + p * 4 + c] = transB ? B[bOff + (j0 + c) * kk + p]! : B[bOff + p * n + j0 + c]!;
        }
      }
    }
    // initialise C
    for (let i = 0; i < m; i++) {
      const crow = cOff + i * n;
      const bo = bi * k.biasBatchStride;
      if (!k.accumulate) {
        if (bias) for (let j = 0; j < n; j++) C[crow + j] = bias[bo + j]!;
        else C.fill(0, crow, crow + n);
      } else if (bias) for (let j = 0; j < n; j++) C[crow + j] = C[crow + j]! + bias[bo + j]!;
    }
    let i = 0;
    for (; i + 4 <= m; i += 4) {
      const a0 = aBase + i * kk, a1 = a0 + kk, a2 = a1 + kk, a3 = a2 + kk;
      for (let q = 0; q < panels; q++) {
        let c00 = 0, c01 = 0, c02 = 0, c03 = 0, c10 = 0, c11 = 0, c12 = 0, c13 = 0;
        let c20 = 0, c21 = 0, c22 = 0, c23 = 0, c30 = 0, c31 = 0, c32 = 0, c33 = 0;
        let po = q * kk * 4;
        for (let p = 0; p < kk; p++, po += 4) {
          const b0 = bp[po]!, b1 = bp[po + 1]!, b2 = bp[po + 2]!, b3 = bp[po + 3]!;
          const x0 = Am[a0 + p]!, x1 = Am[a1 + p]!, x2 = Am[a2 + p]!, x3 = Am[a3 + p]!;
          c00 += x0 * b0; c01 += x0 * b1; c02 += x0 * b2; c03 += x0 * b3;
          c10 += x1 * b0; c11 += x1 * b1; c12 += x1 * b2; c13 += x1 * b3;
          c20 += x2 * b0; c21 += x2 * b1; c22 += x2 * b2; c23 += x2 * b3;
          c30 += x3 * b0; c31 += x3 * b1; c32 += x3 * b2; c33 += x3 * b3;
        }
        const j0 = q * 4;
        const w = Math.min(4, n - j0);
        const r0 = cOff + i * n + j0;
        store4(C, r0, w, c00, c01, c02, c03);
        store4(C, r0 + n, w, c10, c11, c12, c13);
        store4(C, r0 + 2 * n, w, c20, c21, c22, c23);
        store4(C, r0 + 3 * n, w, c30, c31, c32, c33);
      }
    }
    for (; i < m; i++) {
      const a0 = aBase + i * kk;
      for (let q = 0; q < panels; q++) {
        let c0 = 0, c1 = 0, c2 = 0, c3 = 0;
        let po = q * kk * 4;
        for (let p = 0; p < kk; p++, po += 4) {
          const x = Am[a0 + p]!;
          c0 += x * bp[po]!; c1 += x * bp[po + 1]!; c2 += x * bp[po + 2]!; c3 += x * bp[po + 3]!;
        }
        const j0 = q * 4;
        store4(C, cOff + i * n + j0, Math.min(4, n - j0), c0, c1, c2, c3);
      }
    }
    applyActivation(k.activation, k.alpha, C, cOff, m * n);
  }
}

/** Few rows, B not transposed: stream B rows (no packing), i-k-j order. */
function matmulSmallJs(k: MatmulKernel, A: Float32Array, B: Float32Array, bias: Float32Array | null, C: Float32Array): void {
  const { batch, m, n, k: kk, transA } = k;
  for (let bi = 0; bi < batch; bi++) {
    const aOff = bi * k.aBatchStride;
    const bOff = bi * k.bBatchStride;
    const cOff = bi * m * n;
    const bo = bi * k.biasBatchStride;
    for (let i = 0; i < m; i++) {
      const crow = cOff + i * n;
      if (!k.accumulate) {
        if (bias) for (let j = 0; j < n; j++) C[crow + j] = bias[bo + j]!;
        else C.fill(0, crow, crow + n);
      } else if (bias) for (let j = 0; j < n; j++) C[crow + j] = C[crow + j]! + bias[bo + j]!;
      for (let p = 0; p < kk; p++) {
        const av = transA ? A[aOff + p * m + i]! : A[aOff + i * kk + p]!;
        if (av === 0) continue;
        const brow = bOff + p * n;
        for (let j = 0; j < n; j++) C[crow + j] = C[crow + j]! + av * B[brow + j]!;
      }
    }
    applyActivation(k.activation, k.alpha, C, cOff, m * n);
  }
}

function store4(C: Float32Array, o: number, w: number, a: number, b: number, c: number, d: number): void {
  C[o] = C[o]! + a;
  if (w > 1) C[o + 1] = C[o + 1]! + b;
  if (w > 2) C[o + 2] = C[o + 2]! + c;
  if (w > 3) C[o + 3] = C[o + 3]! + d;
}

/** dPre = dY * act'(.) (see ActivationGradKernel for which input is passed). */
export function activationGradJs(k: ActivationGradKernel, dy: Float32Array, y: Float32Array, dx: Float32Array): void {
  const n = k.size;
  switch (k.activation) {
    case 'none': dx.set(dy.subarray(0, n)); return;
    case 'relu': for (let i = 0; i < n; i++) dx[i] = y[i]! > 0 ? dy[i]! : 0; return;
    case 'leaky-relu': for (let i = 0; i < n; i++) dx[i] = y[i]! > 0 ? dy[i]! : k.alpha * dy[i]!; return;
    case 'tanh': for (let i = 0; i < n; i++) { const v = y[i]!; dx[i] = dy[i]! * (1 - v * v); } return;
    case 'sigmoid': for (let i = 0; i < n; i++) { const v = y[i]!; dx[i] = dy[i]! * v * (1 - v); } return;
    case 'silu': for (let i = 0; i < n; i++) { const v = y[i]!; const s = sigmoid(v); dx[i] = dy[i]! * s * (1 + v * (1 - s)); } return;
  }
}

/** General reduction over sorted axes. */
export function reduceJs(k: ReduceKernel, x: Float32Array, y: Float32Array): void {
  const shape = k.shape;
  const r = shape.length;
  const isRed = new Array<boolean>(r).fill(false);
  for (const a of k.axes) isRed[a] = true;
  const outSize = y.length;
  let redCount = 1;
  for (let d = 0; d < r; d++) if (isRed[d]) redCount *= shape[d]!;
  const init = k.op === 'max' ? -Infinity : k.op === 'min' ? Infinity : 0;
  // Contiguous fast path: reduced axes form one contiguous block -> [outer, red, inner].
  let first = -1, lastAx = -1, contiguous = true;
  for (let d = 0; d < r; d++) if (isRed[d]) { if (first < 0) first = d; else if (d !== lastAx + 1) contiguous = false; lastAx = d; }
  if (k.axes.length === 0) { y.set(x.subarray(0, outSize)); return; }
  if (contiguous) {
    let outer = 1, inner = 1;
    for (let d = 0; d < first; d++) outer *= shape[d]!;
    for (let d = lastAx + 1; d < r; d++) inner *= shape[d]!;
    const red = redCount;
    for (let o = 0; o < outer; o++) {
      const yo = o * inner;
      for (let i = 0; i < inner; i++) y[yo + i] = init;
      for (let p = 0; p < red; p++) {
        const xo = (o * red + p) * inner;
        if (k.op === 'sum' || k.op === 'mean') for (let i = 0; i < inner; i++) y[yo + i] = y[yo + i]! + x[xo + i]!;
        else if (k.op === 'max') for (let i = 0; i < inner; i++) { const v = x[xo + i]!; if (v > y[yo + i]! || Number.isNaN(v)) y[yo + i] = v; }
        else for (let i = 0; i < inner; i++) { const v = x[xo + i]!; if (v < y[yo + i]! || Number.isNaN(v)) y[yo + i] = v; }
      }
    }
  } else {
    // General: out stride per input dim (0 for reduced dims).
    const outShape = shape.filter((_, d) => !isRed[d]);
    const ost = contiguousStrides(outShape);
    const st: number[] = [];
    let j = 0;
    for (let d = 0; d < r; d++) st.push(isRed[d] ? 0 : ost[j++]!);
    y.fill(init);
    const idx = new Array<number>(r).fill(0);
    const n = x.length;
    for (let i = 0; i < n; i++) {
      let o = 0;
      for (let d = 0; d < r; d++) o += idx[d]! * st[d]!;
      const v = x[i]!;
      if (k.op === 'sum' || k.op === 'mean') y[o] = y[o]! + v;
      else if (k.op === 'max') { if (v > y[o]! || Number.isNaN(v)) y[o] = v; }
      else if (v < y[o]! || Number.isNaN(v)) y[o] = v;
      for (let d = r - 1; d >= 0; d--) { idx[d]!++; if (idx[d]! < shape[d]!) break; idx[d] = 0; }
    }
  }
  if (k.op === 'mean') { const s = 1 / redCount; for (let i = 0; i < outSize; i++) y[i] = y[i]! * s; }
}

/** Softmax / log-softmax / logsumexp over the middle axis of [outer, size, inner]. */
export function softmaxJs(k: SoftmaxKernel, x: Float32Array, y: Float32Array): void {
  const { outer, size, inner } = k;
  for (let o = 0; o < outer; o++) {
    for (let i = 0; i < inner; i++) {
      const base = o * size * inner + i;
      let mx = -Infinity;
      for (let p = 0; p < size; p++) { const v = x[base + p * inner]!; if (v > mx) mx = v; }
      if (mx === -Infinity) mx = 0;
      let s = 0;
      for (let p = 0; p < size; p++) s += Math.exp(x[base + p * inner]! - mx);
      if (k.op === 'logsumexp') { y[o * inner + i] = mx + Math.log(s); continue; }
      if (k.op === 'softmax') { const inv = 1 / s; for (let p = 0; p < size; p++) y[base + p * inner] = Math.exp(x[base + p * inner]! - mx) * inv; }
      else { const l = mx + Math.log(s); for (let p = 0; p < size; p++) y[base + p * inner] = x[base + p * inner]! - l; }
    }
  }
}

function clampIdx(v: number, n: number): number {
  const i = Math.trunc(v);
  return i < 0 ? 0 : i >= n ? n - 1 : i;
}

/** Gather along the middle axis. */
export function gatherJs(k: GatherKernel, x: Float32Array, idx: Float32Array, out: Float32Array): void {
  const { outer, axisSize, inner, count } = k;
  for (let o = 0; o < outer; o++) {
    for (let j = 0; j < count; j++) {
      const src = clampIdx(idx[k.perRow ? o * count + j : j]!, axisSize);
      const so = (o * axisSize + src) * inner;
      const dO = (o * count + j) * inner;
      for (let i = 0; i < inner; i++) out[dO + i] = x[so + i]!;
    }
  }
}

/** Adjoint of gather. */
export function scatterAddJs(k: ScatterAddKernel, dOut: Float32Array, idx: Float32Array, dx: Float32Array): void {
  const { outer, axisSize, inner, count } = k;
  dx.fill(0);
  for (let o = 0; o < outer; o++) {
    for (let j = 0; j < count; j++) {
      const dst = clampIdx(idx[k.perRow ? o * count + j : j]!, axisSize);
      const to = (o * axisSize + dst) * inner;
      const so = (o * count + j) * inner;
      for (let i = 0; i < inner; i++) dx[to + i] = dx[to + i]! + dOut[so + i]!;
    }
  }
}

/** Strided copy. */
export function copyJs(k: CopyKernel, src: Float32Array, dst: Float32Array): void {
  const shape = k.shape;
  const r = shape.length;
  const n = shapeSize(shape);
  if (n === 0) return;
  if (r === 0) { dst[k.dstOffset] = (k.accumulate ? dst[k.dstOffset]! : 0) + src[k.srcOffset]!; return; }
  const idx = new Array<number>(r).fill(0);
  let si = k.srcOffset;
  let di = k.dstOffset;
  const last = r - 1;
  const dl = shape[last]!;
  const ss = k.srcStrides[last]!;
  const ds = k.dstStrides[last]!;
  const acc = k.accumulate;
  for (let done = 0; done < n; ) {
    let s = si, d = di;
    if (acc) for (let j = 0; j < dl; j++) { dst[d] = dst[d]! + src[s]!; s += ss; d += ds; }
    else if (ss === 1 && ds === 1) dst.set(src.subarray(s, s + dl), d);
    else for (let j = 0; j < dl; j++) { dst[d] = src[s]!; s += ss; d += ds; }
    done += dl;
    let ax = last - 1;
    while (ax >= 0) {
      idx[ax]!++;
      si += k.srcStrides[ax]!;
      di += k.dstStrides[ax]!;
      if (idx[ax]! < shape[ax]!) break;
      si -= k.srcStrides[ax]! * shape[ax]!;
      di -= k.dstStrides[ax]! * shape[ax]!;
      idx[ax] = 0;
      ax--;
    }
    if (ax < 0) break;
  }
}

/** Counter-based random fill. */
export function randomJs(k: RandomKernel, out: Float32Array): void {
  if (k.dist === 'uniform') { const w = k.b - k.a; for (let i = 0; i < k.size; i++) out[i] = randomUniformAt(k.seed, i) * w + k.a; }
  else for (let i = 0; i < k.size; i++) out[i] = randomNormalAt(k.seed, i) * k.b + k.a;
}

/** Fused Adam/AdamW step in place. */
export function adamJs(k: AdamKernel, p: Float32Array, g: Float32Array, m: Float32Array, v: Float32Array): void {
  const { size, lr, beta1, beta2, eps, weightDecay, decoupled, bc1, bc2, gradScale } = k;
  const ib1 = 1 - beta1, ib2 = 1 - beta2, ibc1 = 1 / bc1, ibc2 = 1 / bc2;
  const l2 = decoupled ? 0 : weightDecay;
  const dw = decoupled ? weightDecay : 0;
  for (let i = 0; i < size; i++) {
    const pv = p[i]!;
    const gi = g[i]! * gradScale + l2 * pv;
    const mi = beta1 * m[i]! + ib1 * gi;
    const vi = beta2 * v[i]! + ib2 * gi * gi;
    m[i] = mi;
    v[i] = vi;
    p[i] = pv - lr * ((mi * ibc1) / (Math.sqrt(vi * ibc2) + eps) + dw * pv);
  }
}

/** Layer norm over the last axis (see LayerNormKernel); writes y, mean and rstd. */
export function layerNormJs(k: LayerNormKernel, x: Float32Array, gamma: Float32Array | null, beta: Float32Array | null, y: Float32Array, mean: Float32Array, rstd: Float32Array): void {
  const { rows, size: d, eps } = k;
  for (let r = 0; r < rows; r++) {
    const o = r * d;
    let s = 0;
    for (let j = 0; j < d; j++) s += x[o + j]!;
    const mu = s / d;
    let v = 0;
    for (let j = 0; j < d; j++) { const c = x[o + j]! - mu; v += c * c; }
    const rs = 1 / Math.sqrt(v / d + eps);
    mean[r] = mu;
    rstd[r] = rs;
    for (let j = 0; j < d; j++) {
      let h = (x[o + j]! - mu) * rs;
      if (gamma) h *= gamma[j]!;
      if (beta) h += beta[j]!;
      y[o + j] = h;
    }
  }
}

/** Backward of layer norm (see LayerNormGradKernel). */
export function layerNormGradJs(
  k: LayerNormGradKernel, dy: Float32Array, x: Float32Array, mean: Float32Array, rstd: Float32Array, gamma: Float32Array | null,
  dx: Float32Array, dgamma: Float32Array | null, dbeta: Float32Array | null,
): void {
  const { rows, size: d } = k;
  dgamma?.fill(0, 0, d);
  dbeta?.fill(0, 0, d);
  for (let r = 0; r < rows; r++) {
    const o = r * d;
    const mu = mean[r]!;
    const rs = rstd[r]!;
    let a1 = 0;
    let a2 = 0;
    for (let j = 0; j < d; j++) {
      const g0 = dy[o + j]!;
      const xh = (x[o + j]! - mu) * rs;
      const g = gamma ? g0 * gamma[j]! : g0;
      a1 += g;
      a2 += g * xh;
      if (dgamma) dgamma[j] = dgamma[j]! + g0 * xh;
      if (dbeta) dbeta[j] = dbeta[j]! + g0;
    }
    const m1 = a1 / d;
    const m2 = a2 / d;
    for (let j = 0; j < d; j++) {
      const xh = (x[o + j]! - mu) * rs;
      const g = gamma ? dy[o + j]! * gamma[j]! : dy[o + j]!;
      dx[o + j] = rs * (g - m1 - xh * m2);
    }
  }
}
