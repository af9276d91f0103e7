import { describe, expect, it } from 'vitest';
import { FILE_VERSION, crc32c, encodeEvent, encodeEventFile, frameRecord, maskCrc, scalarPoints } from './tfevents';
import { readEventFile } from './tfevents-testing';

const ascii = (s: string) => new TextEncoder().encode(s);
const hex = (b: Uint8Array) => Buffer.from(b).toString('hex');

/** CRC-32C bit by bit (no table), to check the writer's table-driven one. */
function crc32cBitwise(data: Uint8Array): number {
  let crc = 0xffffffff;
  for (const byte of data) {
    crc ^= byte;
    for (let k = 0; k < 8; k++) crc = crc & 1 ? (crc >>> 1) ^ 0x82f63b78 : crc >>> 1;
  }
  return (crc ^ 0xffffffff) >>> 0;
}

describe('CRC-32C', () => {
  it('matches the published check values', () => {
    // The CRC catalogue's check value, and the iSCSI vectors of RFC 3720 (B.4) that TensorFlow's crc32c test uses.
    expect(crc32c(ascii('123456789'))).toBe(0xe3069283);
    expect(crc32c(new Uint8Array(32))).toBe(0x8a9136aa);
    expect(crc32c(new Uint8Array(32).fill(0xff))).toBe(0x62a8ab43);
    expect(crc32c(Uint8Array.from({ length: 32 }, (_, i) => i))).toBe(0x46dd794e);
    expect(crc32c(Uint8Array.from({ length: 32 }, (_, i) => 31 - i))).toBe(0x113fdb5c);
    expect(crc32c(new Uint8Array(0))).toBe(0);
  });

  it('extends a running CRC and agrees with a bitwise implementation', () => {
    const data = ascii('hello tensorboard, this is a longer buffer 0123456789');
    expect(crc32c(data.subarray(20), crc32c(data.subarray(0, 20)))).toBe(crc32c(data));
    for (let n = 0; n < 70; n += 7) {
      const bytes = Uint8Array.from({ length: n }, (_, i) => (i * 37 + n) & 0xff);
      expect(crc32c(bytes)).toBe(crc32cBitwise(bytes));
    }
  });

  it('masks as ((crc >> 15) | (crc << 17)) + 0xa282ead8 modulo 2^32', () => {
    expect(maskCrc(0)).toBe(0xa282ead8);
    // 0x00008000 rotated right by 15 is 1.
    expect(maskCrc(0x00008000)).toBe(0xa282ead9);
    // 1 rotated right by 15 is 0x00020000; the sum wraps past 2^32 for large values.
    expect(maskCrc(1)).toBe((0x00020000 + 0xa282ead8) >>> 0);
    expect(maskCrc(0xffffffff)).toBe((0xffffffff + 0xa282ead8) % 2 ** 32);
    const unmask = (m: number) => {
      const rot = (m - 0xa282ead8) >>> 0;
      return ((rot >>> 17) | (rot << 15)) >>> 0;
    };
    for (const c of [0xe3069283, 0x8a9136aa, 0x12345678]) {
      expect(maskCrc(c)).not.toBe(c);
      expect(unmask(maskCrc(c))).toBe(c);
    }
  });
});

describe('TFRecord framing', () => {
  it('writes length, masked CRC of the length, data, masked CRC of the data', () => {
    const data = ascii('abc');
    const rec = frameRecord(data);
    expect(rec.length).toBe(8 + 4 + 3 + 4);
    // uint64 little endian 3
    expect(hex(rec.subarray(0, 8))).toBe('0300000000000000');
    const view = new DataView(rec.buffer, rec.byteOffset);
    expect(view.getUint32(8, true)).toBe(maskCrc(crc32cBitwise(Uint8Array.of(3, 0, 0, 0, 0, 0, 0, 0))));
    expect(hex(rec.subarray(12, 15))).toBe(hex(data));
    // crc32c("abc") = 0x364b3fb7 (a common published value)
    expect(crc32cBitwise(data)).toBe(0x364b3fb7);
    expect(view.getUint32(15, true)).toBe(maskCrc(0x364b3fb7));
  });
});

describe('Event protobuf', () => {
  it('encodes the file-version event byte for byte', () => {
    // wall_time (field 1, fixed64 -> key 0x09) 1.5 = 0x3ff8000000000000 little endian;
    // file_version (field 3, length delimited -> key 0x1a), 13 bytes.
    const bytes = encodeEvent({ wallTime: 1.5, fileVersion: FILE_VERSION });
    expect(hex(bytes)).toBe('09' + '000000000000f83f' + '1a0d' + hex(ascii('brain.Event:2')));
  });

  it('encodes a scalar summary byte for byte', () => {
    // step (field 2, varint -> 0x10) 300 = ac 02; summary (field 5 -> 0x2a) { value (0x0a) { tag (0x0a) "a/b", simple_value (field 2, fixed32 -> 0x15) 0.5 = 0x3f000000 } }
    const bytes = encodeEvent({ wallTime: 2, step: 300, scalars: [{ tag: 'a/b', value: 0.5 }] });
    const value = '0a03' + hex(ascii('a/b')) + '15' + '0000003f';
    const summary = '0a' + (value.length / 2).toString(16).padStart(2, '0') + value;
    expect(hex(bytes)).toBe('09' + '0000000000000040' + '10ac02' + '2a' + (summary.length / 2).toString(16).padStart(2, '0') + summary);
  });

  it('round-trips a whole file through an independent reader', () => {
    const points = scalarPoints([
      { id: 1, time: '2026-11-23T10:00:00.000Z', step: 0, loss: 1.25, 'val/mse': 0.75 },
      { id: 2, time: '2026-11-23T10:00:01.000Z', step: 1, loss: 0.5, 'val/mse': null },
      { id: 3, time: '2026-11-23T10:00:02.500Z', step: 200, loss: 0.125 },
      { id: 4, time: '2026-11-23T10:00:03.000Z', step: -1, score: 87.5 },
    ]);
    const file = encodeEventFile(points);
    const events = readEventFile(file);
    expect(events[0]).toEqual({ wallTime: Date.parse('2026-11-23T10:00:00.000Z') / 1000, step: 0, fileVersion: FILE_VERSION, values: [] });
    expect(events.slice(1).map((e) => [e.step, e.values])).toEqual([
      [0, [{ tag: 'loss', value: 1.25 }, { tag: 'val/mse', value: 0.75 }]],
      [1, [{ tag: 'loss', value: 0.5 }]],
      [200, [{ tag: 'loss', value: 0.125 }]],
      // the closing summary point (step -1) goes after the last step, as on the workbench's chart
      [201, [{ tag: 'score', value: 87.5 }]],
    ]);
    expect(events[3]!.wallTime).toBe(Date.parse('2026-11-23T10:00:02.500Z') / 1000);
    // float32 on the wire
    const [odd] = readEventFile(encodeEventFile([{ wallTime: 1, step: 3, scalars: [{ tag: 'x', value: 0.1 }] }])).slice(1);
    expect(odd!.values[0]!.value).toBe(Math.fround(0.1));
  });

  it('the reader refuses a corrupted record', () => {
    const file = encodeEventFile([{ wallTime: 1, step: 1, scalars: [{ tag: 'x', value: 1 }] }]);
    const bad = Uint8Array.from(file);
    bad[bad.length - 6]! ^= 0x01;
    expect(() => readEventFile(bad)).toThrow(/data CRC/);
    const badLength = Uint8Array.from(file);
    badLength[1]! ^= 0x01;
    expect(() => readEventFile(badLength)).toThrow(/length CRC/);
  });
});
