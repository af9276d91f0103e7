import { describe, expect, it } from 'vitest';
import { buildDataset } from '../data/dataset';
import { Rng } from '../data/split';
import { runTrainer } from '../trainer/contract';
import { REFERENCE_TASKS, offlineToRaw } from '../tasks/index';
import { EnsembleTrainer, VenvEnsemble } from '../venv/ensemble';
import { dataDisagreement, PpoTrainer, type PpoCheckpoint } from './ppo';
import { SacTrainer } from './sac';
import { taskReward } from './task-reward';

// small and fast: a thermal data set, two tiny venvs trained a few steps
const task = REFERENCE_TASKS.thermal;
const graph = task.graph();
const ds = buildDataset(graph, offlineToRaw(task.generate({ trajectories: 8, steps: 30, seed: 2 })));

async function twoMembers(): Promise<VenvEnsemble> {
  const ens = new EnsembleTrainer(graph, ds, 2, { hidden: [16, 16], updatesPerStep: 5, evalEvery: 2, batchSize: 64 });
  await runTrainer(ens, { seed: 5, stop: { system: true }, budget: { maxSteps: 2 }, onEvent: () => {} });
  return ens.ensemble();
}

describe('PPO against model exploitation (ensemble rollouts, conservative selection, behaviour regulariser)', () => {
  it('draws each row of a rollout step from one member, and mixes the members over rows', async () => {
    const e = await twoMembers();
    const [a, b] = e.members as [NonNullable<(typeof e.members)[0]>, NonNullable<(typeof e.members)[0]>];
    const starts = Int32Array.from({ length: 24 }, (_, i) => ds.starts[i % ds.trajectoryCount]! + (i % 5));
    // one step, logged decisions: every member sees the same inputs
    const own = async (v: typeof a) => (await v.rollout(ds, starts, 1, { mode: 'mode', agents: 'data' }))[0]!;
    const ya = await own(a);
    const yb = await own(b);
    const mixed = (await a.rollout(ds, starts, 1, { mode: 'mode', agents: 'data', sampler: e.randomMemberSampler(new Rng(3), 'mode') }))[0]!;
    const env = [...a.models.keys()].filter((n) => ds.structure.nodes.get(n)!.role !== 'agent');
    expect(env.length).toBeGreaterThan(0);
    const picked = new Set<string>();
    for (const n of env) {
      const W = ds.codecs[n]!.width;
      for (let r = 0; r < starts.length; r++) {
        const row = (x: Float32Array) => Array.from(x.subarray(r * W, (r + 1) * W));
        const m = row(mixed[n]!);
        const fromA = m.every((v, j) => v === row(ya[n]!)[j]);
        const fromB = m.every((v, j) => v === row(yb[n]!)[j]);
        expect(fromA || fromB).toBe(true);
        if (fromA !== fromB) picked.add(fromA ? 'a' : 'b');
      }
    }
    expect([...picked].sort()).toEqual(['a', 'b']);
    // an ensemble of one venv rolls out exactly as that venv
    const alone = (await a.rollout(ds, starts, 3, { mode: 'mode', agents: 'data', sampler: new VenvEnsemble([a]).randomMemberSampler(new Rng(1), 'mode') }))[2]!;
    const plain = (await a.rollout(ds, starts, 3, { mode: 'mode', agents: 'data' }))[2]!;
    for (const n of env) expect(Array.from(alone[n]!)).toEqual(Array.from(plain[n]!));
  });

  it('selects by the worst or mean member return, trains on ensemble rollouts and reports the behaviour loss', async () => {
    const e = await twoMembers();
    const venv = e.members[0]!;
    const reward = taskReward(task);
    const base = { horizon: 5, batchSize: 8, evalEvery: 1, evalWindows: 16, bcUpdates: 20, valueWarmup: 1 };
    expect(() => new PpoTrainer(venv, reward, { ...base, select: 'worst' }, ds)).toThrow(/ensemble/);
    expect(() => new PpoTrainer(venv, reward, { ...base, bcCoef: -1 }, ds)).toThrow(/bcCoef/);

    const single = new PpoTrainer(venv, reward, base, ds);
    await single.init({ seed: 2 });
    const worst = new PpoTrainer(venv, reward, { ...base, ensemble: e }, ds);
    await worst.init({ seed: 2 });
    // same seed, same warm start: the members' returns bracket the selection estimate
    const [r0, r1] = worst.lastMemberReturns as [number, number];
    expect(worst.lastMemberReturns.length).toBe(2);
    expect(r0).toBeCloseTo(single.initialReward, 4); // member 0 is `venv`
    expect(worst.initialReward).toBeCloseTo(Math.min(r0, r1), 6);
    const mean = new PpoTrainer(venv, reward, { ...base, ensemble: e, select: 'mean' }, ds);
    await mean.init({ seed: 2 });
    expect(mean.initialReward).toBeCloseTo((r0 + r1) / 2, 4);

    const seen: Array<Record<string, number>> = [];
    const ppo = new PpoTrainer(venv, reward, { ...base, ensemble: e, bcCoef: 0.5 }, ds);
    const res = await runTrainer(ppo, { seed: 2, stop: { system: true }, budget: { maxSteps: 2 }, onEvent: (ev) => { if (ev.type === 'metrics') seen.push(ev.metrics); } });
    expect(res.reason).toBe('budget');
    expect(seen.length).toBe(2);
    for (const m of seen) {
      expect(Number.isFinite(m['loss/bc'])).toBe(true);
      expect(m['eval/return']).toBeCloseTo(m['eval/return-worst']!, 6);
      expect(m['eval/return-mean']!).toBeGreaterThanOrEqual(m['eval/return-worst']! - 1e-6);
    }
    // without the regulariser no behaviour loss is reported
    const plain = new PpoTrainer(venv, reward, { ...base, ensemble: e, ensembleRollouts: false, select: 'venv' }, ds);
    const m2: Array<Record<string, number>> = [];
    await runTrainer(plain, { seed: 2, stop: { system: true }, budget: { maxSteps: 1 }, onEvent: (ev) => { if (ev.type === 'metrics') m2.push(ev.metrics); } });
    expect(m2[0]!['loss/bc']).toBeUndefined();
    expect(m2[0]!['eval/return-worst']).toBeUndefined();
  });

  it('uncertainty-scaled behaviour regulariser: bcCoef + bcUncertainty x the members\' spread of returns per step, in reward stds', async () => {
    const e = await twoMembers();
    const venv = e.members[0]!;
    const reward = taskReward(task);
    const base = { horizon: 5, batchSize: 8, evalEvery: 1, evalWindows: 16, bcUpdates: 20, valueWarmup: 1 };
    expect(() => new PpoTrainer(venv, reward, { ...base, bcUncertainty: 1 }, ds)).toThrow(/bcUncertainty/);
    expect(() => new PpoTrainer(venv, reward, { ...base, ensemble: e, select: 'venv', bcUncertainty: 1 }, ds)).toThrow(/bcUncertainty/);
    expect(() => new PpoTrainer(venv, reward, { ...base, ensemble: e, bcUncertainty: -1 }, ds)).toThrow(/bcUncertainty/);
    const seen: Array<Record<string, number>> = [];
    let last: PpoCheckpoint | undefined;
    const ppo = new PpoTrainer(venv, reward, { ...base, ensemble: e, bcCoef: 0.05, bcUncertainty: 3, bcUncertaintyBaseline: 'zero' }, ds);
    await runTrainer(ppo, {
      seed: 4,
      stop: { system: true },
      budget: { maxSteps: 3 },
      onEvent: (ev) => {
        if (ev.type === 'metrics') seen.push(ev.metrics);
        if (ev.type === 'checkpoint') last = ev.checkpoint;
      },
    });
    // the coefficient follows the members' returns of the last evaluation
    const r = ppo.lastMemberReturns;
    const m = r.reduce((a, b) => a + b, 0) / r.length;
    const scale = ppo.checkpoint().rewardScale;
    const expected = 0.05 + (3 * (m - Math.min(...r)) * scale) / 5;
    expect(m - Math.min(...r)).toBeGreaterThan(0); // the two small venvs disagree
    expect(ppo.bc.now).toBeCloseTo(expected, 6);
    // each step's updates use the coefficient of the evaluation before it (metric `bc-coef`)
    for (const k of [1, 2]) {
      const prev = seen[k - 1]!;
      expect(seen[k]!['bc-coef']).toBeCloseTo(0.05 + (3 * (prev['eval/return-mean']! - prev['eval/return-worst']!) * scale) / 5, 4);
    }
    expect(Number.isFinite(seen.at(-1)!['loss/bc'])).toBe(true);
    // a resumed run keeps it
    const again = new PpoTrainer(venv, reward, { ...base, ensemble: e, bcCoef: 0.05, bcUncertainty: 3, bcUncertaintyBaseline: 'zero' }, ds);
    await again.init({ seed: 4, checkpoint: last! });
    expect(again.bc.now).toBeCloseTo(expected, 6);
    // PPO's default is 0.5 with an ensemble and conservative selection (the bench of 2026-11-29),
    // 0 without one (it needs the members' spread); asked for (4) it counts from the warm
    // start's spread, so 0 at the first evaluation
    const byDefault = new PpoTrainer(venv, reward, { ...base, ensemble: e }, ds);
    expect(byDefault.bc.settings.bcUncertainty).toBe(0.5);
    expect(new PpoTrainer(venv, reward, { ...base, ensemble: e, select: 'mean' }, ds).bc.settings.bcUncertainty).toBe(0.5);
    expect(new PpoTrainer(venv, reward, { ...base, ensemble: e, select: 'venv' }, ds).bc.settings.bcUncertainty).toBe(0);
    expect(new PpoTrainer(venv, reward, base, ds).bc.settings.bcUncertainty).toBe(0);
    const on = new PpoTrainer(venv, reward, { ...base, ensemble: e, bcUncertainty: 4 }, ds);
    await on.init({ seed: 4 });
    const r2 = on.lastMemberReturns;
    const m2 = r2.reduce((a, b) => a + b, 0) / r2.length;
    expect(on.bc.baseline).toBeCloseTo(m2 - Math.min(...r2), 9);
    expect(on.bc.now).toBe(0);
    const fromZero = new PpoTrainer(venv, reward, { ...base, ensemble: e, bcUncertainty: 4, bcUncertaintyBaseline: 'zero' }, ds);
    await fromZero.init({ seed: 4 });
    expect(fromZero.bc.now).toBeCloseTo((4 * (m2 - Math.min(...r2)) * fromZero.checkpoint().rewardScale) / 5, 6);
    const off = new PpoTrainer(venv, reward, { ...base, ensemble: e, select: 'venv' }, ds);
    await off.init({ seed: 4 });
    expect(off.bc.now).toBe(0);
    const zero = new PpoTrainer(venv, reward, { ...base, ensemble: e, bcUncertainty: 0 }, ds);
    const m3: Array<Record<string, number>> = [];
    await runTrainer(zero, { seed: 4, stop: { system: true }, budget: { maxSteps: 1 }, onEvent: (ev) => { if (ev.type === 'metrics') m3.push(ev.metrics); } });
    expect(zero.bc.now).toBe(0);
    expect(m3[0]!['loss/bc']).toBeUndefined();
  });

  it('counts only the disagreement over the warm start\'s with bcUncertaintyBaseline warmStart', async () => {
    const e = await twoMembers();
    const venv = e.members[0]!;
    const reward = taskReward(task);
    const base = { horizon: 5, batchSize: 8, evalEvery: 1, evalWindows: 16, bcUpdates: 20, valueWarmup: 1, ensemble: e, bcUncertainty: 3 };
    expect(() => new PpoTrainer(venv, reward, { ...base, bcUncertaintyBaseline: 'other' as 'zero' }, ds)).toThrow(/bcUncertaintyBaseline/);
    const spread = (r: number[]) => r.reduce((a, b) => a + b, 0) / r.length - Math.min(...r);
    const ppo = new PpoTrainer(venv, reward, { ...base, bcUncertaintyBaseline: 'warmStart' }, ds);
    await ppo.init({ seed: 4 });
    // the warm start's own spread is the baseline: the coefficient starts at bcCoef (0)
    expect(ppo.bc.baseline).toBeCloseTo(spread(ppo.lastMemberReturns), 9);
    expect(ppo.bc.baseline!).toBeGreaterThan(0);
    expect(ppo.bc.now).toBe(0);
    let last: PpoCheckpoint | undefined;
    await runTrainer(ppo, { seed: 4, stop: { system: true }, budget: { maxSteps: 2 }, onEvent: (ev) => { if (ev.type === 'checkpoint') last = ev.checkpoint; } });
    const scale = ppo.checkpoint().rewardScale;
    expect(ppo.bc.now).toBeCloseTo((3 * Math.max(0, spread(ppo.lastMemberReturns) - ppo.bc.baseline!) * scale) / 5, 6);
    // the baseline is kept through a checkpoint and not measured again
    const again = new PpoTrainer(venv, reward, { ...base, bcUncertaintyBaseline: 'warmStart' }, ds);
    await again.init({ seed: 4, checkpoint: JSON.parse(JSON.stringify(last!)) as PpoCheckpoint });
    expect(again.bc.baseline).toBe(ppo.bc.baseline);
    // zero: no baseline
    const zero = new PpoTrainer(venv, reward, { ...base, bcUncertaintyBaseline: 'zero' }, ds);
    await zero.init({ seed: 4 });
    expect(zero.bc.baseline).toBeUndefined();
    expect(zero.bc.now).toBeCloseTo((3 * spread(zero.lastMemberReturns) * scale) / 5, 6);
  });

  it('SAC: the same ensemble rollouts; selection by the members\' mean by default, the worst when asked', async () => {
    const e = await twoMembers();
    const venv = e.members[0]!;
    const reward = taskReward(task);
    const base = { horizon: 5, batchSize: 8, evalEvery: 1, evalWindows: 16, bcUpdates: 20, updatesPerStep: 2, minibatch: 16 };
    expect(() => new SacTrainer(venv, reward, { ...base, ensembleRollouts: true }, ds)).toThrow(/ensemble/);
    const sac = new SacTrainer(venv, reward, { ...base, ensemble: e }, ds);
    const seen: Array<Record<string, number>> = [];
    await runTrainer(sac, { seed: 2, stop: { system: true }, budget: { maxSteps: 1 }, onEvent: (ev) => { if (ev.type === 'metrics') seen.push(ev.metrics); } });
    expect(sac.lastMemberReturns.length).toBe(2);
    const [a, b] = sac.lastMemberReturns as [number, number];
    expect(Math.abs(a - b)).toBeGreaterThan(1e-6);
    expect(seen[0]!['eval/return']).toBeCloseTo((a + b) / 2, 6);
    const worst = new SacTrainer(venv, reward, { ...base, ensemble: e, select: 'worst' }, ds);
    const worstSeen: Array<Record<string, number>> = [];
    await runTrainer(worst, { seed: 2, stop: { system: true }, budget: { maxSteps: 1 }, onEvent: (ev) => { if (ev.type === 'metrics') worstSeen.push(ev.metrics); } });
    expect(worstSeen[0]!['eval/return']).toBeCloseTo(Math.min(...worst.lastMemberReturns), 6);
  });

  it('relative penalty: the disagreement is divided by its mean on data rows', async () => {
    const e = await twoMembers();
    const m = await dataDisagreement(e, ds);
    expect(m).toBeGreaterThan(0);
    expect(await dataDisagreement(new VenvEnsemble([e.members[0]!, e.members[0]!]), ds)).toBe(1);
    const reward = taskReward(task);
    const base = { horizon: 5, batchSize: 8, evalEvery: 1, evalWindows: 16, bcUpdates: 20, valueWarmup: 1 };
    const run = async (uncertainty: { ensemble: VenvEnsemble; weight: number; relative?: boolean }) => {
      const ppo = new PpoTrainer(e.members[0]!, reward, { ...base, uncertainty }, ds);
      await runTrainer(ppo, { seed: 3, stop: { system: true }, budget: { maxSteps: 1 }, onEvent: () => {} });
      return ppo.policy.weights();
    };
    // weight 2 relative = weight 2 / m absolute; a large absolute weight trains another policy
    const rel = await run({ ensemble: e, weight: 2, relative: true });
    const abs = await run({ ensemble: e, weight: 2 / m });
    const other = await run({ ensemble: e, weight: 2 });
    const first = (w: Record<string, number[]>) => Object.values(w).flat();
    const a = first(rel);
    const b = first(abs);
    const c = first(other);
    let same = 0;
    let diff = 0;
    for (let i = 0; i < a.length; i++) {
      same = Math.max(same, Math.abs(a[i]! - b[i]!));
      diff = Math.max(diff, Math.abs(a[i]! - c[i]!));
    }
    expect(same).toBeLessThan(1e-4);
    expect(diff).toBeGreaterThan(1e-4);
  });
});
