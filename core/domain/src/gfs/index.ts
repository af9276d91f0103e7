import { z } from 'zod';
import { pageRequestSchema } from '../admin/schemas';
import type { ErrorCodeName } from '../errors/codes';

/**
 * The feedback-control trial (spec workflow §3 "feedback-control trial", §5 "Feedback-control
 * trial file", §7 `pidData`, §8 data-quality codes 0-10).
 *
 * The browser checks a dropped npz or csv file of observation (`obs`) and action (`act`) series
 * and learns, locally, an encoder of the observation history, a response model and a PID-style
 * controller tuned inside that model. Nothing reaches the server unless the user saves the
 * result (`pidData/createPidData`) or records a download (`pidData/saveDownloadRecord`).
 */

/**
 * Data-quality statuses of a trial file (spec workflow §8 "codes 0-10"). The spec lists nine
 * meanings for the range 0-10; Decisio fixes the mapping below (8 and 9 are unused). The error
 * catalogue code of a status is `10000 + status` (`gfsFileMissing` = 10001, ...).
 */
export const GFS_QUALITY = {
  normal: 0,
  fileMissing: 1,
  readFailed: 2,
  keyMissing: 3,
  tooShort: 4,
  nanValues: 5,
  noVariation: 6,
  notNumeric: 7,
  unknown: 10,
} as const;
export type GfsQualityName = keyof typeof GFS_QUALITY;
export type GfsQualityStatus = (typeof GFS_QUALITY)[GfsQualityName];

/** The catalogue name of each failing status. */
export const GFS_QUALITY_ERRORS: Record<Exclude<GfsQualityName, 'normal'>, ErrorCodeName> = {
  fileMissing: 'gfsFileMissing',
  readFailed: 'gfsReadFailed',
  keyMissing: 'gfsKeyMissing',
  tooShort: 'gfsTooShort',
  nanValues: 'gfsNanValues',
  noVariation: 'gfsNoVariation',
  notNumeric: 'gfsNotNumeric',
  unknown: 'gfsUnknown',
};

/** Catalogue code of a status (0 for normal). */
export function gfsQualityCode(status: GfsQualityStatus): number {
  return status === 0 ? 0 : 10000 + status;
}

export const GFS_LIMITS = {
  /** Fewer rows than this are "data too short" (history window + rollout horizon + a held-out part). */
  minRows: 64,
  /** Most rows read from a file (the rest is ignored, said in the check). */
  maxRows: 200_000,
  /** Most observation or action columns. */
  maxDims: 16,
  /** Name of a saved result. */
  nameMax: 50,
  /** File name (spec workflow §9). */
  fileNameMax: 50,
  /** Points kept per saved curve or series. */
  maxPoints: 2000,
  /** Size of the saved weights (base64 characters). */
  maxWeightsChars: 4_000_000,
} as const;

/** What the check of a trial file answers (the worker's `check`). */
export interface GfsFileCheck {
  status: GfsQualityStatus;
  /** Catalogue code: `10000 + status`, 0 when normal. */
  code: number;
  /** Catalogue name of the failure, absent when normal. */
  error?: ErrorCodeName;
  /** What was found (key names, the first bad row, ...), for the message's detail. */
  detail?: string;
  fileName?: string;
  format?: 'npz' | 'csv';
  rows?: number;
  obsDim?: number;
  actDim?: number;
  /** Whether the file carried a `target` (set-point) series; else the median of obs is the target. */
  hasTarget?: boolean;
}

const id = z.string().regex(/^[0-9a-f]{32}$/, 'validation.invalid');
const finite = z.number().finite();
const series = z.array(finite).max(GFS_LIMITS.maxPoints);

const gainMatrix = z.array(finite).min(1).max(GFS_LIMITS.maxDims * GFS_LIMITS.maxDims);
/**
 * Tuned gains of the PID-style controller: `kp`, `ki`, `kd` are `[obsDim, actDim]` row-major
 * (normalised units: action = mid + half * tanh(e·kp + i·ki + d·kd + bias)), `bias` is `[actDim]`.
 */
export const pidGainsSchema = z.object({
  kp: gainMatrix,
  ki: gainMatrix,
  kd: gainMatrix,
  bias: z.array(finite).min(1).max(GFS_LIMITS.maxDims),
});
export type PidGains = z.infer<typeof pidGainsSchema>;

/** Measured figures of a trial (all from the run, none assumed). */
export const pidMetricsSchema = z.object({
  /** Held-out one-step MSE of the response model (normalised units). */
  modelMse: finite,
  /** Tracking cost (mean squared error to target, normalised) of the learned controller in the model. */
  controllerCost: finite,
  /** Same cost of the logged actions replayed in the model from the same histories. */
  loggedCost: finite,
  /** Same cost of the logged actions on the real recorded observations. */
  loggedCostReal: finite,
  /** `1 - controllerCost / loggedCost`. */
  improvement: finite,
  modelSteps: z.number().int().min(0),
  controllerSteps: z.number().int().min(0),
  stepsPerSecond: finite,
  seconds: finite,
});
export type PidMetrics = z.infer<typeof pidMetricsSchema>;

/** A trial's result as saved (`createPidData`) and downloaded. */
export const pidResultSchema = z.object({
  backend: z.enum(['webgpu', 'cpu']),
  backendPath: z.string().max(100),
  gains: pidGainsSchema,
  metrics: pidMetricsSchema,
  curves: z.object({ modelLoss: series, controllerCost: series }),
  comparison: z.object({ target: series, real: series, logged: series, controller: series }),
  config: z.object({ history: z.number().int().min(1).max(64), horizon: z.number().int().min(1).max(256), latent: z.number().int().min(1).max(64) }),
  /** Encoder + response model weights, decisio-weights format v1, base64. */
  weights: z.string().max(GFS_LIMITS.maxWeightsChars).optional(),
});
export type PidResult = z.infer<typeof pidResultSchema>;

const name = z.string({ message: 'validation.required' }).trim().min(1, 'validation.required').max(GFS_LIMITS.nameMax, 'validation.tooLong');
const fileName = z.string().trim().min(1, 'validation.required').max(GFS_LIMITS.fileNameMax, 'validation.tooLong');

/** `pidData/createPidData`: saves a trial's result (the file itself is never sent). */
export const pidDataCreateSchema = z.object({
  name,
  fileName,
  rows: z.number().int().min(GFS_LIMITS.minRows).max(GFS_LIMITS.maxRows),
  obsDim: z.number().int().min(1).max(GFS_LIMITS.maxDims),
  actDim: z.number().int().min(1).max(GFS_LIMITS.maxDims),
  result: pidResultSchema,
});
export type PidDataCreateRequest = z.input<typeof pidDataCreateSchema>;

/** `pidData/getPidDataList`: the caller's saved results, newest first. */
export const pidDataListSchema = pageRequestSchema.extend({ keyword: z.string().trim().max(GFS_LIMITS.nameMax).optional() });
export type PidDataListRequest = z.input<typeof pidDataListSchema>;

/** `pidData/getPidResult`. */
export const pidDataIdSchema = z.object({ id });
export type PidDataIdRequest = z.input<typeof pidDataIdSchema>;

/** `pidData/saveDownloadRecord`: notes that the user downloaded a result (its figures only, not the file). */
export const pidDownloadRecordSchema = z.object({
  pidDataId: id.optional(),
  fileName,
  kind: z.enum(['result', 'weights']),
  improvement: finite.optional(),
});
export type PidDownloadRecordRequest = z.input<typeof pidDownloadRecordSchema>;

/** A row of `getPidDataList`. */
export interface PidDataListItem {
  id: string;
  name: string;
  fileName: string;
  rows: number;
  obsDim: number;
  actDim: number;
  backend: 'webgpu' | 'cpu';
  improvement: number;
  controllerCost: number;
  loggedCost: number;
  createdAt: string;
}

/** `getPidResult`. */
export interface PidDataDetail extends PidDataListItem {
  result: PidResult;
}

/** Why the compute worker runs where it runs (shown to the user, translated by the plugin). */
export type ComputeBackendReason =
  /** A hardware WebGPU adapter exists. */
  | 'gpuAdapter'
  /** The user asked for WebGPU and got it (possibly a software adapter). */
  | 'forcedWebgpu'
  /** The user asked for the CPU path. */
  | 'forcedCpu'
  /** The browser has no `navigator.gpu`. */
  | 'noWebgpuApi'
  /** `requestAdapter()` gave no adapter. */
  | 'noAdapter'
  /** Only a software adapter (SwiftShader): slower than the CPU path, so not chosen by itself. */
  | 'softwareAdapter'
  /** WebGPU started but failed; the CPU path took over. */
  | 'webgpuFailed';

/** The compute worker's backend choice. */
export interface ComputeBackendChoice {
  backend: 'webgpu' | 'cpu';
  /** `wgsl`, or the CPU path (`wasm-simd-mt`, `wasm-simd`, `js`). */
  path: string;
  reason: ComputeBackendReason;
  /** Adapter description when one was seen. */
  adapter?: string;
  /** Technical detail of the reason (error text), untranslated. */
  detail?: string;
}

/** What the worker asks of the user when starting: `auto` picks WebGPU only on a hardware adapter. */
export type ComputeBackendPreference = 'auto' | 'webgpu' | 'cpu';

/** One progress report of a trial (every step; real measured values). */
export interface GfsTrialProgress {
  phase: 'model' | 'controller' | 'evaluate';
  step: number;
  total: number;
  /** Model phase: one-step MSE of the batch; controller phase: tracking cost of the batch. */
  value: number;
  stepsPerSecond: number;
}

/** Settings the user may change (the rest are the trial's defaults). */
export interface GfsTrialSettings {
  modelSteps?: number;
  controllerSteps?: number;
  history?: number;
  horizon?: number;
  /** `encoder` learns the encoder and response model only (the public encoder page). */
  mode?: 'full' | 'encoder';
}

/** A finished trial as the worker hands it back; `weights` moves as a transferable. */
export interface GfsTrialRun {
  result: Omit<PidResult, 'weights'>;
  /** decisio-weights v1 bytes of encoder, response model and controller. */
  weights: Uint8Array;
  /** One-step predictions of the model on held-out rows (obs dimension 0), real units, with the real values. */
  onestep: { real: Float32Array; predicted: Float32Array };
}
