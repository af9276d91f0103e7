import { describe, expect, it } from 'vitest';
import { buildDataset } from '../data/dataset';
import { runTrainer } from '../trainer/contract';
import { REFERENCE_TASKS, offlineToRaw } from '../tasks/index';
import { BcTrainer } from '../venv/bc';
import { EnsembleTrainer, type VenvEnsemble } from '../venv/ensemble';
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

describe('SAC with the ensemble uncertainty penalty', () => {
  it('stores rewards minus weight x the ensemble disagreement in the replay buffer', async () => {
    const task = REFERENCE_TASKS.thermal;
    const graph = task.graph();
    const ds = buildDataset(graph, offlineToRaw(task.generate({ trajectories: 10, steps: 40, seed: 1 })));
    const ens = new EnsembleTrainer(graph, ds, 3, { hidden: [16, 16], updatesPerStep: 10, evalEvery: 2, batchSize: 64 });
    await runTrainer(ens, { seed: 4, stop: { system: true }, budget: { maxSteps: 3 }, onEvent: () => {} });
    const e = ens.ensemble();
    const H = 5;
    const B = 8;
    const W = 2;
    const run = async (uncertainty?: { ensemble: VenvEnsemble; weight: number }) => {
      const sac = new SacTrainer(e.members[0]!, taskReward(task), { horizon: H, batchSize: B, updatesPerStep: 2, evalEvery: 1, bcUpdates: 20, evalWindows: 8, ...(uncertainty ? { uncertainty } : {}) }, ds);
      const metrics: Array<Record<string, number>> = [];
      await runTrainer(sac, { seed: 1, stop: { system: true }, budget: { maxSteps: 2 }, onEvent: (ev) => { if (ev.type === 'metrics') metrics.push(ev.metrics); } });
      return { metrics, scale: sac.checkpoint().rewardScale };
    };
    const plain = await run();
    const penalised = await run({ ensemble: e, weight: W });
    expect(plain.metrics[0]!['uncertainty']).toBeUndefined();
    // the same seed gives the same first rollouts; only the stored rewards differ
    const first = penalised.metrics[0]!;
    expect(first['train/return']).toBeCloseTo(plain.metrics[0]!['train/return']!, 4);
    expect(plain.metrics[0]!['train/stored-return']).toBeCloseTo(plain.metrics[0]!['train/return']! * plain.scale, 3);
    expect(first['uncertainty']).toBeGreaterThan(0);
    expect(first['train/stored-return']).toBeCloseTo(first['train/return']! * penalised.scale - W * H * first['uncertainty']!, 3);
    expect(penalised.metrics[1]!['uncertainty']).toBeGreaterThan(0);
  }, 240_000);
});
