/**
 * Browser entry of the WebGPU kernel checks: bundled by `webgpu-harness.ts` and loaded into a
 * page served from 127.0.0.1. Exposes `window.runWebGPUKernelChecks()`.
 */
import { createWebGPUBackend } from '../../src/backends/webgpu/webgpu-backend.ts';
import { runAllCases, type CaseResult } from '../webgpu/cases.ts';

/** What the page reports back to the test. */
export type BrowserReport =
  | { ok: true; adapter: string; fallback: boolean; results: Array<{ name: string } & CaseResult>; errors: string[] }
  | { ok: false; reason: string };

async function runWebGPUKernelChecks(): Promise<BrowserReport> {
  let be;
  try {
    be = await createWebGPUBackend({ allowFallbackAdapter: true });
  } catch (err) {
    return { ok: false, reason: err instanceof Error ? err.message : String(err) };
  }
  const results = await runAllCases(be);
  const errors = [...be.runtime.errors];
  const adapter = be.adapter.description || be.adapter.architecture || be.adapter.vendor;
  be.dispose();
  return { ok: true, adapter, fallback: be.adapter.isFallbackAdapter, results, errors };
}

(globalThis as { runWebGPUKernelChecks?: typeof runWebGPUKernelChecks }).runWebGPUKernelChecks = runWebGPUKernelChecks;
