/**
 * Streaming statistics of numeric columns for npz/h5 arrays: count, missing (NaN), min, max,
 * mean and distinct values (exact up to {@link EXACT_DISTINCT_LIMIT} values per column, less
 * for arrays wider than 64 columns, then a HyperLogLog estimate with about 0.8 % standard error).
 */
import type { ArrayHead, ColumnKind, ColumnStats } from './types';

/** Distinct values counted exactly (per column) before switching to HyperLogLog. */
export const EXACT_DISTINCT_LIMIT = 65_536;
/** Exact distinct values kept over all columns of one array (bounds memory for wide arrays). */
export const EXACT_DISTINCT_BUDGET = 4_194_304;
/** HyperLogLog precision: 2^14 registers (about 0.8 % standard error). */
export const HLL_P = 14;
const HLL_M = 1 << HLL_P;

/** The HyperLogLog estimate of `registers` (a power of two of them), small-range corrected. */
export function hllEstimate(registers: Uint8Array): number {
  const m = registers.length;
  let z = 0;
  let zeros = 0;
  for (let j = 0; j < m; j += 1) {
    z += 2 ** -registers[j]!;
    if (registers[j] === 0) zeros += 1;
  }
  const alpha = 0.7213 / (1 + 1.079 / m);
  let e = (alpha * m * m) / z;
  if (e <= 2.5 * m && zeros > 0) e = m * Math.log(m / zeros);
  return Math.round(e);
}

const f64 = new Float64Array(1);
const u32 = new Uint32Array(f64.buffer);

/** 32-bit hash of a number's float64 bits (murmur3 finaliser mix). */
export function hashNumber(x: number): number {
  f64[0] = x === 0 ? 0 : x; // -0 and 0 are one value
  let h = Math.imul(u32[0]! ^ 0x9e3779b9, 0x85ebca6b) ^ u32[1]!;
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}

/** Accumulates statistics of one numeric column. */
export class NumericAccumulator {
  count = 0;
  nan = 0;
  min = Number.POSITIVE_INFINITY;
  max = Number.NEGATIVE_INFINITY;
  private sum = 0;
  private comp = 0;
  private exact: Set<number> | null = new Set();
  private registers: Uint8Array | null = null;

  constructor(readonly name: string, readonly kind: ColumnKind, private readonly exactLimit = EXACT_DISTINCT_LIMIT) {}

  /** Adds one value; NaN counts as missing. */
  add(x: number): void {
    if (Number.isNaN(x)) {
      this.nan += 1;
      return;
    }
    this.count += 1;
    if (x < this.min) this.min = x;
    if (x > this.max) this.max = x;
    const y = x - this.comp; // Kahan summation
    const t = this.sum + y;
    this.comp = t - this.sum - y;
    this.sum = t;
    if (this.exact) {
      this.exact.add(x === 0 ? 0 : x);
      if (this.exact.size > this.exactLimit) {
        this.registers = new Uint8Array(HLL_M);
        for (const v of this.exact) this.hll(v);
        this.exact = null;
      }
    } else {
      this.hll(x);
    }
  }

  private hll(x: number): void {
    const h = hashNumber(x);
    const j = h >>> (32 - HLL_P);
    const w = (h << HLL_P) >>> 0;
    const rank = w === 0 ? 32 - HLL_P + 1 : Math.clz32(w) + 1;
    if (rank > this.registers![j]!) this.registers![j] = rank;
  }

  /** Distinct values: exact, or a HyperLogLog estimate. */
  distinct(): { value: number; approx: boolean } {
    if (this.exact) return { value: this.exact.size, approx: false };
    return { value: hllEstimate(this.registers!), approx: true };
  }

  /** The statistics so far. */
  result(): ColumnStats {
    const d = this.distinct();
    const any = this.count > 0;
    return {
      name: this.name,
      kind: this.kind,
      count: this.count,
      nulls: this.nan,
      nan: this.nan,
      min: any ? this.min : null,
      max: any ? this.max : null,
      mean: any ? this.sum / this.count : null,
      distinct: d.value,
      distinctApprox: d.approx,
    };
  }
}

/** Column kind of a numpy-style dtype. */
export function kindOfDtype(dtype: string): ColumnKind {
  if (dtype.startsWith('float')) return 'float';
  if (dtype === 'bool') return 'boolean';
  if (/^u?int/.test(dtype)) return 'integer';
  return 'string';
}

/**
 * Statistics per column of a 2-D array fed in row-major chunks (1-D arrays are one column,
 * higher ranks are flattened to `[N, prod(rest)]`). Columns are named `name[j]`.
 */
export class ArrayStats {
  readonly columns: NumericAccumulator[];
  private element = 0;
  readonly width: number;

  constructor(readonly name: string, dtype: string, shape: readonly number[]) {
    this.width = shape.length <= 1 ? 1 : shape.slice(1).reduce((a, b) => a * b, 1);
    const kind = kindOfDtype(dtype);
    const limit = Math.max(1024, Math.min(EXACT_DISTINCT_LIMIT, Math.floor(EXACT_DISTINCT_BUDGET / this.width)));
    this.columns = Array.from({ length: this.width }, (_, j) => new NumericAccumulator(shape.length <= 1 ? name : `${name}[${j}]`, kind, limit));
  }

  /** Adds the next elements in row-major order. */
  push(data: ArrayHead['data']): void {
    const w = this.width;
    const cols = this.columns;
    let j = this.element % w;
    if (data instanceof BigInt64Array || data instanceof BigUint64Array) {
      for (let i = 0; i < data.length; i += 1) {
        cols[j]!.add(Number(data[i]!));
        j = j + 1 === w ? 0 : j + 1;
      }
    } else {
      for (let i = 0; i < data.length; i += 1) {
        cols[j]!.add(data[i]!);
        j = j + 1 === w ? 0 : j + 1;
      }
    }
    this.element += data.length;
  }

  /**
   * Adds elements whose column is given by `columnOf(flatIndex)` (for column-major data),
   * `start` being the flat index of `data[0]`.
   */
  pushMapped(data: ArrayHead['data'], start: number, columnOf: (flat: number) => number): void {
    const big = data instanceof BigInt64Array || data instanceof BigUint64Array;
    for (let i = 0; i < data.length; i += 1) {
      const v = big ? Number((data as BigInt64Array)[i]!) : (data as Float64Array)[i]!;
      this.columns[columnOf(start + i)]!.add(v);
    }
    this.element += data.length;
  }

  /** Statistics of every column. */
  result(): ColumnStats[] {
    return this.columns.map((c) => c.result());
  }
}
