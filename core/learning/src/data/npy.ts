/**
 * NumPy `.npy` arrays and `.npz` archives (a zip of `.npy` files, stored or deflated), read
 * and written without NumPy. Supported dtypes: float16/32/64, int8/16/32/64, uint8/16/32/64
 * and bool, either byte order, C or Fortran order (Fortran arrays are transposed to C order).
 */
import { unzipSync, zipSync } from 'fflate';
import { LearningError } from '../errors';

/** Typed arrays an {@link NdArray} can hold. */
export type NumericArray =
  | Float32Array
  | Float64Array
  | Int8Array
  | Int16Array
  | Int32Array
  | BigInt64Array
  | Uint8Array
  | Uint16Array
  | Uint32Array
  | BigUint64Array;

/** An n-dimensional array in C order. `dtype` is NumPy's kind+size without byte order (`f4`, `i8`, `b1`). */
export interface NdArray {
  dtype: string;
  shape: number[];
  data: NumericArray;
}

const MAGIC = [0x93, 0x4e, 0x55, 0x4d, 0x50, 0x59]; // \x93NUMPY

/** Parses one `.npy` file. Throws `data.npyFormat` / `data.npyDtype`. */
export function parseNpy(bytes: Uint8Array, name = 'array'): NdArray {
  if (bytes.length < 10 || MAGIC.some((b, i) => bytes[i] !== b))
    throw new LearningError('data.npyFormat', { name, detail: 'missing \\x93NUMPY magic' });
  const major = bytes[6]!;
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const headerLen = major === 1 ? view.getUint16(8, true) : view.getUint32(8, true);
  const headerStart = major === 1 ? 10 : 12;
  const header = new TextDecoder(major >= 3 ? 'utf-8' : 'latin1').decode(bytes.subarray(headerStart, headerStart + headerLen));
  const descr = /'descr'\s*:\s*'([^']+)'/.exec(header)?.[1];
  const fortran = /'fortran_order'\s*:\s*(True|False)/.exec(header)?.[1] === 'True';
  const shapeText = /'shape'\s*:\s*\(([^)]*)\)/.exec(header)?.[1];
  if (!descr || shapeText === undefined) throw new LearningError('data.npyFormat', { name, detail: `bad header ${header.trim()}` });
  const shape = shapeText
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s !== '')
    .map((s) => Number(s.replace(/L$/, '')));
  if (shape.some((d) => !Number.isInteger(d) || d < 0)) throw new LearningError('data.npyFormat', { name, detail: `bad shape (${shapeText})` });
  const order = descr[0] === '>' ? 'big' : 'little';
  const kind = descr.replace(/^[<>|=]/, '');
  const count = shape.reduce((a, b) => a * b, 1);
  const size = Number(kind.slice(1));
  const offset = headerStart + headerLen;
  if (bytes.length < offset + count * size)
    throw new LearningError('data.npyFormat', { name, detail: `needs ${count * size} data bytes, has ${bytes.length - offset}` });
  const data = readTyped(view, offset, count, kind, order === 'little', name);
  const arr: NdArray = { dtype: kind === 'f2' ? 'f4' : kind, shape, data };
  return fortran && shape.length > 1 ? fortranToC(arr) : arr;
}

function readTyped(view: DataView, offset: number, n: number, kind: string, le: boolean, name: string): NumericArray {
  const step = Number(kind.slice(1));
  const get = <T extends NumericArray>(make: (n: number) => T, read: (o: number) => number | bigint): T => {
    const out = make(n);
    for (let i = 0; i < n; i++) (out as unknown as Array<number | bigint>)[i] = read(offset + i * step);
    return out;
  };
  switch (kind) {
    case 'f4':
      return get((k) => new Float32Array(k), (o) => view.getFloat32(o, le));
    case 'f8':
      return get((k) => new Float64Array(k), (o) => view.getFloat64(o, le));
    case 'f2':
      return get((k) => new Float32Array(k), (o) => halfToFloat(view.getUint16(o, le)));
    case 'i1':
      return get((k) => new Int8Array(k), (o) => view.getInt8(o));
    case 'i2':
      return get((k) => new Int16Array(k), (o) => view.getInt16(o, le));
    case 'i4':
      return get((k) => new Int32Array(k), (o) => view.getInt32(o, le));
    case 'i8':
      return get((k) => new BigInt64Array(k), (o) => view.getBigInt64(o, le));
    case 'u1':
    case 'b1':
      return get((k) => new Uint8Array(k), (o) => view.getUint8(o));
    case 'u2':
      return get((k) => new Uint16Array(k), (o) => view.getUint16(o, le));
    case 'u4':
      return get((k) => new Uint32Array(k), (o) => view.getUint32(o, le));
    case 'u8':
      return get((k) => new BigUint64Array(k), (o) => view.getBigUint64(o, le));
    default:
      throw new LearningError('data.npyDtype', { name, dtype: kind });
  }
}

function halfToFloat(h: number): number {
  const s = h & 0x8000 ? -1 : 1;
  const e = (h >> 10) & 0x1f;
  const f = h & 0x3ff;
  if (e === 0) return s * 2 ** -14 * (f / 1024);
  if (e === 31) return f ? NaN : s * Infinity;
  return s * 2 ** (e - 15) * (1 + f / 1024);
}

function fortranToC(a: NdArray): NdArray {
  const { shape } = a;
  const n = shape.length;
  const count = a.data.length;
  const out = new (a.data.constructor as new (n: number) => NumericArray)(count);
  // Fortran strides: s[0]=1, s[i]=s[i-1]*shape[i-1]; iterate C order
  const fStride = new Array<number>(n);
  fStride[0] = 1;
  for (let i = 1; i < n; i++) fStride[i] = fStride[i - 1]! * shape[i - 1]!;
  const idx = new Array<number>(n).fill(0);
  for (let c = 0; c < count; c++) {
    let f = 0;
    for (let i = 0; i < n; i++) f += idx[i]! * fStride[i]!;
    (out as unknown as Array<number | bigint>)[c] = (a.data as unknown as Array<number | bigint>)[f]!;
    for (let i = n - 1; i >= 0; i--) {
      idx[i]! += 1;
      if (idx[i]! < shape[i]!) break;
      idx[i] = 0;
    }
  }
  return { ...a, data: out };
}

/** Converts any {@link NdArray} data to float64 (int64 through `Number`, bool to 0/1). */
export function toFloat64(data: NumericArray): Float64Array {
  if (data instanceof Float64Array) return data;
  const out = new Float64Array(data.length);
  if (data instanceof BigInt64Array || data instanceof BigUint64Array) for (let i = 0; i < data.length; i++) out[i] = Number(data[i]);
  else out.set(data as ArrayLike<number>);
  return out;
}

/** Serialises an array as `.npy` (version 1.0, little endian, C order). */
export function writeNpy(a: NdArray): Uint8Array {
  const descr = dtypeOf(a.data);
  const shape = a.shape.length === 1 ? `(${a.shape[0]},)` : `(${a.shape.join(', ')})`;
  let header = `{'descr': '${descr}', 'fortran_order': False, 'shape': ${shape}, }`;
  const total = 10 + header.length + 1;
  header += ' '.repeat((64 - (total % 64)) % 64) + '\n';
  const body = new Uint8Array(a.data.buffer, a.data.byteOffset, a.data.byteLength);
  const out = new Uint8Array(10 + header.length + body.length);
  out.set(MAGIC, 0);
  out[6] = 1;
  out[7] = 0;
  new DataView(out.buffer).setUint16(8, header.length, true);
  for (let i = 0; i < header.length; i++) out[10 + i] = header.charCodeAt(i);
  out.set(body, 10 + header.length);
  return out;
}

function dtypeOf(d: NumericArray): string {
  if (d instanceof Float32Array) return '<f4';
  if (d instanceof Float64Array) return '<f8';
  if (d instanceof Int8Array) return '|i1';
  if (d instanceof Int16Array) return '<i2';
  if (d instanceof Int32Array) return '<i4';
  if (d instanceof BigInt64Array) return '<i8';
  if (d instanceof Uint16Array) return '<u2';
  if (d instanceof Uint32Array) return '<u4';
  if (d instanceof BigUint64Array) return '<u8';
  return '|u1';
}

/** Reads every array of an `.npz` archive (keys without `.npy`). Throws `data.zipFormat`. */
export function readNpz(bytes: Uint8Array): Record<string, NdArray> {
  let files: Record<string, Uint8Array>;
  try {
    files = unzipSync(bytes);
  } catch (e) {
    throw new LearningError('data.zipFormat', { detail: (e as Error).message });
  }
  const out: Record<string, NdArray> = {};
  for (const [path, content] of Object.entries(files)) {
    if (!path.endsWith('.npy')) continue;
    const key = path.slice(0, -4);
    out[key] = parseNpy(content, key);
  }
  return out;
}

/** Writes arrays as an `.npz` archive (deflated like `np.savez_compressed` when `compress`). */
export function writeNpz(arrays: Record<string, NdArray>, compress = true): Uint8Array {
  const files: Record<string, Uint8Array> = {};
  for (const [k, a] of Object.entries(arrays)) files[`${k}.npy`] = writeNpy(a);
  return zipSync(files, { level: compress ? 6 : 0 });
}
