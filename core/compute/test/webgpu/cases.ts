/**
 * WebGPU kernel checks, runtime-agnostic: the same list runs under vitest in Node (Dawn +
 * SwiftShader) and inside headless Chromium (`navigator.gpu`), see `kernels.test.ts` and
 * `browser.test.ts`. Each case runs kernels through the public {@link Backend} interface and
 * compares with a float64 reference (`reference.ts`) under a per-kernel tolerance
 * |got - ref| <= atol + rtol * |ref|; backward kernels are also checked against central finite
 * differences of the float64 forward.
 */
import {
  randomNormalAt,
  randomUniformAt,
  type Activation,
  type Backend,
  type BackendBuffer,
  type BinaryOp,
  type CopyKernel,
  type KernelDescriptor,
  type MatmulKernel,
  type ReduceOp,
  type SoftmaxKernel,
  type UnaryOp,
} from '../../src/backends/backend.ts';
import {
  activationRef,
  adamRef,
  binaryRef,
  broadcastRef,
  copyRef,
  matmulRef,
  randArray,
  reduceRef,
  rng,
  softmaxRef,
  unaryRef,
} from './reference.ts';

/** Outcome of one check. */
export interface CaseResult {
  ok: boolean;
  /** Largest |got - ref| / (atol + rtol |ref|) seen (<= 1 passes). */
  worst: number;
  detail: string;
}

/** One named check. */
export interface KernelCase {
  name: string;
  run(be: Backend): Promise<CaseResult>;
}

/** Compares `got` with `ref` elementwise; NaN matches NaN, infinities must match exactly. */
export function compare(got: ArrayLike<number>, ref: ArrayLike<number>, atol: number, rtol: number): CaseResult {
  if (got.length !== ref.length) return { ok: false, worst: Infinity, detail: `length ${got.length} != ${ref.length}` };
  let worst = 0;
  let at = -1;
  for (let i = 0; i < ref.length; i++) {
    const g = got[i]!;
    const r = ref[i]!;
    let e: number;
    if (Number.isNaN(r)) e = Number.isNaN(g) ? 0 : Infinity;
    else if (!Number.isFinite(r)) e = g === r ? 0 : Infinity;
    else e = g === r ? 0 : Math.abs(g - r) / (atol + rtol * Math.abs(r));
    if (!(e <= worst)) {
      worst = e;
      at = i;
    }
  }
  const ok = worst <= 1;
  return { ok, worst, detail: ok ? `worst ${worst.toFixed(3)}` : `at ${at}: got ${got[at]} want ${ref[at]} (ratio ${worst})` };
}

function upload(be: Backend, data: ArrayLike<number>): BackendBuffer {
  const b = be.alloc(data.length);
  be.write(b, data instanceof Float32Array ? data : Float32Array.from(data));
  return b;
}

async function run1(be: Backend, k: KernelDescriptor, inputs: ArrayLike<number>[], outLen: number): Promise<Float32Array> {
  const ins = inputs.map((d) => upload(be, d));
  const out = be.alloc(outLen);
  be.dispatch(k, ins, [out]);
  const r = await be.read(out);
  for (const b of [...ins, out]) be.free(b);
  return r;
}

function all(results: CaseResult[]): CaseResult {
  const bad = results.find((r) => !r.ok);
  const worst = Math.max(0, ...results.map((r) => r.worst));
  return bad ? { ...bad, worst } : { ok: true, worst, detail: `worst ${worst.toFixed(3)} over ${results.length} checks` };
}

const f32 = (a: ArrayLike<number>): Float32Array => Float32Array.from(a);

// ---------------------------------------------------------------------------------------------

interface UnarySpec {
  op: UnaryOp;
  lo: number;
  hi: number;
  alpha?: number;
  beta?: number;
  atol?: number;
  rtol?: number;
  /** FD gradient check (skipped for piecewise-constant ops). */
  grad?: boolean;
}

const UNARY: UnarySpec[] = [
  { op: 'neg', lo: -3, hi: 3 },
  { op: 'exp', lo: -20, hi: 20, rtol: 2e-6 },
  { op: 'log', lo: 1e-3, hi: 50, atol: 1e-6 },
  { op: 'sqrt', lo: 1e-3, hi: 50 },
  { op: 'rsqrt', lo: 1e-2, hi: 50, rtol: 2e-6 },
  { op: 'abs', lo: -3, hi: 3 },
  { op: 'sign', lo: -3, hi: 3, grad: false },
  { op: 'square', lo: -3, hi: 3 },
  { op: 'reciprocal', lo: 0.1, hi: 5 },
  { op: 'tanh', lo: -60, hi: 60, atol: 1e-6 },
  { op: 'tanh', lo: -1, hi: 1, atol: 1e-7, rtol: 3e-6 },
  { op: 'relu', lo: -3, hi: 3 },
  { op: 'leaky-relu', lo: -3, hi: 3, alpha: 0.1 },
  { op: 'silu', lo: -30, hi: 30, atol: 1e-6 },
  { op: 'sigmoid', lo: -90, hi: 90, atol: 1e-7 },
  { op: 'softplus', lo: -90, hi: 90, atol: 1e-7, rtol: 2e-6 },
  { op: 'clamp', lo: -2, hi: 2, alpha: -0.5, beta: 0.75 },
  { op: 'pow-scalar', lo: 0.01, hi: 4, alpha: 2.5, rtol: 4e-6 },
  { op: 'pow-scalar', lo: -3, hi: 3, alpha: 3, rtol: 4e-6, atol: 1e-6 },
  { op: 'pow-scalar', lo: -3, hi: 3, alpha: 2, rtol: 4e-6, atol: 1e-6 },
  { op: 'affine', lo: -3, hi: 3, alpha: 2, beta: -1 },
  { op: 'identity', lo: -3, hi: 3 },
  { op: 'floor', lo: -3, hi: 3, grad: false },
];

function unaryCase(s: UnarySpec, idx: number): KernelCase {
  return {
    name: `unary ${s.op} [${s.lo}, ${s.hi}]${s.alpha !== undefined ? ` alpha=${s.alpha}` : ''}`,
    async run(be) {
      const n = 1000 + idx;
      const x = randArray(rng(100 + idx), n, s.lo, s.hi);
      const alpha = s.alpha ?? 0;
      const beta = s.beta ?? 0;
      const got = await run1(be, { kind: 'unary', op: s.op, size: n, alpha, beta }, [x], n);
      const ref = Array.from(x, (v) => unaryRef(s.op, v, alpha, beta));
      const fwd = compare(got, ref, s.atol ?? 1e-7, s.rtol ?? 1e-6);
      if (!fwd.ok || s.grad === false) return fwd;
      // Gradient kernel vs central finite differences of the float64 forward, away from kinks.
      const xs = f32(Array.from(x).filter((v) => Math.abs(v) > 1e-2 && (s.op !== 'clamp' || (Math.abs(v - alpha) > 1e-2 && Math.abs(v - beta) > 1e-2))));
      const g = randArray(rng(200 + idx), xs.length, -1, 1);
      const y = f32(Array.from(xs, (v) => unaryRef(s.op, v, alpha, beta)));
      const dx = await run1(be, { kind: 'unary-grad', op: s.op, size: xs.length, alpha, beta }, [g, xs, y], xs.length);
      const fd = Array.from(xs, (v, i) => {
        const h = 1e-6 * Math.max(1, Math.abs(v));
        return (g[i]! * (unaryRef(s.op, v + h, alpha, beta) - unaryRef(s.op, v - h, alpha, beta))) / (2 * h);
      });
      return all([fwd, compare(dx, fd, 1e-5, 1e-4)]);
    },
  };
}

// ---------------------------------------------------------------------------------------------

const BIN_SHAPES: Array<[number[], number[], number[]]> = [
  [[7, 33], [7, 33], [7, 33]],
  [[4, 5, 6], [4, 5, 6], [1, 5, 1]],
  [[3, 4], [3, 1], [1, 4]],
  [[2, 3, 4, 5], [1, 1, 1, 1], [2, 3, 4, 5]],
  [[2, 3, 4, 5, 2], [2, 1, 4, 1, 2], [1, 3, 1, 5, 1]],
  [[300, 70], [300, 70], [1, 70]],
];

const BIN_OPS: BinaryOp[] = ['add', 'sub', 'mul', 'div', 'pow', 'max', 'min', 'gt', 'ge', 'lt', 'le', 'eq'];

function binaryCase(op: BinaryOp): KernelCase {
  return {
    name: `binary ${op} (broadcast shapes)`,
    async run(be) {
      const res: CaseResult[] = [];
      let seed = 300;
      for (const [outShape, aShape, bShape] of BIN_SHAPES) {
        const na = aShape.reduce((p, q) => p * q, 1);
        const nb = bShape.reduce((p, q) => p * q, 1);
        const pos = op === 'pow';
        const a = randArray(rng(seed++), na, pos ? 0.1 : -2, 2);
        const b = randArray(rng(seed++), nb, pos ? -2 : -2, 2);
        if (op === 'div') for (let i = 0; i < nb; i++) if (Math.abs(b[i]!) < 0.1) b[i] = 0.5;
        // Force ties so comparisons and eq see equal values.
        if (na === nb) for (let i = 0; i < na; i += 3) b[i] = a[i]!;
        const size = outShape.reduce((p, q) => p * q, 1);
        const got = await run1(be, { kind: 'binary', op, outShape, aShape, bShape }, [a, b], size);
        const ref = broadcastRef(outShape, [{ data: a, shape: aShape }, { data: b, shape: bShape }], (u, v) => binaryRef(op, u, v));
        res.push(compare(got, ref, 1e-6, op === 'pow' ? 4e-6 : 1e-6));
      }
      return all(res);
    },
  };
}

const whereCase: KernelCase = {
  name: 'where (broadcast)',
  async run(be) {
    const outShape = [4, 5, 6];
    const condShape = [4, 1, 6];
    const aShape = [1, 5, 6];
    const bShape = [1, 1, 1];
    const r = rng(7);
    const cond = f32(Array.from({ length: 24 }, () => (r() > 0.5 ? 1 : 0)));
    const a = randArray(r, 30);
    const b = randArray(r, 1);
    const got = await run1(be, { kind: 'where', outShape, condShape, aShape, bShape }, [cond, a, b], 120);
    const ref = broadcastRef(outShape, [{ data: cond, shape: condShape }, { data: a, shape: aShape }, { data: b, shape: bShape }], (c, x, y) => (c !== 0 ? x : y));
    return compare(got, ref, 0, 0);
  },
};

// ---------------------------------------------------------------------------------------------

function mm(over: Partial<MatmulKernel> & { m: number; n: number; k: number }): MatmulKernel {
  return {
    kind: 'matmul',
    batch: 1,
    transA: false,
    transB: false,
    aBatchStride: over.m * over.k,
    bBatchStride: over.k * over.n,
    biasBatchStride: 0,
    bias: false,
    activation: 'none',
    alpha: 0,
    accumulate: false,
    ...over,
  };
}

async function matmulCheck(be: Backend, k: MatmulKernel, seed: number): Promise<CaseResult> {
  const r = rng(seed);
  const aLen = k.aBatchStride === 0 ? k.m * k.k : k.batch * k.m * k.k;
  const bLen = k.bBatchStride === 0 ? k.k * k.n : k.batch * k.k * k.n;
  const a = randArray(r, aLen);
  const b = randArray(r, bLen);
  const bias = randArray(r, k.biasBatchStride === 0 ? k.n : k.batch * k.n);
  const c0 = randArray(r, k.batch * k.m * k.n);
  const A = upload(be, a);
  const B = upload(be, b);
  const ins = k.bias ? [A, B, upload(be, bias)] : [A, B];
  const C = be.alloc(k.batch * k.m * k.n);
  if (k.accumulate) be.write(C, c0);
  be.dispatch(k, ins, [C]);
  const got = await be.read(C);
  for (const x of [...ins, C]) be.free(x);
  const ref = matmulRef(k, a, b, k.bias ? bias : undefined, k.accumulate ? c0 : undefined);
  // Error bound of a float32 dot product of length k with |terms| <= 1.
  return compare(got, ref, 2e-7 * Math.sqrt(k.k) * 4 + 1e-6, 1e-5);
}

const MATMUL_SHAPES: Array<[number, number, number]> = [
  [1, 16, 32],
  [2, 3, 4],
  [16, 64, 64],
  [17, 65, 33],
  [37, 45, 29],
  [64, 64, 64],
  [130, 70, 200],
  [256, 16, 256],
];

const matmulCases: KernelCase[] = [
  {
    name: 'matmul shapes x transA/transB',
    async run(be) {
      const res: CaseResult[] = [];
      let seed = 1000;
      for (const [m, n, k] of MATMUL_SHAPES) {
        for (const transA of [false, true]) {
          for (const transB of [false, true]) res.push(await matmulCheck(be, mm({ m, n, k, transA, transB }), seed++));
        }
      }
      return all(res);
    },
  },
  {
    name: 'matmul batched (broadcast A or B over batch)',
    async run(be) {
      return all([
        await matmulCheck(be, mm({ batch: 3, m: 20, n: 30, k: 40 }), 1),
        await matmulCheck(be, mm({ batch: 3, m: 20, n: 30, k: 40, bBatchStride: 0 }), 2),
        await matmulCheck(be, mm({ batch: 4, m: 5, n: 70, k: 9, aBatchStride: 0, transA: true }), 3),
        await matmulCheck(be, mm({ batch: 5, m: 65, n: 7, k: 8, transB: true }), 4),
      ]);
    },
  },
  ...(['none', 'relu', 'leaky-relu', 'tanh', 'sigmoid', 'silu'] as Activation[]).map(
    (activation): KernelCase => ({
      name: `matmul fused bias + ${activation}`,
      async run(be) {
        return all([
          await matmulCheck(be, mm({ m: 33, n: 70, k: 50, bias: true, activation, alpha: 0.05 }), 10),
          await matmulCheck(be, mm({ m: 1, n: 256, k: 32, bias: true, activation, alpha: 0.05 }), 11),
          await matmulCheck(be, mm({ batch: 2, m: 9, n: 17, k: 5, bias: true, activation, alpha: 0.05, bBatchStride: 0 }), 12),
          await matmulCheck(be, mm({ batch: 3, m: 9, n: 17, k: 5, bias: true, biasBatchStride: 17, activation, alpha: 0.05 }), 13),
        ]);
      },
    }),
  ),
  {
    name: 'matmul accumulate (in place)',
    async run(be) {
      return all([
        await matmulCheck(be, mm({ m: 40, n: 30, k: 20, accumulate: true, transA: true }), 20),
        await matmulCheck(be, mm({ m: 3, n: 5, k: 7, accumulate: true }), 21),
      ]);
    },
  },
];

// ---------------------------------------------------------------------------------------------

const ACTS: Activation[] = ['none', 'relu', 'leaky-relu', 'tanh', 'sigmoid', 'silu'];

const activationGradCase: KernelCase = {
  name: 'activation-grad vs finite differences',
  async run(be) {
    const res: CaseResult[] = [];
    for (const act of ACTS) {
      const pre = f32(Array.from(randArray(rng(40), 500, -4, 4)).filter((v) => Math.abs(v) > 1e-2));
      const n = pre.length;
      const g = randArray(rng(41), n);
      const saved = act === 'silu' ? pre : f32(Array.from(pre, (v) => activationRef(act, v, 0.1)));
      const got = await run1(be, { kind: 'activation-grad', activation: act, size: n, alpha: 0.1 }, [g, saved], n);
      const fd = Array.from(pre, (v, i) => {
        const h = 1e-6;
        return (g[i]! * (activationRef(act, v + h, 0.1) - activationRef(act, v - h, 0.1))) / (2 * h);
      });
      res.push(compare(got, fd, 1e-5, 1e-4));
    }
    return all(res);
  },
};

/**
 * Backward of a fused linear layer against finite differences: loss = Σ w ⊙ act(X W + b),
 * gradients through activation-grad, matmul (transB for dX, transA for dW) and a row reduce.
 */
const linearBackwardCase: KernelCase = {
  name: 'fused linear backward (dX, dW, db) vs finite differences',
  async run(be) {
    const res: CaseResult[] = [];
    const M = 6;
    const K = 5;
    const N = 7;
    for (const act of ACTS) {
      const r = rng(50);
      const X = randArray(r, M * K);
      const W = randArray(r, K * N);
      const bias = randArray(r, N, -0.5, 0.5);
      const wOut = randArray(r, M * N);
      const loss = (x: ArrayLike<number>, w: ArrayLike<number>, b: ArrayLike<number>): number => {
        const y = matmulRef(mm({ m: M, n: N, k: K, bias: true, activation: act, alpha: 0.1 }), x, w, b);
        let s = 0;
        for (let i = 0; i < y.length; i++) s += y[i]! * wOut[i]!;
        return s;
      };
      const fdOf = (arr: Float32Array, f: (a: Float64Array) => number): number[] =>
        Array.from(arr, (_, i) => {
          const h = 1e-6;
          const p = Float64Array.from(arr);
          p[i] = arr[i]! + h;
          const up = f(p);
          p[i] = arr[i]! - h;
          return (up - f(p)) / (2 * h);
        });
      const bx = upload(be, X);
      const bw = upload(be, W);
      const bb = upload(be, bias);
      const by = be.alloc(M * N);
      const pre = be.alloc(M * N);
      be.dispatch(mm({ m: M, n: N, k: K, bias: true, activation: act, alpha: 0.1 }), [bx, bw, bb], [by]);
      be.dispatch(mm({ m: M, n: N, k: K, bias: true, activation: 'none' }), [bx, bw, bb], [pre]);
      const gy = upload(be, wOut);
      const dpre = be.alloc(M * N);
      be.dispatch({ kind: 'activation-grad', activation: act, size: M * N, alpha: 0.1 }, [gy, act === 'silu' ? pre : by], [dpre]);
      const dx = be.alloc(M * K);
      const dw = be.alloc(K * N);
      const db = be.alloc(N);
      be.dispatch(mm({ m: M, n: K, k: N, transB: true }), [dpre, bw], [dx]);
      be.dispatch(mm({ m: K, n: N, k: M, transA: true }), [bx, dpre], [dw]);
      be.dispatch({ kind: 'reduce', op: 'sum', shape: [M, N], axes: [0] }, [dpre], [db]);
      const [gx, gw, gb] = [await be.read(dx), await be.read(dw), await be.read(db)];
      for (const b of [bx, bw, bb, by, pre, gy, dpre, dx, dw, db]) be.free(b);
      res.push(compare(gx, fdOf(X, (p) => loss(p, W, bias)), 1e-4, 1e-3));
      res.push(compare(gw, fdOf(W, (p) => loss(X, p, bias)), 1e-4, 1e-3));
      res.push(compare(gb, fdOf(bias, (p) => loss(X, W, p)), 1e-4, 1e-3));
    }
    return all(res);
  },
};

// ---------------------------------------------------------------------------------------------

const REDUCE_SHAPES: Array<[number[], number[]]> = [
  [[4, 5, 6], [0]],
  [[4, 5, 6], [1]],
  [[4, 5, 6], [2]],
  [[4, 5, 6], [0, 2]],
  [[4, 5, 6], [0, 1, 2]],
  [[1000], [0]],
  [[3, 300], [1]],
  [[300, 3], [0]],
  [[256, 256], [0]],
  [[2, 70, 3, 40], [1, 3]],
  [[5, 1, 7], [1]],
  [[100000], [0]],
];

function reduceCase(op: ReduceOp): KernelCase {
  return {
    name: `reduce ${op} over axes`,
    async run(be) {
      const res: CaseResult[] = [];
      let seed = 60;
      for (const [shape, axes] of REDUCE_SHAPES) {
        const n = shape.reduce((a, b) => a * b, 1);
        const x = randArray(rng(seed++), n);
        const ref = reduceRef(op, shape, axes, x);
        const got = await run1(be, { kind: 'reduce', op, shape, axes }, [x], ref.length);
        let r = 1;
        for (const a of axes) r *= shape[a]!;
        res.push(compare(got, ref, op === 'sum' ? 2e-7 * Math.sqrt(r) * 4 + 1e-6 : 1e-6, 1e-5));
      }
      return all(res);
    },
  };
}

const SOFTMAX_SHAPES: Array<[number, number, number]> = [
  [4, 10, 3],
  [3, 500, 1],
  [1, 7, 1],
  [2, 64, 5],
  [300, 16, 1],
];

function softmaxCase(op: SoftmaxKernel['op']): KernelCase {
  return {
    name: `${op} (stable, large logits)`,
    async run(be) {
      const res: CaseResult[] = [];
      let seed = 80;
      for (const [outer, size, inner] of SOFTMAX_SHAPES) {
        for (const scale of [1, 100]) {
          const x = randArray(rng(seed++), outer * size * inner, -scale, scale);
          const k: SoftmaxKernel = { kind: 'softmax', op, outer, size, inner };
          const ref = softmaxRef(k, x);
          const got = await run1(be, k, [x], ref.length);
          res.push(compare(got, ref, op === 'softmax' ? 1e-7 : 2e-6 * scale, 1e-5));
        }
      }
      return all(res);
    },
  };
}

// ---------------------------------------------------------------------------------------------

const gatherCases: KernelCase[] = [false, true].map(
  (perRow): KernelCase => ({
    name: `gather + scatter-add (${perRow ? 'take-along-axis' : 'index-select'}), adjointness`,
    async run(be) {
      const outer = 3;
      const axisSize = 7;
      const inner = 4;
      const count = 5;
      const r = rng(perRow ? 91 : 90);
      const x = randArray(r, outer * axisSize * inner);
      const nIdx = perRow ? outer * count : count;
      const idx = f32(Array.from({ length: nIdx }, () => Math.floor(r() * axisSize)));
      idx[0] = 2;
      idx[1] = 2; // repeated index: scatter-add must sum
      idx[2] = 99; // out of range: clamped
      const got = await run1(be, { kind: 'gather', outer, axisSize, inner, count, perRow }, [x, idx], outer * count * inner);
      const clampI = (v: number): number => Math.min(Math.max(Math.round(v), 0), axisSize - 1);
      const ref: number[] = [];
      for (let o = 0; o < outer; o++)
        for (let j = 0; j < count; j++)
          for (let i = 0; i < inner; i++) ref.push(x[(o * axisSize + clampI(idx[perRow ? o * count + j : j]!)) * inner + i]!);
      const g = randArray(r, outer * count * inner);
      const dx = await run1(be, { kind: 'scatter-add', outer, axisSize, inner, count, perRow }, [g, idx], outer * axisSize * inner);
      const dref = new Float64Array(outer * axisSize * inner);
      for (let o = 0; o < outer; o++)
        for (let j = 0; j < count; j++)
          for (let i = 0; i < inner; i++) {
            const d = (o * axisSize + clampI(idx[perRow ? o * count + j : j]!)) * inner + i;
            dref[d] = dref[d]! + g[(o * count + j) * inner + i]!;
          }
      // <gather(x), g> == <x, scatter(g)>
      let lhs = 0;
      let rhs = 0;
      for (let i = 0; i < got.length; i++) lhs += got[i]! * g[i]!;
      for (let i = 0; i < dx.length; i++) rhs += x[i]! * dx[i]!;
      return all([compare(got, ref, 0, 0), compare(dx, dref, 1e-6, 1e-6), compare([lhs], [rhs], 1e-5, 1e-5)]);
    },
  }),
);

async function copyCheck(be: Backend, k: CopyKernel, srcLen: number, dstLen: number, seed: number): Promise<CaseResult> {
  const r = rng(seed);
  const src = randArray(r, srcLen);
  const dst0 = randArray(r, dstLen);
  const S = upload(be, src);
  const D = upload(be, dst0);
  be.dispatch(k, [S], [D]);
  const got = await be.read(D);
  be.free(S);
  be.free(D);
  return compare(got, copyRef(k, src, dst0), 1e-6, 1e-6);
}

const copyCase: KernelCase = {
  name: 'copy: transpose, slice, concat, broadcast, accumulate adjoint',
  async run(be) {
    const cp = (o: Omit<CopyKernel, 'kind' | 'accumulate'> & { accumulate?: boolean }): CopyKernel => ({ kind: 'copy', accumulate: false, ...o });
    return all([
      // transpose [3,4,5] -> [5,3,4] (dst contiguous, src permuted strides)
      await copyCheck(be, cp({ shape: [5, 3, 4], srcStrides: [1, 20, 5], srcOffset: 0, dstStrides: [12, 4, 1], dstOffset: 0 }), 60, 60, 1),
      // slice rows 2..5, cols 1..4 of [8, 6]
      await copyCheck(be, cp({ shape: [3, 3], srcStrides: [6, 1], srcOffset: 13, dstStrides: [3, 1], dstOffset: 0 }), 48, 9, 2),
      // concat piece: [4, 3] into columns 2..5 of [4, 7]
      await copyCheck(be, cp({ shape: [4, 3], srcStrides: [3, 1], srcOffset: 0, dstStrides: [7, 1], dstOffset: 2 }), 12, 28, 3),
      // broadcast expansion [1, 5] -> [4, 5]
      await copyCheck(be, cp({ shape: [4, 5], srcStrides: [0, 1], srcOffset: 0, dstStrides: [5, 1], dstOffset: 0 }), 5, 20, 4),
      // adjoint of broadcast: accumulate [4, 5] into [5] (dst stride 0 over rows)
      await copyCheck(be, cp({ shape: [4, 5], srcStrides: [5, 1], srcOffset: 0, dstStrides: [0, 1], dstOffset: 0, accumulate: true }), 20, 5, 5),
      // accumulate slice adjoint
      await copyCheck(be, cp({ shape: [3, 3], srcStrides: [3, 1], srcOffset: 0, dstStrides: [6, 1], dstOffset: 13, accumulate: true }), 9, 48, 6),
      // large 4-D permute
      await copyCheck(be, cp({ shape: [7, 6, 5, 9], srcStrides: [1, 7, 42, 210], srcOffset: 0, dstStrides: [270, 45, 9, 1], dstOffset: 0 }), 1890, 1890, 7),
    ]);
  },
};

const fillCase: KernelCase = {
  name: 'fill (incl. a 2-D dispatch grid past 65,535 workgroups)',
  async run(be) {
    const n = 65536 * 256 + 777;
    const out = be.alloc(n);
    be.dispatch({ kind: 'fill', size: n, value: -2.5 }, [], [out]);
    const got = await be.read(out);
    be.free(out);
    let bad = 0;
    for (let i = 0; i < n; i++) if (got[i] !== -2.5) bad++;
    return { ok: bad === 0, worst: bad, detail: `${bad} wrong of ${n}` };
  },
};

const randomCase: KernelCase = {
  name: 'random uniform/normal: identical to randomUniformAt/randomNormalAt, moments',
  async run(be) {
    const n = 200_000;
    const seed: [number, number] = [0x9e3779b9, 12345];
    const u = await run1(be, { kind: 'random', dist: 'uniform', size: n, seed, a: -1, b: 3 }, [], n);
    const z = await run1(be, { kind: 'random', dist: 'normal', size: n, seed, a: 0.5, b: 2 }, [], n);
    const uref = Array.from({ length: n }, (_, i) => randomUniformAt(seed, i) * 4 - 1);
    const zref = Array.from({ length: n }, (_, i) => randomNormalAt(seed, i) * 2 + 0.5);
    let mean = 0;
    let sq = 0;
    for (const v of z) {
      mean += v;
      sq += v * v;
    }
    mean /= n;
    const sd = Math.sqrt(sq / n - mean * mean);
    const moments = { ok: Math.abs(mean - 0.5) < 0.02 && Math.abs(sd - 2) < 0.02, worst: 0, detail: `mean ${mean} sd ${sd}` };
    return all([compare(u, uref, 1e-7, 1e-7), compare(z, zref, 2e-5, 2e-5), moments]);
  },
};

const adamCase: KernelCase = {
  name: 'adam fused step (Adam with L2, AdamW), in place, 3 steps',
  async run(be) {
    const res: CaseResult[] = [];
    for (const decoupled of [false, true]) {
      const n = 1037;
      const r = rng(decoupled ? 11 : 10);
      let p: ArrayLike<number> = randArray(r, n);
      let m: ArrayLike<number> = new Float32Array(n);
      let v: ArrayLike<number> = new Float32Array(n);
      const P = upload(be, p);
      const M = be.alloc(n);
      const V = be.alloc(n);
      for (let t = 1; t <= 3; t++) {
        const g = randArray(r, n);
        const k = {
          kind: 'adam' as const,
          size: n,
          lr: 1e-2,
          beta1: 0.9,
          beta2: 0.999,
          eps: 1e-8,
          weightDecay: 0.01,
          decoupled,
          bc1: 1 - 0.9 ** t,
          bc2: 1 - 0.999 ** t,
          gradScale: 0.5,
        };
        const G = upload(be, g);
        be.dispatch(k, [P, G, M, V], [P, M, V]);
        be.free(G);
        [p, m, v] = adamRef(k, p, g, m, v) as [Float64Array, Float64Array, Float64Array];
      }
      res.push(compare(await be.read(P), p, 1e-6, 1e-5));
      res.push(compare(await be.read(M), m, 1e-7, 1e-5));
      res.push(compare(await be.read(V), v, 1e-8, 1e-5));
      for (const b of [P, M, V]) be.free(b);
    }
    return all(res);
  },
};

const prepareCase: KernelCase = {
  name: 'prepare compiles pipelines ahead, then dispatch of any size works',
  async run(be) {
    const k = (m: number): MatmulKernel => mm({ m, n: 9, k: 5, bias: true, activation: 'tanh' });
    await be.prepare?.(k(3));
    await be.prepare?.({ kind: 'reduce', op: 'max', shape: [4, 300], axes: [1] });
    return matmulCheck(be, k(7), 77);
  },
};

const memoryCase: KernelCase = {
  name: 'buffers: zero on alloc (incl. pool reuse), partial writes, ordering of write/dispatch/read',
  async run(be) {
    const res: CaseResult[] = [];
    const a = be.alloc(1000);
    res.push(compare(await be.read(a), new Float64Array(1000), 0, 0));
    be.write(a, new Float32Array(1000).fill(7));
    be.free(a);
    const b = be.alloc(1000); // likely the same pooled GPU buffer
    res.push(compare(await be.read(b), new Float64Array(1000), 0, 0));
    be.write(b, f32([1, 2, 3]), 10);
    const want = new Float64Array(1000);
    want.set([1, 2, 3], 10);
    res.push(compare(await be.read(b), want, 0, 0));
    // write -> dispatch -> write -> dispatch: each dispatch sees the write issued before it.
    const x = be.alloc(4);
    const y1 = be.alloc(4);
    const y2 = be.alloc(4);
    be.write(x, f32([1, 2, 3, 4]));
    be.dispatch({ kind: 'unary', op: 'neg', size: 4, alpha: 0, beta: 0 }, [x], [y1]);
    be.write(x, f32([5, 6, 7, 8]));
    be.dispatch({ kind: 'unary', op: 'neg', size: 4, alpha: 0, beta: 0 }, [x], [y2]);
    // Partially addressed output of a fresh buffer: the rest must read as zeros.
    const z = be.alloc(6);
    be.dispatch({ kind: 'copy', shape: [2], srcStrides: [1], srcOffset: 0, dstStrides: [2], dstOffset: 1, accumulate: false }, [x], [z]);
    res.push(compare(await be.read(y1), [-1, -2, -3, -4], 0, 0));
    res.push(compare(await be.read(y2), [-5, -6, -7, -8], 0, 0));
    res.push(compare(await be.read(z), [0, 5, 0, 6, 0, 0], 0, 0));
    await be.sync();
    for (const q of [b, x, y1, y2, z]) be.free(q);
    return all(res);
  },
};

/** Every WebGPU kernel check, in a stable order. */
export const KERNEL_CASES: readonly KernelCase[] = [
  memoryCase,
  prepareCase,
  ...UNARY.map(unaryCase),
  ...BIN_OPS.map(binaryCase),
  whereCase,
  ...matmulCases,
  activationGradCase,
  linearBackwardCase,
  ...(['sum', 'mean', 'max', 'min'] as ReduceOp[]).map(reduceCase),
  ...(['softmax', 'log-softmax', 'logsumexp'] as SoftmaxKernel['op'][]).map(softmaxCase),
  ...gatherCases,
  copyCase,
  fillCase,
  randomCase,
  adamCase,
];

/** Runs every case, catching exceptions as failures; for the browser harness. */
export async function runAllCases(be: Backend): Promise<Array<{ name: string } & CaseResult>> {
  const out: Array<{ name: string } & CaseResult> = [];
  for (const c of KERNEL_CASES) {
    try {
      out.push({ name: c.name, ...(await c.run(be)) });
    } catch (err) {
      out.push({ name: c.name, ok: false, worst: Infinity, detail: `threw: ${err instanceof Error ? err.stack ?? err.message : String(err)}` });
    }
  }
  return out;
}
