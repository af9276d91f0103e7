/**
 * Resident operands for the wasm matmul paths: a bump arena in linear memory remembering which
 * host array (and which write generation of it) each region holds. A matmul operand whose
 * current generation is already resident is not copied again: weights at inference, weights and
 * activations reused by the backward pass, outputs consumed by the next layer.
 */
import type { ActivationGradKernel, AdamKernel } from '../backend.ts';
import { generationOf } from './cpu-backend.ts';

interface Entry {
  ptr: number;
  gen: number;
  len: number;
}

/** Bump arena over [base, base + capacity) bytes of a wasm memory. */
export class OperandCache {
  private map = new WeakMap<Float32Array, Entry>();
  private top: number;

  constructor(
    private readonly base: number,
    private readonly capacity: number,
  ) {
    this.top = base;
  }

  /** Makes sure `bytes` more fit without a reset; resets (forgets everything) otherwise. */
  reserve(bytes: number): void {
    if (this.top + bytes > this.base + this.capacity) {
      this.map = new WeakMap();
      this.top = this.base;
    }
  }

  /** Highest byte the arena may touch after allocating `bytes` more. */
  end(bytes: number): number {
    return this.top + bytes;
  }

  private alloc(len: number): number {
    const p = this.top;
    this.top += (len * 4 + 63) & ~63;
    return p;
  }

  /**
   * Byte pointer of a resident copy of `a[0, len)`, copying it in (through `mem`, a float view
   * of the whole memory obtained AFTER any growth) when absent or stale.
   */
  input(a: Float32Array, len: number, mem: () => Float32Array): number {
    const e = this.map.get(a);
    const gen = generationOf(a);
    if (e && e.gen === gen && e.len === len && gen !== 0) return e.ptr;
    const ptr = this.alloc(len);
    mem().set(a.subarray(0, len), ptr >> 2);
    this.map.set(a, { ptr, gen, len });
    return ptr;
  }

  /** Region for an output of `len` floats (copied in first when `copyIn`, for accumulation). */
  output(c: Float32Array, len: number, copyIn: boolean, mem: () => Float32Array): number {
    const ptr = this.alloc(len);
    if (copyIn) mem().set(c.subarray(0, len), ptr >> 2);
    return ptr;
  }

  /** Records that `c[0, len)` (current generation) now equals the region at `ptr`. */
  remember(c: Float32Array, ptr: number, len: number): void {
    this.map.set(c, { ptr, gen: generationOf(c), len });
  }
}

/** Exports of the wasm module used by {@link residentElementwise}. */
export interface ElementwiseExports {
  act_grad(dy: number, y: number, dx: number, n: number, act: number, alpha: number): void;
  adam(p: number, g: number, m: number, v: number, n: number, lr: number, b1: number, b2: number, eps: number, l2: number, dw: number, ibc1: number, ibc2: number, gs: number): void;
  sum_rows(x: number, rows: number, cols: number, out: number): void;
}

/** Access to a wasm instance with resident operands. */
export interface ResidentMemory {
  cache: OperandCache;
  ex: ElementwiseExports;
  /** Makes room for `bytes` more in the arena (may reset it and grow memory). */
  ensure(bytes: number): void;
  /** Float view of the whole memory (refreshed after growth). */
  mem(): Float32Array;
}

const ACT_CODE: Record<string, number> = { none: 0, relu: 1, 'leaky-relu': 2, tanh: 3, sigmoid: 4 };

/**
 * Backward/optimizer elementwise kernels in wasm SIMD on resident operands (a matmul output
 * consumed here, or an output of here consumed by the next matmul, is not copied again).
 */
export function residentElementwise(get: () => ResidentMemory): {
  adam(k: AdamKernel, p: Float32Array, g: Float32Array, m: Float32Array, v: Float32Array): void;
  activationGrad(k: ActivationGradKernel, dy: Float32Array, y: Float32Array, dx: Float32Array): void;
  sumRows(x: Float32Array, rows: number, cols: number, out: Float32Array): void;
} {
  const back = (r: ResidentMemory, host: Float32Array, ptr: number, n: number) => {
    host.set(r.mem().subarray(ptr >> 2, (ptr >> 2) + n));
    r.cache.remember(host, ptr, n);
  };
  return {
    adam(k, p, g, m, v) {
      const r = get();
      const n = k.size;
      r.ensure(n * 16 + 512);
      const mem = () => r.mem();
      const pp = r.cache.input(p, n, mem), pg = r.cache.input(g, n, mem), pm = r.cache.input(m, n, mem), pv = r.cache.input(v, n, mem);
      const l2 = k.decoupled ? 0 : k.weightDecay;
      const dw = k.decoupled ? k.weightDecay : 0;
      r.ex.adam(pp, pg, pm, pv, n, k.lr, k.beta1, k.beta2, k.eps, l2, dw, 1 / k.bc1, 1 / k.bc2, k.gradScale);
      back(r, p, pp, n);
      back(r, m, pm, n);
      back(r, v, pv, n);
    },
    activationGrad(k, dy, y, dx) {
      const r = get();
      const n = k.size;
      r.ensure(n * 12 + 512);
      const mem = () => r.mem();
      const pdy = r.cache.input(dy, n, mem), py = r.cache.input(y, n, mem), pdx = r.cache.output(dx, n, false, mem);
      r.ex.act_grad(pdy, py, pdx, n, ACT_CODE[k.activation] ?? 0, k.alpha);
      back(r, dx, pdx, n);
    },
    sumRows(x, rows, cols, out) {
      const r = get();
      r.ensure((rows * cols + cols) * 4 + 512);
      const mem = () => r.mem();
      const px = r.cache.input(x, rows * cols, mem), po = r.cache.output(out, cols, false, mem);
      r.ex.sum_rows(px, rows, cols, po);
      back(r, out, po, cols);
    },
  };
}
