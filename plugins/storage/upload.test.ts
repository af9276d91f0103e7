import { describe, expect, it } from 'vitest';
import { UPLOAD_MAX_PARTS, UPLOAD_PART, type FileItem, type UploadState } from '@decisio/domain';
import { partSizeFor, resumeKey, uploadResumable, UploadStopped, type ResumeStore, type UploadTransport } from './upload';

/** An in-memory stand-in of the server's upload calls with the same rules (part sizes, state). */
function memoryServer(partSize: number) {
  const uploads = new Map<string, { state: UploadState; parts: Map<number, Uint8Array> }>();
  const log: string[] = [];
  let failNext = 0;
  let seq = 0;
  const view = (id: string): UploadState => {
    const u = uploads.get(id)!;
    const parts = [...u.parts.keys()].sort((a, b) => a - b);
    return { ...u.state, parts, receivedBytes: parts.reduce((s, n) => s + u.parts.get(n)!.length, 0) };
  };
  const transport: UploadTransport = {
    async init({ name, size, purpose }) {
      const uploadId = String(++seq).padStart(32, '0');
      const partCount = Math.max(1, Math.ceil(size / partSize));
      uploads.set(uploadId, {
        state: { uploadId, name, size, purpose, partSize, partCount, state: 'uploading', parts: [], receivedBytes: 0, fileId: null, createdAt: '' },
        parts: new Map(),
      });
      log.push(`init ${uploadId}`);
      return view(uploadId);
    },
    async state(uploadId) {
      if (!uploads.has(uploadId)) throw new Error('fileNotFound');
      return view(uploadId);
    },
    async putPart(uploadId, n, bytes, onProgress) {
      if (failNext > 0) {
        failNext -= 1;
        throw new TypeError('network error');
      }
      const data = new Uint8Array(await bytes.arrayBuffer());
      onProgress(data.length / 2);
      uploads.get(uploadId)!.parts.set(n, data);
      log.push(`put ${n}`);
    },
    async complete(uploadId) {
      const u = uploads.get(uploadId)!;
      expect(view(uploadId).receivedBytes).toBe(u.state.size);
      u.state.state = 'completed';
      log.push('complete');
      return { fileId: 'f'.repeat(32), name: u.state.name, path: u.state.name, kind: 'upload', size: u.state.size } as FileItem;
    },
  };
  return { transport, log, uploads, failOnce: () => (failNext = 1) };
}

function memoryStore(): ResumeStore & { data: Map<string, string> } {
  const data = new Map<string, string>();
  return { data, getItem: (k) => data.get(k) ?? null, setItem: (k, v) => void data.set(k, v), removeItem: (k) => void data.delete(k) };
}

const file = (size: number) => new File([new Uint8Array(size).map((_, i) => i % 251)], 'data.csv', { lastModified: 1700000000000 });

describe('uploadResumable', () => {
  it('sends every part with progress, then completes and forgets the upload id', async () => {
    const server = memoryServer(100);
    const store = memoryStore();
    const progress: number[] = [];
    const stored = await uploadResumable(file(250), server.transport, {
      purpose: 'dataset',
      store,
      signal: new AbortController().signal,
      onProgress: (p) => progress.push(p.sent),
    });
    expect(stored.size).toBe(250);
    expect(server.log).toEqual([`init ${'1'.padStart(32, '0')}`, 'put 1', 'put 2', 'put 3', 'complete']);
    expect(progress.at(-1)).toBe(250);
    expect(progress).toContain(50); // half of the first part, from the progress callback
    expect(store.data.size).toBe(0);
  });

  it('resumes after a stop: only the missing parts are sent', async () => {
    const server = memoryServer(100);
    const store = memoryStore();
    const f = file(350);
    const controller = new AbortController();
    const stopAfterTwo: UploadTransport = {
      ...server.transport,
      putPart: async (id, n, b, p, s) => {
        await server.transport.putPart(id, n, b, p, s);
        if (n === 2) controller.abort();
      },
    };
    await expect(uploadResumable(f, stopAfterTwo, { purpose: 'file', store, signal: controller.signal })).rejects.toBeInstanceOf(UploadStopped);
    expect(store.getItem(resumeKey(f))).toBe('1'.padStart(32, '0'));

    // "Reload": same file chosen again.
    server.log.length = 0;
    let resumed = false;
    await uploadResumable(f, server.transport, { purpose: 'file', store, signal: new AbortController().signal, onProgress: (p) => (resumed = p.resumed) });
    expect(server.log).toEqual(['put 3', 'put 4', 'complete']);
    expect(resumed).toBe(true);
  });

  it('retries a part after a network failure and starts over when the server forgot the upload', async () => {
    const server = memoryServer(100);
    const store = memoryStore();
    server.failOnce();
    await uploadResumable(file(150), server.transport, { purpose: 'file', store, signal: new AbortController().signal });
    expect(server.log.filter((l) => l === 'put 1')).toHaveLength(1);

    const f = file(120);
    store.setItem(resumeKey(f), 'e'.repeat(32));
    server.log.length = 0;
    await uploadResumable(f, server.transport, { purpose: 'file', store, signal: new AbortController().signal });
    expect(server.log[0]).toMatch(/^init /);
  });
});

describe('partSizeFor', () => {
  it('uses small parts for small files and larger ones for large files, within the server limits', () => {
    const MiB = 1024 ** 2;
    expect(partSizeFor(10 * MiB)).toBe(MiB);
    expect(partSizeFor(100 * MiB)).toBe(UPLOAD_PART.default);
    expect(partSizeFor(1024 * MiB)).toBe(32 * MiB);
    for (const size of [1, 64 * MiB, 256 * MiB, 2 * 1024 ** 3]) {
      const part = partSizeFor(size);
      expect(part).toBeGreaterThanOrEqual(UPLOAD_PART.min);
      expect(part).toBeLessThanOrEqual(UPLOAD_PART.max);
      expect(Math.ceil(size / part)).toBeLessThanOrEqual(UPLOAD_MAX_PARTS);
    }
  });
});
