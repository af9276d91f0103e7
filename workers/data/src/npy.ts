/**
 * A small reader of numpy's `.npy` format (versions 1.0, 2.0, 3.0): the header (`descr`,
 * `fortran_order`, `shape`) and the data as typed arrays. Supported dtypes: f4, f8, f2 (read as
 * float32), i1, i2, i4, i8, u1, u2, u4, u8, b1, little or big endian (big endian is swapped).
 * Fortran-ordered arrays are transposed to row-major when rows are read.
 */
import { DataIssueError } from './issues';
import type { ArrayHead } from './types';

/** The parsed header of an npy file. */
export interface NpyHeader {
  /** numpy descr, e.g. `<f8`. */
  descr: string;
  /** Normalised dtype name: float32, float64, int8..int64, uint8..uint64, bool. */
  dtype: NpyDtype;
  littleEndian: boolean;
  fortranOrder: boolean;
  shape: number[];
  /** Bytes per element. */
  itemSize: number;
  /** Byte offset of the data from the start of the npy file. */
  dataOffset: number;
  /** Elements in the array (product of the shape; 1 for a scalar). */
  size: number;
}

/** dtypes this reader supports. */
export type NpyDtype = 'float16' | 'float32' | 'float64' | 'int8' | 'int16' | 'int32' | 'int64' | 'uint8' | 'uint16' | 'uint32' | 'uint64' | 'bool';

const DTYPES: Record<string, { dtype: NpyDtype; size: number }> = {
  f2: { dtype: 'float16', size: 2 },
  f4: { dtype: 'float32', size: 4 },
  f8: { dtype: 'float64', size: 8 },
  i1: { dtype: 'int8', size: 1 },
  i2: { dtype: 'int16', size: 2 },
  i4: { dtype: 'int32', size: 4 },
  i8: { dtype: 'int64', size: 8 },
  u1: { dtype: 'uint8', size: 1 },
  u2: { dtype: 'uint16', size: 2 },
  u4: { dtype: 'uint32', size: 4 },
  u8: { dtype: 'uint64', size: 8 },
  b1: { dtype: 'bool', size: 1 },
};

const MAGIC = [0x93, 0x4e, 0x55, 0x4d, 0x50, 0x59]; // \x93NUMPY

/** Bytes that always hold a v1 header's prefix; headers are rarely longer than 4 KiB. */
export const NPY_PREFIX_BYTES = 10;

/**
 * Total header length (magic + version + length field + header text) from the first 12 bytes,
 * so that a caller reading lazily knows how much to fetch.
 */
export function npyHeaderLength(prefix: Uint8Array): number {
  if (prefix.length < 10 || !MAGIC.every((b, i) => prefix[i] === b)) {
    throw new DataIssueError('npyHeader', 'not an npy array (bad magic)');
  }
  const major = prefix[6]!;
  const view = new DataView(prefix.buffer, prefix.byteOffset, prefix.byteLength);
  if (major === 1) return 10 + view.getUint16(8, true);
  if (major === 2 || major === 3) {
    if (prefix.length < 12) throw new DataIssueError('npyHeader', 'npy header cut short');
    return 12 + view.getUint32(8, true);
  }
  throw new DataIssueError('npyHeader', `unsupported npy version ${major}`);
}

/** Parses the header of an npy file from its first bytes (at least the whole header). */
export function parseNpyHeader(bytes: Uint8Array): NpyHeader {
  const dataOffset = npyHeaderLength(bytes);
  if (bytes.length < dataOffset) throw new DataIssueError('npyHeader', 'npy header cut short');
  const start = bytes[6] === 1 ? 10 : 12;
  const text = new TextDecoder(bytes[6] === 3 ? 'utf-8' : 'latin1').decode(bytes.subarray(start, dataOffset));
  const descr = /'descr'\s*:\s*'([^']*)'/.exec(text)?.[1];
  const fortran = /'fortran_order'\s*:\s*(True|False)/.exec(text)?.[1];
  const shapeText = /'shape'\s*:\s*\(([^)]*)\)/.exec(text)?.[1];
  if (descr === undefined || fortran === undefined || shapeText === undefined) {
    throw new DataIssueError('npyHeader', `unreadable npy header: ${text.trim().slice(0, 120)}`);
  }
  const order = descr[0];
  const code = /^[<>|=]/.test(descr) ? descr.slice(1) : descr;
  const known = DTYPES[code];
  if (!known) throw new DataIssueError('npyDtype', `unsupported dtype ${descr}`, { descr });
  const shape = shapeText
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s !== '')
    .map((s) => Number(s.replace(/L$/, '')));
  if (shape.some((d) => !Number.isInteger(d) || d < 0)) throw new DataIssueError('npyHeader', `bad shape (${shapeText})`);
  return {
    descr,
    dtype: known.dtype,
    littleEndian: order !== '>',
    fortranOrder: fortran === 'True',
    shape,
    itemSize: known.size,
    dataOffset,
    size: shape.reduce((a, b) => a * b, 1),
  };
}

/** Bytes of one row (first-axis slice) of an array. */
export function npyRowBytes(h: NpyHeader): number {
  return h.shape.slice(1).reduce((a, b) => a * b, 1) * h.itemSize;
}

function halfToFloat(h: number): number {
  const s = h & 0x8000 ? -1 : 1;
  const e = (h >> 10) & 0x1f;
  const f = h & 0x3ff;
  if (e === 0) return s * 2 ** -14 * (f / 1024);
  if (e === 31) return f ? Number.NaN : s * Number.POSITIVE_INFINITY;
  return s * 2 ** (e - 15) * (1 + f / 1024);
}

/**
 * Typed array over raw little- or big-endian element bytes (copied, so that it owns an aligned
 * buffer that can be transferred). float16 becomes Float32Array, bool becomes Uint8Array.
 */
export function decodeElements(h: Pick<NpyHeader, 'dtype' | 'littleEndian' | 'itemSize'>, raw: Uint8Array): ArrayHead['data'] {
  const n = Math.floor(raw.length / h.itemSize);
  const bytes = raw.slice(0, n * h.itemSize);
  if (!h.littleEndian && h.itemSize > 1) {
    for (let i = 0; i < bytes.length; i += h.itemSize) bytes.subarray(i, i + h.itemSize).reverse();
  }
  const b = bytes.buffer;
  switch (h.dtype) {
    case 'float16': {
      const u = new Uint16Array(b);
      const out = new Float32Array(n);
      for (let i = 0; i < n; i += 1) out[i] = halfToFloat(u[i]!);
      return out;
    }
    case 'float32': return new Float32Array(b);
    case 'float64': return new Float64Array(b);
    case 'int8': return new Int8Array(b);
    case 'int16': return new Int16Array(b);
    case 'int32': return new Int32Array(b);
    case 'int64': return new BigInt64Array(b);
    case 'uint8': return new Uint8Array(b);
    case 'uint16': return new Uint16Array(b);
    case 'uint32': return new Uint32Array(b);
    case 'uint64': return new BigUint64Array(b);
    case 'bool': return new Uint8Array(b);
  }
}

/**
 * Reorders a column-major (Fortran) array of `shape` into row-major order, in place of a copy.
 * Works for any rank.
 */
export function fortranToC<T extends ArrayHead['data']>(data: T, shape: readonly number[]): T {
  const rank = shape.length;
  if (rank < 2) return data;
  const out = new (data.constructor as new (n: number) => T)(data.length);
  const fStrides: number[] = [];
  let s = 1;
  for (let k = 0; k < rank; k += 1) {
    fStrides.push(s);
    s *= shape[k]!;
  }
  const idx = new Array<number>(rank).fill(0);
  for (let i = 0; i < data.length; i += 1) {
    let f = 0;
    for (let k = 0; k < rank; k += 1) f += idx[k]! * fStrides[k]!;
    (out as unknown as number[])[i] = (data as unknown as number[])[f]!;
    for (let k = rank - 1; k >= 0; k -= 1) {
      idx[k]! += 1;
      if (idx[k]! < shape[k]!) break;
      idx[k] = 0;
    }
  }
  return out;
}

/** Reads a whole npy file held in memory: header and row-major data. */
export function readNpy(bytes: Uint8Array): { header: NpyHeader; data: ArrayHead['data'] } {
  const header = parseNpyHeader(bytes);
  const need = header.size * header.itemSize;
  const raw = bytes.subarray(header.dataOffset, header.dataOffset + need);
  if (raw.length < need) throw new DataIssueError('npyHeader', `npy data cut short: ${raw.length} of ${need} bytes`);
  const data = decodeElements(header, raw);
  return { header, data: header.fortranOrder ? fortranToC(data, header.shape) : data };
}
