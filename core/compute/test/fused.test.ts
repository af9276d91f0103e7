/**
 * Fused kernels (`*.fused.ts`) must match the generic path: linear (bias + activation in the
 * matmul epilogue, hand-written backward) vs act(add(matmul(x, W), b)); ensembles vs k separate
 * layers. Forward values and all gradients, on every CPU matmul path.
 */
import { describe, expect, it } from 'vitest';
import { CpuBackend, availableMatmulPaths } from '../src/backends/cpu/index.ts';
import { tensor, type Tensor } from '../src/tensor.ts';
import * as O from '../src/ops/index.ts';
import { activate, layerNormComposed } from '../src/nn/module.ts';

async function close(a: Tensor, b: Tensor, tol = 1e-5): Promise<void> {
  const x = await a.data();
  const y = await b.data();
  expect(x.length).toBe(y.length);
  for (let i = 0; i < x.length; i++) expect(Math.abs(x[i]! - y[i]!)).toBeLessThan(tol * Math.max(1, Math.abs(y[i]!)));
}

for (const path of availableMatmulPaths()) {
  const be = new CpuBackend(path);
  describe(`linear.fused on cpu/${path.name}`, () => {
    for (const act of ['none', 'relu', 'leaky-relu', 'tanh', 'sigmoid', 'silu'] as const) {
      it(`matches the generic path (${act})`, async () => {
        const g = new O.Generator(3);
        const mk = (s: number[]) => O.randomNormal(s, 0, 1, { generator: g, backend: be }).requireGrad();
        const x1 = mk([2, 9, 13]), w1 = mk([13, 11]), b1 = mk([11]);
        const x2 = tensor(x1.dataSync(), x1.shape, be).requireGrad();
        const w2 = tensor(w1.dataSync(), w1.shape, be).requireGrad();
        const b2 = tensor(b1.dataSync(), b1.shape, be).requireGrad();
        const y1 = O.linear(x1, w1, b1, act, 0.2);
        const y2 = activate(O.add(O.matmul(x2, w2), b2), act, 0.2);
        await close(y1, y2);
        const r = O.randomNormal(y1.shape, 0, 1, { generator: g, backend: be });
        O.sum(O.mul(y1, r)).backward();
        O.sum(O.mul(y2, r)).backward();
        await close(x1.grad!, x2.grad!, 1e-4);
        await close(w1.grad!, w2.grad!, 1e-4);
        await close(b1.grad!, b2.grad!, 1e-4);
      });
    }

    for (const affine of [true, false]) {
      it(`layer norm: fused kernels match the composed ops (${affine ? 'gamma + beta' : 'no affine'})`, async () => {
        const g = new O.Generator(5);
        const mk = (s: number[]) => O.randomNormal(s, 0, 1, { generator: g, backend: be }).requireGrad();
        const x1 = mk([3, 7, 67]), g1 = mk([67]), b1 = mk([67]);
        const x2 = tensor(x1.dataSync(), x1.shape, be).requireGrad();
        const g2 = tensor(g1.dataSync(), g1.shape, be).requireGrad();
        const b2 = tensor(b1.dataSync(), b1.shape, be).requireGrad();
        const y1 = O.layerNormFused(x1, affine ? g1 : null, affine ? b1 : null);
        const y2 = layerNormComposed(x2, affine ? g2 : null, affine ? b2 : null);
        await close(y1, y2, 1e-4);
        const r = O.randomNormal(y1.shape, 0, 1, { generator: g, backend: be });
        O.sum(O.mul(y1, r)).backward();
        O.sum(O.mul(y2, r)).backward();
        await close(x1.grad!, x2.grad!, 1e-3);
        if (affine) {
          await close(g1.grad!, g2.grad!, 1e-3);
          await close(b1.grad!, b2.grad!, 1e-3);
        }
      });
    }

    it('fused Adam/AdamW kernel matches the reference formula', async () => {
      for (const decoupled of [false, true]) {
        const g = new O.Generator(11);
        const n = 1003;
        const p = O.randomNormal([n], 0, 1, { generator: g, backend: be });
        const gr = O.randomNormal([n], 0, 1, { generator: g, backend: be });
        const m = O.randomNormal([n], 0, 0.1, { generator: g, backend: be });
        const v = O.randomUniform([n], 0, 0.1, { generator: g, backend: be });
        const [p0, g0, m0, v0] = [p.dataSync(), gr.dataSync(), m.dataSync(), v.dataSync()];
        const k = { kind: 'adam' as const, size: n, lr: 0.01, beta1: 0.9, beta2: 0.99, eps: 1e-8, weightDecay: 0.1, decoupled, bc1: 0.19, bc2: 0.0199, gradScale: 0.5 };
        be.dispatch(k, [p.buffer, gr.buffer, m.buffer, v.buffer], [p.buffer, m.buffer, v.buffer]);
        const [p1, m1, v1] = [p.dataSync(), m.dataSync(), v.dataSync()];
        for (let i = 0; i < n; i++) {
          const gi = g0[i]! * 0.5 + (decoupled ? 0 : 0.1 * p0[i]!);
          const mi = 0.9 * m0[i]! + 0.1 * gi;
          const vi = 0.99 * v0[i]! + 0.01 * gi * gi;
          const pi = p0[i]! - 0.01 * (mi / 0.19 / (Math.sqrt(vi / 0.0199) + 1e-8) + (decoupled ? 0.1 * p0[i]! : 0));
          expect(Math.abs(m1[i]! - mi)).toBeLessThan(1e-6);
          expect(Math.abs(v1[i]! - vi)).toBeLessThan(1e-6);
          expect(Math.abs(p1[i]! - pi)).toBeLessThan(1e-5 * Math.max(1, Math.abs(pi)));
        }
      }
    });

    it('ensemble linear matches k separate layers', async () => {
      const g = new O.Generator(5);
      const E = 3;
      const x = O.randomNormal([E, 8, 6], 0, 1, { generator: g, backend: be }).requireGrad();
      const w = O.randomNormal([E, 6, 4], 0, 1, { generator: g, backend: be }).requireGrad();
      const b = O.randomNormal([E, 4], 0, 1, { generator: g, backend: be }).requireGrad();
      const y = O.linear(x, w, b, 'relu');
      O.sum(O.square(y)).backward();
      for (let e = 0; e < E; e++) {
        const xe = tensor(O.narrow(x, 0, e, 1).dataSync(), [8, 6], be).requireGrad();
        const we = tensor(O.narrow(w, 0, e, 1).dataSync(), [6, 4], be).requireGrad();
        const bb = tensor(O.narrow(b, 0, e, 1).dataSync(), [4], be).requireGrad();
        const ye = O.relu(O.add(O.matmul(xe, we), bb));
        await close(O.reshape(O.narrow(y, 0, e, 1), [8, 4]), ye);
        O.sum(O.square(ye)).backward();
        await close(O.reshape(O.narrow(x.grad!, 0, e, 1), [8, 6]), xe.grad!, 1e-4);
        await close(O.reshape(O.narrow(w.grad!, 0, e, 1), [6, 4]), we.grad!, 1e-4);
        await close(O.reshape(O.narrow(b.grad!, 0, e, 1), [4]), bb.grad!, 1e-4);
      }
    });
  });
}
