import { describe, expect, it } from 'vitest';
import { strToU8 } from 'fflate';
import { syntheticCsv, syntheticLog } from '@decisio/learning/feedback/synthetic.ts';
import type { GfsTrialProgress } from '@decisio/domain';
import { createComputeOps } from './ops';

describe('compute worker operations (no worker, jsdom has no WebGPU)', () => {
  it('falls back to the CPU path and says why, checks, trains, infers and cancels', async () => {
    const ops = createComputeOps();
    const choice = await ops.init('auto');
    expect(choice).toMatchObject({ backend: 'cpu', reason: 'noWebgpuApi' });
    expect(choice.path).toBeTruthy();
    expect((await ops.init('cpu')).reason).toBe('forcedCpu');

    await expect(ops.train({})).rejects.toThrow(/check/);
    const bad = await ops.check(null);
    expect(bad.check.code).toBe(10001);
    const good = await ops.check(new Blob([strToU8(syntheticCsv(syntheticLog({ rows: 600 })))]), 'log.csv');
    expect(good.check.code).toBe(0);
    expect(good.preview!.obs.length).toBe(600);

    const seen: GfsTrialProgress[] = [];
    const run = await ops.train({ modelSteps: 150, controllerSteps: 60 }, (p) => seen.push(p));
    expect(seen.filter((p) => p.phase === 'model').map((p) => p.step)).toEqual(Array.from({ length: 150 }, (_, i) => i + 1));
    expect(run.result.backend).toBe('cpu');
    expect(run.result.metrics.controllerCost).toBeLessThan(run.result.metrics.loggedCost);
    expect(run.weights.byteLength).toBeGreaterThan(0);
    const action = await ops.infer(new Float32Array(8).fill(0.5), Float32Array.of(2));
    expect(action.length).toBe(1);
    expect(Number.isFinite(action[0]!)).toBe(true);

    const stopped = ops.train({ modelSteps: 5000 }, (p) => {
      if (p.step === 20) ops.cancel();
    });
    await expect(stopped).rejects.toThrow('cancelled');
  }, 120_000);
});
