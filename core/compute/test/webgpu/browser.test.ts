/**
 * The WebGPU kernel checks of `cases.ts`, run inside headless Chromium (`navigator.gpu`, on
 * SwiftShader here or a real GPU elsewhere), one vitest test per reported check. When Chromium
 * or its WebGPU adapter is missing, one skipped test carries the reason (also recorded for the
 * summary of `npm test`).
 */
import { describe, expect, it } from 'vitest';
import { recordSkip, runInChromium } from '../browser/webgpu-harness.ts';

const report = await runInChromium();

if (report.ok) {
  describe(`webgpu kernels in Chromium on ${report.adapter}`, () => {
    it('no WebGPU validation errors or page errors', () => {
      expect(report.errors).toEqual([]);
    });
    for (const r of report.results) {
      it(r.name, () => {
        expect(r.ok, r.detail).toBe(true);
      });
    }
  });
} else {
  // Skipped, not passed: the reason goes to npm test's summary.
  recordSkip(import.meta.url, 'Chromium WebGPU', report.reason);
  it.skipIf(true)(`webgpu kernels in Chromium (not run: ${report.reason})`, () => undefined);
}
