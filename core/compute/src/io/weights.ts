/**
 * The Decisio weights format (version 1), safetensors-like:
 *
 *   bytes [0, 8)        header length N, unsigned 64-bit little-endian
 *   bytes [8, 8+N)      UTF-8 JSON header, padded with spaces so 8+N is a multiple of 8:
 *                       { "format": "decisio-weights", "version": 1,
 *                         "tensors": { "<name>": { "dtype": "F32", "shape": [..],
 *                                                  "offsets": [begin, end] } },
 *                         "metadata": { "<key>": "<string value>" } }
 *   bytes [8+N, ...)    data section: float32 little-endian blobs; `offsets` are byte offsets
 *                       relative to the start of the data section, end exclusive,
 *                       end - begin = 4 * product(shape); blobs are 8-byte aligned, in the
 *                       header's key order, no overlap.
 *
 * Readers must reject an unknown major `version`, a dtype other than F32, and offsets outside
 * the data section.
 */
import type { Backend } from '../backends/backend.ts';
import { shapeSize } from '../backends/backend.ts';
import { getBackend } from '../backends/registry.ts';
import { Tensor, tensor } from '../tensor.ts';

/** Current format version. */
export const WEIGHTS_FORMAT_VERSION = 1;

/** One tensor of a parsed file. */
export interface WeightEntry {
  shape: number[];
  data: Float32Array;
}

/** A parsed weights file. */
export interface WeightsFile {
  version: number;
  tensors: Map<string, WeightEntry>;
  metadata: Record<string, string>;
}

interface HeaderEntry {
  dtype: string;
  shape: number[];
  offsets: [number, number];
}

/**
 * Encodes named float32 arrays (host data) into the weights format.
 * @throws Error when a data length does not match its shape.
 */
export function encodeWeights(entries: Iterable<[string, WeightEntry]>, metadata: Record<string, string> = {}): Uint8Array {
  const list = [...entries];
  const header: { format: string; version: number; tensors: Record<string, HeaderEntry>; metadata: Record<string, string> } = {
    format: 'decisio-weights',
    version: WEIGHTS_FORMAT_VERSION,
    tensors: {},
    metadata,
  };
  let off = 0;
  for (const [name, e] of list) {
    const bytes = shapeSize(e.shape) * 4;
    if (e.data.length * 4 !== bytes) throw new Error(`compute: weights '${name}': ${e.data.length} values for shape [${e.shape}]`);
    header.tensors[name] = { dtype: 'F32', shape: [...e.shape], offsets: [off, off + bytes] };
    off += (bytes + 7) & ~7;
  }
  let json = JSON.stringify(header);
  let hbytes = new TextEncoder().encode(json);
  const pad = (8 - ((8 + hbytes.length) % 8)) % 8;
  if (pad) {
    json += ' '.repeat(pad);
    hbytes = new TextEncoder().encode(json);
  }
  const out = new Uint8Array(8 + hbytes.length + off);
  const dv = new DataView(out.buffer);
  dv.setBigUint64(0, BigInt(hbytes.length), true);
  out.set(hbytes, 8);
  const base = 8 + hbytes.length;
  for (const [name, e] of list) {
    const [b] = header.tensors[name]!.offsets;
    for (let i = 0; i < e.data.length; i++) dv.setFloat32(base + b + i * 4, e.data[i]!, true);
  }
  return out;
}

/**
 * Parses a weights file.
 * @throws Error on a truncated file, a bad header, an unsupported version or dtype.
 */
export function decodeWeights(bytes: Uint8Array): WeightsFile {
  if (bytes.length < 8) throw new Error('compute: weights file truncated');
  const dv = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const n = Number(dv.getBigUint64(0, true));
  if (8 + n > bytes.length) throw new Error('compute: weights header truncated');
  let header: { version?: number; tensors?: Record<string, HeaderEntry>; metadata?: Record<string, string> };
  try {
    header = JSON.parse(new TextDecoder().decode(bytes.subarray(8, 8 + n))) as typeof header;
  } catch {
    throw new Error('compute: weights header is not JSON');
  }
  if (header.version !== WEIGHTS_FORMAT_VERSION) throw new Error(`compute: unsupported weights version ${String(header.version)}`);
  const base = 8 + n;
  const dataLen = bytes.length - base;
  const tensors = new Map<string, WeightEntry>();
  for (const [name, e] of Object.entries(header.tensors ?? {})) {
    if (e.dtype !== 'F32') throw new Error(`compute: weights '${name}': unsupported dtype ${e.dtype}`);
    const [b, end] = e.offsets;
    const count = shapeSize(e.shape);
    if (b < 0 || end > dataLen || end - b !== count * 4) throw new Error(`compute: weights '${name}': bad offsets`);
    const data = new Float32Array(count);
    for (let i = 0; i < count; i++) data[i] = dv.getFloat32(base + b + i * 4, true);
    tensors.set(name, { shape: [...e.shape], data });
  }
  return { version: header.version, tensors, metadata: header.metadata ?? {} };
}

/** Serialises tensors (any backend; reads are awaited). */
export async function saveTensors(named: Iterable<[string, Tensor]>, metadata: Record<string, string> = {}): Promise<Uint8Array> {
  const entries: [string, WeightEntry][] = [];
  for (const [n, t] of named) entries.push([n, { shape: [...t.shape], data: await t.data() }]);
  return encodeWeights(entries, metadata);
}

/** Parses a file into tensors on a backend (default: active). */
export function loadTensors(bytes: Uint8Array, backend: Backend = getBackend()): { tensors: Map<string, Tensor>; metadata: Record<string, string> } {
  const f = decodeWeights(bytes);
  const tensors = new Map<string, Tensor>();
  for (const [n, e] of f.tensors) tensors.set(n, tensor(e.data, e.shape, backend));
  return { tensors, metadata: f.metadata };
}

/** Anything with named parameters (nn Modules). */
export interface HasParameters {
  namedParameters(): [string, Tensor][];
  loadStateDict(values: Map<string, Float32Array>, strict?: boolean): void;
}

/** Serialises a module's parameters. */
export function saveModule(module: HasParameters, metadata: Record<string, string> = {}): Promise<Uint8Array> {
  return saveTensors(module.namedParameters(), metadata);
}

/**
 * Loads parameters into a module by name; returns the file's metadata.
 * @throws Error on missing/extra names or shape mismatches (strict by default).
 */
export function loadModule(module: HasParameters, bytes: Uint8Array, strict = true): Record<string, string> {
  const f = decodeWeights(bytes);
  const m = new Map<string, Float32Array>();
  const named = new Map(module.namedParameters());
  for (const [n, e] of f.tensors) {
    const p = named.get(n);
    if (p && shapeSize(p.shape) === shapeSize(e.shape) && p.shape.some((d, i) => d !== e.shape[i])) {
      throw new Error(`compute: loadModule: '${n}' has shape [${e.shape}], expected [${p.shape}]`);
    }
    m.set(n, e.data);
  }
  module.loadStateDict(m, strict);
  return f.metadata;
}
