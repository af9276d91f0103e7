/**
 * Test helper: an event-file reader written apart from the writer (`tfevents.ts`): it checks
 * both CRCs of every record with a bitwise CRC-32C and parses the protobuf wire format
 * generically, field by field, then picks the `Event` fields TensorBoard reads for scalars.
 */

/** One decoded `tensorflow.Event`. */
export interface DecodedEvent {
  wallTime: number;
  step: number;
  fileVersion?: string;
  values: Array<{ tag: string; value: number }>;
}

function crc32c(data: Uint8Array): number {
  let crc = 0xffffffff;
  for (const byte of data) {
    crc ^= byte;
    for (let k = 0; k < 8; k++) crc = crc & 1 ? (crc >>> 1) ^ 0x82f63b78 : crc >>> 1;
  }
  return (crc ^ 0xffffffff) >>> 0;
}

function masked(data: Uint8Array): number {
  const crc = crc32c(data);
  const rotated = ((crc >>> 15) | (crc << 17)) >>> 0;
  return Number((BigInt(rotated) + 0xa282ead8n) % 2n ** 32n);
}

/** The records of a TFRecord file (CRCs checked). */
export function readRecords(file: Uint8Array): Uint8Array[] {
  const out: Uint8Array[] = [];
  const view = new DataView(file.buffer, file.byteOffset, file.byteLength);
  let at = 0;
  while (at < file.length) {
    if (file.length - at < 12) throw new Error(`truncated header at ${at}`);
    const length = Number(view.getBigUint64(at, true));
    if (view.getUint32(at + 8, true) !== masked(file.subarray(at, at + 8))) throw new Error(`bad length CRC at ${at}`);
    const start = at + 12;
    if (file.length < start + length + 4) throw new Error(`truncated record at ${at}`);
    const data = file.subarray(start, start + length);
    if (view.getUint32(start + length, true) !== masked(data)) throw new Error(`bad data CRC at ${at}`);
    out.push(data);
    at = start + length + 4;
  }
  return out;
}

type Field = { no: number; wire: number; varint?: bigint; fixed64?: Uint8Array; fixed32?: Uint8Array; bytes?: Uint8Array };

/** Every field of a protobuf message, in order. */
export function protoFields(buf: Uint8Array): Field[] {
  const fields: Field[] = [];
  let at = 0;
  const varint = (): bigint => {
    let shift = 0n;
    let v = 0n;
    for (;;) {
      if (at >= buf.length) throw new Error('truncated varint');
      const b = buf[at++]!;
      v |= BigInt(b & 0x7f) << shift;
      if (!(b & 0x80)) return v;
      shift += 7n;
    }
  };
  while (at < buf.length) {
    const key = Number(varint());
    const no = key >>> 3;
    const wire = key & 7;
    if (wire === 0) fields.push({ no, wire, varint: varint() });
    else if (wire === 1) fields.push({ no, wire, fixed64: buf.subarray(at, (at += 8)) });
    else if (wire === 5) fields.push({ no, wire, fixed32: buf.subarray(at, (at += 4)) });
    else if (wire === 2) {
      const n = Number(varint());
      fields.push({ no, wire, bytes: buf.subarray(at, (at += n)) });
    } else throw new Error(`unsupported wire type ${wire}`);
  }
  return fields;
}

const text = (b: Uint8Array) => new TextDecoder().decode(b);

/** Decodes one `Event` record. */
export function decodeEvent(data: Uint8Array): DecodedEvent {
  const e: DecodedEvent = { wallTime: 0, step: 0, values: [] };
  for (const f of protoFields(data)) {
    if (f.no === 1 && f.fixed64) e.wallTime = Buffer.from(f.fixed64).readDoubleLE(0);
    else if (f.no === 2 && f.varint !== undefined) e.step = Number(BigInt.asIntN(64, f.varint));
    else if (f.no === 3 && f.bytes) e.fileVersion = text(f.bytes);
    else if (f.no === 5 && f.bytes) {
      for (const v of protoFields(f.bytes)) {
        if (v.no !== 1 || !v.bytes) continue;
        let tag = '';
        let value = NaN;
        for (const vf of protoFields(v.bytes)) {
          if (vf.no === 1 && vf.bytes) tag = text(vf.bytes);
          else if (vf.no === 2 && vf.fixed32) value = Buffer.from(vf.fixed32).readFloatLE(0);
        }
        e.values.push({ tag, value });
      }
    }
  }
  return e;
}

/** Every event of a file. */
export function readEventFile(file: Uint8Array): DecodedEvent[] {
  return readRecords(file).map(decodeEvent);
}
