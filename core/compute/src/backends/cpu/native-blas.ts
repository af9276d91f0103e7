/**
 * Native OpenBLAS matmul path (Node only): loads `native/build/Release/decisio_blas.node` when
 * `scripts/build-native.mjs` managed to build it. Loading uses `process.getBuiltinModule`, so
 * browser bundles never see a Node import. Returns null when unavailable.
 */
import type { MatmulKernel } from '../backend.ts';
import type { MatmulPath } from './cpu-backend.ts';
import { activationGradJs } from './js-kernels.ts';
import { residentKernels, type ResidentKernels, type ResidentMemory } from './wasm-elementwise.ts';
import { WasmGemm, wasmSimdSupported } from './wasm-simd.ts';

interface NativeAddon {
  matmul(
    a: Float32Array, b: Float32Array, bias: Float32Array | null, c: Float32Array,
    batch: number, m: number, n: number, k: number, transA: number, transB: number,
    aStride: number, bStride: number, biasStride: number, act: number, alpha: number, accumulate: number,
  ): void;
  setThreads(n: number): void;
  getThreads(): number;
  adam(p: Float32Array, g: Float32Array, m: Float32Array, v: Float32Array, lr: number, b1: number, b2: number, eps: number, wd: number, decoupled: number, bc1: number, bc2: number, gradScale: number): void;
  activationGrad(dy: Float32Array, y: Float32Array, dx: Float32Array, n: number, act: number, alpha: number): void;
  sumRows(x: Float32Array, rows: number, cols: number, out: Float32Array): void;
  /** Absent in addons built before it. */
  coreName?(): string;
}

const ACT = { none: 0, relu: 1, 'leaky-relu': 2, tanh: 3, sigmoid: 4, silu: 5 } as const;

let cached: NativeAddon | null | undefined;
/** OpenBLAS threads configured for the process (the addon's count outside small products). */
let threadsNow = 1;

/**
 * Products of at most this many multiply-adds run on ONE OpenBLAS thread. Waking the second
 * thread for a batch-1 or batch-32 layer (<= 2.1 M multiply-adds in the reference MLP) costs
 * more than it saves, and OpenBLAS's pthread build keeps woken threads spinning: measured on the
 * 2-core bench machine, a batch-1 forward pass of the 32-256-256-256-16 MLP took 50-60 us wall
 * and ~190 us of CPU per call with 2 threads, against ~10 us on one.
 */
export const SINGLE_THREAD_MACS = 1 << 22;
/** The limit in effect: `DECISIO_BLAS_SINGLE_THREAD_MACS` (0 = never) or SINGLE_THREAD_MACS. */
let singleThreadMacs = SINGLE_THREAD_MACS;

/** Loads the addon once; null when not built / not Node. */
export function loadNativeAddon(): NativeAddon | null {
  if (cached !== undefined) return cached;
  cached = null;
  try {
    const proc = (globalThis as { process?: { getBuiltinModule?: (n: string) => unknown; versions?: { node?: string }; env?: Record<string, string | undefined> } }).process;
    if (!proc?.versions?.node || !proc.getBuiltinModule || proc.env?.DECISIO_NO_NATIVE === '1') return null;
    const mod = proc.getBuiltinModule('node:module') as { createRequire(u: string): (id: string) => unknown };
    const url = proc.getBuiltinModule('node:url') as { fileURLToPath(u: string): string };
    const path = proc.getBuiltinModule('node:path') as { join(...p: string[]): string; dirname(p: string): string };
    const fs = proc.getBuiltinModule('node:fs') as { existsSync(p: string): boolean };
    const here = path.dirname(url.fileURLToPath(import.meta.url));
    const file = path.join(here, '..', '..', '..', 'native', 'build', 'Release', 'decisio_blas.node');
    if (!fs.existsSync(file)) return null;
    const req = mod.createRequire(import.meta.url);
    cached = req(file) as NativeAddon;
    // One BLAS thread per core (callers may change it with setNativeThreads).
    const os = proc.getBuiltinModule('node:os') as { availableParallelism?: () => number; cpus(): unknown[] };
    const cores = os.availableParallelism ? os.availableParallelism() : os.cpus().length;
    threadsNow = Math.max(1, Number(proc.env?.DECISIO_BLAS_THREADS ?? cores));
    const single = proc.env?.DECISIO_BLAS_SINGLE_THREAD_MACS;
    if (single !== undefined && single !== '' && Number.isFinite(Number(single))) singleThreadMacs = Math.max(0, Number(single));
    cached.setThreads(threadsNow);
  } catch {
    cached = null;
  }
  return cached;
}

/** Sets OpenBLAS's thread count (no-op without the addon). */
export function setNativeThreads(n: number): void {
  const addon = loadNativeAddon();
  if (!addon) return;
  threadsNow = Math.max(1, n);
  addon.setThreads(threadsNow);
}

/** OpenBLAS's thread count (1 without the addon). */
export function getNativeThreads(): number {
  return loadNativeAddon() ? threadsNow : 1;
}

/**
 * The kernel set OpenBLAS picked for this CPU (`'Haswell'`, `'SkylakeX'`, `'Cooperlake'`, ...;
 * `OPENBLAS_CORETYPE` overrides it), or null without the addon. Trainings on the native path
 * round differently from one kernel set to another, so a seed reproduces a run only on the
 * same set: benchmarks report it.
 */
export function nativeBlasCore(): string | null {
  const addon = loadNativeAddon();
  return addon && typeof addon.coreName === 'function' ? addon.coreName() || null : null;
}

/**
 * The native matmul path, or null when the addon is unavailable. Elementwise, softmax and
 * layer-norm kernels run in wasm SIMD (a private single-thread instance; operands are copied
 * in and out, which still beats TypeScript loops on transcendental ops); Adam, activation
 * gradients and bias sums run in the addon's C on the host arrays.
 */
export function nativeBlasPath(options: { elementwise?: boolean } = {}): MatmulPath | null {
  const addon = loadNativeAddon();
  if (!addon) return null;
  let wasm: ResidentKernels | null = null;
  if (options.elementwise !== false && wasmSimdSupported()) {
    let r: ResidentMemory | null = null;
    wasm = residentKernels(() => (r ??= new WasmGemm().resident()));
  }
  return {
    name: 'native-blas',
    matmul(k: MatmulKernel, a, b, bias, c) {
      const small = threadsNow > 1 && k.batch * k.m * k.n * k.k <= singleThreadMacs;
      if (small) addon.setThreads(1);
      try {
        addon.matmul(a, b, bias, c, k.batch, k.m, k.n, k.k, k.transA ? 1 : 0, k.transB ? 1 : 0, k.aBatchStride, k.bBatchStride, k.biasBatchStride, ACT[k.activation], k.alpha, k.accumulate ? 1 : 0);
      } finally {
        if (small) addon.setThreads(threadsNow);
      }
    },
    ...(typeof addon.adam === 'function'
      ? {
          adam(k, p, g, m, v) {
            addon.adam(p.subarray(0, k.size), g, m, v, k.lr, k.beta1, k.beta2, k.eps, k.weightDecay, k.decoupled ? 1 : 0, k.bc1, k.bc2, k.gradScale);
          },
          activationGrad(k, dy, y, dx) {
            // The addon has no silu gradient (it needs the pre-activation): wasm SIMD, else JS.
            if (k.activation === 'silu') {
              if (wasm) wasm.activationGrad(k, dy, y, dx);
              else activationGradJs(k, dy, y, dx);
            }
            else addon.activationGrad(dy, y, dx, k.size, ACT[k.activation], k.alpha);
          },
          sumRows(x, rows, cols, out) {
            addon.sumRows(x, rows, cols, out);
          },
        }
      : {}),
    ...(wasm
      ? {
          unary: wasm.unary,
          unaryGrad: wasm.unaryGrad,
          binary: wasm.binary,
          softmax: wasm.softmax,
          layerNorm: wasm.layerNorm,
          layerNormGrad: wasm.layerNormGrad,
        }
      : {}),
  };
}
