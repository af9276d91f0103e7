/**
 * Resident operands for the wasm matmul paths: regions of linear memory remembering which host
 * array (and which write generation of it) each holds. A matmul operand whose current generation
 * is already resident is not copied again: weights at inference, weights and activations reused
 * by the backward pass, outputs consumed by the next layer.
 *
 * Each host array keeps ITS region once it has one: a stale input is copied into the same
 * region, an output is written to the region of its array. The CPU backend recycles arrays of
 * equal length through free lists, so a training loop touches the same few megabytes of linear
 * memory every step. (Before, every copy-in and output took a fresh region of a 192 MB bump
 * arena: a new backend swept through 192 MB of never-touched memory in its first ~55 training
 * steps, which page-faults at ~15 us per 4 KB page on a VM, and the steady state cycled through
 * 192 MB instead of reusing cached lines.) Regions of arrays that were garbage-collected are
 * only reclaimed when the arena fills up and starts over (everything is forgotten then).
 * Arrays never written through the backend (generation 0: a caller's own input array, which
 * may change without the backend knowing) are never resident; they are copied into staging
 * regions that every kernel reuses, so a new input array per call takes no new region.
 */
import { generationOf } from './cpu-backend.ts';

interface Entry {
  ptr: number;
  gen: number;
  /** Floats of `ptr` that hold `a[0, len)`. */
  len: number;
  /** Floats the region can hold. */
  cap: number;
}

/** Region arena over [base, base + capacity) bytes of a wasm memory. */
export class OperandCache {
  private map = new WeakMap<Float32Array, Entry>();
  private top: number;
  /** Regions handed out as inputs since the last `reserve` (the current kernel's operands). */
  private readonly inputs: number[] = [];
  /** Staging regions for generation-0 inputs, by position within a kernel. */
  private staging: { ptr: number; cap: number }[] = [];
  private staged = 0;

  constructor(
    private readonly base: number,
    private readonly capacity: number,
  ) {
    this.top = base;
  }

  /**
   * Starts a kernel: makes sure `bytes` more fit without a reset; resets (forgets everything)
   * otherwise. Every kernel calls it once before its `input`/`output` calls.
   */
  reserve(bytes: number): void {
    this.inputs.length = 0;
    this.staged = 0;
    if (this.top + bytes > this.base + this.capacity) {
      this.map = new WeakMap();
      this.top = this.base;
      this.staging = [];
    }
  }

  /** Highest byte the arena may touch after allocating `bytes` more. */
  end(bytes: number): number {
    return this.top + bytes;
  }

  /** Bytes of the arena in use (regions handed out since the last reset). */
  get used(): number {
    return this.top - this.base;
  }

  private alloc(len: number): number {
    const p = this.top;
    this.top += (len * 4 + 63) & ~63;
    return p;
  }

  /** The region of `a` when it can hold `len` floats, else a new one (recorded for `a`). */
  private region(a: Float32Array, len: number): Entry {
    const e = this.map.get(a);
    if (e && e.cap >= len) return e;
    // exactly `len`: callers reserved (and grew the memory for) the lengths they pass
    const fresh = { ptr: this.alloc(len), gen: -1, len: 0, cap: len };
    this.map.set(a, fresh);
    return fresh;
  }

  private isStaging(ptr: number): boolean {
    for (const s of this.staging) if (s.ptr === ptr) return true;
    return false;
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
    const gen = generationOf(a);
    if (gen === 0) {
      let slot = this.staging[this.staged];
      if (!slot || slot.cap < len) {
        slot = { ptr: this.alloc(len), cap: len };
        this.staging[this.staged] = slot;
      }
      this.staged++;
      mem().set(a.subarray(0, len), slot.ptr >> 2);
      this.inputs.push(slot.ptr);
      return slot.ptr;
    }
    const e0 = this.map.get(a);
    if (e0 && e0.gen === gen && e0.len === len && gen !== 0) {
      this.inputs.push(e0.ptr);
      return e0.ptr;
    }
    const e = this.region(a, len);
    mem().set(a.subarray(0, len), e.ptr >> 2);
    e.gen = gen;
    e.len = len;
    this.inputs.push(e.ptr);
    return e.ptr;
  }

  /**
   * Region for an output of `len` floats (holding `c[0, len)` first when `copyIn`, for
   * accumulation). The region of `c` is reused unless it is an input of the same kernel (an
   * in-place dispatch, e.g. `c === a`): kernels read their inputs while writing the output.
   */
  output(c: Float32Array, len: number, copyIn: boolean, mem: () => Float32Array): number {
    let e = this.map.get(c);
    if (!e || e.cap < len || this.inputs.includes(e.ptr)) {
      e = { ptr: this.alloc(len), gen: -1, len: 0, cap: len };
      this.map.set(c, e);
    }
    e.gen = -1; // not a valid copy until `remember`
    if (copyIn) mem().set(c.subarray(0, len), e.ptr >> 2);
    return e.ptr;
  }

  /**
   * Records that `c[0, len)` (current generation) now equals the region at `ptr`. A staging
   * region is never recorded (every kernel reuses it for generation-0 inputs, so its contents
   * do not stay): an in-place kernel such as Adam, whose fresh moment arrays come in staged,
   * leaves them not resident, and their next use copies them into a region of their own.
   */
  remember(c: Float32Array, ptr: number, len: number): void {
    if (this.isStaging(ptr)) {
      this.map.delete(c);
      return;
    }
    const e = this.map.get(c);
    if (e && e.ptr === ptr) {
      e.gen = generationOf(c);
      e.len = len;
    } else {
      this.map.set(c, { ptr, gen: generationOf(c), len, cap: len });
    }
  }
}
