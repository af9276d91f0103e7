/**
 * Random access to the bytes of a file without loading it whole: a `Blob`/`File` is sliced and
 * only the requested range is read. Parsers take a {@link ByteSource} so that tests can feed
 * them plain byte arrays.
 */

/** Random-access bytes. */
export interface ByteSource {
  /** Total size in bytes. */
  readonly size: number;
  /** Reads `[offset, offset + length)`, clipped to the end of the source. */
  read(offset: number, length: number): Promise<Uint8Array>;
}

/** A {@link ByteSource} over a Blob or File; each read slices and reads only that range. */
export function blobSource(blob: Blob): ByteSource {
  return {
    size: blob.size,
    async read(offset, length) {
      const end = Math.min(blob.size, offset + length);
      if (offset >= end) return new Uint8Array(0);
      return new Uint8Array(await blob.slice(offset, end).arrayBuffer());
    },
  };
}

/** A {@link ByteSource} over bytes in memory. */
export function bytesSource(bytes: Uint8Array): ByteSource {
  return {
    size: bytes.length,
    async read(offset, length) {
      return bytes.subarray(Math.min(offset, bytes.length), Math.min(bytes.length, offset + length));
    },
  };
}
