/**
 * The compute worker's operations, independent of comlink so that they run in tests (Node,
 * jsdom) and in the bench page alike: `worker.ts` exposes them, adding transfer lists.
 */
import { controllerAction, disposeOutcome, runTrial, TrialCancelled, type TrialOutcome } from '@decisio/learning/feedback/trial.ts';
import type { TrialSeries } from '@decisio/learning/feedback/data.ts';
import type { ComputeBackendChoice, GfsTrialRun } from '@decisio/domain';
import type { ComputeWorkerApi, TrialPreview } from './api';
import { chooseBackend } from './backend-choice';
import { readTrialFile } from './trial-file';

/**
 * Yields to the event loop (so that a `cancel` message is handled between steps). A message on
 * a fresh channel, not `setTimeout(0)`, which browsers clamp to 4 ms once timers nest.
 */
function macrotask(): Promise<void> {
  if (typeof MessageChannel === 'undefined') return new Promise((resolve) => setTimeout(resolve, 0));
  return new Promise((resolve) => {
    const channel = new MessageChannel();
    channel.port1.onmessage = () => {
      channel.port1.close();
      resolve();
    };
    channel.port2.postMessage(0);
  });
}

function firstColumn(x: Float32Array, rows: number, dim: number): Float32Array {
  const out = new Float32Array(rows);
  for (let r = 0; r < rows; r++) out[r] = x[r * dim]!;
  return out;
}

/** Creates the worker's state and operations. */
export function createComputeOps(): ComputeWorkerApi & { series(): TrialSeries | null } {
  let choice: ComputeBackendChoice | null = null;
  let series: TrialSeries | null = null;
  let outcome: TrialOutcome | null = null;
  let cancelled = false;
  let running = false;

  const drop = () => {
    if (outcome) disposeOutcome(outcome);
    outcome = null;
  };

  return {
    series: () => series,
    async init(prefer) {
      drop();
      choice = await chooseBackend(prefer);
      return choice;
    },
    async check(file, name) {
      drop();
      series = null;
      const bytes = file ? new Uint8Array(await file.arrayBuffer()) : null;
      const read = readTrialFile(bytes ? { name: name ?? (file as File).name ?? 'file', bytes } : null);
      if (!read.series) return { check: read.check };
      series = read.series;
      const s = series;
      const preview: TrialPreview = {
        obs: firstColumn(s.obs, s.rows, s.obsDim),
        act: firstColumn(s.act, s.rows, s.actDim),
        target: s.target ? firstColumn(s.target, s.rows, s.obsDim) : null,
      };
      return { check: read.check, preview };
    },
    async train(settings, onProgress) {
      if (!series) throw new Error('no checked file: call check() first');
      if (running) throw new Error('a trial is already running');
      if (!choice) choice = await chooseBackend('auto');
      drop();
      cancelled = false;
      running = true;
      let ticks = 0;
      try {
        const encoderOnly = settings.mode === 'encoder';
        outcome = await runTrial(
          series,
          {
            ...(settings.modelSteps ? { modelSteps: settings.modelSteps } : {}),
            ...(settings.history ? { history: settings.history } : {}),
            ...(settings.horizon ? { horizon: settings.horizon } : {}),
            ...(encoderOnly ? { controllerSteps: 0 } : settings.controllerSteps ? { controllerSteps: settings.controllerSteps } : {}),
          },
          { onProgress, cancelled: () => cancelled, tick: () => (++ticks % 4 === 0 ? macrotask() : Promise.resolve()) },
        );
      } catch (e) {
        if (e instanceof TrialCancelled) throw new Error('cancelled');
        throw e;
      } finally {
        running = false;
      }
      const run: GfsTrialRun = {
        result: { ...outcome.result, backend: choice.backend, backendPath: choice.path },
        weights: outcome.weights,
        onestep: outcome.onestep,
      };
      return run;
    },
    async infer(window, target) {
      if (!outcome) throw new Error('no trained controller: run train() first');
      return controllerAction(outcome, window, target);
    },
    cancel() {
      cancelled = true;
    },
  };
}
