import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import zlib from 'node:zlib';
import { afterAll, describe, expect, it } from 'vitest';
import { AppError } from '@decisio/domain';
import { writeAt } from './service';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'decisio-write-at-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

/** `data` as a body of chunks of the given sizes (cycled), as a socket delivers it. */
function chunks(data: Buffer, sizes: number[]): Readable {
  async function* gen(): AsyncGenerator<Buffer> {
    let at = 0;
    for (let i = 0; at < data.length; i++) {
      const n = sizes[i % sizes.length]!;
      yield data.subarray(at, at + n);
      at += n;
    }
  }
  return Readable.from(gen());
}

describe('writeAt (part bodies into the upload file)', () => {
  it('writes parts of several batches at their offsets without truncating the file, in any order', async () => {
    const file = path.join(dir, 'parts');
    const part = 3 * 1024 * 1024 + 12_345; // more than three write batches
    const data = randomBytes(2 * part + 777);
    // Second part first, then the last (short) one, then the first: a resumed upload does that.
    expect(await writeAt(file, part, chunks(data.subarray(part, 2 * part), [65_536, 1, 300_000]), part)).toBe(part);
    expect(await writeAt(file, 2 * part, chunks(data.subarray(2 * part), [100]), 777)).toBe(777);
    expect(await writeAt(file, 0, chunks(data.subarray(0, part), [2 * 1024 * 1024 + 3]), part)).toBe(part);
    expect(fs.readFileSync(file).equals(data)).toBe(true);
  });

  it('refuses a body longer than declared and writes nothing past its range', async () => {
    const file = path.join(dir, 'over');
    fs.writeFileSync(file, Buffer.alloc(3000, 7));
    const body = randomBytes(2000);
    await expect(writeAt(file, 0, chunks(body, [1500]), 1000)).rejects.toBeInstanceOf(AppError);
    const after = fs.readFileSync(file);
    expect(after.length).toBe(3000);
    expect(after.subarray(1000).equals(Buffer.alloc(2000, 7))).toBe(true);
  });

  it('reports a short body by its length (the caller refuses it) and passes on a broken body', async () => {
    const file = path.join(dir, 'short');
    expect(await writeAt(file, 0, chunks(randomBytes(10), [4]), 100)).toBe(10);
    async function* broken(): AsyncGenerator<Buffer> {
      yield Buffer.alloc(10);
      throw Object.assign(new Error('aborted'), { code: 'ECONNRESET' });
    }
    await expect(writeAt(file, 0, Readable.from(broken()), 100)).rejects.toThrow('aborted');
    // A body that closes before its end (the client went away) is not taken as complete.
    const cut = new Readable({ read() {} });
    cut.push(Buffer.alloc(10));
    setTimeout(() => cut.destroy(), 20);
    await expect(writeAt(file, 0, cut, 100)).rejects.toThrow('aborted');
  });

  it('passes on an error the body raised before it was read (while the file was opening)', async () => {
    const file = path.join(dir, 'early');
    // Not gzip: the inflater fails on its first bytes, before writeAt has its file open.
    for (let i = 0; i < 20; i++) {
      const inflate = zlib.createGunzip();
      inflate.end(randomBytes(1000));
      await expect(writeAt(file, 0, inflate, 100_000)).rejects.toMatchObject({ code: 'Z_DATA_ERROR' });
    }
    // One that had already failed and closed before the call.
    const failed = zlib.createGunzip();
    failed.on('error', () => undefined);
    failed.end(randomBytes(1000));
    await new Promise((r) => failed.once('close', r));
    await expect(writeAt(file, 0, failed, 100_000)).rejects.toMatchObject({ code: 'Z_DATA_ERROR' });
  });
});
