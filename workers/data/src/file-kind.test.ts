import { describe, expect, it } from 'vitest';
import { detectFileKind, isHdf5, isUtf8Text } from './file-kind';

const hdf5 = new Uint8Array([0x89, 0x48, 0x44, 0x46, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0]);
const zip = new Uint8Array([0x50, 0x4b, 0x03, 0x04, 20, 0]);
const text = new TextEncoder().encode('a,b\n1,2\n');

describe('detectFileKind', () => {
  it('accepts matching extension and content', () => {
    expect(detectFileKind('a.csv', text)).toEqual({ kind: 'csv', issue: null });
    expect(detectFileKind('a.NPZ', zip)).toEqual({ kind: 'npz', issue: null });
    expect(detectFileKind('a.h5', hdf5)).toEqual({ kind: 'h5', issue: null });
  });
  it('finds an HDF5 superblock after a 512-byte user block', () => {
    const b = new Uint8Array(1024);
    b.set(hdf5.subarray(0, 8), 512);
    expect(isHdf5(b)).toBe(true);
  });
  it('rejects content that does not match the extension', () => {
    expect(detectFileKind('a.csv', zip).issue).toMatchObject({ code: 'tableFileFormatError', reason: 'magic', details: { found: 'zip' } });
    expect(detectFileKind('a.npz', text).issue).toMatchObject({ reason: 'magic', details: { found: 'text' } });
    expect(detectFileKind('a.h5', zip).issue).toMatchObject({ reason: 'magic' });
    expect(detectFileKind('a.csv', new Uint8Array([1, 0, 2])).issue).toMatchObject({ reason: 'encoding' });
  });
  it('rejects other types', () => {
    expect(detectFileKind('a.xlsx', zip)).toMatchObject({ kind: null, issue: { code: 'tableFileFormatError', reason: 'unknownType' } });
  });
  it('checks UTF-8 validity but accepts a cut final sequence', () => {
    expect(isUtf8Text(new TextEncoder().encode('温度'))).toBe(true);
    expect(isUtf8Text(new TextEncoder().encode('温度').subarray(0, 4))).toBe(true);
    expect(isUtf8Text(new Uint8Array([0xc3, 0x28]))).toBe(false);
  });
});
