/**
 * Reads a zip archive lazily through a {@link ByteSource}: the central directory from the end of
 * the file (ZIP64 included) and, per member, the data range or a stream of its uncompressed
 * bytes (stored, or deflated through fflate's streaming `Inflate`). Nothing but the requested
 * ranges is read, so a 2 GB npz is never loaded whole.
 */
import { Inflate } from 'fflate';
import type { ByteSource } from './byte-source';
import { DataIssueError } from './issues';

/** One member of a zip archive. */
export interface ZipEntry {
  name: string;
  /** 0 stored, 8 deflated. */
  method: number;
  compressedSize: number;
  size: number;
  /** Offset of the member's local header. */
  localOffset: number;
}

const EOCD_SIG = 0x06054b50;
const ZIP64_LOCATOR_SIG = 0x07064b50;
const ZIP64_EOCD_SIG = 0x06064b50;
const CEN_SIG = 0x02014b50;
const LOC_SIG = 0x04034b50;
const MAX_U32 = 0xffffffff;

function view(b: Uint8Array): DataView {
  return new DataView(b.buffer, b.byteOffset, b.byteLength);
}

function u64(v: DataView, at: number): number {
  return Number(v.getBigUint64(at, true));
}

/** Lists the members of a zip archive from its central directory. */
export async function readZipDirectory(src: ByteSource): Promise<ZipEntry[]> {
  if (src.size < 22) throw new DataIssueError('zip', 'not a zip archive (too short)');
  const tailLen = Math.min(src.size, 22 + 65535 + 20);
  const tailStart = src.size - tailLen;
  const tail = await src.read(tailStart, tailLen);
  const tv = view(tail);
  let eocd = -1;
  for (let i = tail.length - 22; i >= 0; i -= 1) {
    if (tv.getUint32(i, true) === EOCD_SIG) {
      eocd = i;
      break;
    }
  }
  if (eocd < 0) throw new DataIssueError('zip', 'not a zip archive (no end of central directory)');
  let count = tv.getUint16(eocd + 10, true);
  let cdSize = tv.getUint32(eocd + 12, true);
  let cdOffset = tv.getUint32(eocd + 16, true);
  if ((count === 0xffff || cdSize === MAX_U32 || cdOffset === MAX_U32) && eocd >= 20 && tv.getUint32(eocd - 20, true) === ZIP64_LOCATOR_SIG) {
    const z64At = u64(tv, eocd - 20 + 8);
    const z = view(await src.read(z64At, 56));
    if (z.getUint32(0, true) !== ZIP64_EOCD_SIG) throw new DataIssueError('zip', 'bad ZIP64 end record');
    count = u64(z, 32);
    cdSize = u64(z, 40);
    cdOffset = u64(z, 48);
  }
  if (cdOffset + cdSize > src.size) throw new DataIssueError('zip', 'zip central directory lies outside the file (truncated upload?)');
  const cd = await src.read(cdOffset, cdSize);
  const cv = view(cd);
  const entries: ZipEntry[] = [];
  let p = 0;
  const decoder = new TextDecoder();
  for (let k = 0; k < count; k += 1) {
    if (p + 46 > cd.length || cv.getUint32(p, true) !== CEN_SIG) throw new DataIssueError('zip', 'corrupt zip central directory');
    const method = cv.getUint16(p + 10, true);
    let compressedSize = cv.getUint32(p + 20, true);
    let size = cv.getUint32(p + 24, true);
    const nameLen = cv.getUint16(p + 28, true);
    const extraLen = cv.getUint16(p + 30, true);
    const commentLen = cv.getUint16(p + 32, true);
    let localOffset = cv.getUint32(p + 42, true);
    const name = decoder.decode(cd.subarray(p + 46, p + 46 + nameLen));
    let e = p + 46 + nameLen;
    const extraEnd = e + extraLen;
    while (e + 4 <= extraEnd) {
      const id = cv.getUint16(e, true);
      const len = cv.getUint16(e + 2, true);
      if (id === 0x0001) {
        let q = e + 4;
        if (size === MAX_U32) { size = u64(cv, q); q += 8; }
        if (compressedSize === MAX_U32) { compressedSize = u64(cv, q); q += 8; }
        if (localOffset === MAX_U32) { localOffset = u64(cv, q); }
      }
      e += 4 + len;
    }
    entries.push({ name, method, compressedSize, size, localOffset });
    p = extraEnd + commentLen;
  }
  return entries;
}

/** Offset of a member's data (after its local header). */
export async function zipDataOffset(src: ByteSource, entry: ZipEntry): Promise<number> {
  const loc = await src.read(entry.localOffset, 30);
  const lv = view(loc);
  if (loc.length < 30 || lv.getUint32(0, true) !== LOC_SIG) throw new DataIssueError('zip', `corrupt local header of ${entry.name}`);
  return entry.localOffset + 30 + lv.getUint16(26, true) + lv.getUint16(28, true);
}

/**
 * Streams the uncompressed bytes of a member, chunk by chunk. `onChunk` returns `false` to stop
 * early (the rest is not read). Reads `chunkBytes` of the archive at a time.
 */
export async function streamZipEntry(
  src: ByteSource,
  entry: ZipEntry,
  onChunk: (bytes: Uint8Array) => boolean | void,
  options: { chunkBytes?: number; onRead?: (compressedBytes: number) => void } = {},
): Promise<void> {
  if (entry.method !== 0 && entry.method !== 8) {
    throw new DataIssueError('zip', `${entry.name}: unsupported zip compression method ${entry.method}`);
  }
  const chunkBytes = options.chunkBytes ?? 4 * 1024 * 1024;
  const start = await zipDataOffset(src, entry);
  let stop = false;
  const inflate = entry.method === 8
    ? new Inflate((data) => {
      if (!stop && onChunk(data) === false) stop = true;
    })
    : null;
  for (let at = 0; at < entry.compressedSize && !stop; at += chunkBytes) {
    const len = Math.min(chunkBytes, entry.compressedSize - at);
    const bytes = await src.read(start + at, len);
    if (bytes.length < len) throw new DataIssueError('zip', `${entry.name}: data cut short`);
    options.onRead?.(at + len);
    if (inflate) {
      try {
        inflate.push(bytes, at + len >= entry.compressedSize);
      } catch (e) {
        throw new DataIssueError('zip', `${entry.name}: ${e instanceof Error ? e.message : String(e)}`);
      }
    } else if (onChunk(bytes) === false) {
      stop = true;
    }
  }
}

/** Reads the first `length` uncompressed bytes of a member (fewer if it is shorter). */
export async function readZipEntryPrefix(src: ByteSource, entry: ZipEntry, length: number): Promise<Uint8Array> {
  if (entry.method === 0) {
    const start = await zipDataOffset(src, entry);
    return src.read(start, Math.min(length, entry.size));
  }
  const out = new Uint8Array(Math.min(length, entry.size));
  let filled = 0;
  await streamZipEntry(src, entry, (chunk) => {
    const take = Math.min(chunk.length, out.length - filled);
    out.set(chunk.subarray(0, take), filled);
    filled += take;
    return filled < out.length;
  }, { chunkBytes: 256 * 1024 });
  return out.subarray(0, filled);
}
