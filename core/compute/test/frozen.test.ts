/**
 * FrozenMLP (the tensor-free inference copy of an MLP) must give what MLP.forward gives, on every
 * CPU matmul path, for one row and for many (the buffers grow and are reused), and must keep the
 * weights it was made from when the module trains on.
 */
import { describe, expect, it } from 'vitest';
import { availableMatmulPaths } from '../src/backends/cpu/index.ts';
import { FrozenMLP, MLP } from '../src/nn/index.ts';
import { Generator, randomNormal } from '../src/ops/index.ts';
import { noGrad, tensor } from '../src/tensor.ts';

function inputs(rows: number, width: number, seed: number): Float32Array {
  return randomNormal([rows, width], 0, 1, { generator: new Generator(seed) }).dataSync();
}

for (const path of availableMatmulPaths()) {
  describe(`FrozenMLP on cpu/${path.name}`, () => {
    for (const activation of ['tanh', 'relu', 'leaky-relu'] as const) {
      it(`matches MLP.forward (${activation})`, () => {
        const mlp = new MLP([7, 33, 17, 5], { activation, generator: new Generator(11) });
        const frozen = FrozenMLP.from(mlp, path);
        expect(frozen.pathName).toBe(path.name);
        for (const rows of [1, 3, 64, 2]) {
          const x = inputs(rows, 7, rows);
          const want = noGrad(() => mlp.forward(tensor(x, [rows, 7])).dataSync());
          const got = frozen.forward(x, rows);
          expect(got.length).toBe(rows * 5);
          for (let i = 0; i < want.length; i++) expect(Math.abs(got[i]! - want[i]!)).toBeLessThan(1e-4 * Math.max(1, Math.abs(want[i]!)));
        }
      });
    }

    it('sees changes to the same input array between calls, and to a returned output fed back in', () => {
      const mlp = new MLP([8, 64, 64, 8], { activation: 'tanh', generator: new Generator(5) });
      const frozen = FrozenMLP.from(mlp, path);
      const ref = (x: Float32Array, rows: number) => noGrad(() => mlp.forward(tensor(x, [rows, 8])).dataSync());
      const close = (got: Float32Array, want: Float32Array) => {
        for (let i = 0; i < want.length; i++) expect(Math.abs(got[i]! - want[i]!)).toBeLessThan(1e-4 * Math.max(1, Math.abs(want[i]!)));
      };
      const x = inputs(16, 8, 3);
      close(frozen.forward(x, 16), ref(x, 16));
      x.set(inputs(16, 8, 4)); // same array object, new values, no backend write
      close(frozen.forward(x, 16), ref(x, 16));
      const y = frozen.forward(x, 16);
      for (let i = 0; i < y.length; i++) y[i] = y[i]! * 0.5 + 0.1;
      const fed = Float32Array.from(y);
      close(frozen.forward(y, 16), ref(fed, 16));
    });
  });
}

describe('FrozenMLP', () => {
  it('keeps the weights it was made from', () => {
    const mlp = new MLP([3, 8, 2], { generator: new Generator(2) });
    const frozen = FrozenMLP.from(mlp);
    const x = inputs(4, 3, 9);
    const before = Float32Array.from(frozen.forward(x, 4));
    const changed = new Map([...mlp.stateDict()].map(([k, t]) => [k, new Float32Array(t.size).fill(0.5)]));
    mlp.loadStateDict(changed);
    expect(Array.from(frozen.forward(x, 4))).toEqual(Array.from(before));
    expect(Array.from(noGrad(() => mlp.forward(tensor(x, [4, 3])).dataSync()))).not.toEqual(Array.from(before));
  });

  it('rejects layers that do not chain and inputs that are too short', () => {
    const w = (n: number) => new Float32Array(n);
    expect(() => new FrozenMLP([
      { inFeatures: 2, outFeatures: 3, weight: w(6), bias: null, activation: 'none', alpha: 0 },
      { inFeatures: 4, outFeatures: 1, weight: w(4), bias: null, activation: 'none', alpha: 0 },
    ])).toThrow(/layer 1 takes 4 features/);
    const f = new FrozenMLP([{ inFeatures: 2, outFeatures: 1, weight: w(2), bias: w(1), activation: 'none', alpha: 0 }]);
    expect(() => f.forward(w(3), 2)).toThrow(/expected 2 x 2/);
    expect(() => f.forward(w(2), 0)).toThrow(/at least one row/);
  });
});
