import { describe, expect, it } from 'vitest';
import { tensor } from '@decisio/compute';
import { buildDataset } from '../data/dataset';
import { runTrainer } from '../trainer/contract';
import { REFERENCE_TASKS, offlineToRaw } from '../tasks/index';
import { BcTrainer } from '../venv/bc';
import { gae, ppoClipLoss, PpoTrainer, type PpoCheckpoint } from './ppo';
import { PolicyRunner, loadPolicy, savePolicy } from './runner';
import { taskReward } from './task-reward';

describe('PPO pieces', () => {
  it('computes GAE advantages and returns (time-major, bootstrapped)', () => {
    // T = 2, B = 1: r = [1, 2], v = [0.5, 1], last = 3, gamma 0.9, lambda 0.8
    const { advantages, returns } = gae([1, 2], [0.5, 1], [3], 2, 1, 0.9, 0.8);
    const d1 = 2 + 0.9 * 3 - 1; // 3.7
    const d0 = 1 + 0.9 * 1 - 0.5; // 1.4
    expect(advantages[1]).toBeCloseTo(d1, 5);
    expect(advantages[0]).toBeCloseTo(d0 + 0.9 * 0.8 * d1, 5);
    expect(returns[0]).toBeCloseTo(advantages[0]! + 0.5, 5);
    // lambda = 1, no bootstrap: discounted return minus value
    const m = gae([1, 1, 1], [0, 0, 0], [0], 3, 1, 0.5, 1);
    expect(Array.from(m.returns)).toEqual([1.75, 1.5, 1]);
    // dones cut the bootstrap
    const d = gae([1, 1], [0, 0], [10], 2, 1, 1, 1, [0, 1]);
    expect(Array.from(d.returns)).toEqual([2, 1]);
  });

  it('clips the surrogate objective', () => {
    const old = tensor([0, 0, 0, 0], [4]);
    const lp = tensor([Math.log(2), Math.log(2), Math.log(0.5), Math.log(0.5)], [4]);
    const adv = tensor([1, -1, 1, -1], [4]);
    // ratios 2, 2, .5, .5 -> min(rA, clip(r)A) = 1.2, -2, .5, -.8
    const l = ppoClipLoss(lp, old, adv, 0.2).dataSync()[0]!;
    expect(l).toBeCloseTo(-(1.2 - 2 + 0.5 - 0.8) / 4, 5);
  });
});

describe('PPO in a BC venv (thermal task)', () => {
  it('improves on the behaviour policy in the true simulator, saves, loads and resumes', async () => {
    const task = REFERENCE_TASKS.thermal;
    const graph = task.graph();
    const ds = buildDataset(graph, offlineToRaw(task.generate({ trajectories: 20, steps: 100, seed: 1 })));
    const bc = new BcTrainer(graph, ds, { hidden: [64, 64], updatesPerStep: 25, evalEvery: 10, batchSize: 256, lr: 3e-3 });
    await runTrainer(bc, { seed: 1, stop: { system: true }, budget: { maxSteps: 40 }, onEvent: () => {} });
    // a small single venv (no ensemble): with the default update ratio (10 passes of 64 rows) the
    // policy exploits its errors more (true return about 1.8x the behaviour's instead of 2x);
    // this test's bar was set with 4 passes of 256 rows, kept here (the bench measures the default)
    const ppo = new PpoTrainer(bc.venv!, taskReward(task), { horizon: 20, batchSize: 64, evalEvery: 2, epochs: 4, minibatch: 256 });
    const rewards: number[] = [];
    let last: PpoCheckpoint | undefined;
    const r = await runTrainer(ppo, {
      seed: 3,
      stop: { system: true },
      budget: { maxSteps: 16 },
      onEvent: (e) => {
        if (e.type === 'metrics' && e.reward !== undefined) rewards.push(e.reward);
        if (e.type === 'checkpoint') last = e.checkpoint;
      },
    });
    expect(r.reason).toBe('budget');
    expect(rewards.length).toBe(8);
    const best = ppo.useBest();
    expect(best).toBeGreaterThan(ppo.initialReward + 10);
    const runner = new PolicyRunner(ppo.policy);
    let behaviour = 0;
    let learned = 0;
    for (let s = 0; s < 3; s++) {
      behaviour += task.simulate(task.behaviourPolicy, 200, 100 + s).return;
      learned += task.simulate(runner.asTaskPolicy(), 200, 100 + s).return;
    }
    expect(learned).toBeGreaterThan(behaviour * 0.5); // returns are negative: at least twice as good

    // export round trip: same decisions in original units
    const files = await savePolicy(ppo.policy, 'ppo');
    expect(files['policy.onnx']!.length).toBeGreaterThan(100);
    const loaded = PolicyRunner.fromWeights(files['policy.weights']!);
    expect(loaded.inputNames.sort()).toEqual(['door_open', 'temperature']);
    const inputs = { temperature: [5, -2, 10], door_open: [0, 1, 1] };
    const a = runner.run(inputs, 3)['action']!;
    const b = loaded.run(inputs, 3)['action']!;
    expect(Array.from(b)).toEqual(Array.from(a));
    for (const v of a) expect(v >= 0 && v <= 10).toBe(true);
    expect(loadPolicy(files['policy.weights']!).manifest.algorithm).toBe('ppo');

    // resume from the last checkpoint
    const again = new PpoTrainer(bc.venv!, taskReward(task), { horizon: 20, batchSize: 64, evalEvery: 2 });
    await again.init({ seed: 3, checkpoint: last! });
    expect(again.useBest()).toBeCloseTo(best, 6);
  }, 240_000);
});
