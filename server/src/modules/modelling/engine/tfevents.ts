/**
 * TensorBoard event files (`events.out.tfevents.*`), written by hand: no TensorFlow, no protobuf
 * library.
 *
 * A file is a sequence of TFRecords:
 *
 *     uint64 length            (little endian)
 *     uint32 masked_crc32c(length bytes)
 *     byte   data[length]
 *     uint32 masked_crc32c(data)
 *
 * with CRC-32C (Castagnoli) masked as `((crc >> 15) | (crc << 17)) + 0xa282ead8`. Each record's
 * data is one `tensorflow.Event` protobuf; the first carries `file_version: "brain.Event:2"`, the
 * others a `summary` of scalar values. The fields written (proto3, defaults left out):
 *
 *     Event   { double wall_time = 1; int64 step = 2; string file_version = 3; Summary summary = 5; }
 *     Summary { repeated Value value = 1; }
 *     Value   { string tag = 1; float simple_value = 2; }
 */

const CASTAGNOLI = 0x82f63b78; // reflected polynomial 0x1EDC6F41
const MASK_DELTA = 0xa282ead8;

const CRC_TABLE = (() => {
  const table = new Uint32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? (c >>> 1) ^ CASTAGNOLI : c >>> 1;
    table[n] = c >>> 0;
  }
  return table;
})();

/** CRC-32C of `data` (continuing from `crc`, the CRC of what came before). */
export function crc32c(data: Uint8Array, crc = 0): number {
  let c = ~crc >>> 0;
  for (let i = 0; i < data.length; i++) c = CRC_TABLE[(c ^ data[i]!) & 0xff]! ^ (c >>> 8);
  return ~c >>> 0;
}

/** The masked form of a CRC stored in TFRecord files. */
export function maskCrc(crc: number): number {
  return ((((crc >>> 15) | (crc << 17)) >>> 0) + MASK_DELTA) >>> 0;
}

/** One TFRecord: length, masked CRC of the length, data, masked CRC of the data. */
export function frameRecord(data: Uint8Array): Uint8Array {
  const out = new Uint8Array(8 + 4 + data.length + 4);
  const view = new DataView(out.buffer);
  view.setBigUint64(0, BigInt(data.length), true);
  view.setUint32(8, maskCrc(crc32c(out.subarray(0, 8))), true);
  out.set(data, 12);
  view.setUint32(12 + data.length, maskCrc(crc32c(data)), true);
  return out;
}

// ---- protobuf wire format (the few field kinds an Event needs) -------------------------------

const WIRE_VARINT = 0;
const WIRE_FIXED64 = 1;
const WIRE_BYTES = 2;
const WIRE_FIXED32 = 5;

/** Little helper that appends protobuf fields to a growing byte list. */
class ProtoWriter {
  private readonly parts: Uint8Array[] = [];
  private size = 0;

  private push(bytes: Uint8Array): void {
    this.parts.push(bytes);
    this.size += bytes.length;
  }

  private varint(value: bigint): void {
    const bytes: number[] = [];
    let v = BigInt.asUintN(64, value);
    while (v >= 0x80n) {
      bytes.push(Number(v & 0x7fn) | 0x80);
      v >>= 7n;
    }
    bytes.push(Number(v));
    this.push(Uint8Array.from(bytes));
  }

  private key(field: number, wire: number): void {
    this.varint(BigInt((field << 3) | wire));
  }

  int64(field: number, value: number): this {
    this.key(field, WIRE_VARINT);
    this.varint(BigInt(Math.trunc(value)));
    return this;
  }

  double(field: number, value: number): this {
    this.key(field, WIRE_FIXED64);
    const b = new Uint8Array(8);
    new DataView(b.buffer).setFloat64(0, value, true);
    this.push(b);
    return this;
  }

  float(field: number, value: number): this {
    this.key(field, WIRE_FIXED32);
    const b = new Uint8Array(4);
    new DataView(b.buffer).setFloat32(0, value, true);
    this.push(b);
    return this;
  }

  bytes(field: number, value: Uint8Array): this {
    this.key(field, WIRE_BYTES);
    this.varint(BigInt(value.length));
    this.push(value);
    return this;
  }

  string(field: number, value: string): this {
    return this.bytes(field, new TextEncoder().encode(value));
  }

  finish(): Uint8Array {
    const out = new Uint8Array(this.size);
    let at = 0;
    for (const p of this.parts) {
      out.set(p, at);
      at += p.length;
    }
    return out;
  }
}

/** One scalar of a summary. */
export interface Scalar {
  tag: string;
  value: number;
}

/** What one `Event` holds (only the fields TensorBoard needs for scalars). */
export interface EventFields {
  /** Seconds since the epoch. */
  wallTime: number;
  step?: number;
  fileVersion?: string;
  scalars?: readonly Scalar[];
}

/** The `tensorflow.Event` protobuf bytes of `e`. */
export function encodeEvent(e: EventFields): Uint8Array {
  const w = new ProtoWriter();
  if (e.wallTime !== 0) w.double(1, e.wallTime);
  if (e.step) w.int64(2, e.step);
  if (e.fileVersion) w.string(3, e.fileVersion);
  if (e.scalars && e.scalars.length > 0) {
    const summary = new ProtoWriter();
    for (const s of e.scalars) summary.bytes(1, new ProtoWriter().string(1, s.tag).float(2, s.value).finish());
    w.bytes(5, summary.finish());
  }
  return w.finish();
}

/** The version line TensorBoard expects in the first event of a file. */
export const FILE_VERSION = 'brain.Event:2';

/** One measured point: when, at which step, which values. */
export interface ScalarPoint {
  wallTime: number;
  step: number;
  scalars: readonly Scalar[];
}

/** A whole event file: the file-version event, then one event per point (points without a value are left out). */
export function encodeEventFile(points: readonly ScalarPoint[], fileWallTime = points[0]?.wallTime ?? Date.now() / 1000): Uint8Array {
  const records = [frameRecord(encodeEvent({ wallTime: fileWallTime, fileVersion: FILE_VERSION }))];
  for (const p of points) if (p.scalars.length > 0) records.push(frameRecord(encodeEvent(p)));
  const out = new Uint8Array(records.reduce((s, r) => s + r.length, 0));
  let at = 0;
  for (const r of records) {
    out.set(r, at);
    at += r.length;
  }
  return out;
}

/** A metrics point as `train/getTrainDisplayDataList` answers it (`id`, `time`, `step` and numbers). */
export type DisplayPoint = Record<string, unknown> & { time?: string | null };

/**
 * Display points -> scalar points, on the same x as the workbench's chart: `step` when it is a
 * step (>= 0), the closing summary point (`step` -1) after the last step, never going back.
 * Every other finite number is a scalar tagged with its metric name; `id`, `time`, `step` are not.
 */
export function scalarPoints(points: readonly DisplayPoint[], now = Date.now()): ScalarPoint[] {
  const out: ScalarPoint[] = [];
  let prev = -Infinity;
  points.forEach((p, i) => {
    const raw = typeof p.step === 'number' && p.step >= 0 ? p.step : i === 0 ? 0 : prev + 1;
    const step = raw > prev ? raw : prev + 1;
    prev = step;
    const scalars: Scalar[] = [];
    for (const [tag, value] of Object.entries(p)) {
      if (tag === 'id' || tag === 'time' || tag === 'step') continue;
      if (typeof value === 'number' && Number.isFinite(value)) scalars.push({ tag, value });
    }
    const t = p.time ? Date.parse(p.time) : NaN;
    out.push({ wallTime: (Number.isFinite(t) ? t : now) / 1000, step, scalars });
  });
  return out;
}
