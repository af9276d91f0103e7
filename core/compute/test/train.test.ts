/**
 * Regression: an MLP learns a known function to a fixed loss; distributions and optimizers
 * behave; memory does not grow across tidy'd training steps.
 */
import { describe, expect, it } from 'vitest';
import * as C from '../src/index.ts';

describe('training regression', () => {
  it('MLP 2-64-64-1 (tanh) fits sin(x)cos(y) below 2e-3 MSE in 300 Adam steps', () => {
    const g = new C.Generator(7);
    const net = new C.MLP([2, 64, 64, 1], { activation: 'tanh', generator: g });
    const opt = new C.Adam(net.parameters(), { lr: 3e-3 });
    const X = C.randomUniform([256, 2], -2, 2, { generator: g });
    const xs = X.dataSync();
    const ys = new Float32Array(256);
    for (let i = 0; i < 256; i++) ys[i] = Math.sin(xs[2 * i]!) * Math.cos(xs[2 * i + 1]!);
    const Y = C.tensor(ys, [256, 1]);
    let loss = Infinity;
    for (let s = 0; s < 300; s++) {
      loss = C.tidy(() => {
        opt.zeroGrad();
        const l = C.mseLoss(net.forward(X), Y);
        l.backward();
        C.clipGradNorm(net.parameters(), 10).dispose();
        opt.step();
        return l.item();
      });
    }
    expect(loss).toBeLessThan(2e-3);
  });

  it('residual MLP with LayerNorm and AdamW + cosine schedule decreases the loss', () => {
    const g = new C.Generator(1);
    const net = new C.ResidualMLP(4, 2, { hidden: 32, blocks: 2, generator: g });
    const opt = new C.AdamW(net.parameters(), { lr: 1e-3 });
    opt.schedule = C.cosineLr(1e-3, 100, 1e-4, 5);
    const X = C.randomNormal([64, 4], 0, 1, { generator: g });
    const Y = C.tanh(C.matmul(X, C.randomNormal([4, 2], 0, 1, { generator: g })));
    const first = C.tidy(() => C.mseLoss(net.forward(X), Y).item());
    let last = first;
    for (let s = 0; s < 100; s++) {
      last = C.tidy(() => {
        opt.zeroGrad();
        const l = C.mseLoss(net.forward(X), Y);
        l.backward();
        opt.step();
        return l.item();
      });
    }
    expect(last).toBeLessThan(first * 0.3);
  });

  it('tidy keeps live tensor count flat over training steps', () => {
    const net = new C.MLP([4, 16, 1]);
    const opt = new C.Adam(net.parameters());
    const X = C.randomNormal([8, 4]);
    const Y = C.randomNormal([8, 1]);
    const be = C.getBackend();
    let allocs = 0;
    const orig = be.alloc.bind(be);
    const origFree = be.free.bind(be);
    be.alloc = (n: number) => { allocs++; return orig(n); };
    be.free = (b) => { allocs--; origFree(b); };
    const step = () => C.tidy(() => { opt.zeroGrad(); const l = C.mseLoss(net.forward(X), Y); l.backward(); opt.step(); });
    step();
    const after1 = allocs;
    for (let i = 0; i < 20; i++) step();
    be.alloc = orig;
    be.free = origFree;
    expect(allocs).toBe(after1);
  });
});

describe('target networks', () => {
  it('softUpdate averages parameters; hardUpdate copies them', () => {
    const a = new C.MLP([2, 3, 1]);
    const b = new C.MLP([2, 3, 1]);
    const a0 = a.parameters()[0]!.dataSync();
    const b0 = b.parameters()[0]!.dataSync();
    C.softUpdate(a, b, 0.25);
    const a1 = a.parameters()[0]!.dataSync();
    for (let i = 0; i < a1.length; i++) expect(a1[i]).toBeCloseTo(0.75 * a0[i]! + 0.25 * b0[i]!, 6);
    C.hardUpdate(a, b);
    expect(Array.from(a.parameters()[1]!.dataSync())).toEqual(Array.from(b.parameters()[1]!.dataSync()));
  });
});

describe('distributions', () => {
  it('Normal log-prob/entropy match closed forms; rsample is differentiable', () => {
    const mu = C.tensor([0, 1]).requireGrad();
    const sd = C.tensor([1, 2]).requireGrad();
    const d = new C.Normal(mu, sd);
    const lp = d.logProb(C.tensor([0.5, 0.5])).dataSync();
    expect(lp[0]).toBeCloseTo(-0.5 * Math.log(2 * Math.PI) - 0.125, 5);
    expect(lp[1]).toBeCloseTo(-0.5 * Math.log(2 * Math.PI) - Math.log(2) - 0.25 / 8, 5);
    expect(d.entropy().dataSync()[1]).toBeCloseTo(0.5 + 0.5 * Math.log(2 * Math.PI) + Math.log(2), 5);
    C.sum(d.rsample()).backward();
    expect(Array.from(mu.grad!.dataSync())).toEqual([1, 1]);
  });

  it('TanhNormal log-prob of its own sample equals logProbRaw; actions in bounds', () => {
    const d = new C.TanhNormal(C.randomNormal([16, 3]), C.full([16, 3], 0.7), -2, 3);
    const s = d.sample(new C.Generator(3));
    const a = s.action.dataSync();
    expect(Math.min(...a)).toBeGreaterThanOrEqual(-2);
    expect(Math.max(...a)).toBeLessThanOrEqual(3);
    const l1 = s.logProb.dataSync();
    const l2 = d.logProb(s.action).dataSync();
    for (let i = 0; i < 16; i++) expect(Math.abs(l1[i]! - l2[i]!)).toBeLessThan(2e-2 * Math.max(1, Math.abs(l1[i]!)));
  });

  it('Categorical sampling frequencies follow the probabilities; Discretized mean', () => {
    const logits = C.tensor(Array.from({ length: 4000 }, (_, i) => [0, Math.log(3)][i % 2]!), [2000, 2]);
    const c = new C.Categorical(logits);
    const s = c.sample(new C.Generator(9)).dataSync();
    const frac = s.reduce((a, v) => a + v, 0) / s.length;
    expect(Math.abs(frac - 0.75)).toBeLessThan(0.04);
    expect(c.entropy().dataSync()[0]).toBeCloseTo(-(0.25 * Math.log(0.25) + 0.75 * Math.log(0.75)), 5);
    expect(c.logProb(C.tensor(new Float32Array(2000).fill(1), [2000])).dataSync()[0]).toBeCloseTo(Math.log(0.75), 5);
    const dz = new C.Discretized(C.tensor([[0, 0, 0]]), 0, 2);
    expect(dz.mean().dataSync()[0]).toBeCloseTo(1, 5);
    expect(Array.from(dz.binOf(C.tensor([[0.2, 0.9, 1.7]])).dataSync())).toEqual([0, 1, 2]);
  });
});
