/** Weights format round trip and ONNX export checked by running it in onnxruntime-node. */
import { describe, expect, it } from 'vitest';
import * as ort from 'onnxruntime-node';
import * as C from '../src/index.ts';

describe('weights format', () => {
  it('round-trips tensors and metadata, with the documented header layout', async () => {
    const a = C.tensor([[1, 2, 3], [4, 5, 6]]);
    const b = C.tensor([0.5]);
    const bytes = await C.saveTensors([['a', a], ['b.c', b]], { task: 'demo' });
    const n = Number(new DataView(bytes.buffer).getBigUint64(0, true));
    expect((8 + n) % 8).toBe(0);
    const header = JSON.parse(new TextDecoder().decode(bytes.subarray(8, 8 + n))) as { version: number; tensors: Record<string, { offsets: number[]; dtype: string }> };
    expect(header.version).toBe(1);
    expect(header.tensors['a']).toMatchObject({ dtype: 'F32', shape: [2, 3], offsets: [0, 24] });
    const f = C.decodeWeights(bytes);
    expect(Array.from(f.tensors.get('a')!.data)).toEqual([1, 2, 3, 4, 5, 6]);
    expect(f.tensors.get('b.c')!.shape).toEqual([1]);
    expect(f.metadata).toEqual({ task: 'demo' });
  });

  it('saves and loads a module; rejects bad files', async () => {
    const m1 = new C.MLP([3, 8, 2]);
    const m2 = new C.MLP([3, 8, 2]);
    C.loadModule(m2, await C.saveModule(m1));
    const x = C.randomNormal([4, 3]);
    expect(Array.from(m2.forward(x).dataSync())).toEqual(Array.from(m1.forward(x).dataSync()));
    expect(() => C.decodeWeights(new Uint8Array(4))).toThrow(/truncated/);
    expect(() => C.loadModule(new C.MLP([3, 9, 2]), C.encodeWeights([]))).toThrow(/missing/);
  });
});

describe('ONNX export', () => {
  for (const act of ['relu', 'tanh', 'leaky-relu', 'silu', 'sigmoid'] as const) {
    it(`MLP policy (${act}) runs in onnxruntime with the same outputs (1e-5)`, async () => {
      const net = new C.MLP([6, 32, 32, 3], { activation: act, outputActivation: 'tanh' });
      const bytes = await C.exportMlpOnnx(net, { inputName: 'obs', outputName: 'action' });
      const session = await ort.InferenceSession.create(bytes);
      expect(session.inputNames).toEqual(['obs']);
      expect(session.outputNames).toEqual(['action']);
      for (const batch of [1, 7]) {
        const x = C.randomNormal([batch, 6]);
        const res = await session.run({ obs: new ort.Tensor('float32', x.dataSync(), [batch, 6]) });
        const theirs = res['action']!.data as Float32Array;
        const ours = C.noGrad(() => net.forward(x)).dataSync();
        expect(theirs.length).toBe(ours.length);
        for (let i = 0; i < ours.length; i++) expect(Math.abs(ours[i]! - theirs[i]!)).toBeLessThan(1e-5);
      }
    });
  }
});
