/**
 * A forward pass under `noGrad` outside `tidy` (the documented inference call) frees its hidden
 * activations itself: only the returned output stays allocated, so repeated calls reuse the
 * backend's arrays instead of leaving them to the garbage collector. With gradients recorded the
 * intermediates stay alive for backward.
 */
import { describe, expect, it } from 'vitest';
import type { BackendBuffer } from '../src/backends/backend.ts';
import { CpuBackend, availableMatmulPaths, jsMatmulPath } from '../src/backends/cpu/index.ts';
import { EnsembleMLP, MLP, ResidualMLP, mseLoss } from '../src/nn/index.ts';
import { Generator, randomNormal } from '../src/ops/index.ts';
import { noGrad, tidy } from '../src/tensor.ts';

class CountingBackend extends CpuBackend {
  live = 0;
  override alloc(length: number) {
    this.live++;
    return super.alloc(length);
  }
  override free(b: BackendBuffer) {
    this.live--;
    super.free(b);
  }
}

describe('noGrad forward passes free their intermediates', () => {
  const be = new CountingBackend(jsMatmulPath);
  const g = new Generator(1);
  const nets = [
    ['MLP', new MLP([6, 32, 32, 3], { backend: be, generator: g })],
    ['EnsembleMLP', new EnsembleMLP(3, [6, 32, 3], { backend: be, generator: g })],
    ['ResidualMLP (silu)', new ResidualMLP(6, 3, { hidden: 32, blocks: 2, activation: 'silu', backend: be, generator: g })],
  ] as const;
  for (const [name, net] of nets) {
    it(name, () => {
      const x = randomNormal([5, 6], 0, 1, { backend: be });
      const before = be.live;
      const y = noGrad(() => net.forward(x));
      expect(be.live - before).toBe(1);
      expect(x.isDisposed).toBe(false);
      y.dispose();
      expect(be.live).toBe(before);
      // with gradients: intermediates are kept for backward, which still works
      tidy(() => {
        const out = net.forward(x);
        expect(be.live - before).toBeGreaterThan(1);
        mseLoss(out, noGrad(() => net.forward(x))).backward();
      });
      for (const p of net.parameters()) {
        expect(p.grad).not.toBeNull();
        p.grad!.dispose();
        p.grad = null;
      }
      x.dispose();
    });
  }
});

describe('MLP.forward under noGrad (the lean chain) equals the layer-by-layer op path', () => {
  for (const path of availableMatmulPaths()) {
    for (const activation of ['relu', 'tanh', 'silu', 'leaky-relu'] as const) {
      it(`cpu/${path.name}, ${activation}`, () => {
        const be = new CpuBackend(path);
        const net = new MLP([9, 40, 24, 5], { activation, outputActivation: activation === 'relu' ? 'sigmoid' : 'none', backend: be, generator: new Generator(4) });
        for (const shape of [[1, 9], [33, 9], [2, 3, 9], [9]]) {
          const x = randomNormal(shape, 0, 1, { backend: be });
          const lean = noGrad(() => net.forward(x));
          // the generic path: each layer as a recorded op (gradients on)
          const generic = tidy(() => {
            let h = x;
            for (const l of net.layers) h = l.forward(h);
            return h.dataSync();
          });
          expect(lean.shape).toEqual([...shape.slice(0, -1), 5]);
          const got = lean.dataSync();
          for (let i = 0; i < generic.length; i++) expect(Math.abs(got[i]! - generic[i]!)).toBeLessThan(1e-5 * Math.max(1, Math.abs(generic[i]!)));
          lean.dispose();
          x.dispose();
        }
        expect(() => noGrad(() => net.forward(randomNormal([2, 8], 0, 1, { backend: be })))).toThrow(/does not match weight/);
      });
    }
  }
});
