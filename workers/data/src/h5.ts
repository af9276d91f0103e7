/**
 * HDF5 datasets through h5wasm: the file is walked for datasets (shape, dtype), and rows are
 * read with hyperslab slices, so only the requested rows leave the file. In the browser the
 * File is mounted with Emscripten's WORKERFS (`h5-open.ts`), which reads it lazily through
 * FileReaderSync; in Node, h5wasm/node reads paths directly. int64 data comes back as
 * BigInt64Array.
 */
import type { Dataset, Group } from 'h5wasm';
import type { ArrayHead, ArrayInfo } from './types';

/** HDF5 datatype classes used here (H5T_class_t). */
const H5T_INTEGER = 0;
const H5T_FLOAT = 1;
const H5T_ENUM = 8;

/** One dataset of an HDF5 file. */
export interface H5Array {
  dataset: Dataset;
  info: ArrayInfo;
  /** Whether the values are numbers this worker can preview and summarise. */
  numeric: boolean;
}

/** numpy-style dtype of a dataset from its metadata (`other` for strings, compounds, ...). */
export function h5Dtype(meta: Dataset['metadata']): string {
  if (meta.type === H5T_FLOAT) return `float${meta.size * 8}`;
  if (meta.type === H5T_INTEGER) return `${meta.signed ? 'int' : 'uint'}${meta.size * 8}`;
  if (meta.type === H5T_ENUM && meta.size === 1 && meta.enum_type) {
    const names = Object.keys(meta.enum_type.members ?? {}).map((k) => k.toUpperCase()).sort();
    if (names.join() === 'FALSE,TRUE') return 'bool';
  }
  return 'other';
}

/** Lists every dataset below `group`, depth first, with paths without the leading slash. */
export function listH5(group: Group, prefix = ''): H5Array[] {
  const out: H5Array[] = [];
  for (const key of group.keys()) {
    const obj = group.get(key) as (Group | Dataset | { type: string }) | null;
    if (!obj) continue;
    const path = prefix ? `${prefix}/${key}` : key;
    if (obj.type === 'Group') out.push(...listH5(obj as Group, path));
    else if (obj.type === 'Dataset') {
      const ds = obj as Dataset;
      const meta = ds.metadata;
      const dtype = h5Dtype(meta);
      const shape = (ds.shape ?? []).map(Number);
      out.push({
        dataset: ds,
        numeric: dtype !== 'other' && !(meta.size === 2 && meta.type === H5T_FLOAT),
        info: { name: path, dtype, shape, fortranOrder: false, byteLength: meta.total_size * meta.size },
      });
    }
  }
  return out;
}

function asTyped(v: unknown): ArrayHead['data'] {
  if (ArrayBuffer.isView(v) && !(v instanceof DataView)) return v as ArrayHead['data'];
  if (typeof v === 'bigint') return BigInt64Array.of(v);
  if (typeof v === 'number') return Float64Array.of(v);
  if (typeof v === 'boolean') return Uint8Array.of(v ? 1 : 0);
  if (Array.isArray(v)) return Float64Array.from(v.flat(Infinity).map(Number));
  return new Float64Array(0);
}

/** Rows `[start, stop)` of a numeric dataset, row-major. */
export function readH5Rows(arr: H5Array, start: number, stop: number): ArrayHead {
  const { shape } = arr.info;
  if (shape.length === 0) return { name: arr.info.name, dtype: arr.info.dtype, shape: [], data: asTyped(arr.dataset.value) };
  const k = Math.max(0, Math.min(stop, shape[0]!) - start);
  const data = asTyped(arr.dataset.slice([[start, start + k]]));
  return { name: arr.info.name, dtype: arr.info.dtype, shape: [k, ...shape.slice(1)], data };
}

/**
 * Reads a numeric dataset in row blocks of about `blockBytes`, calling `onRows` with row-major
 * data; `onRows` returns `false` to stop.
 */
export function streamH5(
  arr: H5Array,
  onRows: (data: ArrayHead['data'], firstRow: number) => boolean | void,
  blockBytes = 8 * 1024 * 1024,
): void {
  const { shape } = arr.info;
  if (shape.length === 0) {
    onRows(readH5Rows(arr, 0, 1).data, 0);
    return;
  }
  const n = shape[0]!;
  const rowBytes = Math.max(1, shape.slice(1).reduce((a, b) => a * b, 1) * (arr.dataset.metadata.size || 1));
  const step = Math.max(1, Math.floor(blockBytes / rowBytes));
  for (let r = 0; r < n; r += step) {
    if (onRows(readH5Rows(arr, r, r + step).data, r) === false) return;
  }
}
