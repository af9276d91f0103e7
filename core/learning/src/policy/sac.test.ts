import { describe, expect, it } from 'vitest';
import { buildDataset } from '../data/dataset';
import { runTrainer } from '../trainer/contract';
import { REFERENCE_TASKS, offlineToRaw } from '../tasks/index';
import { BcTrainer } from '../venv/bc';
import { PolicyRunner, savePolicy } from './runner';
import { SacTrainer } from './sac';
import { taskReward } from './task-reward';

describe('SAC in a BC venv (thermal task)', () => {
  it('improves on the behaviour policy in the venv and in the true simulator', async () => {
    const task = REFERENCE_TASKS.thermal;
    const graph = task.graph();
    const ds = buildDataset(graph, offlineToRaw(task.generate({ trajectories: 20, steps: 100, seed: 1 })));
    const bc = new BcTrainer(graph, ds, { hidden: [64, 64], updatesPerStep: 25, evalEvery: 10, batchSize: 256, lr: 3e-3 });
    await runTrainer(bc, { seed: 1, stop: { system: true }, budget: { maxSteps: 40 }, onEvent: () => {} });
    const sac = new SacTrainer(bc.venv!, taskReward(task), { horizon: 20, evalEvery: 2, updatesPerStep: 40 });
    const rewards: number[] = [];
    const r = await runTrainer(sac, {
      seed: 3,
      stop: { system: true },
      budget: { maxSteps: 10 },
      onEvent: (e) => {
        if (e.type === 'metrics' && e.reward !== undefined) rewards.push(e.reward);
      },
    });
    expect(r.reason).toBe('budget');
    expect(sac.useBest()).toBeGreaterThan(sac.initialReward + 10);
    const files = await savePolicy(sac.policy, 'sac', 'tanh');
    const runner = PolicyRunner.fromWeights(files['policy.weights']!);
    expect(runner.squash).toBe('tanh');
    let behaviour = 0;
    let learned = 0;
    for (let s = 0; s < 3; s++) {
      behaviour += task.simulate(task.behaviourPolicy, 200, 100 + s).return;
      learned += task.simulate(runner.asTaskPolicy(), 200, 100 + s).return;
    }
    expect(learned).toBeGreaterThan(behaviour);
  }, 240_000);
});
