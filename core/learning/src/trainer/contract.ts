/**
 * The contract every trainer (venv, policy, parameter search) implements, the stop conditions
 * of the spec (workflow §5 "Training", §9), and a small runner that enforces them.
 *
 * A trainer is a resumable step loop: `init` (fresh from a seed, or from a checkpoint), then
 * `step` until the runner stops it; `checkpoint` returns a serialisable snapshot. The runner
 * reports metrics, logs and checkpoints through one callback, honours a stop request
 * (`AbortSignal`) between steps, the duration and expected score/reward, "system decides"
 * (the trainer's own convergence or its default step count) and an optional budget.
 */
import { durationMinutes, stopConditionsSchema, TRAINING_LIMITS, type StopConditions } from '@decisio/domain';
import { LearningError, type LearningErrorCode } from '../errors';

/** Longest training allowed: 7 days, in minutes (`TRAINING_LIMITS` of `@decisio/domain`). */
export const MAX_DURATION_MINUTES = TRAINING_LIMITS.maxDurationMinutes;
/** Search count and step must be below this. */
export const SEARCH_LIMIT = TRAINING_LIMITS.searchLimit;

/** Stop conditions: the domain's one schema (its messages are catalogue code names). */
export { durationMinutes, stopConditionsSchema, type StopConditions };

/** The learning error code of each catalogue code the stop-conditions schema names. */
const CODES: Record<string, LearningErrorCode> = {
  trainNoStopCondition: 'trainer.noStopCondition',
  trainDurationInvalid: 'trainer.durationInvalid',
  trainExpectedValueRange: 'trainer.expectedValueRange',
  trainSearchRange: 'trainer.searchRange',
};

/**
 * Parses stop conditions; throws a {@link LearningError} with the first issue's code
 * (`trainer.noStopCondition`, `trainer.durationInvalid`, `trainer.expectedValueRange`,
 * `trainer.searchRange`).
 */
export function parseStopConditions(input: unknown): StopConditions {
  const r = stopConditionsSchema.safeParse(input);
  if (r.success) return r.data;
  throw new LearningError(CODES[r.error.issues[0]?.message ?? ''] ?? 'trainer.noStopCondition');
}

/** What one step reports. */
export interface StepResult {
  /** Named figures (losses, scores, ...). */
  metrics?: Record<string, number>;
  /** Environment score in [0, 100], compared with `expectedScore`. */
  score?: number;
  /** Policy or tuning reward value, compared with `expectedReward`. */
  reward?: number;
  /** The trainer considers itself done ("system decides"). */
  converged?: boolean;
  logs?: string[];
}

/** Passed to every step. */
export interface StepContext {
  /** 0-based index of this step, counted across resumes. */
  step: number;
  signal: AbortSignal;
}

/** A trainer; see the module comment. `C` is its checkpoint type (must be serialisable). */
export interface Trainer<C = unknown> {
  /** E.g. `'venv.bc'`, `'policy.ppo'`, `'search.sracos'`. */
  readonly kind: string;
  /** Default length when the system decides. */
  readonly systemMaxSteps: number;
  /** Starts fresh from `seed`, or restores `checkpoint` (the seed is passed again). */
  init(options: { seed: number; checkpoint?: C }): void | Promise<void>;
  step(ctx: StepContext): StepResult | Promise<StepResult>;
  checkpoint(): C | Promise<C>;
}

/**
 * The log lines of a failed step: the error's message; a {@link LearningError} also in
 * Chinese (the job log is read in either interface language).
 */
export function failureLines(e: unknown): string[] {
  if (e instanceof LearningError) {
    const zh = e.localized('zh-CN');
    return zh === e.message ? [e.message] : [e.message, zh];
  }
  return [(e as Error)?.message ?? String(e)];
}

/** Why a run ended. */
export type StopReason = 'system' | 'duration' | 'expectedScore' | 'expectedReward' | 'searchCount' | 'stopRequested' | 'budget' | 'failed';

/**
 * Events of a run, all through one callback. `step` is the count of steps done so far, across
 * resumes (not the 0-based index of {@link StepContext}): a `metrics` event reports the step it
 * follows, 1 after the first, so `step / total` is the share done.
 */
export type TrainerEvent<C = unknown> =
  | { type: 'metrics'; step: number; elapsedMs: number; metrics: Record<string, number>; score?: number; reward?: number }
  | { type: 'log'; step: number; level: 'info' | 'warn' | 'error'; message: string }
  | { type: 'checkpoint'; step: number; elapsedMs: number; checkpoint: C }
  | { type: 'stopped'; step: number; elapsedMs: number; reason: StopReason; bestScore?: number; bestReward?: number };

/** Options of {@link runTrainer}. */
export interface RunOptions<C> {
  seed: number;
  stop: StopConditions;
  onEvent: (event: TrainerEvent<C>) => void | Promise<void>;
  /** Stop request; honoured between steps. */
  signal?: AbortSignal;
  /** Hard limits on top of the stop conditions (e.g. a worker's quota). */
  budget?: { maxSteps?: number; maxMs?: number };
  /** Checkpoint cadence (a last checkpoint is always written at the end). Default every 100 steps. */
  checkpointEvery?: { steps?: number; ms?: number };
  /** Resume from an earlier run. */
  resume?: { checkpoint: C; step: number; elapsedMs: number };
  /** Milliseconds clock (tests). Default `performance.now`. */
  clock?: () => number;
}

/** Summary of a run. */
export interface RunResult {
  reason: StopReason;
  steps: number;
  elapsedMs: number;
  bestScore?: number;
  bestReward?: number;
  error?: unknown;
}

const yieldToLoop = (): Promise<void> => new Promise((r) => setTimeout(r, 0));

/**
 * Runs a trainer until a stop condition holds. Validates `stop` first (throws
 * `trainer.*` codes). A step that throws ends the run with reason `failed` (an error log and a
 * `stopped` event are sent first) and the error is returned in `error`.
 */
export async function runTrainer<C>(trainer: Trainer<C>, options: RunOptions<C>): Promise<RunResult> {
  const stop = parseStopConditions(options.stop);
  const clock = options.clock ?? (() => performance.now());
  const emit = options.onEvent;
  const signal = options.signal ?? new AbortController().signal;
  const every = { steps: options.checkpointEvery?.steps ?? 100, ms: options.checkpointEvery?.ms ?? Infinity };
  const durationMs = stop.duration ? durationMinutes(stop.duration) * 60_000 : Infinity;
  const t0 = clock() - (options.resume?.elapsedMs ?? 0);
  const elapsed = () => clock() - t0;
  let step = options.resume?.step ?? 0;
  const startStep = step;
  let lastCkptStep = step;
  let lastCkptMs = elapsed();
  let bestScore: number | undefined;
  let bestReward: number | undefined;

  const finish = async (reason: StopReason, error?: unknown): Promise<RunResult> => {
    if (reason !== 'failed') {
      try {
        await emit({ type: 'checkpoint', step, elapsedMs: elapsed(), checkpoint: await trainer.checkpoint() });
      } catch (e) {
        error = e;
      }
    }
    const out: RunResult = { reason, steps: step, elapsedMs: elapsed() };
    if (bestScore !== undefined) out.bestScore = bestScore;
    if (bestReward !== undefined) out.bestReward = bestReward;
    if (error !== undefined) out.error = error;
    await emit({ type: 'stopped', step, elapsedMs: out.elapsedMs, reason, ...(bestScore !== undefined ? { bestScore } : {}), ...(bestReward !== undefined ? { bestReward } : {}) });
    return out;
  };

  try {
    await trainer.init(options.resume ? { seed: options.seed, checkpoint: options.resume.checkpoint } : { seed: options.seed });
  } catch (e) {
    for (const message of failureLines(e)) await emit({ type: 'log', step, level: 'error', message });
    return finish('failed', e);
  }

  for (;;) {
    if (signal.aborted) return finish('stopRequested');
    if (elapsed() >= durationMs) return finish('duration');
    if (options.budget?.maxMs !== undefined && elapsed() >= options.budget.maxMs) return finish('budget');
    if (options.budget?.maxSteps !== undefined && step - startStep >= options.budget.maxSteps) return finish('budget');
    if (stop.searchCount !== undefined && step >= stop.searchCount) return finish('searchCount');
    if (stop.system && step >= trainer.systemMaxSteps) return finish('system');

    let r: StepResult;
    try {
      r = await trainer.step({ step, signal });
    } catch (e) {
      for (const message of failureLines(e)) await emit({ type: 'log', step, level: 'error', message });
      return finish('failed', e);
    }
    step += 1;
    for (const message of r.logs ?? []) await emit({ type: 'log', step, level: 'info', message });
    if (r.score !== undefined) bestScore = Math.max(bestScore ?? -Infinity, r.score);
    if (r.reward !== undefined) bestReward = Math.max(bestReward ?? -Infinity, r.reward);
    await emit({
      type: 'metrics',
      step,
      elapsedMs: elapsed(),
      metrics: r.metrics ?? {},
      ...(r.score !== undefined ? { score: r.score } : {}),
      ...(r.reward !== undefined ? { reward: r.reward } : {}),
    });
    if (stop.expectedScore !== undefined && r.score !== undefined && r.score >= stop.expectedScore) return finish('expectedScore');
    if (stop.expectedReward !== undefined && r.reward !== undefined && r.reward >= stop.expectedReward) return finish('expectedReward');
    if (stop.system && r.converged) return finish('system');
    if (step - lastCkptStep >= every.steps || elapsed() - lastCkptMs >= every.ms) {
      await emit({ type: 'checkpoint', step, elapsedMs: elapsed(), checkpoint: await trainer.checkpoint() });
      lastCkptStep = step;
      lastCkptMs = elapsed();
    }
    await yieldToLoop(); // lets a stop request (and other jobs) through between steps
  }
}
