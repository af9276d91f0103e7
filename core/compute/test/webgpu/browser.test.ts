/**
 * The WebGPU kernel checks of `cases.ts`, run inside headless Chromium (`navigator.gpu`, on
 * SwiftShader here or a real GPU elsewhere), one vitest test per reported check. When Chromium
 * or its WebGPU adapter is missing, the reason is printed and only a test recording it exists.
 */
import { describe, expect, it } from 'vitest';
import { runInChromium } from '../browser/webgpu-harness.ts';

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
  console.warn(`[webgpu browser tests] not run: ${report.reason}`);
  it('chromium webgpu harness reports why it did not run', () => {
    expect(report.reason.length).toBeGreaterThan(0);
  });
}
