/**
 * BC venvs and PPO on every CPU matmul path present in this process (native OpenBLAS, the wasm
 * SIMD paths, plain JS), not only the one chosen at start-up: an ensemble's member 0 equals the
 * single venv of the same seed (as `learn train --venv-ensemble 1` promises), and PPO in it
 * stays finite. Regression: on the wasm paths Adam read another parameter's moments (the
 * operand cache kept fresh moment arrays in a staging region), so member 0 trained differently
 * from the single venv and PPO on the thermal task returned NaN rewards; the CI machine with
 * the native addon never ran those paths.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { availableMatmulPaths, cpuBackend } from '@decisio/compute';
import { buildDataset } from '../data/dataset';
import { PpoTrainer } from '../policy/ppo';
import { taskReward } from '../policy/task-reward';
import { runTrainer } from '../trainer/contract';
import { REFERENCE_TASKS, offlineToRaw } from '../tasks/index';
import { BcTrainer } from './bc';
import { EnsembleTrainer } from './ensemble';

const backend = cpuBackend();
const chosen = backend.matmulPath;
afterAll(() => backend.setMatmulPath(chosen));

describe('BC venvs and PPO on every CPU matmul path', () => {
  const task = REFERENCE_TASKS.thermal;
  const graph = task.graph();
  const ds = buildDataset(graph, offlineToRaw(task.generate({ trajectories: 8, steps: 40, seed: 1 })));
  const options = { hidden: [16, 16], updatesPerStep: 10, evalEvery: 3, batchSize: 64 };

  for (const path of availableMatmulPaths()) {
    it(`cpu/${path.name}: ensemble member 0 is the single venv of the same seed; PPO in it stays finite`, async () => {
      backend.setMatmulPath(path);
      const ens = new EnsembleTrainer(graph, ds, 2, options);
      const re = await runTrainer(ens, { seed: 1, stop: { system: true }, budget: { maxSteps: 3 }, onEvent: () => {} });
      expect(re.reason).toBe('budget');
      const single = new BcTrainer(graph, ds, { ...options, splitSeed: 1 });
      const rs = await runTrainer(single, { seed: 1, stop: { system: true }, budget: { maxSteps: 3 }, onEvent: () => {} });
      expect(rs.reason).toBe('budget');
      expect(ens.members[0]!.venv!.weights()).toEqual(single.venv!.weights());

      const rewards: number[] = [];
      const ppo = new PpoTrainer(single.venv!, taskReward(task), { horizon: 20, evalEvery: 1 }, ds);
      const rp = await runTrainer(ppo, { seed: 2, stop: { system: true }, budget: { maxSteps: 2 }, onEvent: (e) => { if (e.type === 'metrics' && e.reward !== undefined) rewards.push(e.reward); } });
      expect(rp.error).toBeUndefined();
      expect(rp.reason).toBe('budget');
      expect(rewards.length).toBe(2);
      for (const r of rewards) expect(Number.isFinite(r), `venv return ${r}`).toBe(true);
    }, 120_000);
  }
});
