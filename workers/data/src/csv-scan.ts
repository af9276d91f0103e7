/**
 * Column statistics of a csv in one pass over its raw bytes, without DuckDB: the fast path of
 * `stats` for large files. DuckDB-WASM parses csv at about 40 MB/s on one thread (its threaded
 * build cannot read local files), 30 s and more for 1 GB; this scanner reads the bytes
 * directly (no strings for numbers, `indexOf` for quoted fields) and several of them run at once
 * over byte ranges of the file (`csv-scan-parallel.ts`).
 *
 * Column types are DuckDB's (its sniffer on the head of the file), so the results mean what the
 * DuckDB path's mean: RFC 4180 fields (comma, `"` quotes doubled inside quotes), CRLF/LF/CR
 * line ends, blank lines skipped, the missing-value spellings of {@link SCAN_NULLS} as NULL,
 * `NaN` counted apart in float columns, min/max/mean over numbers (NaN excluded), byte order
 * (DuckDB's) for the min and max of text. A value that does not fit its column's type, a row of
 * another width or an unclosed quote is a {@link CsvScanError} (DuckDB fails on them too).
 * Distinct counts are HyperLogLog estimates (2^12 registers: about 1.6 % standard error, and
 * small enough to stay in the CPU's first-level cache; mergeable across ranges). DuckDB's own
 * `approx_count_distinct` is far coarser (errors of 10-25 % were seen).
 * Dates and timestamps are compared as text and must be ISO (`YYYY-MM-DD`, `YYYY-MM-DD
 * HH:MM[:SS[.fff]]`, `T` allowed); another layout throws {@link CsvScanUnsupported} so that the
 * caller can use DuckDB instead.
 */
import { hllEstimate } from './column-stats';
import type { ColumnKind, ColumnStats } from './types';

const COMMA = 0x2c;
const QUOTE = 0x22;
const LF = 0x0a;
const CR = 0x0d;
/** HyperLogLog precision of the scan. */
const HLL_P = 12;
const HLL_M = 1 << HLL_P;

/** Missing-value spellings read as NULL (those of DuckDB's `nullstr` in the DuckDB path). */
export const SCAN_NULLS = ['', 'NA', 'N/A', 'na', 'n/a', 'null', 'NULL', 'Null', 'None'] as const;
const NULL_BYTES = SCAN_NULLS.filter((t) => t !== '').map((t) => Uint8Array.from(t, (c) => c.charCodeAt(0)));

/** A value or row the scan cannot take (the file is malformed for its sniffed types). */
export class CsvScanError extends Error {
  constructor(message: string, readonly row: number) {
    super(message);
    this.name = 'CsvScanError';
  }
}

/** The file needs DuckDB's reading (e.g. dates in a non-ISO layout). */
export class CsvScanUnsupported extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'CsvScanUnsupported';
  }
}

/** A column to scan: its name and kind (from DuckDB's type). */
export interface ScanColumn {
  name: string;
  kind: ColumnKind;
}

/** Mergeable statistics of one column over a part of the file (structured-cloneable). */
export interface ColumnPartial {
  /** Values that are not NULL (NaN included). */
  nonNull: number;
  nan: number;
  /** Numbers: min/max/sum over non-NaN values; booleans: sum = number of trues. */
  min: number;
  max: number;
  sum: number;
  /** Text, dates, timestamps: smallest and largest value's bytes. */
  textMin: Uint8Array | null;
  textMax: Uint8Array | null;
  /** HyperLogLog registers. */
  registers: Uint8Array;
}

/** Result of scanning a byte range. */
export interface RangePartial {
  rows: number;
  columns: ColumnPartial[];
}

/** Bytes that end an unquoted field. */
const ENDS_FIELD = new Uint8Array(256);
ENDS_FIELD[COMMA] = 1;
ENDS_FIELD[LF] = 1;
ENDS_FIELD[CR] = 1;

const POW10 = [1, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22];
const latin1 = new TextDecoder('latin1');
const utf8 = new TextDecoder('utf-8');

/** Compares bytes `[s, e)` of `buf` with `b` in byte order. */
function compareBytes(buf: Uint8Array, s: number, e: number, b: Uint8Array): number {
  const n = Math.min(e - s, b.length);
  for (let i = 0; i < n; i += 1) {
    const d = buf[s + i]! - b[i]!;
    if (d !== 0) return d;
  }
  return e - s - b.length;
}

/** Byte order of two byte strings. */
export function compareByteStrings(a: Uint8Array, b: Uint8Array): number {
  return compareBytes(a, 0, a.length, b);
}

/*
 * Hashes are signed 32-bit integers (`| 0`), which V8 keeps unboxed; an unsigned result
 * (`>>> 0`) above 2^31 would be a heap number per value.
 */

/** Mixes the bits of a 32-bit hash (murmur3's finaliser; HLL uses the high bits). */
function mix(h: number): number {
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  return (h ^ (h >>> 16)) | 0;
}

/** 32-bit hash of bytes (FNV-1a, mixed). */
function hashBytes(buf: Uint8Array, s: number, e: number): number {
  let h = 0x811c9dc5 | 0;
  for (let i = s; i < e; i += 1) h = Math.imul(h ^ buf[i]!, 0x01000193);
  return mix(h);
}

const f64 = new Float64Array(1);
const u32 = new Int32Array(f64.buffer);

/** 32-bit hash of a number's float64 bits (-0 and 0 are one value). */
function hashNumber(x: number): number {
  f64[0] = x === 0 ? 0 : x;
  return mix(Math.imul(u32[0]! ^ 0x9e3779b9, 0x85ebca6b) ^ u32[1]!);
}

function hllAdd(registers: Uint8Array, h: number): void {
  const j = h >>> (32 - HLL_P);
  const w = h << HLL_P;
  const rank = w === 0 ? 32 - HLL_P + 1 : Math.clz32(w) + 1;
  if (rank > registers[j]!) registers[j] = rank;
}

function isDigit(c: number): boolean {
  return c >= 0x30 && c <= 0x39;
}

/** Whether `[s, e)` is one of the NULL spellings (the empty one is checked by the caller). */
function isNullToken(buf: Uint8Array, s: number, e: number): boolean {
  const n = e - s;
  // Every spelling starts with N or n and has at most 4 letters.
  if (n > 4 || (buf[s] !== 0x4e && buf[s] !== 0x6e)) return false;
  for (const t of NULL_BYTES) {
    if (t.length !== n) continue;
    let same = true;
    for (let i = 0; i < n; i += 1) {
      if (buf[s + i] !== t[i]) {
        same = false;
        break;
      }
    }
    if (same) return true;
  }
  return false;
}

/** The value parsed by {@link parseNumber} (a slot: returning doubles would box them). */
const parsed = new Float64Array(1);
/** {@link parseNumber}'s results: not a number, an integer, a number with fraction/exponent (or nan/inf). */
const NOT_A_NUMBER = 0;
const INTEGRAL = 1;
const FRACTIONAL = 2;

/**
 * Parses a decimal number (sign, digits, fraction, exponent) of `[s, e)`. Exact (one IEEE
 * operation on exact operands) for up to 15 significant digits and exponents within 22, else
 * through `Number()`. `nan`/`inf`/`infinity` in any case, with a sign. Surrounding spaces are
 * allowed. The value goes to `parsed[0]`; returns {@link NOT_A_NUMBER}, {@link INTEGRAL} or
 * {@link FRACTIONAL}.
 */
function parseNumber(buf: Uint8Array, s: number, e: number): number {
  let kind = INTEGRAL;
  while (s < e && buf[s] === 0x20) s += 1;
  while (e > s && buf[e - 1] === 0x20) e -= 1;
  let i = s;
  let neg = false;
  if (buf[i] === 0x2d || buf[i] === 0x2b) {
    neg = buf[i] === 0x2d;
    i += 1;
  }
  let mant = 0;
  let sig = 0;
  let exp10 = 0;
  let digits = 0;
  while (i < e && isDigit(buf[i]!)) {
    const d = buf[i]! - 0x30;
    if (sig > 0 || d !== 0) {
      sig += 1;
      mant = mant * 10 + d;
    }
    digits += 1;
    i += 1;
  }
  if (i < e && buf[i] === 0x2e) {
    kind = FRACTIONAL;
    i += 1;
    while (i < e && isDigit(buf[i]!)) {
      const d = buf[i]! - 0x30;
      if (sig > 0 || d !== 0) {
        sig += 1;
        mant = mant * 10 + d;
      }
      exp10 -= 1;
      digits += 1;
      i += 1;
    }
  }
  if (digits === 0) {
    // nan, inf, infinity (DuckDB's spellings), any case.
    const word = latin1.decode(buf.subarray(i, e)).toLowerCase();
    if (word === 'nan') parsed[0] = Number.NaN;
    else if (word === 'inf' || word === 'infinity') parsed[0] = neg ? -Infinity : Infinity;
    else return NOT_A_NUMBER;
    return FRACTIONAL;
  }
  if (i < e && (buf[i] === 0x65 || buf[i] === 0x45)) {
    kind = FRACTIONAL;
    i += 1;
    let eneg = false;
    if (buf[i] === 0x2d || buf[i] === 0x2b) {
      eneg = buf[i] === 0x2d;
      i += 1;
    }
    let ex = 0;
    let edigits = 0;
    while (i < e && isDigit(buf[i]!)) {
      ex = ex * 10 + (buf[i]! - 0x30);
      edigits += 1;
      i += 1;
    }
    if (edigits === 0) return NOT_A_NUMBER;
    exp10 += eneg ? -ex : ex;
  }
  if (i !== e) return NOT_A_NUMBER;
  let v: number;
  if (sig <= 15 && exp10 >= -22 && exp10 <= 22) v = exp10 < 0 ? mant / POW10[-exp10]! : mant * POW10[exp10]!;
  else v = Math.abs(Number(latin1.decode(buf.subarray(s, e))));
  parsed[0] = neg ? -v : v;
  return kind;
}

/** DuckDB's boolean spellings (any case, spaces around): 1 = true, 0 = false, -1 = not a boolean. */
function parseBoolean(buf: Uint8Array, s: number, e: number): number {
  while (s < e && buf[s] === 0x20) s += 1;
  while (e > s && buf[e - 1] === 0x20) e -= 1;
  const n = e - s;
  const c = buf[s]! | 0x20; // lower case
  if (n === 4 && c === 0x74 && (buf[s + 1]! | 0x20) === 0x72 && (buf[s + 2]! | 0x20) === 0x75 && (buf[s + 3]! | 0x20) === 0x65) return 1;
  if (n === 5 && c === 0x66 && (buf[s + 1]! | 0x20) === 0x61 && (buf[s + 2]! | 0x20) === 0x6c && (buf[s + 3]! | 0x20) === 0x73 && (buf[s + 4]! | 0x20) === 0x65) return 0;
  if (n === 1) {
    if (c === 0x74 || c === 0x79 || buf[s] === 0x31) return 1; // t, y, 1
    if (c === 0x66 || c === 0x6e || buf[s] === 0x30) return 0; // f, n, 0
  }
  if (n === 3 && c === 0x79 && (buf[s + 1]! | 0x20) === 0x65 && (buf[s + 2]! | 0x20) === 0x73) return 1;
  if (n === 2 && c === 0x6e && (buf[s + 1]! | 0x20) === 0x6f) return 0;
  return -1;
}

/** ISO date `YYYY-MM-DD` (with `time`: and an optional ` HH:MM[:SS[.f...]]`, `T` allowed, a zone). */
function isIsoDate(buf: Uint8Array, s: number, e: number, time: boolean): boolean {
  if (e - s < 10) return false;
  for (let i = 0; i < 10; i += 1) {
    const c = buf[s + i]!;
    if (i === 4 || i === 7 ? c !== 0x2d : !isDigit(c)) return false;
  }
  if (e - s === 10) return true;
  if (!time) return false;
  const sep = buf[s + 10];
  if (sep !== 0x20 && sep !== 0x54) return false;
  // HH:MM then anything made of digits, ':', '.', '+', '-', 'Z' (seconds, fractions, zone).
  if (e - s < 16 || !isDigit(buf[s + 11]!) || !isDigit(buf[s + 12]!) || buf[s + 13] !== 0x3a) return false;
  for (let i = s + 14; i < e; i += 1) {
    const c = buf[i]!;
    if (!isDigit(c) && c !== 0x3a && c !== 0x2e && c !== 0x2b && c !== 0x2d && c !== 0x5a) return false;
  }
  return true;
}

const enum Kind {
  Int,
  Float,
  Bool,
  Text,
  Date,
  Timestamp,
}

function kindOf(k: ColumnKind): Kind {
  switch (k) {
    case 'integer':
      return Kind.Int;
    case 'float':
      return Kind.Float;
    case 'boolean':
      return Kind.Bool;
    case 'date':
      return Kind.Date;
    case 'timestamp':
      return Kind.Timestamp;
    default:
      return Kind.Text;
  }
}

/** An empty partial. */
export function emptyPartial(): ColumnPartial {
  return { nonNull: 0, nan: 0, min: Infinity, max: -Infinity, sum: 0, textMin: null, textMax: null, registers: new Uint8Array(HLL_M) };
}

/**
 * Scans csv bytes record by record, keeping statistics per column. Feed it consecutive buffers
 * with {@link CsvStatsScanner.scan}; it stops at a record that is not complete in the buffer
 * (the caller passes the rest again with the next bytes) or at the first record starting at or
 * after `stopAt`.
 */
export class CsvStatsScanner {
  rows = 0;
  readonly partials: ColumnPartial[];
  private readonly kinds: Kind[];
  private readonly width: number;
  private readonly fs: Int32Array;
  private readonly fe: Int32Array;
  private readonly fq: Uint8Array;
  private scratch = new Uint8Array(1024);
  private headerPending: boolean;

  /** `skipHeader`: the bytes start with the header record (the start of the file). */
  constructor(readonly columns: readonly ScanColumn[], options: { skipHeader: boolean; firstRow?: number }) {
    this.width = columns.length;
    this.kinds = columns.map((c) => kindOf(c.kind));
    this.partials = columns.map(() => emptyPartial());
    this.fs = new Int32Array(this.width + 1);
    this.fe = new Int32Array(this.width + 1);
    this.fq = new Uint8Array(this.width + 1);
    this.headerPending = options.skipHeader;
    this.firstRow = options.firstRow ?? 0;
  }

  private readonly firstRow: number;

  /**
   * Scans the complete records of `buf` from `from`. `final`: `buf` ends at the end of the
   * file (the last record needs no line end). Records starting at or after `stopAt` are left.
   * Returns the offset after the last record taken, and whether it stopped at `stopAt`.
   */
  scan(buf: Uint8Array, from: number, final: boolean, stopAt = Infinity): { next: number; stopped: boolean } {
    const n = buf.length;
    const width = this.width;
    const fs = this.fs;
    const fe = this.fe;
    const fq = this.fq;
    let i = from;
    // A UTF-8 BOM before the header.
    if (this.headerPending && i === 0 && n >= 3 && buf[0] === 0xef && buf[1] === 0xbb && buf[2] === 0xbf) i = 3;
    for (;;) {
      if (i >= stopAt) return { next: i, stopped: true };
      if (i >= n) return { next: i, stopped: false };
      const recordStart = i;
      let c = buf[i]!;
      // Blank lines.
      if (c === LF) {
        i += 1;
        continue;
      }
      if (c === CR) {
        i += 1;
        if (i < n && buf[i] === LF) i += 1;
        continue;
      }
      let col = 0;
      let complete = false;
      for (;;) {
        let s: number;
        let e: number;
        let quoted = 0;
        if (i < n && buf[i] === QUOTE) {
          quoted = 1;
          i += 1;
          s = i;
          for (;;) {
            const q = buf.indexOf(QUOTE, i);
            if (q < 0) {
              if (final) throw new CsvScanError('unterminated quoted field', this.firstRow + this.rows + 1);
              return { next: recordStart, stopped: false };
            }
            if (q + 1 < n && buf[q + 1] === QUOTE) {
              quoted = 2; // doubled quotes inside
              i = q + 2;
              continue;
            }
            if (q + 1 >= n && !final) return { next: recordStart, stopped: false };
            e = q;
            i = q + 1;
            break;
          }
        } else {
          s = i;
          while (i < n && ENDS_FIELD[buf[i]!] === 0) i += 1;
          e = i;
          if (i >= n && !final) return { next: recordStart, stopped: false };
        }
        if (col < width) {
          fs[col] = s;
          fe[col] = e;
          fq[col] = quoted;
        }
        col += 1;
        if (i >= n) {
          complete = true;
          break;
        }
        c = buf[i]!;
        if (c === COMMA) {
          i += 1;
          continue;
        }
        if (c === LF) {
          i += 1;
          complete = true;
          break;
        }
        if (c === CR) {
          i += 1;
          if (i < n && buf[i] === LF) i += 1;
          complete = true;
          break;
        }
        throw new CsvScanError('unexpected character after a closing quote', this.firstRow + this.rows + 1);
      }
      if (!complete) return { next: recordStart, stopped: false };
      if (this.headerPending) {
        this.headerPending = false;
        continue;
      }
      if (col !== width) throw new CsvScanError(`row has ${col} fields, the header ${width}`, this.firstRow + this.rows + 1);
      for (let k = 0; k < width; k += 1) this.take(k, buf, fs[k]!, fe[k]!, fq[k]!);
      this.rows += 1;
    }
  }

  /** Adds one field to its column. */
  private take(k: number, buf: Uint8Array, s: number, e: number, quoted: number): void {
    const p = this.partials[k]!;
    if (quoted === 2) {
      // Undouble the quotes into the scratch buffer.
      if (this.scratch.length < e - s) this.scratch = new Uint8Array(2 * (e - s));
      const out = this.scratch;
      let o = 0;
      for (let i = s; i < e; i += 1) {
        out[o++] = buf[i]!;
        if (buf[i] === QUOTE) i += 1;
      }
      buf = out;
      s = 0;
      e = o;
    }
    if (e === s || isNullToken(buf, s, e)) return;
    p.nonNull += 1;
    switch (this.kinds[k]) {
      case Kind.Float:
      case Kind.Int: {
        const r = parseNumber(buf, s, e);
        if (r === NOT_A_NUMBER || (r === FRACTIONAL && this.kinds[k] === Kind.Int)) this.misfit(k, buf, s, e);
        const x = parsed[0]!;
        if (x !== x) {
          p.nan += 1;
          return;
        }
        if (x < p.min) p.min = x;
        if (x > p.max) p.max = x;
        p.sum += x;
        hllAdd(p.registers, hashNumber(x));
        return;
      }
      case Kind.Bool: {
        const b = parseBoolean(buf, s, e);
        if (b < 0) this.misfit(k, buf, s, e);
        p.sum += b;
        if (b < p.min) p.min = b;
        if (b > p.max) p.max = b;
        p.registers[b] = 1; // two values at most: counted exactly, see result()
        return;
      }
      default: {
        // Dates and timestamps are compared as text (ISO only).
        const kind = this.kinds[k];
        if ((kind === Kind.Date || kind === Kind.Timestamp) && !isIsoDate(buf, s, e, kind === Kind.Timestamp)) {
          throw new CsvScanUnsupported(`column "${this.columns[k]!.name}": "${utf8.decode(buf.subarray(s, e))}" is not an ISO date`);
        }
        // Most values differ from the min and max in their first byte.
        const lo = p.textMin;
        const hi = p.textMax;
        const b0 = buf[s]!;
        if (lo === null || b0 < lo[0]! || (b0 === lo[0] && compareBytes(buf, s, e, lo) < 0)) p.textMin = buf.slice(s, e);
        if (hi === null || b0 > hi[0]! || (b0 === hi[0] && compareBytes(buf, s, e, hi) > 0)) p.textMax = buf.slice(s, e);
        hllAdd(p.registers, hashBytes(buf, s, e));
      }
    }
  }

  private misfit(k: number, buf: Uint8Array, s: number, e: number): never {
    const c = this.columns[k]!;
    throw new CsvScanError(`could not convert "${utf8.decode(buf.subarray(s, e))}" of column "${c.name}" to ${c.kind}`, this.firstRow + this.rows + 1);
  }
}

/** Merges `b` into `a`. */
export function mergePartial(a: ColumnPartial, b: ColumnPartial): void {
  a.nonNull += b.nonNull;
  a.nan += b.nan;
  a.min = Math.min(a.min, b.min);
  a.max = Math.max(a.max, b.max);
  a.sum += b.sum;
  if (b.textMin && (!a.textMin || compareByteStrings(b.textMin, a.textMin) < 0)) a.textMin = b.textMin;
  if (b.textMax && (!a.textMax || compareByteStrings(b.textMax, a.textMax) > 0)) a.textMax = b.textMax;
  for (let j = 0; j < a.registers.length; j += 1) if (b.registers[j]! > a.registers[j]!) a.registers[j] = b.registers[j]!;
}

/** The statistics of a column from its (merged) partial and the file's row count. */
export function columnStatsOf(column: ScanColumn, p: ColumnPartial, rows: number): ColumnStats {
  const k = kindOf(column.kind);
  const values = p.nonNull - p.nan;
  const numeric = k === Kind.Int || k === Kind.Float;
  let min: number | string | null = null;
  let max: number | string | null = null;
  let mean: number | null = null;
  let distinct: number;
  let approx = true;
  if (numeric || k === Kind.Bool) {
    if (values > 0 && p.min <= p.max) {
      min = k === Kind.Bool ? String(p.min === 1) : p.min;
      max = k === Kind.Bool ? String(p.max === 1) : p.max;
      mean = p.sum / values;
    }
    if (k === Kind.Bool) {
      distinct = p.registers[0]! + p.registers[1]!;
      approx = false;
    } else distinct = values > 0 ? Math.max(1, hllEstimate(p.registers)) : 0;
  } else {
    const text = (b: Uint8Array | null) => (b === null ? null : utf8.decode(b));
    min = text(p.textMin);
    max = text(p.textMax);
    if (k === Kind.Timestamp) {
      min = typeof min === 'string' ? min.replace('T', ' ') : min;
      max = typeof max === 'string' ? max.replace('T', ' ') : max;
    }
    distinct = values > 0 ? Math.max(1, hllEstimate(p.registers)) : 0;
  }
  return {
    name: column.name,
    kind: column.kind,
    count: values,
    nulls: rows - values,
    nan: p.nan,
    min,
    max,
    mean,
    distinct,
    distinctApprox: approx,
  };
}

/** Reads `[offset, offset + length)` of the file. */
export type ReadRange = (offset: number, length: number) => Promise<Uint8Array>;

/** Bytes read at a time. */
export const SCAN_CHUNK = 8 * 1024 * 1024;

/**
 * Scans the records that start in `[start, stop)` of a file of `size` bytes (`start` must be
 * the start of a record, or 0 with the header). Returns the partials, the row count and `end`:
 * the offset after the last record taken (the start of the next range is right when it is
 * this offset).
 */
export async function scanRange(
  read: ReadRange,
  columns: readonly ScanColumn[],
  range: { start: number; stop: number; size: number; firstRow?: number },
  onBytes?: (scanned: number) => void,
): Promise<RangePartial & { end: number }> {
  const scanner = new CsvStatsScanner(columns, { skipHeader: range.start === 0, firstRow: range.firstRow });
  let pos = range.start;
  let carry: Uint8Array | null = null;
  for (;;) {
    const want = Math.min(SCAN_CHUNK, range.size - pos - (carry?.length ?? 0));
    const bytes = want > 0 ? await read(pos + (carry?.length ?? 0), want) : new Uint8Array(0);
    let buf: Uint8Array;
    if (carry && carry.length > 0) {
      buf = new Uint8Array(carry.length + bytes.length);
      buf.set(carry);
      buf.set(bytes, carry.length);
    } else buf = bytes;
    const final = pos + buf.length >= range.size;
    const { next, stopped } = scanner.scan(buf, 0, final, range.stop - pos);
    onBytes?.(pos + next - range.start);
    if (stopped || final) {
      return { rows: scanner.rows, columns: scanner.partials, end: pos + next };
    }
    if (next === 0 && buf.length >= 256 * 1024 * 1024) throw new CsvScanError('a record longer than 256 MB', scanner.rows + 1);
    carry = buf.subarray(next);
    pos += next;
  }
}

/** A range scan's outcome; errors travel as data between workers (comlink would turn them into plain `Error`s). */
export type ScanOutcome =
  | { ok: true; value: RangePartial & { end: number } }
  | { ok: false; error: 'scan' | 'unsupported'; message: string; row: number };

/** The outcome of a range scan (scan errors caught, others thrown). */
export async function outcomeOf(scan: Promise<RangePartial & { end: number }>): Promise<ScanOutcome> {
  try {
    return { ok: true, value: await scan };
  } catch (e) {
    if (e instanceof CsvScanUnsupported) return { ok: false, error: 'unsupported', message: e.message, row: 0 };
    if (e instanceof CsvScanError) return { ok: false, error: 'scan', message: e.message, row: e.row };
    throw e;
  }
}

/** The value of an outcome, or its error thrown again as the scan threw it. */
export function outcomeValue(o: ScanOutcome): RangePartial & { end: number } {
  if (o.ok) return o.value;
  if (o.error === 'unsupported') throw new CsvScanUnsupported(o.message);
  throw new CsvScanError(o.message, o.row);
}
