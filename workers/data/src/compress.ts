/**
 * `compressStream(file)`: decides whether gzip pays for an upload and returns the stream to
 * send. Three probes of the file (start, middle, end) are gzipped; when the compressed probes
 * are at most `threshold` (default 0.8) of their size, the whole file is streamed through
 * `CompressionStream('gzip')`, else the raw bytes are streamed. Nothing is held in memory
 * beyond the probes and the stream's own buffers.
 */
import type { CompressOptions, CompressResult } from './types';

/** Default ratio under which the file is compressed. */
export const DEFAULT_COMPRESS_THRESHOLD = 0.8;
/** Default bytes per probe. */
export const DEFAULT_PROBE_BYTES = 256 * 1024;

async function gzipSize(bytes: Blob): Promise<number> {
  const stream = bytes.stream().pipeThrough(new CompressionStream('gzip'));
  const reader = stream.getReader();
  let n = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return n;
    n += value.byteLength;
  }
}

/**
 * Estimated gzip ratio (compressed / original) of a file from up to three probes; 1 for an
 * empty file. Returns the sampled byte count too.
 */
export async function estimateGzipRatio(file: Blob, probeBytes = DEFAULT_PROBE_BYTES): Promise<{ ratio: number; sampledBytes: number }> {
  if (file.size === 0) return { ratio: 1, sampledBytes: 0 };
  const probes: Blob[] = file.size <= 3 * probeBytes
    ? [file]
    : [0, Math.floor(file.size / 2 - probeBytes / 2), file.size - probeBytes].map((at) => file.slice(at, at + probeBytes));
  let raw = 0;
  let packed = 0;
  for (const p of probes) {
    raw += p.size;
    packed += await gzipSize(p);
  }
  return { ratio: packed / raw, sampledBytes: raw };
}

/** The upload stream of a file, gzip when the sample says it pays. */
export async function compressFile(file: Blob, options: CompressOptions = {}): Promise<CompressResult> {
  const threshold = options.threshold ?? DEFAULT_COMPRESS_THRESHOLD;
  const { ratio, sampledBytes } = await estimateGzipRatio(file, options.probeBytes ?? DEFAULT_PROBE_BYTES);
  const compressed = file.size > 0 && ratio <= threshold;
  const raw = file.stream() as ReadableStream<Uint8Array>;
  const stream = compressed ? raw.pipeThrough(new CompressionStream('gzip') as unknown as TransformStream<Uint8Array, Uint8Array>) : raw;
  return { stream, compressed, encoding: compressed ? 'gzip' : 'identity', estimatedRatio: ratio, sampledBytes };
}
