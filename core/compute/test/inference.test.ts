/**
 * A forward pass under `noGrad` outside `tidy` (the documented inference call) frees its hidden
 * activations itself: only the returned output stays allocated, so repeated calls reuse the
 * backend's arrays instead of leaving them to the garbage collector. With gradients recorded the
 * intermediates stay alive for backward.
 */
import { describe, expect, it } from 'vitest';
import type { BackendBuffer } from '../src/backends/backend.ts';
import { CpuBackend, jsMatmulPath } from '../src/backends/cpu/index.ts';
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
