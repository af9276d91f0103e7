import { describe, expect, it } from 'vitest';
import { throttleProgress } from './progress';
import type { DataProgress } from './types';

/** A throttled reporter on a clock the test moves by hand. */
function reporter(intervalMs = 100) {
  let t = 1_000_000;
  const seen: DataProgress[] = [];
  const report = throttleProgress((p) => void seen.push(p), intervalMs, () => t);
  return { report, seen, advance: (ms: number) => (t += ms) };
}

describe('throttleProgress', () => {
  it('passes the first report of a phase, its first fraction and done, whatever the timing', () => {
    const { report, seen } = reporter();
    report({ phase: 'scan', fraction: null });
    report({ phase: 'scan', fraction: 0.25 });
    report({ phase: 'scan', fraction: 0.5 });
    report({ phase: 'scan', fraction: 0.75 });
    report({ phase: 'done', fraction: 1 });
    expect(seen).toEqual([{ phase: 'scan', fraction: null }, { phase: 'scan', fraction: 0.25 }, { phase: 'done', fraction: 1 }]);
  });

  it('passes at most one report per interval within a phase', () => {
    const { report, seen, advance } = reporter();
    report({ phase: 'scan', fraction: 0.1 });
    advance(50);
    report({ phase: 'scan', fraction: 0.2 });
    advance(50);
    report({ phase: 'scan', fraction: 0.3 });
    advance(10);
    report({ phase: 'scan', fraction: 0.4 });
    expect(seen.map((p) => p.fraction)).toEqual([0.1, 0.3]);
  });

  it('never lets the fraction of a phase go down', () => {
    const { report, seen, advance } = reporter();
    report({ phase: 'scan', fraction: 0.6 });
    advance(200);
    report({ phase: 'scan', fraction: 0.2 });
    advance(200);
    report({ phase: 'scan', fraction: 0.7 });
    report({ phase: 'read', fraction: 0.1 });
    expect(seen.map((p) => [p.phase, p.fraction])).toEqual([['scan', 0.6], ['scan', 0.6], ['scan', 0.7], ['read', 0.1]]);
  });

  it('passes nothing after done', () => {
    const { report, seen, advance } = reporter();
    report({ phase: 'scan', fraction: 0.5 });
    report({ phase: 'done', fraction: 1 });
    advance(500);
    report({ phase: 'scan', fraction: 0.9 });
    report({ phase: 'done', fraction: 1 });
    expect(seen).toEqual([{ phase: 'scan', fraction: 0.5 }, { phase: 'done', fraction: 1 }]);
  });

  it('ignores a throwing or rejecting callback', () => {
    const boom = throttleProgress(() => {
      throw new Error('boom');
    });
    expect(() => boom({ phase: 'scan', fraction: 0.5 })).not.toThrow();
    const reject = throttleProgress(() => Promise.reject(new Error('no')) as unknown as void);
    expect(() => reject({ phase: 'scan', fraction: 0.5 })).not.toThrow();
  });
});
