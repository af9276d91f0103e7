/**
 * What the compute worker exposes through comlink (`worker.ts`). Shapes of the values are
 * defined once in `@decisio/domain` (gfs); arrays move as transferables.
 */
import type { ComputeBackendChoice, ComputeBackendPreference, GfsFileCheck, GfsTrialProgress, GfsTrialRun, GfsTrialSettings } from '@decisio/domain';

/** The series the worker keeps after a passing check, for plotting (first obs and act column). */
export interface TrialPreview {
  obs: Float32Array;
  act: Float32Array;
  target: Float32Array | null;
}

/** The compute worker's operations. One trial at a time; a new `check` drops the previous data. */
export interface ComputeWorkerApi {
  /** Chooses the backend (once per preference change); says which and why. */
  init(prefer: ComputeBackendPreference): Promise<ComputeBackendChoice>;
  /** Reads and checks a file (null = none given); keeps its series for `train` when it passes. */
  check(file: Blob | null, name?: string): Promise<{ check: GfsFileCheck; preview?: TrialPreview }>;
  /** Trains on the kept series; `onProgress` gets every step's measured value. Rejects with 'cancelled' when cancelled. */
  train(settings: GfsTrialSettings, onProgress?: (p: GfsTrialProgress) => void): Promise<GfsTrialRun>;
  /** Controller action (real units) for one observation window `[history, obsDim]` and set-point `[obsDim]`. */
  infer(window: Float32Array, target: Float32Array): Promise<Float32Array>;
  /** Stops a running `train` before its next step. */
  cancel(): void;
}
