/**
 * The WebAssembly SIMD elementwise kernels (wasm/elementwise.c) against the TypeScript reference
 * kernels (js-kernels.ts) through the CPU backend's dispatch, on every CPU path that has them:
 * random shapes, broadcasting patterns, lengths that are not multiples of 4, special values.
 */
import { describe, expect, it } from 'vitest';
import type {
  BinaryKernel,
  BinaryOp,
  KernelDescriptor,
  UnaryOp,
} from '../src/backends/backend.ts';
import { shapeSize } from '../src/backends/backend.ts';
import { CpuBackend, availableMatmulPaths, jsMatmulPath } from '../src/backends/cpu/index.ts';
import type { CpuBuffer } from '../src/backends/cpu/index.ts';
import { collapseBroadcast, MIN_WASM_ELEMENTS } from '../src/backends/cpu/wasm-elementwise.ts';

function rng(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const paths = availableMatmulPaths().filter((p) => p.unary);
if (paths.length === 0) console.log('[wasm-elementwise] no CPU path with wasm elementwise kernels (wasm SIMD unsupported): nothing tested');

/**
 * Makes `inputs` resident in the wasm memory of a backend's path, as outputs of a wasm kernel
 * would be (memory-bound ops only run in wasm on resident operands): each array is replaced by
 * the output of `reciprocal(1 / x)` computed there (about x; the caller then feeds the SAME
 * values to the reference).
 */
function residentInputs(be: CpuBackend, inputs: Float32Array[]): Float32Array[] {
  return inputs.map((d) => {
    const t = be.alloc(d.length);
    be.write(t, d.map((v) => 1 / v));
    const o = be.alloc(d.length);
    be.dispatch({ kind: 'unary', op: 'reciprocal', size: d.length, alpha: 0, beta: 0 }, [t], [o]);
    held.push(o);
    return (o as CpuBuffer).data;
  });
}
const held: unknown[] = [];

/** Runs one descriptor on a backend; inputs are copied in unless they are the data of live buffers. */
function run(be: CpuBackend, k: KernelDescriptor, inputs: Float32Array[], outLens: number[]): Float32Array[] {
  const ib = inputs.map((d) => {
    const live = (held as CpuBuffer[]).find((h) => h.data === d);
    if (live) return live;
    const b = be.alloc(d.length);
    be.write(b, d);
    return b;
  });
  const ob = outLens.map((n) => be.alloc(n));
  be.dispatch(k, ib, ob);
  const res = ob.map((b) => (b as CpuBuffer).data.slice());
  for (const b of [...ib, ...ob]) if (!held.includes(b)) be.free(b);
  return res;
}

/** Max error relative to max(1, |ref|); NaN must match NaN, infinities must match exactly. */
function maxErr(got: Float32Array, ref: Float32Array): number {
  let e = 0;
  for (let i = 0; i < ref.length; i++) {
    const a = got[i]!;
    const b = ref[i]!;
    if (Number.isNaN(b) || Number.isNaN(a)) {
      if (Number.isNaN(a) !== Number.isNaN(b)) return Infinity;
      continue;
    }
    if (!Number.isFinite(b) || !Number.isFinite(a)) {
      if (a !== b) return Infinity;
      continue;
    }
    const d = Math.abs(a - b) / Math.max(1, Math.abs(b));
    if (d > e) e = d;
  }
  return e;
}

function data(n: number, r: () => number, kind: 'normal' | 'positive' | 'wide' = 'normal'): Float32Array {
  const d = new Float32Array(n);
  for (let i = 0; i < n; i++) {
    const g = Math.sqrt(-2 * Math.log(1 - r())) * Math.cos(2 * Math.PI * r());
    d[i] = kind === 'positive' ? 0.01 + 3 * r() : kind === 'wide' ? g * 30 : g;
  }
  return d;
}

const SPECIALS = [0, -0, 1, -1, 1e-30, -1e-30, 1e-40, 88, 89, -88, -104, -200, 200, 20.5, -20.5, 1e30, -1e30, Infinity, -Infinity, NaN];

const UNARY: { op: UnaryOp; kind: 'normal' | 'positive' | 'wide'; alpha?: number; beta?: number; tol?: number }[] = [
  { op: 'neg', kind: 'normal' },
  { op: 'exp', kind: 'wide', tol: 2e-6 },
  { op: 'log', kind: 'positive', tol: 2e-6 },
  { op: 'sqrt', kind: 'positive' },
  { op: 'rsqrt', kind: 'positive', tol: 1e-6 },
  { op: 'abs', kind: 'normal' },
  { op: 'sign', kind: 'normal' },
  { op: 'square', kind: 'normal' },
  { op: 'reciprocal', kind: 'positive' },
  { op: 'tanh', kind: 'wide', tol: 2e-6 },
  { op: 'tanh', kind: 'normal', tol: 2e-6 },
  { op: 'relu', kind: 'normal' },
  { op: 'leaky-relu', kind: 'normal', alpha: 0.1, tol: 1e-6 },
  { op: 'silu', kind: 'wide', tol: 2e-6 },
  { op: 'sigmoid', kind: 'wide', tol: 2e-6 },
  { op: 'softplus', kind: 'wide', tol: 2e-6 },
  { op: 'softplus', kind: 'normal', tol: 2e-6 },
  { op: 'clamp', kind: 'normal', alpha: -0.5, beta: 0.7 },
  { op: 'affine', kind: 'normal', alpha: 2.5, beta: -1, tol: 1e-6 },
  { op: 'identity', kind: 'normal' },
  { op: 'floor', kind: 'wide' },
];

const BINARY_OPS: BinaryOp[] = ['add', 'sub', 'mul', 'div', 'max', 'min', 'gt', 'ge', 'lt', 'le', 'eq'];

/** Broadcast patterns [outShape, aShape, bShape] (a/b unpadded; padded below). */
const SHAPES: [number[], number[], number[]][] = [
  [[257], [257], [257]],
  [[4099], [4099], [4099]],
  [[129, 67], [129, 67], [67]],
  [[129, 67], [129, 1], [129, 67]],
  [[67, 13], [67, 13], [13]],
  [[67, 13], [67, 13], [67, 1]],
  [[67, 13], [1], [67, 13]],
  [[67, 13], [67, 13], [1]],
  [[5, 7, 9], [5, 1, 9], [1, 7, 1]],
  [[3, 4, 5, 6], [3, 1, 5, 1], [4, 1, 6]],
  [[2, 3, 4, 5, 6], [2, 1, 4, 1, 6], [3, 1, 5, 1]],
  [[33, 3], [33, 1], [1, 3]],
  [[9, 1, 11], [9, 1, 11], [9, 1, 1]],
];

function pad(s: number[], r: number): number[] {
  return [...new Array<number>(r - s.length).fill(1), ...s];
}

describe('collapseBroadcast', () => {
  it('merges contiguous dims and keeps at most 4', () => {
    expect(collapseBroadcast([4, 5, 6], [4, 5, 6], [4, 5, 6])).toEqual({ d: [1, 1, 1, 120], sa: [0, 0, 0, 1], sb: [0, 0, 0, 1] });
    expect(collapseBroadcast([4, 5, 6], [4, 5, 6], [1, 1, 6])).toEqual({ d: [1, 1, 20, 6], sa: [0, 0, 6, 1], sb: [0, 0, 0, 1] });
    expect(collapseBroadcast([4, 5, 6], [4, 5, 6], [4, 5, 1])).toEqual({ d: [1, 1, 20, 6], sa: [0, 0, 6, 1], sb: [0, 0, 1, 0] });
    expect(collapseBroadcast([2, 3, 4, 5, 6], [2, 1, 4, 1, 6], [1, 3, 1, 5, 1])).toBeNull();
  });
});

for (const path of paths) {
  describe(`wasm elementwise kernels on cpu/${path.name} vs the TypeScript reference`, () => {
    const fast = new CpuBackend(path);
    const ref = new CpuBackend(jsMatmulPath);

    it('unary ops: random data, odd lengths, special values', () => {
      const r = rng(1);
      for (const u of UNARY) {
        for (const n of [MIN_WASM_ELEMENTS, 65, 67, 1001, 4099]) {
          const x = data(n, r, u.kind);
          if (n === 1001) x.set(SPECIALS.map((v) => (u.op === 'log' || u.op === 'sqrt' || u.op === 'rsqrt' ? Math.abs(v) : v)), 100);
          const k: KernelDescriptor = { kind: 'unary', op: u.op, size: n, alpha: u.alpha ?? 0, beta: u.beta ?? 0 };
          const [want] = run(ref, k, [x], [n]);
          const [got] = run(fast, k, [x], [n]);
          expect(maxErr(got!, want!), `${u.op} n=${n}`).toBeLessThanOrEqual(u.tol ?? 0);
          // resident input (as the output of an earlier wasm kernel)
          const [xr] = residentInputs(fast, [x]);
          const [want2] = run(ref, k, [xr!.slice()], [n]);
          const [got2] = run(fast, k, [xr!], [n]);
          expect(maxErr(got2!, want2!), `${u.op} n=${n} (resident input)`).toBeLessThanOrEqual(u.tol ?? 0);
        }
      }
    });

    it('unary gradients', () => {
      const r = rng(2);
      for (const u of UNARY) {
        for (const n of [MIN_WASM_ELEMENTS + 1, 259, 4099]) {
          const x = data(n, r, u.kind);
          const [y] = run(ref, { kind: 'unary', op: u.op, size: n, alpha: u.alpha ?? 0, beta: u.beta ?? 0 }, [x], [n]);
          const dy = data(n, r);
          const k: KernelDescriptor = { kind: 'unary-grad', op: u.op, size: n, alpha: u.alpha ?? 0, beta: u.beta ?? 0 };
          const [want] = run(ref, k, [dy, x, y!], [n]);
          const [got] = run(fast, k, [dy, x, y!], [n]);
          expect(maxErr(got!, want!), `grad ${u.op} n=${n}`).toBeLessThanOrEqual(u.tol ?? 1e-6);
        }
      }
    });

    it('binary ops with broadcasting', () => {
      const r = rng(3);
      for (const op of BINARY_OPS) {
        for (const [out, as, bs] of SHAPES) {
          const rank = out.length;
          const aShape = pad(as, rank);
          const bShape = pad(bs, rank);
          const a = data(shapeSize(aShape), r);
          const b = op === 'div' ? data(shapeSize(bShape), r, 'positive') : data(shapeSize(bShape), r);
          if (op === 'eq' || op === 'ge' || op === 'le') for (let i = 0; i < Math.min(a.length, b.length); i += 3) a[i] = b[i]!;
          if (op === 'max' || op === 'min') { a[0] = NaN; b[b.length - 1] = NaN; }
          const k: BinaryKernel = { kind: 'binary', op, outShape: out, aShape, bShape };
          const n = shapeSize(out);
          const [want] = run(ref, k, [a, b], [n]);
          const [got] = run(fast, k, [a, b], [n]);
          expect(maxErr(got!, want!), `${op} ${JSON.stringify([out, as, bs])}`).toBe(0);
          const [ar, br] = residentInputs(fast, [a, b]);
          const [want2] = run(ref, k, [ar!.slice(), br!.slice()], [n]);
          const [got2] = run(fast, k, [ar!, br!], [n]);
          expect(maxErr(got2!, want2!), `${op} ${JSON.stringify([out, as, bs])} (resident inputs)`).toBe(0);
        }
      }
    });

    it('reductions over contiguous axes', () => {
      const r = rng(4);
      const cases: [number[], number[]][] = [[[67, 13], [0]], [[67, 13], [1]], [[5, 7, 9], [1]], [[5, 7, 9], [1, 2]], [[5, 7, 9], [0, 1, 2]], [[3, 301], [1]]];
      for (const op of ['sum', 'mean', 'max', 'min'] as const) {
        for (const [shape, axes] of cases) {
          const x = data(shapeSize(shape), r);
          const outN = shapeSize(shape.filter((_, d) => !axes.includes(d)));
          const k: KernelDescriptor = { kind: 'reduce', op, shape, axes };
          const [want] = run(ref, k, [x], [outN]);
          const [got] = run(fast, k, [x], [outN]);
          expect(maxErr(got!, want!), `${op} ${JSON.stringify([shape, axes])}`).toBeLessThan(2e-6);
        }
      }
    });

    it('softmax family over the last axis', () => {
      const r = rng(5);
      for (const op of ['softmax', 'log-softmax', 'logsumexp'] as const) {
        for (const [outer, size] of [[16, 7], [9, 33], [3, 130]] as const) {
          const x = data(outer * size, r, 'wide');
          const k: KernelDescriptor = { kind: 'softmax', op, outer, size, inner: 1 };
          const outN = op === 'logsumexp' ? outer : outer * size;
          const [want] = run(ref, k, [x], [outN]);
          const [got] = run(fast, k, [x], [outN]);
          expect(maxErr(got!, want!), `${op} ${outer}x${size}`).toBeLessThan(5e-6);
        }
      }
    });

    it('layer norm forward and backward', () => {
      const r = rng(6);
      for (const [rows, size] of [[17, 33], [64, 256], [5, 3]] as const) {
        for (const [g, b] of [[true, true], [true, false], [false, true], [false, false]] as const) {
          const x = data(rows * size, r);
          const gamma = data(size, r);
          const beta = data(size, r);
          const ins = [x, ...(g ? [gamma] : []), ...(b ? [beta] : [])];
          const k: KernelDescriptor = { kind: 'layer-norm', rows, size, eps: 1e-5, gamma: g, beta: b };
          const want = run(ref, k, ins, [rows * size, rows, rows]);
          const got = run(fast, k, ins, [rows * size, rows, rows]);
          for (let j = 0; j < 3; j++) expect(maxErr(got[j]!, want[j]!), `layer-norm out ${j}`).toBeLessThan(2e-5);
          const dy = data(rows * size, r);
          const gk: KernelDescriptor = { kind: 'layer-norm-grad', rows, size, gamma: g, beta: b };
          const gins = [dy, x, want[1]!, want[2]!, ...(g ? [gamma] : [])];
          const outs = [rows * size, ...(g ? [size] : []), ...(b ? [size] : [])];
          const gw = run(ref, gk, gins, outs);
          const gg = run(fast, gk, gins, outs);
          for (let j = 0; j < outs.length; j++) expect(maxErr(gg[j]!, gw[j]!), `layer-norm-grad out ${j}`).toBeLessThan(5e-5);
        }
      }
    });

    it('Adam keeps its state resident across steps and sees host writes to the parameters', () => {
      const r = rng(9);
      const n = 1029;
      const p0 = data(n, r);
      const grads = [data(n, r), data(n, r), data(n, r), data(n, r)];
      const reset = data(n, r);
      const trace = (be: CpuBackend): Float32Array[] => {
        const [p, g, m, v] = [0, 1, 2, 3].map(() => be.alloc(n)) as [CpuBuffer, CpuBuffer, CpuBuffer, CpuBuffer];
        be.write(p, p0);
        const out: Float32Array[] = [];
        for (let t = 1; t <= 4; t++) {
          be.write(g, grads[t - 1]!);
          if (t === 3) be.write(p, reset); // e.g. a checkpoint load between steps
          const bc1 = 1 - 0.9 ** t;
          const bc2 = 1 - 0.999 ** t;
          be.dispatch({ kind: 'adam', size: n, lr: 0.01, beta1: 0.9, beta2: 0.999, eps: 1e-8, weightDecay: 0.01, decoupled: t % 2 === 0, bc1, bc2, gradScale: 1 }, [p, g, m, v], [p, m, v]);
          // a consumer of p (as the next forward matmul would be) between steps
          const y = be.alloc(n);
          be.dispatch({ kind: 'unary', op: 'tanh', size: n, alpha: 0, beta: 0 }, [p], [y]);
          out.push(p.data.slice(), m.data.slice(), v.data.slice(), (y as CpuBuffer).data.slice());
        }
        return out;
      };
      const want = trace(ref);
      const got = trace(fast);
      for (let i = 0; i < want.length; i++) expect(maxErr(got[i]!, want[i]!), `array ${i}`).toBeLessThan(1e-5);
    });

    it('gradient accumulation (copy with accumulate)', () => {
      const r = rng(7);
      const n = 1027;
      const a = data(n, r);
      const b = data(n, r);
      const k: KernelDescriptor = { kind: 'copy', shape: [n], srcStrides: [1], srcOffset: 0, dstStrides: [1], dstOffset: 0, accumulate: true };
      for (const be of [fast, ref]) {
        const src = be.alloc(n);
        const dst = be.alloc(n);
        be.write(src, b);
        be.write(dst, a);
        be.dispatch(k, [src], [dst]);
        const got = (dst as CpuBuffer).data;
        for (let i = 0; i < n; i++) expect(got[i]).toBe(Math.fround(a[i]! + b[i]!));
      }
    });

    it('a wasm output feeds the next kernel without a stale copy', () => {
      // matmul -> relu -> mul chain: the second and third kernels read resident operands.
      const r = rng(8);
      const m = 33, kk = 17, n = 29;
      const A = data(m * kk, r), B = data(kk * n, r), C = data(m * n, r);
      const chain = (be: CpuBackend): Float32Array => {
        const [pre] = run(be, { kind: 'matmul', batch: 1, m, n, k: kk, transA: false, transB: false, aBatchStride: 0, bBatchStride: 0, biasBatchStride: 0, bias: false, activation: 'none', alpha: 0, accumulate: false }, [A, B], [m * n]);
        const ab = be.alloc(m * n);
        be.write(ab, pre!);
        const act = be.alloc(m * n);
        be.dispatch({ kind: 'unary', op: 'tanh', size: m * n, alpha: 0, beta: 0 }, [ab], [act]);
        // overwrite the input host-side: a resident copy must not be reused
        be.write(ab, C);
        const out = be.alloc(m * n);
        be.dispatch({ kind: 'binary', op: 'mul', outShape: [m, n], aShape: [m, n], bShape: [m, n] }, [act, ab], [out]);
        return (out as CpuBuffer).data.slice();
      };
      expect(maxErr(chain(fast), chain(ref))).toBeLessThan(1e-5);
    });
  });
}
