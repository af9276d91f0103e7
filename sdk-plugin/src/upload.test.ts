// @vitest-environment node
/**
 * Gzipped parts (Node's Blob and CompressionStream, as a browser has them): a compressible file
 * goes as gzip parts that inflate to the file's bytes, with progress in the file's bytes; a part
 * that does not shrink goes raw, and so do the parts after it.
 */
import { randomBytes } from 'node:crypto';
import { gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import type { FileItem, UploadState } from '@decisio/domain';
import { uploadResumable, type UploadTransport } from './upload';

function server(partSize: number) {
  const parts = new Map<number, { bytes: Buffer; encoding: string | undefined }>();
  const transport: UploadTransport = {
    async init(req) {
      return { uploadId: 'u1', name: req.name, size: req.size, partSize, partCount: Math.ceil(req.size / partSize), parts: [], state: 'uploading' } as unknown as UploadState;
    },
    async state() {
      throw new Error('no resume here');
    },
    async putPart(_id, n, bytes, onProgress, _signal, encoding) {
      parts.set(n, { bytes: Buffer.from(await bytes.arrayBuffer()), encoding });
      onProgress(bytes.size);
    },
    async complete() {
      return { fileId: 'f1' } as FileItem;
    },
  };
  const stored = () => Buffer.concat([...parts.keys()].sort((a, b) => a - b).map((n) => (parts.get(n)!.encoding === 'gzip' ? gunzipSync(parts.get(n)!.bytes) : parts.get(n)!.bytes)));
  return { transport, parts, stored };
}

const store = () => {
  const m = new Map<string, string>();
  return { getItem: (k: string) => m.get(k) ?? null, setItem: (k: string, v: string) => void m.set(k, v), removeItem: (k: string) => void m.delete(k) };
};

describe('uploadResumable with compress', () => {
  it('sends the parts of a csv gzipped and reports progress in the bytes of the file', async () => {
    let text = 'id,k,comment\n';
    for (let i = 0; text.length < 300_000; i++) text += `${i},${i % 7},row ${i} of a csv\n`;
    text = text.slice(0, 300_000);
    const file = new File([text], 'rows.csv', { lastModified: 1 });
    const s = server(100_000);
    const progress: number[] = [];
    await uploadResumable(file, s.transport, { purpose: 'dataset', store: store(), signal: new AbortController().signal, compress: true, onProgress: (p) => progress.push(p.sent) });
    expect([...s.parts.values()].every((p) => p.encoding === 'gzip')).toBe(true);
    const sent = [...s.parts.values()].reduce((n, p) => n + p.bytes.length, 0);
    expect(sent).toBeLessThan(file.size / 3);
    expect(s.stored().equals(Buffer.from(text))).toBe(true);
    expect(Math.max(...progress)).toBe(file.size);
  });

  it('sends raw bytes once a part does not shrink, and nothing gzipped without the option', async () => {
    const bytes = Buffer.concat([randomBytes(150_000), Buffer.alloc(150_000)]);
    const file = new File([bytes], 'mixed.bin', { lastModified: 1 });
    const s = server(100_000);
    await uploadResumable(file, s.transport, { purpose: 'file', store: store(), signal: new AbortController().signal, compress: true });
    expect([...s.parts.values()].map((p) => p.encoding ?? 'raw')).toEqual(['raw', 'raw', 'raw']);
    expect(s.stored().equals(bytes)).toBe(true);
    const plain = server(100_000);
    await uploadResumable(new File(['a,b\n'.repeat(50_000)], 'x.csv'), plain.transport, { purpose: 'file', store: store(), signal: new AbortController().signal });
    expect([...plain.parts.values()].every((p) => p.encoding === undefined)).toBe(true);
  });
});
