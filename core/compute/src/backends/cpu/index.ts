/**
 * Registers the CPU backend ('cpu') and makes it the synchronous default. The fastest matmul
 * path available is chosen at start-up (see `select-path.ts`) and logged once.
 */
import { registerBackend, setDefaultBackendFactory } from '../registry.ts';
import { CpuBackend } from './cpu-backend.ts';
import { selectMatmulPath } from './select-path.ts';

export { CpuBackend, jsMatmulPath } from './cpu-backend.ts';
export type { CpuBuffer, MatmulPath } from './cpu-backend.ts';
export { availableMatmulPaths, selectMatmulPath } from './select-path.ts';

let instance: CpuBackend | null = null;

/** The process-wide CPU backend (created on first use with the best matmul path). */
export function cpuBackend(): CpuBackend {
  instance ??= new CpuBackend(selectMatmulPath());
  return instance;
}

registerBackend('cpu', () => cpuBackend(), 0);
setDefaultBackendFactory(cpuBackend);
