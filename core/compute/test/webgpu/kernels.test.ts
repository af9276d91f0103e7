/**
 * WebGPU kernel checks in Node: Dawn (`webgpu` package) on whatever Vulkan adapter exists,
 * SwiftShader included (its ICD is discovered by `acquireGpu`). Without an adapter the reason is
 * printed and no kernel tests are registered (one test records the reason).
 */
import { afterAll, describe, expect, it } from 'vitest';
import { createWebGPUBackend, type WebGPUBackend } from '../../src/backends/webgpu/webgpu-backend.ts';
import { KERNEL_CASES } from './cases.ts';

let backend: WebGPUBackend | null = null;
let other: WebGPUBackend | null = null;
let reason = '';
try {
  backend = await createWebGPUBackend({ allowFallbackAdapter: true });
  // Both matmul kernel families are checked whatever the adapter: the other one runs here too.
  other = await createWebGPUBackend({
    allowFallbackAdapter: true,
    matmulVariant: backend.matmulVariant === 'tiled' ? 'direct' : 'tiled',
  });
} catch (err) {
  reason = err instanceof Error ? err.message : String(err);
  console.warn(`[webgpu tests] no WebGPU adapter, kernel checks not registered: ${reason}`);
}

if (backend && other) {
  const be = backend;
  const alt = other;
  describe(`webgpu kernels on ${be.adapter.description || be.adapter.architecture} (matmul ${be.matmulVariant})`, () => {
    afterAll(() => {
      expect(be.runtime.errors).toEqual([]);
      expect(alt.runtime.errors).toEqual([]);
      be.dispose();
      alt.dispose();
    });
    for (const c of KERNEL_CASES) {
      it(c.name, async () => {
        const r = await c.run(be);
        expect(be.runtime.errors).toEqual([]);
        expect(r.ok, r.detail).toBe(true);
      });
      if (/matmul|linear/.test(c.name)) {
        it(`${c.name} [matmul ${alt.matmulVariant}]`, async () => {
          const r = await c.run(alt);
          expect(alt.runtime.errors).toEqual([]);
          expect(r.ok, r.detail).toBe(true);
        });
      }
    }
  });
} else {
  it('webgpu backend reports why it is unavailable', () => {
    expect(reason).toMatch(/webgpu unavailable/);
  });
}
