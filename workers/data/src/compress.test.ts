import { gunzipSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import { compressFile, estimateGzipRatio } from './compress';

async function readAll(stream: ReadableStream<Uint8Array>): Promise<Uint8Array> {
  const parts: Uint8Array[] = [];
  const reader = stream.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    parts.push(value);
  }
  const out = new Uint8Array(parts.reduce((s, p) => s + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

function csvText(rows: number): string {
  const lines = ['id,value,city'];
  for (let i = 0; i < rows; i += 1) lines.push(`${i},${(i % 100) / 4},北京`);
  return lines.join('\n');
}

describe('compressFile', () => {
  it('gzips a csv that compresses well, and the stream round-trips', async () => {
    const text = csvText(100_000);
    const r = await compressFile(new Blob([text]), { probeBytes: 64 * 1024 });
    expect(r.compressed).toBe(true);
    expect(r.encoding).toBe('gzip');
    expect(r.estimatedRatio).toBeLessThan(0.5);
    expect(r.sampledBytes).toBe(3 * 64 * 1024);
    const packed = await readAll(r.stream);
    expect(new TextDecoder().decode(gunzipSync(packed))).toBe(text);
  });

  it('streams random bytes raw', async () => {
    const bytes = new Uint8Array(300_000);
    for (let i = 0; i < bytes.length; i += 65536) crypto.getRandomValues(bytes.subarray(i, i + 65536));
    const r = await compressFile(new Blob([bytes]));
    expect(r.compressed).toBe(false);
    expect(r.encoding).toBe('identity');
    expect(r.estimatedRatio).toBeGreaterThan(0.95);
    expect(Buffer.compare(await readAll(r.stream), bytes)).toBe(0);
  });

  it('honours the threshold and handles empty files', async () => {
    const blob = new Blob([csvText(1000)]);
    expect((await compressFile(blob, { threshold: 0.01 })).compressed).toBe(false);
    expect(await estimateGzipRatio(new Blob([]))).toEqual({ ratio: 1, sampledBytes: 0 });
    expect((await compressFile(new Blob([]))).compressed).toBe(false);
  });
});
