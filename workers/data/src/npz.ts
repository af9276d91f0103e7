/**
 * npz files (numpy `savez` / `savez_compressed`): a zip of `.npy` members. Members are listed
 * from the central directory and their npy headers read from the first bytes of each member;
 * rows and statistics stream the member's data, so memory stays bounded for large files.
 */
import type { ByteSource } from './byte-source';
import { DataIssueError } from './issues';
import { decodeElements, fortranToC, npyHeaderLength, npyRowBytes, parseNpyHeader, type NpyHeader } from './npy';
import type { ArrayHead, ArrayInfo } from './types';
import { readZipDirectory, readZipEntryPrefix, streamZipEntry, type ZipEntry } from './zip-reader';

/** One array of an npz file. */
export interface NpzArray {
  entry: ZipEntry;
  header: NpyHeader;
  info: ArrayInfo;
}

/** Lists the arrays of an npz file with their dtype and shape. Non-npy members are ignored. */
export async function listNpz(src: ByteSource): Promise<NpzArray[]> {
  const entries = (await readZipDirectory(src)).filter((e) => !e.name.endsWith('/'));
  const out: NpzArray[] = [];
  for (const entry of entries) {
    if (!entry.name.endsWith('.npy')) continue;
    const name = entry.name.slice(0, -4);
    try {
      const prefix = await readZipEntryPrefix(src, entry, 12);
      const len = npyHeaderLength(prefix);
      const header = parseNpyHeader(await readZipEntryPrefix(src, entry, len));
      const need = header.dataOffset + header.size * header.itemSize;
      if (entry.size < need) throw new DataIssueError('npyHeader', `data cut short: ${entry.size} of ${need} bytes`);
      out.push({
        entry,
        header,
        info: { name, dtype: header.dtype, shape: header.shape, fortranOrder: header.fortranOrder, byteLength: entry.compressedSize },
      });
    } catch (e) {
      if (e instanceof DataIssueError) throw new DataIssueError(e.issue.reason, `${name}: ${e.message}`, { array: name, ...e.issue.details });
      throw e;
    }
  }
  return out;
}

/**
 * Streams the elements of an array in storage order (column-major for Fortran arrays):
 * `onElements(data, start)` gets typed chunks and the flat index of their first element and
 * may return `false` to stop.
 */
export async function streamNpzArray(
  src: ByteSource,
  arr: NpzArray,
  onElements: (data: ArrayHead['data'], start: number) => boolean | void,
  onRead?: (compressedBytes: number) => void,
): Promise<void> {
  const { header } = arr;
  const total = header.size * header.itemSize;
  let skip = header.dataOffset;
  let carry = new Uint8Array(0);
  let taken = 0;
  let element = 0;
  await streamZipEntry(src, arr.entry, (chunk) => {
    let bytes = chunk;
    if (skip > 0) {
      const s = Math.min(skip, bytes.length);
      bytes = bytes.subarray(s);
      skip -= s;
      if (bytes.length === 0) return true;
    }
    bytes = bytes.subarray(0, Math.max(0, total - taken));
    taken += bytes.length;
    if (carry.length > 0) {
      const joined = new Uint8Array(carry.length + bytes.length);
      joined.set(carry);
      joined.set(bytes, carry.length);
      bytes = joined;
    }
    const whole = bytes.length - (bytes.length % header.itemSize);
    carry = bytes.slice(whole);
    if (whole === 0) return taken < total;
    const data = decodeElements(header, bytes.subarray(0, whole));
    const go = onElements(data, element);
    element += data.length;
    return go !== false && taken < total;
  }, onRead ? { onRead } : {});
}

/** The first `rows` rows of an array, row-major (a 0-d array gives its one value). */
export async function readNpzHead(src: ByteSource, arr: NpzArray, rows: number): Promise<ArrayHead> {
  const { header, info } = arr;
  const n = header.shape[0] ?? 1;
  const k = Math.min(rows, n);
  const rest = header.shape.slice(1);
  const shape = header.shape.length === 0 ? [] : [k, ...rest];
  const count = header.shape.length === 0 ? 1 : k * rest.reduce((a, b) => a * b, 1);
  if (!header.fortranOrder || header.shape.length < 2) {
    const raw = await readZipEntryPrefix(src, arr.entry, header.dataOffset + count * header.itemSize);
    return { name: info.name, dtype: header.dtype, shape, data: decodeElements(header, raw.subarray(header.dataOffset)) };
  }
  // Column-major: element (i, rest...) sits at i + n * restIndex; keep the rows i < k in a
  // k x restSize column-major block, then transpose it to row-major.
  const restSize = rest.reduce((a, b) => a * b, 1);
  let block: ArrayHead['data'] | null = null;
  await streamNpzArray(src, arr, (data, start) => {
    if (!block) block = new (data.constructor as new (len: number) => ArrayHead['data'])(k * restSize);
    const out = block as unknown as number[];
    const src2 = data as unknown as number[];
    for (let i = 0; i < data.length; i += 1) {
      const flat = start + i;
      const row = flat % n;
      if (row < k) out[row + k * Math.floor(flat / n)] = src2[i]!;
    }
    return true;
  });
  const gathered: ArrayHead['data'] = block ?? decodeElements(header, new Uint8Array(0));
  return { name: info.name, dtype: header.dtype, shape, data: fortranToC(gathered, shape) };
}

/** Bytes of one row of an npz array. */
export function npzRowBytes(arr: NpzArray): number {
  return npyRowBytes(arr.header);
}
