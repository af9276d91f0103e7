import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { DecisionGraph } from '@decisio/domain';
import { buildDataset } from '../data/dataset';
import { Rng } from '../data/split';
import type { RawTrajectories } from '../data/raw';
import { importReviveYaml } from '../graph/yaml';
import { runTrainer } from '../trainer/contract';
import { REFERENCE_TASKS, offlineToRaw } from '../tasks/index';
import { TINY_YAML, linearTrajectories } from '../testing/fixtures';
import { BcTrainer, decodeStep, evaluateVenv, type BcCheckpoint } from './bc';

describe('BC virtual environment', () => {
  it('learns known linear dynamics and scores well on held-out rollouts', async () => {
    const graph = importReviveYaml(TINY_YAML).graph;
    const ds = buildDataset(graph, linearTrajectories(24, 40, 1));
    const trainer = new BcTrainer(graph, ds, { hidden: [32, 32], updatesPerStep: 25, evalEvery: 4, batchSize: 128, lr: 3e-3 });
    const scores: number[] = [];
    const r = await runTrainer(trainer, {
      seed: 2,
      stop: { system: true },
      budget: { maxSteps: 24 },
      onEvent: (e) => {
        if (e.type === 'metrics' && e.score !== undefined) scores.push(e.score);
      },
    });
    expect(r.reason).toBe('budget');
    expect(scores.length).toBe(6);
    expect(scores.at(-1)!).toBeGreaterThan(scores[0]!);
    const report = await evaluateVenv(trainer.venv!, trainer.split!.validation, { horizon: 10 });
    // deterministic dynamics: the 10-step rollout error is small (MAE < 0.02 in [-1, 1] units)
    expect(report.nodes['next_obs']!.mae).toBeLessThan(0.02);
    expect(report.nodes['next_obs']!.score).toBeGreaterThan(30);
    // the agent's one-step error is of the order of the behaviour noise (0.1 in [-1, 1] units)
    expect(report.nodes['action']!.mae).toBeLessThan(0.12);
  });

  it('learns discrete and category fields (inventory task) and resumes from a checkpoint', async () => {
    const task = REFERENCE_TASKS.inventory;
    const graph = task.graph();
    const ds = buildDataset(graph, offlineToRaw(task.generate({ trajectories: 6, steps: 40, seed: 3 })));
    const trainer = new BcTrainer(graph, ds, { hidden: [32], updatesPerStep: 10, evalEvery: 3, batchSize: 64 });
    const nll: number[] = [];
    let ckpt: BcCheckpoint | undefined;
    await runTrainer(trainer, {
      seed: 5,
      stop: { system: true },
      budget: { maxSteps: 6 },
      onEvent: (e) => {
        if (e.type === 'metrics') nll.push(e.metrics['nll/decision']!);
        if (e.type === 'checkpoint') ckpt = e.checkpoint as BcCheckpoint;
      },
    });
    expect(nll.at(-1)!).toBeLessThan(nll[0]!);
    const v1 = trainer.venv!;
    const starts = Int32Array.from([0, 5, 10]);
    const a = await v1.rollout(trainer.split!.validation, starts, 3);
    // decisions are valid one-hot prices and grid orders
    const dec = a[0]!['decision']!;
    const w = ds.codecs['decision']!.width;
    for (let r = 0; r < 3; r++) {
      const oneHot = Array.from(dec.subarray(r * w, r * w + 4));
      expect(oneHot.filter((x) => x === 1)).toHaveLength(1);
      expect([-1, -0.5, 0, 0.5, 1]).toContain(dec[r * w + 4]);
    }
    const resumed = new BcTrainer(graph, ds, { hidden: [32] });
    resumed.init({ seed: 5, checkpoint: ckpt! });
    const b = await resumed.venv!.rollout(resumed.split!.validation, starts, 3);
    expect(b[2]!['next_stock']).toEqual(a[2]!['next_stock']);
  });

  it('runs built-in function nodes in rollouts', async () => {
    const graph: DecisionGraph = importReviveYaml(TINY_YAML).graph;
    graph.nodes.push({ id: 'total', name: 'total', role: 'environment', tunable: false, fields: [{ name: 't', dataType: 'continuous', kind: 'float', visibility: 'normal', min: -4, max: 4 }], function: { kind: 'builtin', name: 'sum' } });
    graph.edges.push({ id: 'e1', source: 'obs', target: 'total' }, { id: 'e2', source: 'next_obs', target: 'total' });
    const raw = linearTrajectories(4, 10, 1);
    const ds = buildDataset(graph, raw);
    expect(ds.report.missingFunctionNodes).toEqual(['total']);
    const trainer = new BcTrainer(graph, ds, { hidden: [8], updatesPerStep: 1 });
    trainer.init({ seed: 1 });
    const steps = await trainer.venv!.rollout(ds, Int32Array.from([0]), 2);
    const enc = (v: number, min: number, max: number) => (2 * (v - min)) / (max - min) - 1;
    const obs = ((steps[1]!['obs']![0]! + 1) / 2) * 4 - 2;
    const next = ((steps[1]!['next_obs']![0]! + 1) / 2) * 4 - 2;
    expect(steps[1]!['total']![0]).toBeCloseTo(enc(obs + next, -4, 4), 4);
    // the rollout carries next_obs into obs
    expect(steps[1]!['obs']![0]).toBeCloseTo(steps[0]!['next_obs']![0]!, 6);
  });

  it('refuses REVIVE graph custom_node.yaml (a user torch network class), naming the feature', () => {
    const graph = importReviveYaml(readFileSync(join(__dirname, '../../test/fixtures/revive', 'custom_node.yaml'), 'utf8')).graph;
    expect(() => buildDataset(graph, { arrays: {}, index: [] })).toThrow(/custom_nodes\./);
  });

  it.each(['refrigeration_ts.yaml', 'parameter_tuning.yaml'])('trains and rolls out REVIVE graph %s on random data', async (file) => {
    const graph = importReviveYaml(readFileSync(join(__dirname, '../../test/fixtures/revive', file), 'utf8')).graph;
    const rng = new Rng(4);
    const N = 60;
    const arrays: RawTrajectories['arrays'] = {};
    for (const n of graph.nodes) {
      const key = n.history?.of ?? n.name;
      if (n.name.startsWith('next_') || n.fields.length === 0 || arrays[key]) continue;
      const data = new Float64Array(N * n.fields.length);
      n.fields.forEach((f, j) => {
        for (let r = 0; r < N; r++) {
          const v = f.dataType === 'category' ? (f.values as number[])[rng.int(f.values!.length)]! : f.dataType === 'discrete' ? Number(f.min) + rng.int(Number(f.count)) * ((Number(f.max) - Number(f.min)) / (Number(f.count) - 1)) : rng.normal();
          data[r * n.fields.length + j] = v;
        }
      });
      arrays[key] = { rows: N, cols: n.fields.length, data };
    }
    const ds = buildDataset(graph, { arrays, index: [20, 40, 60] });
    const trainer = new BcTrainer(graph, ds, { hidden: [16], updatesPerStep: 2, evalEvery: 1, horizon: 5, validationFraction: 0.34 });
    const r = await runTrainer(trainer, { seed: 1, stop: { system: true }, budget: { maxSteps: 2 }, onEvent: () => undefined });
    expect(r.reason).toBe('budget');
    expect(r.bestScore).toBeGreaterThanOrEqual(0);
    const steps = await trainer.venv!.rollout(trainer.split!.validation, Int32Array.from([0, 3]), 4, { mode: 'sample', rng: new Rng(1) });
    for (const name of ds.structure.order) if (ds.codecs[name]) expect(steps[3]![name]!.length).toBe(2 * ds.codecs[name]!.width);
  });

  it('lets a policy decide the agents and gives reward batches in original units', async () => {
    const task = REFERENCE_TASKS.thermal;
    const ds = buildDataset(task.graph(), offlineToRaw(task.generate({ trajectories: 3, steps: 20, seed: 2 })));
    const trainer = new BcTrainer(task.graph(), ds, { hidden: [8] });
    trainer.init({ seed: 1 });
    const full = ds.codecs['action']!;
    const steps = await trainer.venv!.rollout(ds, Int32Array.from([0, 20]), 3, {
      policy: (node, inputs, rows) => {
        expect(node).toBe('action');
        expect(Object.keys(inputs)).toEqual(['temperature', 'door_open']);
        return new Float32Array(rows * full.width).fill(1); // full power
      },
    });
    const batch = decodeStep(ds, steps[1]!);
    expect(batch['action']).toEqual({ data: Float32Array.from([10, 10]), shape: [2, 1] });
    expect(batch['next_temperature']!.shape).toEqual([2, 1]);
    expect(batch['door_open']!.shape).toEqual([2, 1]);
    expect(Number.isFinite(task.reward({ next_temperature: [batch['next_temperature']!.data[0]!], action: [10] }))).toBe(true);
  });
});
