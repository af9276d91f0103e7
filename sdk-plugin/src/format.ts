/** Small display helpers every plugin needs the same way. */
import { isApiError } from './api';

/** Bytes as B, KB, MB, GB, TB (1024 steps; spec platform §9 shows sizes up to TB). */
export function formatBytes(bytes: number): string {
  const units = ['B', 'KB', 'MB', 'GB', 'TB'];
  let v = bytes;
  let u = 0;
  while (v >= 1024 && u < units.length - 1) {
    v /= 1024;
    u += 1;
  }
  return `${u === 0 ? v : v.toFixed(v >= 100 ? 0 : v >= 10 ? 1 : 2)} ${units[u]}`;
}

/** The message of a failed call, or null when the workbench already showed it (`handled`). */
export function failureMessage(err: unknown, fallback: string): string | null {
  if (isApiError(err)) return err.handled ? null : err.message || fallback;
  return err instanceof Error && err.message ? err.message : fallback;
}
