import type { DataProgress, ProgressCallback } from './types';

/**
 * Wraps a progress callback (often a comlink proxy, so each call is a message) to report at
 * most every `intervalMs` per phase. The contract does not depend on timing: the first report
 * of a phase, the first one of a phase that carries a fraction, and the `done` phase always
 * pass; within a phase the fractions passed never go down (a lower one, as an engine may
 * report when it moves to another part of a query, is raised to the highest so far); nothing
 * passes after `done`, so the last report is always `done` (a late report of a parallel part
 * cannot follow it). Errors
 * of the callback are ignored: progress never breaks an operation. `now` is for tests.
 */
export function throttleProgress(cb: ProgressCallback | undefined, intervalMs = 100, now: () => number = Date.now): (p: DataProgress) => void {
  if (!cb) return () => undefined;
  let last = 0;
  let lastPhase = '';
  let fractionSeen = false;
  let highest = 0;
  let finished = false;
  return (p) => {
    if (finished) return;
    finished = p.phase === 'done';
    const t = now();
    const newPhase = p.phase !== lastPhase;
    if (newPhase) {
      fractionSeen = false;
      highest = 0;
    }
    const firstFraction = p.fraction !== null && !fractionSeen;
    if (p.phase !== 'done' && !newPhase && !firstFraction && t - last < intervalMs) return;
    last = t;
    lastPhase = p.phase;
    let out = p;
    if (p.fraction !== null) {
      fractionSeen = true;
      if (p.fraction < highest) out = { ...p, fraction: highest };
      highest = out.fraction!;
    }
    try {
      void Promise.resolve(cb(out)).catch(() => undefined);
    } catch {
      // ignore
    }
  };
}
