/**
 * The saved and downloaded form of a trial: the figures, curves and comparison the worker
 * measured, plus the weights (base64 of the decisio-weights v1 bytes).
 */
import type { GfsTrialRun, PidDataCreateRequest, PidResult } from '@decisio/domain';

/** Base64 of bytes (browser and Node). */
export function toBase64(bytes: Uint8Array): string {
  let s = '';
  for (let i = 0; i < bytes.length; i += 0x8000) s += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(s);
}

/** The result with its weights, as saved and downloaded. */
export function resultOf(run: GfsTrialRun): PidResult {
  return { ...run.result, weights: toBase64(run.weights) };
}

/** The `createPidData` body. */
export function createBody(name: string, fileName: string, check: { rows?: number; obsDim?: number; actDim?: number }, run: GfsTrialRun): PidDataCreateRequest {
  return { name: name.trim(), fileName: fileName.slice(0, 50), rows: check.rows ?? 0, obsDim: check.obsDim ?? 1, actDim: check.actDim ?? 1, result: resultOf(run) };
}

/** Saves a JSON file locally (no upload). */
export function downloadJson(fileName: string, value: unknown): void {
  const blob = new Blob([JSON.stringify(value, null, 1)], { type: 'application/json' });
  const url = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = url;
  a.download = fileName;
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

/** Name of the downloaded file of a trial on `fileName`. */
export function downloadName(fileName: string): string {
  return `${fileName.replace(/\.[^.]+$/, '') || 'trial'}-pid-result.json`;
}
