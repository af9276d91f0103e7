import { describe, expect, it } from 'vitest';
import { Adam, Generator, MLP, mean, square, tensor, tidy } from '@decisio/compute';
import { summarizeParameters, summarizeValues, trainerParameters } from './tensors';

describe('tensor summaries', () => {
  it('summarises the finite values and counts zeros, NaN and infinities', () => {
    const s = summarizeValues('w', [2, 3], Float32Array.of(0, 1, 2, 3, NaN, Infinity), null, 3);
    expect(s.shape).toEqual([2, 3]);
    expect(s.size).toBe(6);
    expect(s.mean).toBe(1.5);
    expect(s.std).toBeCloseTo(Math.sqrt(1.25), 5);
    expect([s.min, s.max]).toEqual([0, 3]);
    expect(s.norm).toBeCloseTo(Math.sqrt(14), 5);
    expect(s.zeros).toBeCloseTo(1 / 6, 5);
    expect(s.nan).toBeCloseTo(1 / 6, 5);
    expect(s.inf).toBeCloseTo(1 / 6, 5);
    // bins of width 1 over [0, 3]: the maximum falls in the last one
    expect(s.hist).toEqual({ lo: 0, hi: 3, counts: [1, 1, 2] });
    expect(s.gradNorm).toBeNull();
  });

  it('puts a constant tensor in the middle bin, and has no statistics without a finite value', () => {
    const zeros = summarizeValues('b', [4], new Float32Array(4), Float32Array.of(3, 4, 0, 0), 5);
    expect([zeros.mean, zeros.std, zeros.norm, zeros.zeros]).toEqual([0, 0, 0, 1]);
    expect(zeros.hist?.counts).toEqual([0, 0, 4, 0, 0]);
    expect(zeros.gradNorm).toBe(5);
    const broken = summarizeValues('x', [2], Float32Array.of(NaN, -Infinity));
    expect([broken.mean, broken.std, broken.min, broken.max, broken.norm, broken.hist]).toEqual([null, null, null, null, null, null]);
    expect([broken.nan, broken.inf]).toEqual([0.5, 0.5]);
    // the summary is plain JSON (no NaN to lose)
    expect(JSON.parse(JSON.stringify(broken))).toEqual(broken);
  });

  it('reads a live network: every parameter, histograms over all values, the last update gradient', () => {
    const net = new MLP([3, 8, 2], { generator: new Generator(1) });
    const before = summarizeParameters(net.namedParameters());
    expect(before.omitted).toBe(0);
    expect(before.tensors.map((t) => t.name)).toEqual(net.namedParameters().map(([k]) => k));
    for (const t of before.tensors) {
      expect(t.size).toBe(t.shape.reduce((a, b) => a * b, 1));
      expect(t.hist!.counts.reduce((a, b) => a + b, 0)).toBe(t.size);
      expect(t.gradNorm).toBeNull();
    }
    const w0 = before.tensors.find((t) => t.name === '0.weight')!;
    expect(w0.shape).toEqual([3, 8]);
    expect(w0.std!).toBeGreaterThan(0);
    const opt = new Adam(net.parameters(), { lr: 0.01 });
    tidy(() => {
      opt.zeroGrad();
      mean(square(net.forward(tensor(Float32Array.of(1, 2, 3, -1, 0, 1), [2, 3])))).backward();
      opt.step();
    });
    const after = summarizeParameters(net.namedParameters());
    for (const t of after.tensors) expect(t.gradNorm).toBeGreaterThan(0);
    expect(after.tensors.find((t) => t.name === '0.weight')!.mean).not.toBe(w0.mean);
  });

  it('stays under its size bound and counts what it leaves out', () => {
    const net = new MLP([4, 16, 16, 16, 2], { generator: new Generator(2) });
    const all = summarizeParameters(net.namedParameters());
    expect(all.tensors).toHaveLength(8);
    const bounded = summarizeParameters(net.namedParameters(), { maxChars: 1200 });
    expect(bounded.tensors.length).toBeGreaterThan(0);
    expect(bounded.tensors.length + bounded.omitted).toBe(8);
    expect(JSON.stringify(bounded).length).toBeLessThanOrEqual(1200);
    expect(summarizeParameters(net.namedParameters(), { maxTensors: 3 })).toMatchObject({ omitted: 5 });
  });

  it('finds the parameters a trainer exposes', () => {
    const net = new MLP([2, 2], { generator: new Generator(3) });
    expect(trainerParameters({ kind: 'search.random' })).toBeNull();
    expect(trainerParameters({ namedParameters: () => net.namedParameters() })?.map(([k]) => k)).toEqual(['0.weight', '0.bias']);
  });
});
