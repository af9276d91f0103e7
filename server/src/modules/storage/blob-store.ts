import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';

/** Who pays for a blob: its tenant and its user (quotas apply to both). */
export interface BlobOwner {
  tenantId: string;
  userId: string;
}

const KEY_PATTERN = /^[A-Za-z0-9_.\-]+(\/[A-Za-z0-9_.\-]+)*$/;

/**
 * Files on the local disk under one root (`<DATA_DIR>/blobs`), addressed by keys such as
 * `u/<userId>/f/<fileId>`. Keys are relative paths of `[A-Za-z0-9_.-]` segments; `..` and empty
 * segments are refused so a key never leaves the root. Writes are atomic: the bytes go to a
 * temporary file next to the target, which is renamed over it once complete, so a reader sees
 * the old file or the new one, never a half-written one.
 */
export class BlobStore {
  readonly root: string;

  constructor(root: string) {
    this.root = path.resolve(root);
  }

  /** Absolute file path of a key (for DuckDB and other readers that want a path). */
  pathOf(key: string): string {
    if (!KEY_PATTERN.test(key) || key.split('/').some((s) => s === '.' || s === '..')) {
      throw new Error(`Invalid blob key: ${JSON.stringify(key)}`);
    }
    return path.join(this.root, key);
  }

  /** A fresh temporary path next to `key`'s file (same file system, so rename is atomic). */
  tempPathOf(key: string): string {
    const target = this.pathOf(key);
    return path.join(path.dirname(target), `.tmp-${path.basename(target)}-${randomBytes(6).toString('hex')}`);
  }

  /** Writes a key atomically from bytes or a stream; resolves with the stored size. */
  async put(key: string, data: Uint8Array | NodeJS.ReadableStream): Promise<{ size: number }> {
    const target = this.pathOf(key);
    await fsp.mkdir(path.dirname(target), { recursive: true });
    const tmp = this.tempPathOf(key);
    try {
      if (data instanceof Uint8Array) {
        await fsp.writeFile(tmp, data);
      } else {
        await pipeline(data as NodeJS.ReadableStream as Readable, fs.createWriteStream(tmp));
      }
      const { size } = await fsp.stat(tmp);
      await fsp.rename(tmp, target);
      return { size };
    } catch (err) {
      await fsp.rm(tmp, { force: true });
      throw err;
    }
  }

  /** Moves an existing file (for example a finished temporary file) into `key` atomically. */
  async adopt(key: string, file: string): Promise<{ size: number }> {
    const target = this.pathOf(key);
    await fsp.mkdir(path.dirname(target), { recursive: true });
    await fsp.rename(file, target);
    const { size } = await fsp.stat(target);
    return { size };
  }

  /** The whole content of a key; rejects with ENOENT when it is missing. */
  get(key: string): Promise<Buffer> {
    return fsp.readFile(this.pathOf(key));
  }

  /** A stream of a key's bytes (`start`/`end` inclusive, as `fs.createReadStream`). */
  openRead(key: string, range?: { start?: number; end?: number }): NodeJS.ReadableStream {
    return fs.createReadStream(this.pathOf(key), range);
  }

  /** Size of a key, or `null` when it does not exist. */
  async stat(key: string): Promise<{ size: number } | null> {
    try {
      const s = await fsp.stat(this.pathOf(key));
      return s.isFile() ? { size: s.size } : null;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw err;
    }
  }

  /** Deletes a key; a missing key is not an error. */
  async remove(key: string): Promise<void> {
    await fsp.rm(this.pathOf(key), { force: true });
  }

  /** Deletes every key under a prefix (a folder of keys). */
  async removePrefix(prefix: string): Promise<void> {
    await fsp.rm(this.pathOf(prefix.replace(/\/+$/, '')), { recursive: true, force: true });
  }
}
