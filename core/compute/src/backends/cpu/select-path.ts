/**
 * Chooses the CPU matmul path at start-up: native OpenBLAS (Node, addon present) > wasm SIMD
 * > wasm SIMD on a worker pool (SharedArrayBuffer + a thread that may block) > plain JS. `DECISIO_CPU_PATH`
 * (`js` | `wasm-simd` | `wasm-simd-mt` | `native-blas`) forces one (Node only).
 */
import { jsMatmulPath, type MatmulPath } from './cpu-backend.ts';

const extraPaths: (() => MatmulPath | null)[] = [];

/** @internal Fast paths register a probe here (ordered best first). */
export function registerMatmulPathProbe(probe: () => MatmulPath | null): void {
  extraPaths.push(probe);
}

/** Every matmul path that works in this process, best first (always ends with 'js'). */
export function availableMatmulPaths(): MatmulPath[] {
  const out: MatmulPath[] = [];
  for (const p of extraPaths) {
    try {
      const m = p();
      if (m) out.push(m);
    } catch {
      // probe failed: path unavailable
    }
  }
  out.push(jsMatmulPath);
  return out;
}

let logged = false;

/**
 * Picks the best (or the forced, via `DECISIO_CPU_PATH`) matmul path and logs the choice once.
 * Probes run lazily in order and stop at the first that works, so e.g. the worker pool is not
 * started when the native path is available.
 */
export function selectMatmulPath(): MatmulPath {
  const forced = typeof process !== 'undefined' ? process.env?.DECISIO_CPU_PATH : undefined;
  let chosen: MatmulPath | null = null;
  if (forced) chosen = availableMatmulPaths().find((p) => p.name === forced) ?? null;
  if (!chosen) {
    for (const probe of extraPaths) {
      try {
        chosen = probe();
      } catch {
        chosen = null;
      }
      if (chosen) break;
    }
  }
  chosen ??= jsMatmulPath;
  if (!logged && typeof process !== 'undefined' && process.env?.DECISIO_QUIET !== '1') {
    logged = true;
    console.info(`[compute] cpu matmul path: ${chosen.name}${forced ? ` (DECISIO_CPU_PATH=${forced})` : ''}`);
  }
  return chosen;
}

// Probes, best first. (The worker-pool path registers itself from wasm-pool.ts.)
import { nativeBlasPath } from './native-blas.ts';
import { wasmSimdPath } from './wasm-simd.ts';
import { wasmSimdMtPath } from './wasm-pool.ts';
registerMatmulPathProbe(nativeBlasPath);
registerMatmulPathProbe(wasmSimdMtPath);
registerMatmulPathProbe(wasmSimdPath);
