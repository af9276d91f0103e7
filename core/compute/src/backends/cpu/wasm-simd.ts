/**
 * WebAssembly SIMD matmul path. Operands are copied into the module's linear memory (O(n^2)
 * against O(n^3) work), `sgemm_cols` runs the cache-blocked 4x8 kernel with the bias and
 * relu/leaky-relu/tanh/sigmoid epilogue, and the result is copied back. The same module runs
 * the elementwise kernels (`wasm-elementwise.ts`) on the resident operands.
 * The module is instantiated synchronously from the embedded base64 (works in Node and in
 * workers; `initWasmSimd()` compiles asynchronously for browser main threads).
 */
import type { MatmulKernel } from '../backend.ts';
import type { MatmulPath } from './cpu-backend.ts';
import { applyActivation } from './js-kernels.ts';
import { OperandCache } from './operand-cache.ts';
import { residentKernels, type ElementwiseExports, type ResidentMemory } from './wasm-elementwise.ts';
import { GEMM_WASM_BASE64 } from './wasm-binary.generated.ts';

/** Exports of the gemm module. */
export interface GemmExports extends ElementwiseExports {
  sgemm_cols(m: number, n: number, k: number, a: number, transA: number, b: number, transB: number, c: number, bias: number, act: number, alpha: number, accumulate: number, n0: number, n1: number, scratch: number): void;
  scratch_floats(): number;
  __heap_base: WebAssembly.Global;
}

/** Decodes base64 in Node and browsers. */
export function decodeBase64(s: string): Uint8Array {
  const g = globalThis as { Buffer?: { from(s: string, e: string): Uint8Array }; atob?: (s: string) => string };
  if (g.Buffer) return new Uint8Array(g.Buffer.from(s, 'base64'));
  const bin = g.atob!(s);
  const out = new Uint8Array(bin.length);
  for (let i = 0; i < bin.length; i++) out[i] = bin.charCodeAt(i);
  return out;
}

/** True when the engine validates wasm SIMD. */
export function wasmSimdSupported(): boolean {
  try {
    return typeof WebAssembly === 'object' && WebAssembly.validate(decodeBase64(GEMM_WASM_BASE64) as unknown as BufferSource);
  } catch {
    return false;
  }
}

let compiled: WebAssembly.Module | null = null;

/** Compiles the module asynchronously (call before first use on a browser main thread). */
export async function initWasmSimd(): Promise<void> {
  compiled ??= await WebAssembly.compile(decodeBase64(GEMM_WASM_BASE64) as unknown as BufferSource);
}

/** Epilogues the gemm kernel applies itself (silu is applied by the caller). */
export const ACT_WASM: Record<string, number> = { none: 0, relu: 1, 'leaky-relu': 2, tanh: 3, sigmoid: 4 };

/** A single-threaded wasm gemm instance with its own growable memory. */
export class WasmGemm {
  readonly memory: WebAssembly.Memory;
  readonly ex: GemmExports;
  private readonly heapBase: number;
  private readonly scratchBytes: number;
  private f32: Float32Array;

  constructor() {
    compiled ??= new WebAssembly.Module(decodeBase64(GEMM_WASM_BASE64) as unknown as BufferSource);
    this.memory = new WebAssembly.Memory({ initial: 64, maximum: 32768 });
    const inst = new WebAssembly.Instance(compiled, { env: { memory: this.memory } });
    this.ex = inst.exports as unknown as GemmExports;
    this.heapBase = (Number(this.ex.__heap_base.value) + 63) & ~63;
    this.scratchBytes = this.ex.scratch_floats() * 4;
    this.f32 = new Float32Array(this.memory.buffer);
  }

  /** Ensures `bytes` of working space after the heap base; returns the float view. */
  reserve(bytes: number): Float32Array {
    const need = this.heapBase + bytes;
    const have = this.memory.buffer.byteLength;
    if (need > have) this.memory.grow(Math.max(Math.ceil((need - have) / 65536), Math.min(Math.ceil(have / 65536), 32768 - Math.ceil(have / 65536))));
    if (this.f32.buffer !== this.memory.buffer) this.f32 = new Float32Array(this.memory.buffer);
    return this.f32;
  }

  private cache: OperandCache | null = null;

  /** Resident-memory view for the elementwise kernels. */
  resident(): ResidentMemory {
    this.cache ??= new OperandCache(this.heapBase + this.scratchBytes, CACHE_BYTES);
    const cache = this.cache;
    return {
      cache,
      ex: this.ex,
      ensure: (bytes) => {
        cache.reserve(bytes);
        this.reserve(cache.end(bytes) - this.heapBase);
      },
      mem: () => this.reserve(0),
    };
  }

  /** Runs a MatmulKernel on host arrays (operands cached resident across calls). */
  matmul(k: MatmulKernel, a: Float32Array, b: Float32Array, bias: Float32Array | null, c: Float32Array): void {
    const { batch, m, n } = k;
    const kk = k.k;
    const aLen = k.aBatchStride ? batch * m * kk : m * kk;
    const bLen = k.bBatchStride ? batch * kk * n : kk * n;
    const biasLen = bias ? (k.biasBatchStride ? batch * n : n) : 0;
    const cLen = batch * m * n;
    const scratch = this.heapBase;
    this.cache ??= new OperandCache(this.heapBase + this.scratchBytes, CACHE_BYTES);
    const cache = this.cache;
    const need = ((aLen + bLen + biasLen + cLen) * 4) + 4 * 64;
    cache.reserve(need);
    this.reserve(cache.end(need) - this.heapBase);
    const mem = () => this.reserve(0);
    const pa = cache.input(a, aLen, mem);
    const pb = cache.input(b, bLen, mem);
    const pbias = bias ? cache.input(bias, biasLen, mem) : 0;
    const pc = cache.output(c, cLen, k.accumulate, mem);
    const actW = ACT_WASM[k.activation] ?? 0;
    for (let bi = 0; bi < batch; bi++) {
      this.ex.sgemm_cols(
        m, n, kk,
        pa + bi * k.aBatchStride * 4, k.transA ? 1 : 0,
        pb + bi * k.bBatchStride * 4, k.transB ? 1 : 0,
        pc + bi * m * n * 4,
        bias ? pbias + bi * k.biasBatchStride * 4 : 0,
        actW, k.alpha, k.accumulate ? 1 : 0, 0, n, scratch,
      );
    }
    if (actW === 0 && k.activation !== 'none') {
      // Epilogue in JS: apply on the host copy; the resident copy is pre-activation, so forget it.
      c.set(mem().subarray(pc >> 2, (pc >> 2) + cLen));
      applyActivation(k.activation, k.alpha, c, 0, cLen);
    } else {
      c.set(mem().subarray(pc >> 2, (pc >> 2) + cLen));
      cache.remember(c, pc, cLen);
    }
  }
}

/** Bytes of linear memory used to keep operands resident (the arena resets when full). */
export const CACHE_BYTES = 192 * 1024 * 1024;

/** The single-threaded wasm SIMD path, or null when wasm SIMD is unavailable. */
export function wasmSimdPath(options: { elementwise?: boolean } = {}): MatmulPath | null {
  if (!wasmSimdSupported()) return null;
  const g = new WasmGemm();
  const r = g.resident();
  if (options.elementwise === false) {
    // Matmul + the optimizer/backward kernels only (elementwise ops in TypeScript): the state
    // before the elementwise kernels moved to wasm, kept for benchmarks.
    const { adam, adamBumps, activationGrad, sumRows } = residentKernels(() => r);
    return { name: 'wasm-simd', matmul: (k, a, b, bias, c) => g.matmul(k, a, b, bias, c), adam, adamBumps, activationGrad, sumRows };
  }
  return { name: 'wasm-simd', matmul: (k, a, b, bias, c) => g.matmul(k, a, b, bias, c), ...residentKernels(() => r) };
}
