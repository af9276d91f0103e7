/**
 * Resident operands for the wasm matmul paths: a bump arena in linear memory remembering which
 * host array (and which write generation of it) each region holds. A matmul operand whose
 * current generation is already resident is not copied again: weights at inference, weights and
 * activations reused by the backward pass, outputs consumed by the next layer.
 */
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

  /** True when the current generation of `a[0, len)` is resident (no copy needed). */
  has(a: Float32Array, len: number): boolean {
    const e = this.map.get(a);
    const gen = generationOf(a);
    return !!e && e.gen === gen && e.len === len && gen !== 0;
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
