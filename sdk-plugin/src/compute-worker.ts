/**
 * The compute worker (`workers/compute`: the compute core on WebGPU or the WebAssembly/CPU path,
 * for browser-side quick trials such as the feedback-control trial) as an SDK service, so that
 * plugins neither construct the worker from its source URL nor depend on the workers' package.
 * The values it answers are defined once in `@decisio/domain` (gfs).
 *
 * {@link browserComputeWorkers} starts a module worker that Vite bundles with the app; tests
 * (jsdom has no `Worker`) provide a stand-in under {@link computeWorkerServiceRef}.
 */
import { proxy, releaseProxy, wrap } from 'comlink';
import type { ComputeBackendChoice, ComputeBackendPreference, GfsFileCheck, GfsTrialProgress, GfsTrialRun, GfsTrialSettings } from '@decisio/domain';
import { createServiceRef } from './services';

export type { ComputeBackendChoice, ComputeBackendPreference, ComputeBackendReason, GfsFileCheck, GfsTrialProgress, GfsTrialRun, GfsTrialSettings } from '@decisio/domain';

/** First obs/act column of a checked file (and its set-point), for plotting. */
export interface ComputeTrialPreview {
  obs: Float32Array;
  act: Float32Array;
  target: Float32Array | null;
}

/** One running compute worker. Call `dispose` when done (stops a running trial too). */
export interface ComputeWorkerSession {
  /** Chooses the backend; says which and why. */
  init(prefer: ComputeBackendPreference): Promise<ComputeBackendChoice>;
  /** Checks a trial file (null: none given); the worker keeps the series when it passes. */
  check(file: File | null): Promise<{ check: GfsFileCheck; preview?: ComputeTrialPreview }>;
  /** Trains on the checked series; rejects with `Error('cancelled')` after `cancel`. */
  train(settings: GfsTrialSettings, onProgress?: (p: GfsTrialProgress) => void): Promise<GfsTrialRun>;
  /** Controller action for one window `[history, obsDim]` and set-point. */
  infer(window: Float32Array, target: Float32Array): Promise<Float32Array>;
  cancel(): Promise<void>;
  dispose(): void;
}

/** Starts compute workers. */
export interface ComputeWorkerService {
  open(): ComputeWorkerSession;
}

/** Reference of the compute-worker service (`useOptionalService` / `ctx.services`). */
export const computeWorkerServiceRef = createServiceRef<ComputeWorkerService>('workbench.compute-worker');

/** The worker's side as seen through comlink (its `ComputeWorkerApi`). */
interface RemoteComputeWorker {
  init(prefer: ComputeBackendPreference): Promise<ComputeBackendChoice>;
  check(file: Blob | null, name?: string): Promise<{ check: GfsFileCheck; preview?: ComputeTrialPreview }>;
  train(settings: GfsTrialSettings, onProgress?: (p: GfsTrialProgress) => void): Promise<GfsTrialRun>;
  infer(window: Float32Array, target: Float32Array): Promise<Float32Array>;
  cancel(): void;
}

/** The compute worker of the browser app: a module worker bundled by Vite, spoken to through comlink. */
export const browserComputeWorkers: ComputeWorkerService = {
  open() {
    const worker = new Worker(new URL('../../workers/compute/src/worker.ts', import.meta.url), { type: 'module', name: 'decisio-compute' });
    const remote = wrap<RemoteComputeWorker>(worker);
    return {
      init: (prefer) => remote.init(prefer),
      check: (file) => remote.check(file, file?.name),
      train: (settings, onProgress) => remote.train(settings, onProgress ? proxy(onProgress) : undefined),
      infer: (window, target) => remote.infer(window, target),
      cancel: () => remote.cancel(),
      dispose() {
        remote[releaseProxy]();
        worker.terminate();
      },
    };
  },
};
