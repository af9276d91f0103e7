import { describe, expect, it } from 'vitest';
import { npyBytes } from '../test/fixtures';
import { fortranToC, parseNpyHeader, readNpy } from './npy';

describe('npy', () => {
  it('parses the header of every supported dtype', () => {
    const cases: [string, ArrayBufferView, string][] = [
      ['<f4', new Float32Array([1.5, -2]), 'float32'],
      ['<f8', new Float64Array([1.5, -2]), 'float64'],
      ['<i4', new Int32Array([1, -2]), 'int32'],
      ['<i8', new BigInt64Array([1n, -2n]), 'int64'],
      ['|u1', new Uint8Array([1, 255]), 'uint8'],
      ['|b1', new Uint8Array([1, 0]), 'bool'],
    ];
    for (const [descr, data, dtype] of cases) {
      const { header, data: out } = readNpy(npyBytes(descr, [2], data));
      expect(header).toMatchObject({ descr, dtype, shape: [2], fortranOrder: false });
      expect([...(out as unknown as Iterable<number | bigint>)]).toEqual([...(data as unknown as Iterable<number | bigint>)]);
    }
  });
  it('reads shapes of any rank, scalars and empty arrays', () => {
    expect(parseNpyHeader(npyBytes('<f8', [2, 3, 4], new Float64Array(24))).shape).toEqual([2, 3, 4]);
    expect(parseNpyHeader(npyBytes('<f8', [], new Float64Array(1))).size).toBe(1);
    expect(parseNpyHeader(npyBytes('<f8', [0, 3], new Float64Array(0))).size).toBe(0);
  });
  it('converts Fortran order to row-major', () => {
    // [[1, 2, 3], [4, 5, 6]] stored column-major: 1 4 2 5 3 6
    const { data } = readNpy(npyBytes('<i4', [2, 3], new Int32Array([1, 4, 2, 5, 3, 6]), true));
    expect([...data as Int32Array]).toEqual([1, 2, 3, 4, 5, 6]);
    const cube = Float64Array.from({ length: 24 }, (_, i) => i);
    // element (i, j, k) of shape [2, 3, 4] in Fortran order sits at i + 2j + 6k
    const c = fortranToC(cube, [2, 3, 4]);
    expect(c[1 * 12 + 2 * 4 + 3]).toBe(1 + 2 * 2 + 6 * 3);
  });
  it('swaps big-endian data', () => {
    const be = new Uint8Array(8);
    new DataView(be.buffer).setFloat64(0, 3.25, false);
    expect([...readNpy(npyBytes('>f8', [1], be)).data as Float64Array]).toEqual([3.25]);
  });
  it('rejects bad magic, unsupported dtypes and cut data', () => {
    expect(() => parseNpyHeader(new Uint8Array(20))).toThrow(/magic/);
    expect(() => readNpy(npyBytes('<c16', [1], new Float64Array(2)))).toThrow(/unsupported dtype/);
    expect(() => readNpy(npyBytes('<f8', [4], new Float64Array(2)))).toThrow(/cut short/);
  });
});
