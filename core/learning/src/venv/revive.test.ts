import { describe, expect, it } from 'vitest';
import { Adam, Generator, MLP, noGrad, tensor, tidy } from '@decisio/compute';
import { buildDataset } from '../data/dataset';
import { Rng } from '../data/split';
import { optimiseStep } from '../policy/ppo';
import { runTrainer } from '../trainer/contract';
import { REFERENCE_TASKS, offlineToRaw } from '../tasks/index';
import { evaluateVenv } from './bc';
import { ReviveTrainer, discriminatorLoss, meanOutput, type ReviveCheckpoint, type ReviveOptions } from './revive';

describe('revive pieces', () => {
  it('the discriminator loss decreases on separable data', () => {
    const rng = new Rng(1);
    const N = 64;
    const real = Float32Array.from({ length: N * 2 }, () => 0.5 + 0.2 * rng.normal());
    const fake = Float32Array.from({ length: N * 2 }, () => -0.5 + 0.2 * rng.normal());
    const d = new MLP([2, 16, 1], { activation: 'relu', generator: new Generator(3) });
    const opt = new Adam(d.parameters(), { lr: 1e-2 });
    const loss = () => discriminatorLoss(d.forward(tensor(real, [N, 2])), d.forward(tensor(fake, [N, 2])));
    const first = tidy(() => noGrad(() => loss().dataSync()[0]!));
    expect(first).toBeGreaterThan(1); // about 2 ln 2 for an untrained discriminator
    let last = first;
    for (let i = 0; i < 60; i++) last = optimiseStep(opt, d.parameters(), loss);
    expect(last).toBeLessThan(0.2);
  });

  it('gives the mean output of continuous, discrete and category fields in the encoded layout', async () => {
    const task = REFERENCE_TASKS.inventory;
    const graph = task.graph();
    const ds = buildDataset(graph, offlineToRaw(task.generate({ trajectories: 4, steps: 20, seed: 1 })));
    const t = new ReviveTrainer(graph, ds, 'p', { hidden: [8], bcSteps: 0 });
    await t.init({ seed: 1 });
    for (const m of t.venv!.models.values()) {
      const rows = 5;
      const x = new Float32Array(rows * m.inWidth).fill(0.1);
      const y = tidy(() => noGrad(() => Array.from(meanOutput(m, tensor(x, [rows, m.inWidth]), rows).dataSync())));
      expect(y.length).toBe(rows * m.codec.width);
      for (const b of m.blocks) {
        if (b.discrete) expect(Math.abs(y[b.offset]!)).toBeLessThanOrEqual(1 + 1e-6);
        else expect(y.slice(b.offset, b.offset + b.k).reduce((a, v) => a + v, 0)).toBeCloseTo(1, 5);
      }
    }
  });
});

const OPTIONS: ReviveOptions = { hidden: [32, 32], bcSteps: 5, bcUpdatesPerStep: 20, batchSize: 128, rollouts: 16, rolloutHorizon: 8, evalEvery: 2, lr: 3e-4, bcLr: 3e-3 };

describe.each(['p', 't'] as const)('revive-%s venv (thermal task)', (algo) => {
  it('improves the held-out rollout error of its BC warm start and resumes', async () => {
    const task = REFERENCE_TASKS.thermal;
    const graph = task.graph();
    const ds = buildDataset(graph, offlineToRaw(task.generate({ trajectories: 12, steps: 60, seed: 1 })));
    const trainer = new ReviveTrainer(graph, ds, algo, OPTIONS);
    expect(trainer.kind).toBe(`venv.revive-${algo}`);
    let last: ReviveCheckpoint | undefined;
    const seen: string[] = [];
    const r = await runTrainer(trainer, {
      seed: 1,
      stop: { system: true },
      budget: { maxSteps: 8 },
      onEvent: (e) => {
        if (e.type === 'metrics') seen.push(...Object.keys(e.metrics));
        if (e.type === 'checkpoint') last = e.checkpoint;
      },
    });
    expect(r.reason).toBe('budget');
    expect(seen).toContain('disc/loss');
    expect(seen).toContain('val/mae');
    const best = trainer.useBest();
    expect(best).toBeGreaterThan(trainer.initialScore);
    const report = await evaluateVenv(trainer.venv!, trainer.split!.validation, { horizon: 10, windows: 256, seed: 0 });
    expect(report.mae).toBeLessThan(trainer.initialMae);
    expect(report.score).toBeCloseTo(best, 6);

    const again = new ReviveTrainer(graph, ds, algo, OPTIONS);
    await again.init({ seed: 1, checkpoint: last! });
    expect(again.initialMae).toBe(trainer.initialMae);
    expect(again.useBest()).toBeCloseTo(best, 6);
  }, 240_000);
});

describe('revive-t target generator', () => {
  it('starts as a copy of the warm-started generator and follows it by Polyak averaging (tau 0: frozen, tau 1: equal); checkpoints keep it', async () => {
    const task = REFERENCE_TASKS.thermal;
    const graph = task.graph();
    const ds = buildDataset(graph, offlineToRaw(task.generate({ trajectories: 8, steps: 30, seed: 1 })));
    const opts: ReviveOptions = { ...OPTIONS, hidden: [16, 16], bcSteps: 2, rollouts: 8, rolloutHorizon: 4, criticUpdates: 4, policyDelay: 2, evalEvery: 100 };
    const signal = new AbortController().signal;
    const flat = (w: Record<string, Record<string, number[]>>) => Object.keys(w).sort().flatMap((n) => Object.keys(w[n]!).sort().flatMap((k) => w[n]![k]!));
    const dist = (a: number[], b: number[]) => Math.sqrt(a.reduce((s, v, i) => s + (v - b[i]!) ** 2, 0));
    expect(new ReviveTrainer(graph, ds, 'p', opts).targetGenerator()).toBeUndefined();
    for (const tau of [0, 1]) {
      const t = new ReviveTrainer(graph, ds, 't', { ...opts, tau });
      await t.init({ seed: 1 });
      const start = flat(t.venv!.weights());
      expect(flat(t.targetGenerator()!)).toEqual(start);
      for (let s = 0; s < 2; s++) await t.step({ step: s, signal });
      const now = flat(t.venv!.weights());
      const target = flat(t.targetGenerator()!);
      expect(dist(now, start)).toBeGreaterThan(1e-4); // the generator moved
      if (tau === 0) expect(target).toEqual(start);
      else expect(dist(target, now)).toBeLessThan(1e-6);
      const again = new ReviveTrainer(graph, ds, 't', { ...opts, tau });
      await again.init({ seed: 1, checkpoint: t.checkpoint() });
      expect(flat(again.targetGenerator()!)).toEqual(target);
    }
  }, 240_000);
});
