import { afterAll, describe, expect, it } from 'vitest';
import { buildDataset } from '../data/dataset';
import { readNpz } from '../data/npy';
import { fromNdArrays } from '../data/raw';
import { validateGraph } from '../graph/index';
import { PythonSandbox } from '../sandbox/python-sandbox';
import { offlineToNpz, offlineToRaw, type ReferenceTask, type TaskPolicy } from './common';
import { REFERENCE_TASKS, hoverExpertPolicy, inventoryExpertPolicy, pendulumExpertPolicy, plantExpertPolicy, thermalExpertPolicy } from './index';

const experts: Record<string, TaskPolicy> = { pendulum: pendulumExpertPolicy, thermal: thermalExpertPolicy, inventory: inventoryExpertPolicy, hover: hoverExpertPolicy, plant: plantExpertPolicy };
const tasks = Object.values(REFERENCE_TASKS) as ReferenceTask[];
const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;

describe.each(tasks)('$id task', (task) => {
  it('has a valid graph with an agent', () => {
    const g = task.graph();
    expect(validateGraph(g, { solution: 'policy' })).toEqual([]);
    expect(g.nodes.find((n) => n.name === task.agent)?.role).toBe('agent');
  });

  it('generates offline data in the npz layout that loads for its graph', () => {
    const d = task.generate({ trajectories: 4, steps: 30, seed: 1 });
    expect(d.index).toEqual([30, 60, 90, 120]);
    const fromFile = fromNdArrays(readNpz(offlineToNpz(d)));
    expect(fromFile.index).toEqual(d.index);
    const ds = buildDataset(task.graph(), fromFile);
    expect(ds.rows).toBe(120); // next_ nodes are in the data: nothing dropped
    expect(ds.report.builtNext).toEqual([]);
    expect(buildDataset(task.graph(), offlineToRaw(d)).rows).toBe(120);
  });

  it('is deterministic per seed and the behaviour policy is clearly sub-optimal', () => {
    expect(task.simulate(task.behaviourPolicy, 50, 3).return).toBe(task.simulate(task.behaviourPolicy, 50, 3).return);
    const seeds = [0, 1, 2, 3, 4, 5];
    const behaviour = mean(seeds.map((s) => task.simulate(task.behaviourPolicy, undefined, s).return));
    const expert = mean(seeds.map((s) => task.simulate(experts[task.id]!, undefined, s).return));
    expect(expert).toBeGreaterThan(behaviour + 0.1 * Math.abs(behaviour));
  });
});

describe('reward.py of the tasks', () => {
  let sb: PythonSandbox | undefined;
  afterAll(async () => {
    await sb?.close();
  });

  it('matches the TypeScript reward on generated data', async () => {
    sb = await PythonSandbox.start({ files: Object.fromEntries(tasks.map((t) => [`${t.id}_reward.py`, t.rewardPy])), timeoutMs: 30_000 });
    for (const task of tasks) {
      const d = task.generate({ trajectories: 2, steps: 40, seed: 9 });
      const rows = d.index.at(-1)!;
      const batch = Object.fromEntries(Object.entries(d.arrays).map(([k, a]) => [k, { data: a.data as Float32Array, shape: [a.shape[0]!, a.shape[1]!] as [number, number] }]));
      const py = await sb.call(`${task.id}_reward.py`, 'get_reward', batch, { rows, cols: 1 });
      for (let r = 0; r < rows; r++) {
        const step = Object.fromEntries(Object.entries(d.arrays).map(([k, a]) => {
          const dim = a.shape[1]!;
          return [k, Array.from((a.data as Float32Array).subarray(r * dim, r * dim + dim))];
        }));
        expect(py.data[r]).toBeCloseTo(task.reward(step), 3);
      }
    }
  });
});
