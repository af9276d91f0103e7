import { describe, expect, it } from 'vitest';
import { buildDataset } from '../data/dataset';
import { importReviveYaml } from '../graph/yaml';
import { runTrainer } from '../trainer/contract';
import { TINY_YAML, linearTrajectories } from '../testing/fixtures';
import { BcTrainer } from '../venv/bc';
import { sracos, type Candidate, type SearchDim } from './search';
import { HyperparameterSearchTrainer, SearchTrainer, hyperparameterSettings, hyperparameterSpace, type SearchCheckpoint } from './trainer';

const SPACE: SearchDim[] = [
  { node: 'p', column: 0, name: 'a', kind: 'continuous', min: -2, max: 2, values: [] },
  { node: 'p', column: 1, name: 'b', kind: 'discrete', min: 0, max: 4, values: [0, 1, 2, 3, 4] },
  { node: 'q', column: 0, name: 'c', kind: 'category', min: 3, max: 7, values: [3, 5, 7] },
];
const objective = (c: Candidate) => -((c['p']![0]! - 0.7) ** 2) - (c['p']![1]! - 3) ** 2 - (c['q']![0] === 5 ? 0 : 1);

describe('SearchTrainer', () => {
  it('runs SRACOS one trial per step, stops at the search count and matches the plain searcher', async () => {
    const t = new SearchTrainer(SPACE, objective, { algo: 'sracos', trials: 40 });
    const rewards: number[] = [];
    const r = await runTrainer(t, { seed: 5, stop: { searchCount: 40 }, onEvent: (e) => { if (e.type === 'metrics' && e.reward !== undefined) rewards.push(e.reward); } });
    expect(r.reason).toBe('searchCount');
    expect(t.trials.length).toBe(40);
    for (let i = 1; i < rewards.length; i++) expect(rewards[i]!).toBeGreaterThanOrEqual(rewards[i - 1]!);
    expect(t.best!.candidate['p']![1]).toBe(3);
    expect(t.best!.candidate['q']![0]).toBe(5);
    expect(Math.abs(t.best!.candidate['p']![0]! - 0.7)).toBeLessThan(0.3);
    const plain = await sracos(SPACE, objective, { trials: 40, seed: 5 });
    expect(plain.trials.map((x) => x.score)).toEqual(t.trials.map((x) => x.score));
  });

  it('resumes from a checkpoint with the same trials as an uninterrupted run (random)', async () => {
    const full = new SearchTrainer(SPACE, objective, { algo: 'random', trials: 12 });
    await runTrainer(full, { seed: 2, stop: { system: true }, onEvent: () => {} });
    let ck: SearchCheckpoint | undefined;
    const first = new SearchTrainer(SPACE, objective, { algo: 'random', trials: 12 });
    const r1 = await runTrainer(first, { seed: 2, stop: { system: true }, budget: { maxSteps: 5 }, onEvent: (e) => { if (e.type === 'checkpoint') ck = e.checkpoint; } });
    expect(r1.reason).toBe('budget');
    const second = new SearchTrainer(SPACE, objective, { algo: 'random', trials: 12 });
    const r2 = await runTrainer(second, { seed: 2, stop: { system: true }, resume: { checkpoint: ck!, step: r1.steps, elapsedMs: r1.elapsedMs }, onEvent: () => {} });
    expect(r2.reason).toBe('system');
    expect(second.trials.map((x) => x.score)).toEqual(full.trials.map((x) => x.score));
  });

  it('stops at the expected reward', async () => {
    const t = new SearchTrainer([SPACE[0]!], (c) => 10 - Math.abs(c['p']![0]!), { algo: 'sracos', trials: 200 });
    const r = await runTrainer(t, { seed: 1, stop: { expectedReward: 9.5 }, onEvent: () => {} });
    expect(r.reason).toBe('expectedReward');
    expect(t.best!.score).toBeGreaterThanOrEqual(9.5);
  });
});

describe('hyperparameter search', () => {
  it('maps settings (float, log, int, choice) and rejects bad ranges', () => {
    const dims = [
      { name: 'lr', kind: 'log' as const, min: 1e-4, max: 1e-2 },
      { name: 'w', kind: 'float' as const, min: 0, max: 1 },
      { name: 'n', kind: 'int' as const, min: 2, max: 4 },
      { name: 'hidden', kind: 'choice' as const, values: [[8], [16, 16]] },
    ];
    const space = hyperparameterSpace(dims);
    expect(space[2]!.values).toEqual([2, 3, 4]);
    const s = hyperparameterSettings(dims, { lr: [Math.log(1e-3)], w: [0.25], n: [3], hidden: [1] });
    expect(s['lr']).toBeCloseTo(1e-3, 10);
    expect(s).toMatchObject({ w: 0.25, n: 3, hidden: [16, 16] });
    expect(() => hyperparameterSpace([{ name: 'x', kind: 'float', min: 1, max: 1 }])).toThrow(/min must be below max/);
    expect(() => hyperparameterSpace([{ name: 'x', kind: 'log', min: 0, max: 1 }])).toThrow(/min > 0/);
  });

  it('searches BC venv settings and keeps the best', async () => {
    const graph = importReviveYaml(TINY_YAML).graph;
    const ds = buildDataset(graph, linearTrajectories(8, 20, 1));
    const dims = [
      { name: 'lr', kind: 'log' as const, min: 1e-5, max: 1e-2 },
      { name: 'hidden', kind: 'choice' as const, values: [[8], [16]] },
    ];
    const seen: Array<Record<string, unknown>> = [];
    const hs = new HyperparameterSearchTrainer(dims, {
      algo: 'random',
      trials: 4,
      metric: 'score',
      budget: { maxSteps: 4 },
      build: (s) => {
        seen.push(s);
        return new BcTrainer(graph, ds, { lr: s['lr'] as number, hidden: s['hidden'] as number[], updatesPerStep: 10, evalEvery: 2, batchSize: 64 }) as never;
      },
    });
    expect(hs.kind).toBe('hyper.random');
    const r = await runTrainer(hs, { seed: 3, stop: { system: true }, onEvent: () => {} });
    expect(r.reason).toBe('system');
    expect(seen.length).toBe(4);
    for (const s of seen) expect((s['lr'] as number) >= 1e-5 && (s['lr'] as number) <= 1e-2).toBe(true);
    const best = hs.best!;
    expect(best.score).toBe(Math.max(...hs.trials.map((t) => t.score)));
    expect(best.score).toBeGreaterThan(0);
    expect(hs.bestSettings()).toEqual(hyperparameterSettings(dims, best.candidate));
  }, 240_000);
});
