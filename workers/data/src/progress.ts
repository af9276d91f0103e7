import type { DataProgress, ProgressCallback } from './types';

/**
 * Wraps a progress callback (often a comlink proxy, so each call is a message) to report at
 * most every `intervalMs`, always passing the first report and the `done` phase. Errors of the
 * callback are ignored: progress never breaks an operation.
 */
export function throttleProgress(cb: ProgressCallback | undefined, intervalMs = 100): (p: DataProgress) => void {
  if (!cb) return () => undefined;
  let last = 0;
  let lastPhase = '';
  return (p) => {
    const now = Date.now();
    if (p.phase !== 'done' && p.phase === lastPhase && now - last < intervalMs) return;
    last = now;
    lastPhase = p.phase;
    try {
      void Promise.resolve(cb(p)).catch(() => undefined);
    } catch {
      // ignore
    }
  };
}
