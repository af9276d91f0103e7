/**
 * Picks where the compute core runs in this worker, and says why (shown to the user):
 * WebGPU on a hardware adapter; the CPU path (WebAssembly SIMD, threaded where the page is
 * cross-origin isolated, else single-thread or plain JS) when there is no `navigator.gpu`, no
 * adapter, only a software adapter (SwiftShader is slower than the CPU path, so `auto` does not
 * take it), or WebGPU failed. `webgpu` takes any adapter, software included; `cpu` skips WebGPU.
 */
import { getBackend, prepareCpuBackend, setBackend, useBackendInstance } from '@decisio/compute';
import { acquireGpu } from '@decisio/compute/backends/webgpu/device.ts';
import { WebGPUBackend } from '@decisio/compute/backends/webgpu/webgpu-backend.ts';
import type { ComputeBackendChoice, ComputeBackendPreference, ComputeBackendReason } from '@decisio/domain';

let gpuBackend: WebGPUBackend | null = null;

async function cpu(reason: ComputeBackendReason, extra: { adapter?: string; detail?: string } = {}): Promise<ComputeBackendChoice> {
  await prepareCpuBackend();
  await setBackend('cpu');
  return { backend: 'cpu', path: getBackend().capabilities.path, reason, ...extra };
}

/** Activates the backend for `prefer` and answers the choice. Never throws. */
export async function chooseBackend(prefer: ComputeBackendPreference): Promise<ComputeBackendChoice> {
  if (prefer === 'cpu') return cpu('forcedCpu');
  if (!(globalThis.navigator as { gpu?: unknown } | undefined)?.gpu) return cpu('noWebgpuApi');
  if (gpuBackend) {
    useBackendInstance(gpuBackend);
    return { backend: 'webgpu', path: gpuBackend.capabilities.path, reason: prefer === 'webgpu' ? 'forcedWebgpu' : 'gpuAdapter', adapter: describe(gpuBackend.adapter) };
  }
  const got = await acquireGpu({ allowFallbackAdapter: true });
  if (!got.ok) return cpu('noAdapter', { detail: got.reason });
  const adapter = describe(got.info);
  if (got.info.isFallbackAdapter && prefer === 'auto') {
    got.device.destroy();
    return cpu('softwareAdapter', { adapter });
  }
  try {
    gpuBackend = new WebGPUBackend(got.device, got.info);
    useBackendInstance(gpuBackend);
    return { backend: 'webgpu', path: gpuBackend.capabilities.path, reason: prefer === 'webgpu' ? 'forcedWebgpu' : 'gpuAdapter', adapter };
  } catch (e) {
    gpuBackend = null;
    return cpu('webgpuFailed', { adapter, detail: e instanceof Error ? e.message : String(e) });
  }
}

function describe(info: { description: string; architecture: string; vendor: string; isFallbackAdapter: boolean }): string {
  const text = [info.vendor, info.architecture, info.description].filter(Boolean).join(' ') || 'unnamed adapter';
  return info.isFallbackAdapter ? `${text} (software)` : text;
}
