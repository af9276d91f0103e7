/**
 * Conformance: every op on every PRESENT backend (each CPU matmul path counts as one) against a
 * float64 reference, plus finite-difference gradient checks (central differences of the float64
 * reference, compared with our float32 autograd). A missing backend is reported and not described.
 */
import { describe, expect, it } from 'vitest';
import type { Backend } from '../src/backends/backend.ts';
import { CpuBackend, availableMatmulPaths } from '../src/backends/cpu/index.ts';
import { loadBackend } from '../src/backends/registry.ts';
import { Tensor, tensor, noGrad, tidy } from '../src/tensor.ts';
import * as O from '../src/ops/index.ts';
import * as Rf from './reference.ts';
import type { R } from './reference.ts';

type Kind = 'normal' | 'positive' | 'away' | 'mask' | { index: number } | 'unit';

interface Case {
  name: string;
  inputs: { shape: number[]; kind: Kind }[];
  run(t: Tensor[]): Tensor;
  ref(r: R[]): R;
  tol?: number;
  gradTol?: number;
  /** Indices of inputs to gradient-check (default: all non-index, non-mask inputs). */
  grad?: number[];
}

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

function gen(shape: number[], kind: Kind, r: () => number): Float64Array {
  const n = Rf.size(shape);
  const d = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    const u = r();
    const g = Math.sqrt(-2 * Math.log(1 - u)) * Math.cos(2 * Math.PI * r());
    if (kind === 'normal') d[i] = g;
    else if (kind === 'positive') d[i] = 0.2 + 2 * r();
    else if (kind === 'unit') d[i] = 0.8 * (2 * r() - 1);
    else if (kind === 'away') d[i] = (r() < 0.5 ? -1 : 1) * (0.2 + 1.5 * r()) + i * 1e-3;
    else if (kind === 'mask') d[i] = r() < 0.5 ? 1 : 0;
    else d[i] = Math.floor(r() * kind.index);
  }
  return d;
}

const u = (name: string, f: (x: Tensor) => Tensor, rf: (v: number) => number, kind: Kind = 'normal', tol?: number): Case => ({
  name,
  inputs: [{ shape: [3, 5], kind }],
  run: (t) => f(t[0]!),
  ref: (r) => Rf.map(r[0]!, rf),
  ...(tol ? { tol } : {}),
});

const sig = (v: number) => 1 / (1 + Math.exp(-v));

/** The same case on a larger shape (above MIN_WASM_ELEMENTS: the CPU wasm kernels run it). */
const big = (c: Case, shapes: number[][]): Case => ({ ...c, name: `${c.name} [large: ${shapes.map((s) => `[${s}]`).join(' x ')}]`, inputs: c.inputs.map((inp, i) => ({ ...inp, shape: shapes[i]! })) });

const cases: Case[] = [
  u('neg', O.neg, (v) => -v),
  u('exp', O.exp, Math.exp),
  u('log', O.log, Math.log, 'positive'),
  u('sqrt', O.sqrt, Math.sqrt, 'positive'),
  u('rsqrt', O.rsqrt, (v) => 1 / Math.sqrt(v), 'positive'),
  u('abs', O.abs, Math.abs, 'away'),
  u('square', O.square, (v) => v * v),
  u('reciprocal', O.reciprocal, (v) => 1 / v, 'positive'),
  u('tanh', O.tanh, Math.tanh),
  u('relu', O.relu, (v) => Math.max(v, 0), 'away'),
  u('leaky-relu', (x) => O.leakyRelu(x, 0.1), (v) => (v > 0 ? v : 0.1 * v), 'away'),
  u('silu', O.silu, (v) => v * sig(v)),
  u('sigmoid', O.sigmoid, sig),
  u('softplus', O.softplus, (v) => Math.log1p(Math.exp(v))),
  u('clamp', (x) => O.clamp(x, -0.5, 0.7), (v) => Math.min(Math.max(v, -0.5), 0.7), 'away'),
  u('pow-scalar', (x) => O.powScalar(x, 1.7), (v) => Math.pow(v, 1.7), 'positive'),
  u('affine', (x) => O.affine(x, 2.5, -1), (v) => 2.5 * v - 1),
  ...(['add', 'sub', 'mul', 'div', 'max', 'min'] as const).map((op): Case => {
    const f = { add: O.add, sub: O.sub, mul: O.mul, div: O.div, max: O.maximum, min: O.minimum }[op];
    const rf = { add: (a: number, b: number) => a + b, sub: (a: number, b: number) => a - b, mul: (a: number, b: number) => a * b, div: (a: number, b: number) => a / b, max: Math.max, min: Math.min }[op];
    return {
      name: `${op} (broadcast [2,3,4] x [3,1])`,
      inputs: [{ shape: [2, 3, 4], kind: op === 'max' || op === 'min' ? 'away' : 'normal' }, { shape: [3, 1], kind: op === 'div' ? 'positive' : op === 'max' || op === 'min' ? 'away' : 'normal' }],
      run: (t) => f(t[0]!, t[1]!),
      ref: (r) => Rf.zip(r[0]!, r[1]!, rf),
    };
  }),
  { name: 'pow (tensor exponent)', inputs: [{ shape: [4, 3], kind: 'positive' }, { shape: [3], kind: 'unit' }], run: (t) => O.pow(t[0]!, t[1]!), ref: (r) => Rf.zip(r[0]!, r[1]!, Math.pow) },
  { name: 'gt (no grad)', inputs: [{ shape: [4, 3], kind: 'normal' }, { shape: [1, 3], kind: 'normal' }], run: (t) => O.gt(t[0]!, t[1]!), ref: (r) => Rf.zip(r[0]!, r[1]!, (a, b) => (a > b ? 1 : 0)), grad: [] },
  { name: 'where', inputs: [{ shape: [4, 3], kind: 'mask' }, { shape: [4, 3], kind: 'normal' }, { shape: [3], kind: 'normal' }], run: (t) => O.where(t[0]!, t[1]!, t[2]!), ref: (r) => Rf.where3(r[0]!, r[1]!, r[2]!), grad: [1, 2] },
  { name: 'sum all', inputs: [{ shape: [3, 4, 5], kind: 'normal' }], run: (t) => O.sum(t[0]!), ref: (r) => Rf.reduce(r[0]!, [0, 1, 2], 'sum') },
  { name: 'sum axes [0,2]', inputs: [{ shape: [3, 4, 5], kind: 'normal' }], run: (t) => O.sum(t[0]!, [0, 2]), ref: (r) => Rf.reduce(r[0]!, [0, 2], 'sum') },
  { name: 'mean axis 1 keepDims', inputs: [{ shape: [3, 4, 5], kind: 'normal' }], run: (t) => O.mean(t[0]!, 1, true), ref: (r) => Rf.reduce(r[0]!, [1], 'mean', true) },
  { name: 'max axis -1', inputs: [{ shape: [3, 4, 5], kind: 'away' }], run: (t) => O.max(t[0]!, -1), ref: (r) => Rf.reduce(r[0]!, [2], 'max') },
  { name: 'min axis 0', inputs: [{ shape: [3, 4, 5], kind: 'away' }], run: (t) => O.min(t[0]!, 0), ref: (r) => Rf.reduce(r[0]!, [0], 'min') },
  { name: 'softmax', inputs: [{ shape: [4, 6], kind: 'normal' }], run: (t) => O.softmax(t[0]!), ref: (r) => Rf.softmaxLast(r[0]!, 'softmax') },
  { name: 'log-softmax', inputs: [{ shape: [4, 6], kind: 'normal' }], run: (t) => O.logSoftmax(t[0]!), ref: (r) => Rf.softmaxLast(r[0]!, 'log-softmax') },
  { name: 'logsumexp', inputs: [{ shape: [4, 6], kind: 'normal' }], run: (t) => O.logsumexp(t[0]!), ref: (r) => Rf.softmaxLast(r[0]!, 'logsumexp') },
  { name: 'softmax axis 0', inputs: [{ shape: [5, 3], kind: 'normal' }], run: (t) => O.softmax(t[0]!, 0), ref: (r) => Rf.permute(Rf.softmaxLast(Rf.permute(r[0]!, [1, 0]), 'softmax'), [1, 0]) },
  { name: 'matmul', inputs: [{ shape: [7, 5], kind: 'normal' }, { shape: [5, 9], kind: 'normal' }], run: (t) => O.matmul(t[0]!, t[1]!), ref: (r) => Rf.matmul(r[0]!, r[1]!) },
  { name: 'matmul transA', inputs: [{ shape: [5, 7], kind: 'normal' }, { shape: [5, 9], kind: 'normal' }], run: (t) => O.matmul(t[0]!, t[1]!, true, false), ref: (r) => Rf.matmul(r[0]!, r[1]!, true, false) },
  { name: 'matmul transB', inputs: [{ shape: [7, 5], kind: 'normal' }, { shape: [9, 5], kind: 'normal' }], run: (t) => O.matmul(t[0]!, t[1]!, false, true), ref: (r) => Rf.matmul(r[0]!, r[1]!, false, true) },
  { name: 'matmul transA transB', inputs: [{ shape: [5, 7], kind: 'normal' }, { shape: [9, 5], kind: 'normal' }], run: (t) => O.matmul(t[0]!, t[1]!, true, true), ref: (r) => Rf.matmul(r[0]!, r[1]!, true, true) },
  { name: 'matmul batched', inputs: [{ shape: [3, 6, 5], kind: 'normal' }, { shape: [3, 5, 4], kind: 'normal' }], run: (t) => O.matmul(t[0]!, t[1]!), ref: (r) => Rf.matmul(r[0]!, r[1]!) },
  { name: 'matmul batched x matrix', inputs: [{ shape: [2, 6, 5], kind: 'normal' }, { shape: [5, 4], kind: 'normal' }], run: (t) => O.matmul(t[0]!, t[1]!), ref: (r) => Rf.matmul(r[0]!, r[1]!) },
  { name: 'matmul matrix x batched', inputs: [{ shape: [6, 5], kind: 'normal' }, { shape: [2, 5, 4], kind: 'normal' }], run: (t) => O.matmul(t[0]!, t[1]!), ref: (r) => Rf.matmul(r[0]!, r[1]!) },
  { name: 'matmul large (blocked kernel edges)', inputs: [{ shape: [37, 70], kind: 'normal' }, { shape: [70, 19], kind: 'normal' }], run: (t) => O.matmul(t[0]!, t[1]!), ref: (r) => Rf.matmul(r[0]!, r[1]!), tol: 1e-4, grad: [] },
  { name: 'transpose', inputs: [{ shape: [3, 4, 5], kind: 'normal' }], run: (t) => O.transpose(t[0]!), ref: (r) => Rf.permute(r[0]!, [0, 2, 1]) },
  { name: 'permute', inputs: [{ shape: [3, 4, 5], kind: 'normal' }], run: (t) => O.permute(t[0]!, [2, 0, 1]), ref: (r) => Rf.permute(r[0]!, [2, 0, 1]) },
  { name: 'reshape', inputs: [{ shape: [3, 4], kind: 'normal' }], run: (t) => O.mul(O.reshape(t[0]!, [2, 6]), 2), ref: (r) => ({ shape: [2, 6], data: r[0]!.data.map((v) => v * 2) }) },
  { name: 'slice', inputs: [{ shape: [4, 5, 3], kind: 'normal' }], run: (t) => O.slice(t[0]!, [1, 2, 0], [2, 3, -1]), ref: (r) => Rf.sliceR(r[0]!, [1, 2, 0], [2, 3, 3]) },
  { name: 'concat axis 1', inputs: [{ shape: [2, 3], kind: 'normal' }, { shape: [2, 4], kind: 'normal' }], run: (t) => O.concat([t[0]!, t[1]!], 1), ref: (r) => Rf.concatR([r[0]!, r[1]!], 1) },
  { name: 'concat axis 0', inputs: [{ shape: [2, 3], kind: 'normal' }, { shape: [1, 3], kind: 'normal' }], run: (t) => O.concat([t[0]!, t[1]!], 0), ref: (r) => Rf.concatR([r[0]!, r[1]!], 0) },
  { name: 'broadcastTo', inputs: [{ shape: [3, 1], kind: 'normal' }], run: (t) => O.broadcastTo(t[0]!, [2, 3, 4]), ref: (r) => Rf.zip({ shape: [2, 3, 4], data: new Float64Array(24) }, r[0]!, (_a, b) => b) },
  { name: 'gather axis 0', inputs: [{ shape: [5, 3], kind: 'normal' }, { shape: [4], kind: { index: 5 } }], run: (t) => O.gather(t[0]!, t[1]!, 0), ref: (r) => Rf.gatherR(r[0]!, [...r[1]!.data], 0), grad: [0] },
  { name: 'gather axis 1', inputs: [{ shape: [2, 5, 3], kind: 'normal' }, { shape: [6], kind: { index: 5 } }], run: (t) => O.gather(t[0]!, t[1]!, 1), ref: (r) => Rf.gatherR(r[0]!, [...r[1]!.data], 1), grad: [0] },
  { name: 'takeAlongAxis', inputs: [{ shape: [4, 6], kind: 'normal' }, { shape: [4, 1], kind: { index: 6 } }], run: (t) => O.takeAlongAxis(t[0]!, t[1]!, -1), ref: (r) => Rf.takeAlongLast(r[0]!, [...r[1]!.data]), grad: [0] },
  ...(['none', 'relu', 'leaky-relu', 'tanh', 'sigmoid', 'silu'] as const).map((act): Case => ({
    name: `linear (fused bias + ${act})`,
    inputs: [{ shape: [6, 5], kind: 'normal' }, { shape: [5, 7], kind: 'normal' }, { shape: [7], kind: 'normal' }],
    run: (t) => O.linear(t[0]!, t[1]!, t[2]!, act, 0.1),
    ref: (r) => {
      const f = { none: (v: number) => v, relu: (v: number) => Math.max(v, 0), 'leaky-relu': (v: number) => (v > 0 ? v : 0.1 * v), tanh: Math.tanh, sigmoid: sig, silu: (v: number) => v * sig(v) }[act];
      return Rf.map(Rf.zip(Rf.matmul(r[0]!, r[1]!), r[2]!, (a, b) => a + b), f);
    },
  })),
  {
    name: 'layer norm (fused, gamma + beta)',
    inputs: [{ shape: [3, 4, 7], kind: 'normal' }, { shape: [7], kind: 'normal' }, { shape: [7], kind: 'normal' }],
    run: (t) => O.layerNormFused(t[0]!, t[1]!, t[2]!, 1e-5),
    ref: (r) => Rf.layerNormLast(r[0]!, r[1]!, r[2]!, 1e-5),
    tol: 1e-4,
    gradTol: 1e-3,
  },
  {
    name: 'layer norm (fused, no affine)',
    inputs: [{ shape: [5, 6], kind: 'normal' }],
    run: (t) => O.layerNormFused(t[0]!, null, null, 1e-5),
    ref: (r) => Rf.layerNormLast(r[0]!, null, null, 1e-5),
    tol: 1e-4,
    gradTol: 1e-3,
  },
  {
    name: 'linear ensemble [E,B,in] x [E,in,out] + [E,1,out]',
    inputs: [{ shape: [3, 4, 5], kind: 'normal' }, { shape: [3, 5, 6], kind: 'normal' }, { shape: [3, 1, 6], kind: 'normal' }],
    run: (t) => O.linear(t[0]!, t[1]!, t[2]!, 'tanh'),
    ref: (r) => Rf.map(Rf.zip(Rf.matmul(r[0]!, r[1]!), r[2]!, (a, b) => a + b), Math.tanh),
  },
  {
    name: 'linear ensemble shared input [B,in]',
    inputs: [{ shape: [4, 5], kind: 'normal' }, { shape: [3, 5, 6], kind: 'normal' }, { shape: [3, 6], kind: 'normal' }],
    run: (t) => O.linear(t[0]!, t[1]!, t[2]!, 'none'),
    ref: (r) => Rf.zip(Rf.matmul(r[0]!, r[1]!), { shape: [3, 1, 6], data: r[2]!.data }, (a, b) => a + b),
  },
];
cases.push(
  ...cases.filter((c) => c.inputs.length === 1 && c.inputs[0]!.shape.length === 2 && c.inputs[0]!.shape[0] === 3 && c.inputs[0]!.shape[1] === 5).map((c) => big(c, [[9, 11]])),
  ...cases.filter((c) => c.name.includes('(broadcast [2,3,4] x [3,1])')).map((c) => big(c, [[6, 5, 4], [5, 1]])),
  ...cases.filter((c) => c.name === 'softmax' || c.name === 'log-softmax' || c.name === 'logsumexp').map((c) => big(c, [[8, 13]])),
  ...cases.filter((c) => c.name === 'sum axes [0,2]' || c.name === 'mean axis 1 keepDims' || c.name === 'max axis -1').map((c) => big(c, [[4, 5, 6]])),
);

// ------------------------------------------------------------------------------------------------
// Backends present
// ------------------------------------------------------------------------------------------------

const backends: { name: string; backend: Backend }[] = [];
for (const p of availableMatmulPaths()) backends.push({ name: `cpu/${p.name}`, backend: new CpuBackend(p) });
try {
  const mod = (await import('../src/backends/webgpu/index.ts')) as { registerWebGPUBackend?: (o: { allowFallbackAdapter: boolean }) => void };
  mod.registerWebGPUBackend?.({ allowFallbackAdapter: true });
  const b = await Promise.race([
    loadBackend('webgpu'),
    new Promise<never>((_r, rej) => setTimeout(() => rej(new Error('no adapter within 20 s')), 20_000)),
  ]);
  backends.push({ name: 'webgpu', backend: b });
} catch (err) {
  console.log(`[conformance] webgpu backend not tested: ${err instanceof Error ? err.message : String(err)}`);
}
console.log(`[conformance] backends: ${backends.map((b) => b.name).join(', ')}`);

function maxRelErr(a: Float32Array | Float64Array, b: Float64Array): number {
  let e = 0;
  for (let i = 0; i < b.length; i++) {
    const d = Math.abs(a[i]! - b[i]!) / Math.max(1, Math.abs(b[i]!));
    if (!(d <= e)) e = d;
  }
  return e;
}

for (const { name, backend } of backends) {
  describe(`conformance on ${name}`, () => {
    for (const c of cases) {
      it(c.name, async () => {
        const r = rng(c.name.length * 7919 + 17);
        const host = c.inputs.map((s) => gen(s.shape, s.kind, r));
        const refIn: R[] = c.inputs.map((s, i) => ({ shape: s.shape, data: host[i]! }));
        const expected = c.ref(refIn);
        const gradIdx = c.grad ?? c.inputs.map((s, i) => (typeof s.kind === 'object' || s.kind === 'mask' ? -1 : i)).filter((i) => i >= 0);
        const ts = c.inputs.map((s, i) => tensor(Float32Array.from(host[i]!), s.shape, backend));
        for (const i of gradIdx) ts[i]!.requiresGrad = true;
        const out = c.run(ts);
        expect(out.shape).toEqual(expected.shape);
        const got = await out.data();
        expect(maxRelErr(got, expected.data)).toBeLessThan(c.tol ?? 2e-5);
        if (gradIdx.length === 0) return;
        // loss = sum(out * W)
        const w = gen(expected.shape, 'normal', r);
        const loss = O.sum(O.mul(out, tensor(Float32Array.from(w), expected.shape, backend)));
        loss.backward();
        for (const gi of gradIdx) {
          const g = await ts[gi]!.grad!.data();
          const fd = new Float64Array(host[gi]!.length);
          for (let k = 0; k < fd.length; k++) {
            const h = 1e-6 * Math.max(1, Math.abs(host[gi]![k]!));
            const plus = refIn.map((x) => ({ shape: x.shape, data: x.data.slice() }));
            const minus = refIn.map((x) => ({ shape: x.shape, data: x.data.slice() }));
            plus[gi]!.data[k]! += h;
            minus[gi]!.data[k]! -= h;
            const fp = c.ref(plus).data.reduce((s, v, j) => s + v * w[j]!, 0);
            const fm = c.ref(minus).data.reduce((s, v, j) => s + v * w[j]!, 0);
            fd[k] = (fp - fm) / (2 * h);
          }
          expect(maxRelErr(g, fd), `gradient of input ${gi}`).toBeLessThan(c.gradTol ?? 2e-4);
        }
        for (const t of ts) t.dispose();
      });
    }

    it('random: counter-based normal/uniform match the contract', async () => {
      const g = new O.Generator(42);
      const g2 = new O.Generator(42);
      const a = await O.randomNormal([1000], 0, 1, { generator: g, backend }).data();
      const b = await O.randomNormal([1000], 0, 1, { generator: g2, backend }).data();
      expect(Array.from(a)).toEqual(Array.from(b));
      const m = a.reduce((s, v) => s + v, 0) / a.length;
      const v = a.reduce((s, x) => s + (x - m) ** 2, 0) / a.length;
      expect(Math.abs(m)).toBeLessThan(0.1);
      expect(Math.abs(v - 1)).toBeLessThan(0.15);
      const uu = await O.randomUniform([1000], 2, 3, { generator: g, backend }).data();
      expect(Math.min(...uu)).toBeGreaterThanOrEqual(2);
      expect(Math.max(...uu)).toBeLessThan(3);
    });

    it('tidy releases intermediates, noGrad records nothing', () => {
      const x = tensor([1, 2, 3], [3], backend).requireGrad();
      const y = tidy(() => O.sum(O.mul(O.exp(x), 2)));
      expect(y.isDisposed).toBe(false);
      const z = noGrad(() => O.mul(x, 2));
      expect(z.gradNode).toBeNull();
    });
  });
}
