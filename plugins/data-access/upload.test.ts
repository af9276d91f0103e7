import { describe, expect, it } from 'vitest';
import type { FileItem, UploadState } from '@decisio/domain';
import { resumeKey, uploadResumable, UploadStopped, type UploadTransport } from './upload';

/** An in-memory stand-in of the server's multipart calls. */
function memoryServer() {
  const uploads = new Map<string, UploadState & { data: Map<number, Blob> }>();
  const log: string[] = [];
  const transport: UploadTransport = {
    async init(req) {
      const partSize = req.partSize ?? 4;
      const s = { uploadId: `u${uploads.size + 1}`, name: req.name, size: req.size, partSize, partCount: Math.ceil(req.size / partSize), parts: [], state: 'uploading', data: new Map() } as unknown as UploadState & { data: Map<number, Blob> };
      uploads.set(s.uploadId, s);
      log.push(`init ${req.partSize}`);
      return { ...s, parts: [] };
    },
    async state(id) {
      const s = uploads.get(id);
      if (!s) throw new Error('gone');
      return { ...s, parts: [...s.data.keys()].sort((a, b) => a - b) };
    },
    async putPart(id, n, bytes, onProgress, _signal, encoding) {
      uploads.get(id)!.data.set(n, bytes);
      onProgress(bytes.size);
      log.push(`part ${n}${encoding ? ` ${encoding}` : ''}`);
    },
    async complete(id) {
      log.push('complete');
      return { fileId: `f-${id}`, name: uploads.get(id)!.name } as FileItem;
    },
  };
  return { transport, log };
}

function memoryStore() {
  const m = new Map<string, string>();
  return { getItem: (k: string) => m.get(k) ?? null, setItem: (k: string, v: string) => void m.set(k, v), removeItem: (k: string) => void m.delete(k), m };
}

describe('uploadResumable', () => {
  it('sends a file in 1 MiB parts and resumes after a stop with only the missing parts', async () => {
    const { transport, log } = memoryServer();
    const store = memoryStore();
    const file = new File([new Uint8Array(3 * 1024 * 1024 + 5)], 'big.csv', { lastModified: 1 });
    const controller = new AbortController();
    const progress: number[] = [];
    const first = uploadResumable(file, { ...transport, putPart: async (id, n, b, p, s) => {
        await transport.putPart(id, n, b, p, s);
        if (n === 2) controller.abort();
      } }, { store, signal: controller.signal, onProgress: (p) => progress.push(p.sent) });
    await expect(first).rejects.toBeInstanceOf(UploadStopped);
    expect(store.getItem(resumeKey(file))).toBe('u1');
    expect(log).toEqual(['init 1048576', 'part 1', 'part 2']);
    let resumed = false;
    const stored = await uploadResumable(file, transport, { store, signal: new AbortController().signal, onProgress: (p) => (resumed = p.resumed) });
    expect(stored.fileId).toBe('f-u1');
    expect(resumed).toBe(true);
    expect(log.slice(3)).toEqual(['part 3', 'part 4', 'complete']);
    expect(store.m.size).toBe(0);
    expect(Math.max(...progress)).toBeLessThanOrEqual(file.size);
  });
});
