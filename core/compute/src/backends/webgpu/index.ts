/**
 * WebGPU backend of the compute core: public entry points.
 *
 * `registerWebGPUBackend()` registers a lazy factory under the name 'webgpu'; nothing WebGPU
 * related (Dawn in Node, adapters) loads until the registry instantiates it.
 */
import { registerBackend } from '../registry.ts';
import type { WebGPUBackendOptions } from './webgpu-backend.ts';

export { acquireGpu, findSwiftShaderIcd, SWIFTSHADER_ICD_CANDIDATES } from './device.ts';
export type { GpuAcquireOptions, GpuAcquired, GpuAdapterSummary, GpuUnavailable } from './device.ts';
export { WebGPUBackend, WebGPUBuffer, createWebGPUBackend } from './webgpu-backend.ts';
export type { WebGPUBackendOptions } from './webgpu-backend.ts';

/** Default registry priority of 'webgpu' (above 'cpu' so that `setBackend('auto')` prefers a GPU). */
export const WEBGPU_PRIORITY = 10;

function fallbackFromEnv(): boolean {
  const p = (globalThis as { process?: { env?: Record<string, string | undefined> } }).process;
  const v = p?.env?.DECISIO_WEBGPU_ALLOW_FALLBACK;
  return v === '1' || v === 'true';
}

/**
 * Registers the WebGPU backend factory with the backend registry under 'webgpu'.
 *
 * Software fallback adapters (SwiftShader) are refused unless `options.allowFallbackAdapter` is
 * true or the environment variable `DECISIO_WEBGPU_ALLOW_FALLBACK=1` is set: they are correct
 * but much slower than the CPU backend, so `setBackend('auto')` must not pick them. Test suites
 * that want to exercise the WGSL kernels anyway pass `{ allowFallbackAdapter: true }`.
 */
export function registerWebGPUBackend(options: WebGPUBackendOptions = {}, priority = WEBGPU_PRIORITY): void {
  const opts: WebGPUBackendOptions = { allowFallbackAdapter: fallbackFromEnv(), ...options };
  registerBackend(
    'webgpu',
    async () => (await import('./webgpu-backend.ts')).createWebGPUBackend(opts),
    priority,
  );
}
