/**
 * The operand cache of the wasm paths: each host array keeps its region of linear memory (a
 * stale copy is refreshed in place, an output reuses its array's region), so a loop over the
 * same arrays does not grow the arena; an in-place dispatch (output === input) still gets a
 * separate output region, and results match the TypeScript kernels.
 */
import { describe, expect, it } from 'vitest';
import type { KernelDescriptor } from '../src/backends/backend.ts';
import { CpuBackend, availableMatmulPaths, jsMatmulPath } from '../src/backends/cpu/index.ts';
import type { CpuBuffer } from '../src/backends/cpu/index.ts';
import { bumpGeneration } from '../src/backends/cpu/cpu-backend.ts';
import { OperandCache } from '../src/backends/cpu/operand-cache.ts';

const memory = new Float32Array(1 << 16);
const mem = () => memory;

describe('OperandCache regions', () => {
  it('keeps one region per array: stale inputs are refreshed in place, outputs reuse their region', () => {
    const c = new OperandCache(0, 1 << 18);
    const a = new Float32Array([1, 2, 3, 4]);
    const out = new Float32Array(4);
    bumpGeneration(a);
    c.reserve(64);
    const pa = c.input(a, 4, mem);
    expect(Array.from(memory.subarray(pa >> 2, (pa >> 2) + 4))).toEqual([1, 2, 3, 4]);
    expect(c.has(a, 4)).toBe(true);
    // resident: no copy (the memory copy is what the kernel sees)
    c.reserve(64);
    expect(c.input(a, 4, mem)).toBe(pa);
    // a host write makes the copy stale: same region, new contents
    a.set([5, 6, 7, 8]);
    bumpGeneration(a);
    expect(c.has(a, 4)).toBe(false);
    c.reserve(64);
    expect(c.input(a, 4, mem)).toBe(pa);
    expect(Array.from(memory.subarray(pa >> 2, (pa >> 2) + 4))).toEqual([5, 6, 7, 8]);
    bumpGeneration(out);
    const po = c.output(out, 4, false, mem);
    expect(po).not.toBe(pa);
    c.remember(out, po, 4);
    expect(c.has(out, 4)).toBe(true);
    const used = c.used;
    for (let step = 0; step < 100; step++) {
      bumpGeneration(a);
      c.reserve(64);
      c.input(a, 4, mem);
      bumpGeneration(out);
      expect(c.output(out, 4, false, mem)).toBe(po);
      c.remember(out, po, 4);
    }
    expect(c.used).toBe(used);
  });

  it('gives an in-place output (also an input of the same kernel) its own region', () => {
    const c = new OperandCache(0, 1 << 18);
    const a = new Float32Array([1, 2, 3, 4]);
    bumpGeneration(a);
    c.reserve(64);
    const pa = c.input(a, 4, mem);
    const po = c.output(a, 4, true, mem);
    expect(po).not.toBe(pa);
    expect(Array.from(memory.subarray(po >> 2, (po >> 2) + 4))).toEqual([1, 2, 3, 4]);
    c.remember(a, po, 4);
    expect(c.has(a, 4)).toBe(true);
    // the next kernel reading `a` gets the output region
    c.reserve(64);
    expect(c.input(a, 4, mem)).toBe(po);
  });

  it('does not count an earlier kernel\'s inputs as this kernel\'s (an input-only kernel such as Adam first)', () => {
    const c = new OperandCache(0, 1 << 18);
    const g = new Float32Array(8);
    const other = new Float32Array(8);
    bumpGeneration(g);
    bumpGeneration(other);
    c.reserve(64);
    const pg = c.input(g, 8, mem); // e.g. Adam reads a gradient and writes nothing through output()
    // the gradient's array is freed and reused as the output of the next kernel: its region is
    // no input of that kernel, so it is reused rather than replaced by a fresh one
    c.reserve(64);
    c.input(other, 8, mem);
    const used = c.used;
    bumpGeneration(g);
    expect(c.output(g, 8, false, mem)).toBe(pg);
    expect(c.used).toBe(used);
  });

  it('stages arrays the backend never wrote (generation 0) in reused regions, never as resident', () => {
    const c = new OperandCache(0, 1 << 18);
    c.reserve(64);
    const first = c.input(new Float32Array([1, 2]), 2, mem);
    const used = c.used;
    for (let i = 0; i < 10; i++) {
      c.reserve(64);
      const x = new Float32Array([i, i + 1]);
      expect(c.input(x, 2, mem)).toBe(first);
      expect(memory[first >> 2]).toBe(i);
      expect(c.has(x, 2)).toBe(false);
    }
    expect(c.used).toBe(used);
  });

  it('never takes a staging region for an array\'s resident copy (an in-place kernel on generation-0 arrays)', () => {
    const c = new OperandCache(0, 1 << 18);
    // Adam's first step: fresh moment arrays (never written through the backend) come in staged,
    // are updated in place and bumped; the staging region must not become their resident copy
    const m = new Float32Array([1, 2, 3, 4]);
    c.reserve(64);
    const pm = c.input(m, 4, mem);
    memory.set([10, 20, 30, 40], pm >> 2);
    m.set([10, 20, 30, 40]);
    bumpGeneration(m);
    c.remember(m, pm, 4);
    expect(c.has(m, 4)).toBe(false);
    // the next kernel stages another generation-0 array in that region
    c.reserve(64);
    expect(c.input(new Float32Array([7, 7, 7, 7]), 4, mem)).toBe(pm);
    // reading m copies its current contents into a region of its own
    c.reserve(64);
    const own = c.input(m, 4, mem);
    expect(own).not.toBe(pm);
    expect(Array.from(memory.subarray(own >> 2, (own >> 2) + 4))).toEqual([10, 20, 30, 40]);
    expect(c.has(m, 4)).toBe(true);
  });

  it('forgets everything when the arena is full', () => {
    const c = new OperandCache(0, 4096);
    const a = new Float32Array(512);
    bumpGeneration(a);
    c.reserve(2048);
    c.input(a, 512, mem);
    expect(c.has(a, 512)).toBe(true);
    c.reserve(4096);
    expect(c.has(a, 512)).toBe(false);
    expect(c.used).toBe(0);
  });
});

const wasmPaths = availableMatmulPaths().filter((p) => p.name.startsWith('wasm'));
if (wasmPaths.length === 0) console.log('[operand-cache] no wasm path (wasm SIMD unsupported): backend checks not run');

function fill(n: number, seed: number): Float32Array {
  return Float32Array.from({ length: n }, (_, i) => Math.sin(i * 0.77 + seed) * 1.5);
}

for (const path of wasmPaths) {
  it(`Adam steps with fresh moment arrays on cpu/${path.name} match the TypeScript kernel`, () => {
    // Regression: the moments of a new optimizer are generation 0 on their first step, so they
    // came in through the staging regions, and the in-place Adam kernel recorded those regions
    // as their resident copies. The next parameter's fresh moments were staged in the same
    // regions, so from the second step on Adam read another parameter's moments (BC venvs
    // trained differently than on native-blas / js, PPO diverged to NaN).
    const n = 256;
    const runOn = (be: CpuBackend): Float32Array[] => {
      const params = [0, 1, 2].map((j) => {
        const p = be.alloc(n), g = be.alloc(n);
        be.write(p, fill(n, 10 + j));
        be.write(g, fill(n, 20 + j).map((v) => v * (j + 1)));
        // fresh arrays (a length no free list holds): generation 0, as an optimizer's new moments
        const m: CpuBuffer = { length: n, backend: 'cpu', data: new Float32Array(n) };
        const v: CpuBuffer = { length: n, backend: 'cpu', data: new Float32Array(n) };
        return { p, g, m, v };
      });
      for (let t = 1; t <= 3; t++) {
        for (const { p, g, m, v } of params) {
          const k: KernelDescriptor = { kind: 'adam', size: n, lr: 0.01, beta1: 0.9, beta2: 0.999, eps: 1e-8, weightDecay: 0, decoupled: false, bc1: 1 - 0.9 ** t, bc2: 1 - 0.999 ** t, gradScale: 1 };
          be.dispatch(k, [p, g, m, v], [p, m, v]);
        }
      }
      return params.flatMap(({ p, m, v }) => [p, m, v].map((b) => (b as CpuBuffer).data.slice()));
    };
    const want = runOn(new CpuBackend(jsMatmulPath));
    const got = runOn(new CpuBackend(path));
    for (let i = 0; i < want.length; i++) {
      let err = 0;
      for (let j = 0; j < n; j++) err = Math.max(err, Math.abs(got[i]![j]! - want[i]![j]!) / (1e-6 + Math.abs(want[i]![j]!)));
      expect(err, `array ${i} (parameter ${Math.floor(i / 3)}, ${['p', 'm', 'v'][i % 3]})`).toBeLessThan(1e-4);
    }
  });

  describe(`in-place and accumulating dispatches on cpu/${path.name} match the TypeScript kernels`, () => {
    const fast = new CpuBackend(path);
    const ref = new CpuBackend(jsMatmulPath);
    const n = 96;
    const cases: [string, KernelDescriptor][] = [
      ['exp', { kind: 'unary', op: 'exp', size: n * n, alpha: 0, beta: 0 }],
      ['softmax', { kind: 'softmax', op: 'softmax', outer: n, size: n, inner: 1 }],
      // (the contract allows no other output/input aliasing; the two above are beyond it, yet
      // must not go wrong through shared regions either)
      ['matmul accumulate into a resident output (x += b @ b)', { kind: 'matmul', batch: 1, m: n, n, k: n, transA: false, transB: false, aBatchStride: 0, bBatchStride: 0, biasBatchStride: 0, bias: false, activation: 'none', alpha: 0, accumulate: true }],
    ];
    for (const [name, k] of cases) {
      it(name, () => {
        const runOn = (be: CpuBackend): Float32Array => {
          const x = be.alloc(n * n);
          const b = be.alloc(n * n);
          be.write(x, fill(n * n, 1));
          be.write(b, fill(n * n, 2).map((v) => v / n));
          // make x resident first (as the output of an earlier kernel)
          be.dispatch({ kind: 'unary', op: 'affine', size: n * n, alpha: 1, beta: 0 }, [x], [x]);
          for (let r = 0; r < 3; r++) be.dispatch(k, k.kind === 'matmul' ? [b, b] : [x], [x]);
          const out = be.alloc(n * n);
          be.dispatch({ kind: 'unary', op: 'tanh', size: n * n, alpha: 0, beta: 0 }, [x], [out]);
          return (out as CpuBuffer).data.slice();
        };
        const want = runOn(ref);
        const got = runOn(fast);
        let err = 0;
        for (let i = 0; i < want.length; i++) err = Math.max(err, Math.abs(got[i]! - want[i]!));
        expect(err).toBeLessThan(1e-4);
      });
    }
  });
}
