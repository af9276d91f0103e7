/**
 * The feedback-control trial loop (spec workflow §3): learns the encoder + response model from
 * the log (one-step prediction, Adam), tunes the PID controller inside the frozen model (multi-
 * step rollouts from the log's own histories, gradients through the model), then measures the
 * controller against the logged actions on held-out histories: both replayed in the same model
 * from the same windows, plus the logged actions' cost on the real recorded observations.
 *
 * Backend-agnostic: every tensor is created on the active backend; values are read with
 * `await t.data()`. Progress is reported after every step with the measured loss or cost.
 */
import { Adam, add, clipGradNorm, detach, manualSeed, mean, mseLoss, mul, noGrad, saveTensors, square, stack, tensor, tidy, type Tensor } from '@decisio/compute';
import type { PidResult } from '@decisio/domain';
import { normaliseSeries, rng, unscale, type NormalisedSeries, type TrialSeries } from './data.ts';
import { PidController, ResponseModel, rollout } from './model.ts';

/** Settings of a trial (defaults in {@link TRIAL_DEFAULTS}). */
export interface TrialConfig {
  history: number;
  latent: number;
  hidden: number;
  /** Rollout length for tuning and comparison. */
  horizon: number;
  modelSteps: number;
  controllerSteps: number;
  batch: number;
  controllerBatch: number;
  modelLr: number;
  controllerLr: number;
  /** Weight of the squared (normalised) action in the tuning cost. */
  actionPenalty: number;
  /** Share of rows (from the end) held out for the comparison. */
  heldOut: number;
  seed: number;
}

export const TRIAL_DEFAULTS: TrialConfig = {
  history: 8,
  latent: 8,
  hidden: 32,
  horizon: 16,
  modelSteps: 400,
  controllerSteps: 150,
  batch: 128,
  controllerBatch: 48,
  modelLr: 3e-3,
  controllerLr: 3e-2,
  actionPenalty: 1e-3,
  heldOut: 0.25,
  seed: 1,
};

/** One progress report. */
export interface TrialProgress {
  phase: 'model' | 'controller' | 'evaluate';
  step: number;
  total: number;
  /** Model phase: one-step MSE of the batch; controller phase: tracking cost of the batch. */
  value: number;
  /** Steps per second so far in this phase. */
  stepsPerSecond: number;
}

/** Hooks of {@link runTrial}. */
export interface TrialHooks {
  onProgress?: (p: TrialProgress) => void;
  /** Checked before every step; true stops the trial with {@link TrialCancelled}. */
  cancelled?: () => boolean;
  /** Awaited before every step: a worker lets its event loop run here (cancel messages). */
  tick?: () => Promise<void>;
  /** Clock in ms (default `performance.now`). */
  now?: () => number;
}

/** Thrown when `cancelled()` turned true. */
export class TrialCancelled extends Error {
  constructor() {
    super('trial cancelled');
    this.name = 'TrialCancelled';
  }
}

/** What a finished trial leaves: the result to show/save and the live networks for inference. */
export interface TrialOutcome {
  result: Omit<PidResult, 'backend' | 'backendPath' | 'weights'>;
  /** decisio-weights v1 bytes: `model.*` (encoder, pid, correction) and `controller.*`. */
  weights: Uint8Array;
  /** One-step predictions on consecutive held-out rows (obs dimension 0, real units). */
  onestep: { real: Float32Array; predicted: Float32Array };
  model: ResponseModel;
  controller: PidController;
  data: NormalisedSeries;
  config: TrialConfig;
}

/** Windows of `starts` (row index of the window's last row) as one `[B, h*n]` host array. */
function windows(d: NormalisedSeries, starts: readonly number[], h: number): Float32Array {
  const n = d.obsDim;
  const out = new Float32Array(starts.length * h * n);
  starts.forEach((t, b) => out.set(d.obs.subarray((t - h + 1) * n, (t + 1) * n), b * h * n));
  return out;
}

/** Rows `t + offset` of a `[rows, dim]` array for each start, as `[B, dim]`. */
function rowsAt(x: Float32Array, dim: number, starts: readonly number[], offset: number): Float32Array {
  const out = new Float32Array(starts.length * dim);
  starts.forEach((t, b) => out.set(x.subarray((t + offset) * dim, (t + offset + 1) * dim), b * dim));
  return out;
}

function perSecond(steps: number, ms: number): number {
  return ms > 0 ? (steps * 1000) / ms : 0;
}

/** Downsamples to at most `max` points (every k-th). */
function thin(xs: number[], max = 2000): number[] {
  if (xs.length <= max) return xs;
  const k = Math.ceil(xs.length / max);
  return xs.filter((_, i) => i % k === 0);
}

/**
 * Runs the whole trial on the active backend.
 * @throws TrialCancelled when `hooks.cancelled()` turns true; Error when the series are shorter
 *   than one history window plus a horizon in each part.
 */
export async function runTrial(series: TrialSeries, options: Partial<TrialConfig> = {}, hooks: TrialHooks = {}): Promise<TrialOutcome> {
  const cfg: TrialConfig = { ...TRIAL_DEFAULTS, ...options };
  const now = hooks.now ?? (() => performance.now());
  const check = () => {
    if (hooks.cancelled?.()) throw new TrialCancelled();
  };
  const d = normaliseSeries(series);
  const { obsDim: n, actDim: m, rows } = d;
  const h = cfg.history;
  const K = cfg.horizon;
  const split = Math.floor(rows * (1 - cfg.heldOut));
  const trainLast = split - 2; // last window end whose next row is still in the train part
  if (trainLast - (h - 1) < K || rows - split < h + K + 1) throw new Error(`feedback trial: ${rows} rows are too few for history ${h} and horizon ${K}`);
  manualSeed(cfg.seed);
  const rand = rng(cfg.seed);
  const pick = (lo: number, hi: number, count: number) => Array.from({ length: count }, () => lo + Math.floor(rand() * (hi - lo + 1)));

  const model = new ResponseModel({ obsDim: n, actDim: m, history: h, latent: cfg.latent, hidden: cfg.hidden });
  const controller = new PidController(n, m, d.actMin, d.actMax);
  const curves = { modelLoss: [] as number[], controllerCost: [] as number[] };
  const t0 = now();

  // 1. Encoder + response model: one-step prediction of the next observation.
  const modelOpt = new Adam(model.parameters(), { lr: cfg.modelLr });
  let phaseStart = now();
  for (let step = 1; step <= cfg.modelSteps; step++) {
    check();
    await hooks.tick?.();
    const starts = pick(h - 1, trainLast, cfg.batch);
    const loss = tidy(() => {
      modelOpt.zeroGrad();
      const w = tensor(windows(d, starts, h), [starts.length, h * n]);
      const a = tensor(rowsAt(d.act, m, starts, 0), [starts.length, m]);
      const y = tensor(rowsAt(d.obs, n, starts, 1), [starts.length, n]);
      const l = mseLoss(model.predict(w, a), y);
      l.backward();
      clipGradNorm(model.parameters(), 1).dispose();
      modelOpt.step();
      return detach(l);
    });
    const value = (await loss.data())[0]!;
    loss.dispose();
    curves.modelLoss.push(value);
    hooks.onProgress?.({ phase: 'model', step, total: cfg.modelSteps, value, stepsPerSecond: perSecond(step, now() - phaseStart) });
  }

  // 2. Controller tuned inside the model: K-step rollouts from logged histories.
  const ctrlOpt = new Adam(controller.parameters(), { lr: cfg.controllerLr });
  const targetsOf = (starts: readonly number[]) => Array.from({ length: K }, (_, k) => tensor(rowsAt(d.target, n, starts, k + 1), [starts.length, n]));
  phaseStart = now();
  for (let step = 1; step <= cfg.controllerSteps; step++) {
    check();
    await hooks.tick?.();
    const starts = pick(h - 1, trainLast - K, cfg.controllerBatch);
    const cost = tidy(() => {
      ctrlOpt.zeroGrad();
      modelOpt.zeroGrad();
      const w = tensor(windows(d, starts, h), [starts.length, h * n]);
      const targets = targetsOf(starts);
      const preds = rollout(model, w, targets, { controller });
      const tracking = mseLoss(stack(preds), stack(targets));
      const actions = controller.act(model, w, targets[0]!);
      const total = add(tracking, mul(mean(square(actions)), cfg.actionPenalty));
      total.backward();
      ctrlOpt.step();
      return detach(tracking);
    });
    const value = (await cost.data())[0]!;
    cost.dispose();
    curves.controllerCost.push(value);
    hooks.onProgress?.({ phase: 'controller', step, total: cfg.controllerSteps, value, stepsPerSecond: perSecond(step, now() - phaseStart) });
  }
  const trainMs = now() - t0;

  // 3. Held-out comparison: consecutive K-step stretches, each starting from the real window.
  check();
  const evalStarts: number[] = [];
  for (let t = split + h - 1; t + K < rows && evalStarts.length < 64; t += K) evalStarts.push(t);
  const evaluated = await evaluate(model, controller, d, evalStarts, h, K);
  const stretches = Math.min(evalStarts.length, 25);
  const comparison = { target: [] as number[], real: [] as number[], logged: [] as number[], controller: [] as number[] };
  for (let b = 0; b < stretches; b++) {
    for (let k = 0; k < K; k++) {
      const row = evalStarts[b]! + k + 1;
      const at = (k * evalStarts.length + b) * n; // dimension 0 of step k, start b
      comparison.target.push(unscale(d.target[row * n]!, d.obsScale, 0));
      comparison.real.push(unscale(d.obs[row * n]!, d.obsScale, 0));
      comparison.logged.push(unscale(evaluated.logged[at]!, d.obsScale, 0));
      comparison.controller.push(unscale(evaluated.controlled[at]!, d.obsScale, 0));
    }
  }
  // One-step model error on the held-out windows.
  const heldStarts = pick(split + h - 1, rows - 2, Math.min(256, rows - split - h));
  const mse = tidy(() => noGrad(() => detach(mseLoss(
    model.predict(tensor(windows(d, heldStarts, h), [heldStarts.length, h * n]), tensor(rowsAt(d.act, m, heldStarts, 0), [heldStarts.length, m])),
    tensor(rowsAt(d.obs, n, heldStarts, 1), [heldStarts.length, n]),
  ))));
  const modelMse = (await mse.data())[0]!;
  mse.dispose();
  const lineStarts = Array.from({ length: Math.min(400, rows - 1 - (split + h - 1)) }, (_, i) => split + h - 1 + i);
  const line = tidy(() => noGrad(() => detach(model.predict(tensor(windows(d, lineStarts, h), [lineStarts.length, h * n]), tensor(rowsAt(d.act, m, lineStarts, 0), [lineStarts.length, m])))));
  const lineValues = await line.data();
  line.dispose();
  const onestep = {
    real: Float32Array.from(lineStarts, (t) => unscale(d.obs[(t + 1) * n]!, d.obsScale, 0)),
    predicted: Float32Array.from(lineStarts, (_, i) => unscale(lineValues[i * n]!, d.obsScale, 0)),
  };

  const gains = {
    kp: Array.from(await controller.kp.data()),
    ki: Array.from(await controller.ki.data()),
    kd: Array.from(await controller.kd.data()),
    bias: Array.from(await controller.bias.data()),
  };
  const weights = await saveTensors([...model.namedParameters().map(([k, t]) => [`model.${k}`, t] as [string, Tensor]), ...controller.namedParameters().map(([k, t]) => [`controller.${k}`, t] as [string, Tensor])], {
    kind: 'decisio-feedback-trial',
    history: String(h),
    obsMean: JSON.stringify(Array.from(d.obsScale.mean)),
    obsStd: JSON.stringify(Array.from(d.obsScale.std)),
    actMean: JSON.stringify(Array.from(d.actScale.mean)),
    actStd: JSON.stringify(Array.from(d.actScale.std)),
  });
  const steps = cfg.modelSteps + cfg.controllerSteps;
  hooks.onProgress?.({ phase: 'evaluate', step: 1, total: 1, value: evaluated.controllerCost, stepsPerSecond: perSecond(steps, trainMs) });
  return {
    model,
    controller,
    data: d,
    config: cfg,
    weights,
    onestep,
    result: {
      gains,
      metrics: {
        modelMse,
        controllerCost: evaluated.controllerCost,
        loggedCost: evaluated.loggedCost,
        loggedCostReal: evaluated.loggedCostReal,
        improvement: evaluated.loggedCost > 0 ? 1 - evaluated.controllerCost / evaluated.loggedCost : 0,
        modelSteps: cfg.modelSteps,
        controllerSteps: cfg.controllerSteps,
        stepsPerSecond: perSecond(steps, trainMs),
        seconds: trainMs / 1000,
      },
      curves: { modelLoss: thin(curves.modelLoss), controllerCost: thin(curves.controllerCost) },
      comparison,
      config: { history: h, horizon: K, latent: cfg.latent },
    },
  };
}

/** Rolls the controller and the logged actions from the same windows; costs in normalised units. */
async function evaluate(model: ResponseModel, controller: PidController, d: NormalisedSeries, starts: number[], h: number, K: number) {
  const n = d.obsDim;
  const m = d.actDim;
  const [controlled, logged] = tidy(() =>
    noGrad(() => {
      const w = tensor(windows(d, starts, h), [starts.length, h * n]);
      const targets = Array.from({ length: K }, (_, k) => tensor(rowsAt(d.target, n, starts, k + 1), [starts.length, n]));
      const actions = Array.from({ length: K }, (_, k) => tensor(rowsAt(d.act, m, starts, k), [starts.length, m]));
      return [stack(rollout(model, w, targets, { controller })), stack(rollout(model, w, targets, { actions }))];
    }),
  );
  const c = await controlled!.data();
  const l = await logged!.data();
  controlled!.dispose();
  logged!.dispose();
  let cc = 0;
  let lc = 0;
  let rc = 0;
  for (let k = 0; k < K; k++) {
    for (let b = 0; b < starts.length; b++) {
      const row = starts[b]! + k + 1;
      for (let i = 0; i < n; i++) {
        const g = d.target[row * n + i]!;
        const at = (k * starts.length + b) * n + i;
        cc += (c[at]! - g) ** 2;
        lc += (l[at]! - g) ** 2;
        rc += (d.obs[row * n + i]! - g) ** 2;
      }
    }
  }
  const count = K * starts.length * n;
  return { controlled: c, logged: l, controllerCost: cc / count, loggedCost: lc / count, loggedCostReal: rc / count };
}

/** Action (real units) of the trained controller for one real observation window and set-point. */
export async function controllerAction(outcome: TrialOutcome, window: Float32Array, target: Float32Array): Promise<Float32Array> {
  const { data: d, model, controller, config } = outcome;
  const n = d.obsDim;
  const h = config.history;
  const wn = new Float32Array(h * n);
  for (let i = 0; i < wn.length; i++) wn[i] = (window[i]! - d.obsScale.mean[i % n]!) / d.obsScale.std[i % n]!;
  const gn = new Float32Array(n);
  for (let i = 0; i < n; i++) gn[i] = (target[i]! - d.obsScale.mean[i]!) / d.obsScale.std[i]!;
  const a = tidy(() => noGrad(() => detach(controller.act(model, tensor(wn, [1, h * n]), tensor(gn, [1, n])))));
  const v = await a.data();
  a.dispose();
  return Float32Array.from(v, (x, j) => x * d.actScale.std[j]! + d.actScale.mean[j]!);
}

/** Frees the networks of an outcome. */
export function disposeOutcome(o: TrialOutcome): void {
  o.model.dispose();
  o.controller.disposeAll();
}
