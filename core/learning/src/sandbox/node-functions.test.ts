import { afterAll, describe, expect, it } from 'vitest';
import { buildDataset } from '../data/dataset';
import { loadDataset, dataFileKind } from '../data/load';
import { writeNpz } from '../data/npy';
import { importReviveYaml } from '../graph/yaml';
import { BcTrainer } from '../venv/bc';
import { nodeFunctionFiles, sandboxNodeFunctions } from './node-functions';
import { PythonSandbox } from './python-sandbox';

const YAML = `metadata:
  graph:
    action:
    - obs
    next_obs:
    - obs
    - action
  columns:
  - obs_0:
      dim: obs
      type: continuous
      max: 10
      min: -10
  - action_0:
      dim: action
      type: continuous
      max: 1
      min: -1
  expert_functions:
    next_obs:
      'node_function' : 'expert_function.dynamics'
`;

const EXPERT = `import numpy as np
from typing import Dict

def dynamics(data : Dict[str, np.ndarray]) -> np.ndarray:
    return data['obs'] + 0.5 * data['action']
`;

describe('Python node functions in venv rollouts', () => {
  let sb: PythonSandbox | undefined;
  afterAll(async () => {
    await sb?.close();
  });

  it('computes an expert function node through the sandbox, in original units', async () => {
    const graph = importReviveYaml(YAML).graph;
    graph.nodes.find((n) => n.name === 'next_obs')!.function = { kind: 'python', file: 'expert_function.py', function: 'dynamics', code: EXPERT };
    const obs = [0, 0.5, 1, 1.5, 2, 0, -0.5, -1, -1.5, -2];
    const act = [1, 1, 1, 1, 1, -1, -1, -1, -1, -1];
    const m = (v: number[]) => ({ dtype: 'f4', shape: [v.length, 1], data: Float32Array.from(v) });
    const npz = writeNpz({ obs: m(obs), action: m(act), index: { dtype: 'i8', shape: [2], data: BigInt64Array.from([5n, 10n]) } });
    expect(dataFileKind('traj.npz')).toBe('npz');
    const ds = await loadDataset(npz, 'npz', graph);
    // next_obs is a state's next: built by shifting (last steps dropped)
    expect(ds.rows).toBe(8);
    sb = await PythonSandbox.start({ files: nodeFunctionFiles(graph) });
    const trainer = new BcTrainer(graph, ds, { hidden: [8], nodeFunction: sandboxNodeFunctions(sb, graph, { next_obs: 1 }) });
    trainer.init({ seed: 1 });
    const steps = await trainer.venv!.rollout(ds, Int32Array.from([0, 4]), 3, {
      agents: 'data',
      nodeFunction: sandboxNodeFunctions(sb, graph, { next_obs: 1 }),
    });
    const dec = (x: number) => ((x + 1) / 2) * 20 - 10;
    // step 0 from row 0: obs 0, action 1 -> 0.5 ; row 4 (2nd trajectory start): obs 0, action -1 -> -0.5
    expect(dec(steps[0]!['next_obs']![0]!)).toBeCloseTo(0.5, 4);
    expect(dec(steps[0]!['next_obs']![1]!)).toBeCloseTo(-0.5, 4);
    expect(dec(steps[2]!['next_obs']![0]!)).toBeCloseTo(1.5, 4);
  });

  it('loads a csv table into the same data set', async () => {
    const graph = importReviveYaml(YAML).graph;
    const csv = 'id,step,obs_0,action_0\n' + [0, 1, 2].map((k) => `a,${k},${k},1`).join('\n') + '\n';
    const ds = await loadDataset(new TextEncoder().encode(csv), 'csv', graph, { trajectoryField: 'id', sequenceField: 'step' });
    expect(Array.from(ds.raw['next_obs']!)).toEqual([1, 2]);
    expect(buildDataset(graph, { arrays: { obs: { rows: 2, cols: 1, data: Float64Array.from([0, 1]) }, action: { rows: 2, cols: 1, data: Float64Array.from([1, 1]) } }, index: [2] }).rows).toBe(1);
  });
});
