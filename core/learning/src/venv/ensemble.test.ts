import { describe, expect, it } from 'vitest';
import { buildDataset } from '../data/dataset';
import { PpoTrainer } from '../policy/ppo';
import { taskReward } from '../policy/task-reward';
import { runTrainer } from '../trainer/contract';
import { REFERENCE_TASKS, offlineToRaw } from '../tasks/index';
import { BcTrainer } from './bc';
import { EnsembleTrainer, VenvEnsemble } from './ensemble';

describe('venv ensemble', () => {
  it('trains k members on one split, measures their disagreement and penalises PPO rewards with it', async () => {
    const task = REFERENCE_TASKS.thermal;
    const graph = task.graph();
    const ds = buildDataset(graph, offlineToRaw(task.generate({ trajectories: 10, steps: 40, seed: 1 })));
    const ens = new EnsembleTrainer(graph, ds, 3, { hidden: [16, 16], updatesPerStep: 10, evalEvery: 2, batchSize: 64 });
    const r = await runTrainer(ens, { seed: 4, stop: { system: true }, budget: { maxSteps: 4 }, onEvent: () => {} });
    expect(r.reason).toBe('budget');
    expect(r.bestScore).toBeGreaterThan(0);
    const val = ens.members.map((m) => Array.from(m.split!.validation.starts).join(','));
    expect(new Set(val).size).toBe(1);
    const e = ens.ensemble();
    const rows = Int32Array.from([0, 5, 10, 15]);
    const step: Record<string, Float32Array> = {};
    for (const n of ds.nodes) if (ds.scaled[n]) step[n] = ds.gather(n, rows);
    const u = await e.disagreement(step, rows.length);
    expect(u.length).toBe(4);
    for (const v of u) expect(v).toBeGreaterThan(0);
    // identical members do not disagree
    const same = await new VenvEnsemble([e.members[0]!, e.members[0]!]).disagreement(step, rows.length);
    for (const v of same) expect(v).toBe(0);

    const metrics: number[] = [];
    const ppo = new PpoTrainer(e.members[0]!, taskReward(task), { horizon: 5, batchSize: 8, evalEvery: 2, bcUpdates: 10, uncertainty: { ensemble: e, weight: 1 } }, ds);
    await runTrainer(ppo, { seed: 1, stop: { system: true }, budget: { maxSteps: 2 }, onEvent: (ev) => { if (ev.type === 'metrics') metrics.push(ev.metrics['uncertainty']!); } });
    expect(metrics.length).toBe(2);
    for (const m of metrics) expect(m).toBeGreaterThan(0);
  }, 240_000);

  it('trains on a seeded bootstrap resample of the training trajectories when asked, on the same split', async () => {
    const task = REFERENCE_TASKS.thermal;
    const graph = task.graph();
    const ds = buildDataset(graph, offlineToRaw(task.generate({ trajectories: 8, steps: 20, seed: 2 })));
    const trained = async (bootstrap: boolean) => {
      const bc = new BcTrainer(graph, ds, { hidden: [8], updatesPerStep: 3, evalEvery: 1, batchSize: 32, bootstrap });
      await runTrainer(bc, { seed: 5, stop: { system: true }, budget: { maxSteps: 1 }, onEvent: () => {} });
      return { weights: JSON.stringify(bc.venv!.weights()), validation: Array.from(bc.split!.validation.starts).join(',') };
    };
    const [plain, boot, again] = [await trained(false), await trained(true), await trained(true)];
    expect(boot.validation).toBe(plain.validation);
    expect(boot.weights).not.toBe(plain.weights);
    expect(again.weights).toBe(boot.weights);
  }, 60_000);
});
