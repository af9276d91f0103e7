/**
 * Registers the CPU backend ('cpu') and makes it the synchronous default. The fastest matmul
 * path available is chosen at start-up (see `select-path.ts`) and logged once.
 */
import { registerBackend, setDefaultBackendFactory } from '../registry.ts';
import { CpuBackend } from './cpu-backend.ts';
import { selectMatmulPath } from './select-path.ts';
import { prepareWasmPool } from './wasm-pool.ts';

export { CpuBackend, jsMatmulPath } from './cpu-backend.ts';
export type { CpuBuffer, MatmulPath } from './cpu-backend.ts';
export { availableMatmulPaths, selectMatmulPath } from './select-path.ts';
export { prepareWasmPool } from './wasm-pool.ts';

let instance: CpuBackend | null = null;

/** The process-wide CPU backend (created on first use with the best matmul path). */
export function cpuBackend(): CpuBackend {
  instance ??= new CpuBackend(selectMatmulPath());
  return instance;
}

/**
 * Makes the CPU backend ready with its best path. Browsers (in a worker of a cross-origin
 * isolated page) should await it before the first tensor op so that the multi-threaded wasm
 * path can start its workers; elsewhere it just returns the backend.
 */
export async function prepareCpuBackend(): Promise<CpuBackend> {
  if (!instance) await prepareWasmPool();
  return cpuBackend();
}

registerBackend('cpu', () => prepareCpuBackend(), 0);
setDefaultBackendFactory(cpuBackend);
