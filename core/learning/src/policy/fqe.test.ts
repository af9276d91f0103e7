import { describe, expect, it } from 'vitest';
import { buildDataset } from '../data/dataset';
import { REFERENCE_TASKS, offlineToRaw } from '../tasks/index';
import type { RolloutPolicy } from '../venv/bc';
import { fittedQEvaluation } from './fqe';
import type { RewardCallback } from './rollout';

describe('fitted Q evaluation on logged data', () => {
  const task = REFERENCE_TASKS.thermal;
  const ds = buildDataset(task.graph(), offlineToRaw(task.generate({ trajectories: 8, steps: 40, seed: 1 })));
  // a reward of the decision alone: -power / 10 per step (power in [0, 10])
  const reward: RewardCallback = (batch) => Float32Array.from(batch['action']!.data as ArrayLike<number>, (p) => -p / 10);
  // a constant decision in the codec's [-1, 1] space (-1: power 0, 1: power 10)
  const constant = (enc: number): RolloutPolicy => (_node, _inputs, rows) => new Float32Array(rows).fill(enc);

  it("estimates a fixed policy's H-step return (gamma 1, H iterations) and ranks policies by it", async () => {
    const options = { gamma: 1, iterations: 5, updatesPerIteration: 150, seed: 2 };
    const off = await fittedQEvaluation(ds, constant(-1), reward, options);
    const full = await fittedQEvaluation(ds, constant(1), reward, options);
    const half = await fittedQEvaluation(ds, constant(0), reward, options);
    // true 5-step returns: 0, -5 and -2.5
    expect(off.value).toBeCloseTo(0, 0);
    expect(full.value).toBeGreaterThan(-5.6);
    expect(full.value).toBeLessThan(-4.4);
    expect(half.value).toBeGreaterThan(-3.1);
    expect(half.value).toBeLessThan(-1.9);
    expect(Number.isFinite(off.loss)).toBe(true);
  }, 120_000);
});
