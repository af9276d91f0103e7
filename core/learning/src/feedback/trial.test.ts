import { describe, expect, it } from 'vitest';
import { setBackend } from '@decisio/compute';
import { controllerAction, disposeOutcome, runTrial, TrialCancelled, type TrialProgress } from './trial.ts';
import { syntheticLog } from './synthetic.ts';

describe('feedback-control trial (CPU backend)', () => {
  it('learns the known first-order response and a controller that beats the logged actions', async () => {
    await setBackend('cpu');
    const log = syntheticLog({ rows: 1200 });
    const seen: TrialProgress[] = [];
    const out = await runTrial(log, { modelSteps: 300, controllerSteps: 120 }, { onProgress: (p) => seen.push(p) });
    const r = out.result;
    console.info(`[feedback trial] model mse ${r.metrics.modelMse.toFixed(4)}, controller ${r.metrics.controllerCost.toFixed(4)} vs logged ${r.metrics.loggedCost.toFixed(4)} (real ${r.metrics.loggedCostReal.toFixed(4)}), ${r.metrics.stepsPerSecond.toFixed(1)} steps/s`);
    expect(seen.filter((p) => p.phase === 'model')).toHaveLength(300);
    expect(seen.filter((p) => p.phase === 'controller')).toHaveLength(120);
    // The model learned: last model losses far under the first ones, held-out error small.
    const first = r.curves.modelLoss.slice(0, 10).reduce((a, b) => a + b) / 10;
    const last = r.curves.modelLoss.slice(-10).reduce((a, b) => a + b) / 10;
    expect(last).toBeLessThan(first * 0.2);
    expect(r.metrics.modelMse).toBeLessThan(0.05);
    // In the model, replaying the logged actions tracks about as badly as they really did.
    expect(Math.abs(r.metrics.loggedCost - r.metrics.loggedCostReal) / r.metrics.loggedCostReal).toBeLessThan(0.5);
    // The controller beats the logged actions clearly on the held-out histories.
    expect(r.metrics.controllerCost).toBeLessThan(r.metrics.loggedCost * 0.5);
    expect(r.metrics.improvement).toBeGreaterThan(0.5);
    // It pushes the right way: below the set-point it acts more than above it.
    const low = await controllerAction(out, new Float32Array(8).fill(0.5), Float32Array.of(2));
    const high = await controllerAction(out, new Float32Array(8).fill(2.5), Float32Array.of(2));
    expect(low[0]!).toBeGreaterThan(high[0]!);
    expect(r.comparison.real.length).toBe(r.comparison.controller.length);
    expect(out.weights.length).toBeGreaterThan(100);
    expect(out.onestep.real.length).toBe(out.onestep.predicted.length);
    disposeOutcome(out);
  }, 120_000);

  it('stops when cancelled', async () => {
    let steps = 0;
    await expect(runTrial(syntheticLog({ rows: 400 }), { modelSteps: 50 }, { onProgress: () => steps++, cancelled: () => steps >= 5 })).rejects.toBeInstanceOf(TrialCancelled);
    expect(steps).toBe(5);
  });
});
