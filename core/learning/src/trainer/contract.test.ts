import { describe, expect, it } from 'vitest';
import { isLearningError, learningMessage } from '../errors';
import { parseStopConditions, runTrainer, stopConditionsSchema, type Trainer, type TrainerEvent } from './contract';

/** A toy trainer: score rises by 10 per step; checkpoint is the step count and an rng state. */
class Toy implements Trainer<{ n: number; seed: number }> {
  readonly kind = 'test.toy';
  n = 0;
  seed = 0;
  constructor(readonly systemMaxSteps = 1000, private readonly failAt = -1, private readonly convergeAt = -1) {}
  init(o: { seed: number; checkpoint?: { n: number; seed: number } }) {
    this.seed = o.seed;
    this.n = o.checkpoint?.n ?? 0;
  }
  step() {
    if (this.n === this.failAt) throw new Error('boom');
    this.n += 1;
    return { metrics: { loss: 1 / this.n }, score: this.n * 10, reward: this.n, converged: this.n === this.convergeAt };
  }
  checkpoint() {
    return { n: this.n, seed: this.seed };
  }
}

const code = (f: () => unknown) => {
  try {
    f();
    return 'ok';
  } catch (e) {
    return isLearningError(e) ? e.code : String(e);
  }
};

describe('stop conditions', () => {
  it('needs at least one condition and checks ranges', () => {
    expect(code(() => parseStopConditions({}))).toBe('trainer.noStopCondition');
    expect(code(() => parseStopConditions({ system: false }))).toBe('trainer.noStopCondition');
    expect(code(() => parseStopConditions({ system: true }))).toBe('ok');
    expect(code(() => parseStopConditions({ duration: { days: 7 } }))).toBe('ok');
    expect(code(() => parseStopConditions({ duration: { days: 7, minutes: 1 } }))).toBe('trainer.durationInvalid');
    expect(code(() => parseStopConditions({ duration: { hours: 1.5 } }))).toBe('trainer.durationInvalid');
    expect(code(() => parseStopConditions({ duration: {} }))).toBe('trainer.durationInvalid');
    expect(code(() => parseStopConditions({ expectedScore: 0 }))).toBe('trainer.expectedValueRange');
    expect(code(() => parseStopConditions({ expectedScore: 99 }))).toBe('ok');
    expect(code(() => parseStopConditions({ expectedReward: 99.5 }))).toBe('trainer.expectedValueRange');
    expect(code(() => parseStopConditions({ searchCount: 10000 }))).toBe('trainer.searchRange');
    expect(code(() => parseStopConditions({ system: true, searchStep: 0 }))).toBe('trainer.searchRange');
    // The one schema (core/domain) names the catalogue code; the learning error says it in both languages.
    expect(stopConditionsSchema.safeParse({}).error!.issues[0]!.message).toBe('trainNoStopCondition');
    expect(learningMessage('trainer.noStopCondition', {}, 'zh-CN')).toBe('请至少选择一个停止条件');
  });
});

describe('runTrainer', () => {
  it('stops at the expected score and reports through one callback', async () => {
    const events: TrainerEvent[] = [];
    const r = await runTrainer(new Toy(), { seed: 1, stop: { expectedScore: 45 }, onEvent: (e) => void events.push(e) });
    expect(r).toMatchObject({ reason: 'expectedScore', steps: 5, bestScore: 50 });
    expect(events.filter((e) => e.type === 'metrics')).toHaveLength(5);
    expect(events.at(-2)).toMatchObject({ type: 'checkpoint', checkpoint: { n: 5, seed: 1 } });
    expect(events.at(-1)).toMatchObject({ type: 'stopped', reason: 'expectedScore' });
  });

  it('lets the system decide (convergence or default length)', async () => {
    expect((await runTrainer(new Toy(1000, -1, 3), { seed: 1, stop: { system: true }, onEvent: () => undefined })).steps).toBe(3);
    expect(await runTrainer(new Toy(4), { seed: 1, stop: { system: true }, onEvent: () => undefined })).toMatchObject({ reason: 'system', steps: 4 });
  });

  it('stops on duration with a clock', async () => {
    let now = 0;
    const t = new Toy();
    const step = t.step.bind(t);
    t.step = () => {
      now += 20_000; // 20 s per step
      return step();
    };
    const r = await runTrainer(t, { seed: 1, stop: { duration: { minutes: 1 } }, clock: () => now, onEvent: () => undefined });
    expect(r).toMatchObject({ reason: 'duration', steps: 3 });
  });

  it('honours a stop request promptly and the budget', async () => {
    const ac = new AbortController();
    const r = await runTrainer(new Toy(), {
      seed: 1,
      stop: { system: true },
      signal: ac.signal,
      onEvent: (e) => {
        if (e.type === 'metrics' && e.step === 2) ac.abort();
      },
    });
    expect(r).toMatchObject({ reason: 'stopRequested', steps: 2 });
    expect(await runTrainer(new Toy(), { seed: 1, stop: { system: true }, budget: { maxSteps: 7 }, onEvent: () => undefined })).toMatchObject({ reason: 'budget', steps: 7 });
  });

  it('checkpoints periodically and resumes where it left off', async () => {
    const ckpts: Array<{ step: number; n: number }> = [];
    await runTrainer(new Toy(), {
      seed: 3,
      stop: { searchCount: 10 },
      checkpointEvery: { steps: 4 },
      onEvent: (e) => {
        if (e.type === 'checkpoint') ckpts.push({ step: e.step, n: (e.checkpoint as { n: number }).n });
      },
    });
    expect(ckpts).toEqual([{ step: 4, n: 4 }, { step: 8, n: 8 }, { step: 10, n: 10 }]);
    const t = new Toy();
    const r = await runTrainer(t, { seed: 3, stop: { searchCount: 12 }, resume: { checkpoint: { n: 8, seed: 3 }, step: 8, elapsedMs: 0 }, onEvent: () => undefined });
    expect(r).toMatchObject({ reason: 'searchCount', steps: 12 });
    expect(t.n).toBe(12);
  });

  it('ends with failed when a step throws', async () => {
    const events: TrainerEvent[] = [];
    const r = await runTrainer(new Toy(1000, 2), { seed: 1, stop: { system: true }, onEvent: (e) => void events.push(e) });
    expect(r.reason).toBe('failed');
    expect((r.error as Error).message).toBe('boom');
    expect(events.some((e) => e.type === 'log' && e.level === 'error' && e.message === 'boom')).toBe(true);
  });
});
