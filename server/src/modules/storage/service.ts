import fs from 'node:fs';
import fsp from 'node:fs/promises';
import type { FileHandle } from 'node:fs/promises';
import path from 'node:path';
import { IncomingMessage } from 'node:http';
import type { Readable } from 'node:stream';
import type { Knex } from 'knex';
import {
  AppError,
  LIMITS,
  UPLOAD_MAX_PARTS,
  UPLOAD_PART,
  uploadFileType,
  type FileItem,
  type FreeSpace,
  type Page,
  type UploadPurpose,
  type UploadState,
} from '@decisio/domain';
import type { Clock } from '../../clock';
import type { Database } from '../../db/database';
import { newId } from '../../db/ids';
import type { BlobOwner, BlobStore } from './blob-store';
import { addUserSpace, chargeStorage, readQuotas, releaseStorage } from './quota';
import { checkDataFile } from '../datasets/ingest';

/** A row of `uploads`. */
export interface UploadRow {
  id: string;
  tenant_id: string;
  user_id: string;
  name: string;
  purpose: UploadPurpose;
  size: number;
  part_size: number;
  part_count: number;
  state: 'uploading' | 'completing' | 'completed' | 'aborted';
  file_id: string | null;
  created_at: unknown;
  updated_at: unknown;
}

/** A row of `storage_files`. */
export interface FileRow {
  id: string;
  tenant_id: string;
  user_id: string;
  kind: 'upload' | 'code' | 'dataset';
  name: string;
  path: string;
  blob_key: string;
  size: number;
  content_type: string | null;
  upload_id: string | null;
  created_at: unknown;
  updated_at: unknown;
  deleted_at: unknown;
}

/** Uploads untouched for this long are aborted (their reservation freed) by the next `init` of the user. */
const STALE_UPLOAD_MS = 7 * 24 * 3600_000;

/** Dates come back as epoch ms (SQLite) or 'YYYY-MM-DD HH:MM:SS.mmm' UTC strings (MySQL). */
export function toDate(value: unknown): Date | null {
  if (value === null || value === undefined) return null;
  if (value instanceof Date) return value;
  if (typeof value === 'number') return new Date(value);
  const s = String(value);
  if (/^\d+$/.test(s)) return new Date(Number(s));
  return new Date(s.includes('T') ? s : s.replace(' ', 'T') + 'Z');
}

function iso(value: unknown): string {
  return toDate(value)?.toISOString() ?? '';
}

function numberRow<T extends { size: number | string }>(row: T): T {
  return { ...row, size: Number(row.size) };
}

/** Blob key of an upload's data file (parts are written into it at their offsets). */
export function dataKey(uploadId: string): string {
  return `tmp/uploads/${uploadId}/data`;
}

/** The LIKE pattern of a keyword, `!` as escape character (same meaning on SQLite and MySQL). */
function likeOf(keyword: string): string {
  return `%${keyword.toLowerCase().replace(/[!%_]/g, (c) => '!' + c)}%`;
}

/** Bytes gathered from the request before one positional `writev` (fewer, larger writes). */
const WRITE_BATCH = 1024 * 1024;

/** Errors of a request body that broke off (reload, dropped connection). */
function isInterrupted(err: unknown): boolean {
  const code = (err as NodeJS.ErrnoException).code;
  return (err as Error).message === 'aborted' || code === 'ECONNRESET' || code === 'ERR_STREAM_PREMATURE_CLOSE';
}

/**
 * Writes a request body into `file` at `start` without truncating it, refusing more than `max`
 * bytes (nothing past `max` is written; the body is then destroyed). Chunks are gathered into
 * 1 MiB batches, each written with one positional `writev`; the socket keeps being read while
 * up to two batches are being written (then it is paused), so network and disk overlap. A
 * `pipe` into a write stream stalls the socket on every 16 KiB, and `for await` over the body
 * costs a promise per 64 KiB chunk. Resolves with the number of bytes received; rejects with
 * the body's error (or an `aborted` ECONNRESET when it closed before its end).
 */
export async function writeAt(file: string, start: number, body: Readable, max: number): Promise<number> {
  // The body may fail while the file is being opened (a gzipped part that is not gzip fails on
  // its first bytes): keep that error for below instead of letting it go unhandled.
  const early = (): void => undefined;
  body.on('error', early);
  let handle: FileHandle;
  try {
    handle = await fsp.open(file, fs.constants.O_WRONLY | fs.constants.O_CREAT);
  } finally {
    body.off('error', early);
  }
  if (body.errored || body.destroyed) {
    await handle.close();
    throw body.errored ?? Object.assign(new Error('aborted'), { code: 'ECONNRESET' });
  }
  let received = 0;
  let position = start;
  let batch: Buffer[] = [];
  let batchBytes = 0;
  let queued = 0;
  let writes: Promise<unknown> = Promise.resolve();
  try {
    const total = await new Promise<number>((resolve, reject) => {
      let settled = false;
      const settle = (err: unknown, value = 0) => {
        if (settled) return;
        settled = true;
        body.off('data', onData);
        body.off('end', onEnd);
        body.off('error', onError);
        body.off('close', onClose);
        if (err) reject(err);
        else resolve(value);
      };
      const flush = () => {
        const buffers = batch;
        const at = position;
        const n = batchBytes;
        position += n;
        batch = [];
        batchBytes = 0;
        queued += n;
        writes = writes.then(() => handle.writev(buffers, at)).then(() => {
          queued -= n;
          if (queued < 2 * WRITE_BATCH && !settled && body.isPaused()) body.resume();
        });
        writes.catch((err: unknown) => settle(err));
        if (queued >= 2 * WRITE_BATCH) body.pause();
      };
      const onData = (chunk: Buffer) => {
        received += chunk.length;
        if (received > max) {
          settle(new AppError('bodyTooLarge', undefined, 'Part larger than declared'));
          // A request stops being read (Node drains it after the 413 answer, which asks the
          // client to close): destroying it would reset the socket before the answer. Any other
          // stream (an inflater) is destroyed.
          if (body instanceof IncomingMessage) body.pause();
          else body.destroy();
          return;
        }
        batch.push(chunk);
        batchBytes += chunk.length;
        if (batchBytes >= WRITE_BATCH) flush();
      };
      const onEnd = () => {
        if (batchBytes > 0) flush();
        settle(null, received);
      };
      const onError = (err: unknown) => settle(err);
      const onClose = () => settle(Object.assign(new Error('aborted'), { code: 'ECONNRESET' }));
      body.on('data', onData);
      body.once('end', onEnd);
      body.once('error', onError);
      body.once('close', onClose);
    });
    await writes;
    return total;
  } finally {
    await writes.catch(() => undefined);
    await handle.close();
  }
}

/**
 * Storage: multipart uploads to the blob store, quotas, the file list, downloads and code files.
 * Nothing is visible before it is complete: parts are written at their offsets into
 * `tmp/uploads/<id>/data`, which is renamed into place once every part is there, and only then
 * is its row written.
 */
export class StorageService {
  constructor(
    private readonly db: Database,
    private readonly blobs: BlobStore,
    private readonly clock: Clock,
  ) {}

  private get knex() {
    return this.db.executor();
  }

  // ---------------------------------------------------------------- uploads

  /** Starts an upload: reserves `size` bytes of the user's and tenant's quota. */
  async initUpload(owner: BlobOwner, input: { name: string; size: number; purpose: UploadPurpose; partSize?: number }): Promise<UploadState> {
    // An empty file: a dataset would be refused as empty, any other file holds nothing to keep.
    if (input.size === 0) throw input.purpose === 'dataset' ? new AppError('datasetEmpty') : new AppError('paramInvalid', { size: 'validation.required' });
    await this.sweepStale(owner);
    let partSize = input.partSize ?? UPLOAD_PART.default;
    if (Math.ceil(input.size / partSize) > UPLOAD_MAX_PARTS) partSize = Math.ceil(input.size / UPLOAD_MAX_PARTS);
    const partCount = Math.max(1, Math.ceil(input.size / partSize));
    const id = newId();
    const now = this.clock.now();
    await this.db.transaction(async () => {
      await chargeStorage(this.knex, owner, input.size);
      await this.knex('uploads').insert({
        id,
        tenant_id: owner.tenantId,
        user_id: owner.userId,
        name: input.name,
        purpose: input.purpose,
        size: input.size,
        part_size: partSize,
        part_count: partCount,
        state: 'uploading',
        file_id: null,
        created_at: now,
        updated_at: now,
      });
    });
    return this.state(owner, id);
  }

  /** An upload of the owner, or `fileNotFound`. */
  async upload(owner: BlobOwner, uploadId: string): Promise<UploadRow> {
    const row = (await this.knex('uploads').where({ id: uploadId, tenant_id: owner.tenantId, user_id: owner.userId }).first()) as
      | UploadRow
      | undefined;
    if (!row) throw new AppError('fileNotFound');
    return { ...row, size: Number(row.size) };
  }

  /** The upload and the parts received so far (what a client needs to resume). */
  async state(owner: BlobOwner, uploadId: string): Promise<UploadState> {
    const u = await this.upload(owner, uploadId);
    const parts = (await this.knex('upload_parts').where({ upload_id: uploadId }).orderBy('part_number').select('part_number', 'size')) as {
      part_number: number;
      size: number;
    }[];
    return {
      uploadId: u.id,
      name: u.name,
      purpose: u.purpose,
      size: u.size,
      partSize: u.part_size,
      partCount: u.part_count,
      state: u.state === 'completing' ? 'uploading' : u.state,
      parts: parts.map((p) => Number(p.part_number)),
      receivedBytes: parts.reduce((s, p) => s + Number(p.size), 0),
      fileId: u.file_id,
      createdAt: iso(u.created_at),
    };
  }

  /** The owner's unfinished uploads, newest first (to resume after a reload). */
  async openUploads(owner: BlobOwner): Promise<UploadState[]> {
    const rows = (await this.knex('uploads')
      .where({ tenant_id: owner.tenantId, user_id: owner.userId })
      .whereIn('state', ['uploading', 'completing'])
      .orderBy('created_at', 'desc')
      .select('id')) as { id: string }[];
    return Promise.all(rows.map((r) => this.state(owner, r.id)));
  }

  /** Byte range `[start, end)` of a part. */
  partRange(u: UploadRow, partNumber: number): { start: number; end: number } {
    const start = (partNumber - 1) * u.part_size;
    return { start, end: Math.min(u.size, start + u.part_size) };
  }

  /**
   * Streams one part into the upload's data file at the part's offset (no second copy on
   * completion). A part is recorded only once all its bytes are on disk and it has the expected
   * length; a part that broke off is simply sent again and overwrites the same range.
   */
  async writePart(
    owner: BlobOwner,
    uploadId: string,
    partNumber: number,
    body: Readable,
    loaded?: UploadRow,
  ): Promise<{ partNumber: number; size: number }> {
    const u = loaded?.id === uploadId ? loaded : await this.upload(owner, uploadId);
    if (u.state !== 'uploading') throw new AppError('paramInvalid', { uploadId: 'validation.invalid' }, 'Upload is not open');
    if (!Number.isInteger(partNumber) || partNumber < 1 || partNumber > u.part_count) {
      throw new AppError('paramInvalid', { partNumber: 'validation.invalid' });
    }
    const { start, end } = this.partRange(u, partNumber);
    const expected = end - start;
    const file = this.blobs.pathOf(dataKey(uploadId));
    let received: number;
    try {
      received = await writeAt(file, start, body, expected).catch(async (err: unknown) => {
        // The upload's folder is made by its first part.
        if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
        await fsp.mkdir(path.dirname(file), { recursive: true });
        return writeAt(file, start, body, expected);
      });
    } catch (err) {
      if (err instanceof AppError) throw err;
      // The client went away mid-part: the part is simply not recorded.
      if (isInterrupted(err)) throw new AppError('paramInvalid', { partNumber: 'validation.invalid' }, 'Part interrupted');
      throw err;
    }
    if (received !== expected) {
      throw new AppError('paramInvalid', { _: 'validation.invalid' }, `Part ${partNumber} must have ${expected} bytes, got ${received}`);
    }
    const now = this.clock.now();
    await this.knex('upload_parts')
      .insert({ upload_id: uploadId, part_number: partNumber, size: expected, created_at: now })
      .onConflict(['upload_id', 'part_number'])
      .merge(['size', 'created_at']);
    const touched = await this.knex('uploads').where({ id: uploadId }).whereNot({ state: 'aborted' }).update({ updated_at: now });
    // Aborted (or gone) while the part was on its way: leave nothing behind.
    if (Number(touched) === 0) {
      await this.blobs.removePrefix(`tmp/uploads/${uploadId}`);
      throw new AppError('paramInvalid', { uploadId: 'validation.invalid' }, 'Upload was aborted');
    }
    return { partNumber, size: expected };
  }

  /**
   * Checks that every part is there, moves the data file into place and records it. The
   * reservation made by `initUpload` becomes the file's charge.
   */
  async completeUpload(owner: BlobOwner, uploadId: string): Promise<FileItem> {
    const u = await this.upload(owner, uploadId);
    if (u.state === 'completed' && u.file_id) return this.file(owner, u.file_id, { includeDataset: true });
    if (u.state !== 'uploading') throw new AppError('paramInvalid', { uploadId: 'validation.invalid' }, 'Upload is not open');
    const parts = (await this.knex('upload_parts').where({ upload_id: uploadId }).orderBy('part_number')) as {
      part_number: number;
      size: number;
    }[];
    const missing: number[] = [];
    for (let n = 1; n <= u.part_count; n++) {
      const p = parts.find((x) => Number(x.part_number) === n);
      const { start, end } = this.partRange(u, n);
      if (!p || Number(p.size) !== end - start) missing.push(n);
    }
    if (missing.length > 0) {
      throw new AppError('paramInvalid', { parts: `missing parts: ${missing.slice(0, 20).join(', ')}` }, 'Upload incomplete');
    }
    // Claim the upload so a concurrent abort or complete cannot interleave.
    const claimed = await this.knex('uploads').where({ id: uploadId, state: 'uploading' }).update({ state: 'completing', updated_at: this.clock.now() });
    if (Number(claimed) === 0) throw new AppError('paramInvalid', { uploadId: 'validation.invalid' }, 'Upload is not open');
    const fileId = newId();
    const key = `u/${owner.userId}/f/${fileId}`;
    const data = this.blobs.pathOf(dataKey(uploadId));
    await this.checkDatasetUpload(owner, u, data);
    let moved = false;
    try {
      const { size } = await fsp.stat(data);
      if (size !== u.size) throw new Error(`Data file has ${size} bytes, expected ${u.size}`);
      await this.blobs.adopt(key, data);
      moved = true;
      const now = this.clock.now();
      await this.db.transaction(async () => {
        await this.knex('storage_files').insert({
          id: fileId,
          tenant_id: owner.tenantId,
          user_id: owner.userId,
          kind: 'upload',
          name: u.name,
          path: u.name,
          blob_key: key,
          size: u.size,
          content_type: null,
          upload_id: uploadId,
          created_at: now,
          updated_at: now,
          deleted_at: null,
        });
        await this.knex('uploads').where({ id: uploadId }).update({ state: 'completed', file_id: fileId, updated_at: now });
        await this.knex('upload_parts').where({ upload_id: uploadId }).delete();
      });
    } catch (err) {
      // Put the data back so that the client can try again.
      if (moved) await fsp.rename(this.blobs.pathOf(key), data).catch(() => undefined);
      await this.knex('uploads').where({ id: uploadId, state: 'completing' }).update({ state: 'uploading', updated_at: this.clock.now() });
      throw err;
    }
    await this.blobs.removePrefix(`tmp/uploads/${uploadId}`);
    return this.file(owner, fileId);
  }

  /**
   * A dataset upload (csv, npz, h5) gets the checks of `table/create` when it completes: empty,
   * not UTF-8 or binary, another delimiter, repeated or bad column names, unreadable arrays. A
   * refused file is discarded (its space freed) with the check's error; the user fixes the file
   * and uploads it again. Any other failure leaves the upload open to try again.
   */
  private async checkDatasetUpload(owner: BlobOwner, u: UploadRow, data: string): Promise<void> {
    const kind = u.purpose === 'dataset' ? uploadFileType(u.name) : null;
    if (!kind) return;
    try {
      await checkDataFile(data, kind);
    } catch (err) {
      if (!(err instanceof AppError)) {
        await this.knex('uploads').where({ id: u.id, state: 'completing' }).update({ state: 'uploading', updated_at: this.clock.now() });
        throw err;
      }
      await this.db.transaction(async () => {
        await this.knex('uploads').where({ id: u.id }).update({ state: 'aborted', updated_at: this.clock.now() });
        await this.knex('upload_parts').where({ upload_id: u.id }).delete();
        await releaseStorage(this.knex, owner, Number(u.size));
      });
      await this.blobs.removePrefix(`tmp/uploads/${u.id}`);
      throw err;
    }
  }

  /** Aborts an open upload: its parts are deleted and its reservation freed. */
  async abortUpload(owner: BlobOwner, uploadId: string): Promise<void> {
    const u = await this.upload(owner, uploadId);
    if (u.state === 'aborted') return;
    if (u.state !== 'uploading') throw new AppError('paramInvalid', { uploadId: 'validation.invalid' }, 'Upload is not open');
    await this.db.transaction(async () => {
      const n = await this.knex('uploads').where({ id: uploadId, state: 'uploading' }).update({ state: 'aborted', updated_at: this.clock.now() });
      if (Number(n) === 0) throw new AppError('paramInvalid', { uploadId: 'validation.invalid' }, 'Upload is not open');
      await this.knex('upload_parts').where({ upload_id: uploadId }).delete();
      await releaseStorage(this.knex, owner, u.size);
    });
    await this.blobs.removePrefix(`tmp/uploads/${uploadId}`);
  }

  /** Aborts the owner's uploads untouched for a week. */
  private async sweepStale(owner: BlobOwner): Promise<void> {
    const before = new Date(this.clock.now().getTime() - STALE_UPLOAD_MS);
    const stale = (await this.knex('uploads')
      .where({ tenant_id: owner.tenantId, user_id: owner.userId, state: 'uploading' })
      .where('updated_at', '<', before)
      .select('id')) as { id: string }[];
    for (const s of stale) await this.abortUpload(owner, s.id).catch(() => undefined);
  }

  // ---------------------------------------------------------------- quota

  /** Remaining and total space of the user and the tenant. */
  async freeSpace(owner: BlobOwner): Promise<FreeSpace> {
    const q = await readQuotas(this.knex, owner);
    const free = (t: number, u: number) => Math.max(0, t - u);
    return {
      totalBytes: q.user.totalBytes,
      usedBytes: q.user.usedBytes,
      breakdown: await this.usage(owner, q.user.usedBytes),
      freeBytes: Math.min(free(q.user.totalBytes, q.user.usedBytes), free(q.tenant.totalBytes, q.tenant.usedBytes)),
      tenant: { totalBytes: q.tenant.totalBytes, usedBytes: q.tenant.usedBytes, freeBytes: free(q.tenant.totalBytes, q.tenant.usedBytes) },
    };
  }

  /**
   * What the used space is made of: uploaded files and code files (listed on the storage page),
   * the columnar copies of datasets, space held by unfinished uploads, and the rest, which is
   * what trainings keep (models, checkpoints, logs, TensorBoard events).
   */
  private async usage(owner: BlobOwner, used: number): Promise<NonNullable<FreeSpace['breakdown']>> {
    const sum = async (q: Knex.QueryBuilder, column: string) => Number(((await q.sum({ n: column }).first()) as { n: number | string | null } | undefined)?.n ?? 0);
    const mine = { tenant_id: owner.tenantId, user_id: owner.userId };
    const files = await sum(this.knex('storage_files').where(mine).whereNull('deleted_at').where('kind', 'upload'), 'size');
    const code = await sum(this.knex('storage_files').where(mine).whereNull('deleted_at').where('kind', 'code'), 'size');
    const datasets = await sum(this.knex('datasets').where(mine), 'columnar_size');
    const uploading = await sum(this.knex('uploads').where(mine).whereIn('state', ['uploading', 'completing']), 'size');
    return { files, code, datasets, uploading, artefacts: Math.max(0, used - files - code - datasets - uploading) };
  }

  /** Adds `gb` GB to a user's total (at most 500 GB in all). */
  async addSpace(owner: BlobOwner, gb: number): Promise<FreeSpace> {
    await addUserSpace(this.knex, owner, Math.round(gb * 1024 ** 3));
    return this.freeSpace(owner);
  }

  // ---------------------------------------------------------------- files

  /** A live file of the owner, or `fileNotFound`. Dataset copies are hidden unless asked for. */
  async fileRow(owner: BlobOwner, fileId: string, options: { includeDataset?: boolean } = {}): Promise<FileRow> {
    const q = this.knex('storage_files').where({ id: fileId, tenant_id: owner.tenantId, user_id: owner.userId }).whereNull('deleted_at');
    if (!options.includeDataset) q.whereNot('kind', 'dataset');
    const row = (await q.first()) as FileRow | undefined;
    if (!row) throw new AppError('fileNotFound');
    return numberRow(row);
  }

  async file(owner: BlobOwner, fileId: string, options: { includeDataset?: boolean } = {}): Promise<FileItem> {
    return presentFile(await this.fileRow(owner, fileId, options));
  }

  /** The owner's files (or deleted-file records), newest first. */
  async listFiles(owner: BlobOwner, query: { page: number; pageSize: number; keyword?: string; kind?: 'upload' | 'code' }, deleted = false): Promise<Page<FileItem>> {
    const base = this.knex('storage_files').where({ tenant_id: owner.tenantId, user_id: owner.userId });
    if (deleted) base.whereNotNull('deleted_at');
    else base.whereNull('deleted_at');
    if (query.kind) base.where('kind', query.kind);
    else base.whereIn('kind', ['upload', 'code']);
    if (query.keyword) base.whereRaw("lower(name) like ? escape '!'", [likeOf(query.keyword)]);
    const totalRow = (await base.clone().count({ n: '*' }).first()) as { n: number | string };
    const rows = (await base
      .clone()
      .orderBy([{ column: deleted ? 'deleted_at' : 'created_at', order: 'desc' }, { column: 'id' }])
      .offset((query.page - 1) * query.pageSize)
      .limit(query.pageSize)) as FileRow[];
    return { rows: rows.map((r) => presentFile(numberRow(r))), total: Number(totalRow.n), page: query.page, pageSize: query.pageSize };
  }

  /**
   * Deletes a file: its bytes go, its row stays as a deletion record, its space is freed. A file
   * a dataset was made from is in use (`tableInUse`) until the dataset is deleted.
   */
  async deleteFile(owner: BlobOwner, fileId: string): Promise<void> {
    const row = await this.fileRow(owner, fileId);
    const used = await this.knex('datasets').where({ source_file_id: fileId }).first('id');
    if (used) throw new AppError('tableInUse');
    await this.removeFileRow(owner, row);
  }

  /** Marks a file deleted, frees its space and removes its bytes (also for dataset files). */
  async removeFileRow(owner: BlobOwner, row: FileRow): Promise<void> {
    await this.db.transaction(async () => {
      const n = await this.knex('storage_files').where({ id: row.id }).whereNull('deleted_at').update({ deleted_at: this.clock.now() });
      if (Number(n) > 0) await releaseStorage(this.knex, owner, row.size);
    });
    await this.blobs.remove(row.blob_key);
  }

  // ---------------------------------------------------------------- code files

  /**
   * Writes code files (text) under their paths; an existing path is overwritten. At most 10 MB
   * in all per call. The quota is charged for the growth.
   */
  async putCode(owner: BlobOwner, files: { path: string; content: string }[]): Promise<FileItem[]> {
    const sized = files.map((f) => ({ ...f, bytes: Buffer.from(f.content, 'utf8') }));
    const total = sized.reduce((s, f) => s + f.bytes.length, 0);
    if (total > LIMITS.codeUploadMaxBytes) throw new AppError('paramInvalid', { files: 'validation.invalid' }, 'More than 10 MB');
    const now = this.clock.now();
    const written: { key: string; tmp: string }[] = [];
    const ids: string[] = [];
    try {
      // Bytes first (temporary files), rows and renames in one transaction.
      for (const f of sized) {
        const key = `u/${owner.userId}/code/${newId()}`;
        const tmp = this.blobs.tempPathOf(key);
        await fsp.mkdir(path.dirname(tmp), { recursive: true });
        await fsp.writeFile(tmp, f.bytes);
        written.push({ key, tmp });
      }
      const replaced: string[] = [];
      await this.db.transaction(async () => {
        for (let i = 0; i < sized.length; i++) {
          const f = sized[i]!;
          const old = (await this.knex('storage_files')
            .where({ tenant_id: owner.tenantId, user_id: owner.userId, kind: 'code', path: f.path })
            .whereNull('deleted_at')
            .first()) as FileRow | undefined;
          const grow = f.bytes.length - (old ? Number(old.size) : 0);
          if (grow > 0) await chargeStorage(this.knex, owner, grow);
          else if (grow < 0) await releaseStorage(this.knex, owner, -grow);
          const key = written[i]!.key;
          if (old) {
            await this.knex('storage_files').where({ id: old.id }).update({ blob_key: key, size: f.bytes.length, updated_at: now });
            replaced.push(old.blob_key);
            ids.push(old.id);
          } else {
            const id = newId();
            await this.knex('storage_files').insert({
              id,
              tenant_id: owner.tenantId,
              user_id: owner.userId,
              kind: 'code',
              name: f.path.split('/').pop()!,
              path: f.path,
              blob_key: key,
              size: f.bytes.length,
              content_type: 'text/plain; charset=utf-8',
              upload_id: null,
              created_at: now,
              updated_at: now,
              deleted_at: null,
            });
            ids.push(id);
          }
        }
        for (const w of written) await this.blobs.adopt(w.key, w.tmp);
      });
      for (const key of replaced) await this.blobs.remove(key);
    } catch (err) {
      for (const w of written) {
        await fsp.rm(w.tmp, { force: true });
      }
      // Renamed blobs whose rows were rolled back.
      for (const w of written) {
        const live = await this.knex('storage_files').where({ blob_key: w.key }).first('id');
        if (!live) await this.blobs.remove(w.key);
      }
      throw err;
    }
    return Promise.all(ids.map((id) => this.file(owner, id)));
  }

  /** The text of a code file, or `fileNotFound`. */
  async getCode(owner: BlobOwner, filePath: string): Promise<{ path: string; content: string; size: number; updatedAt: string }> {
    const row = (await this.knex('storage_files')
      .where({ tenant_id: owner.tenantId, user_id: owner.userId, kind: 'code', path: filePath })
      .whereNull('deleted_at')
      .first()) as FileRow | undefined;
    if (!row) throw new AppError('fileNotFound');
    const content = (await this.blobs.get(row.blob_key)).toString('utf8');
    return { path: row.path, content, size: Number(row.size), updatedAt: iso(row.updated_at) };
  }
}

/** A file row as the API shows it. */
export function presentFile(r: FileRow): FileItem {
  return {
    fileId: r.id,
    name: r.name,
    path: r.path,
    kind: r.kind,
    size: Number(r.size),
    userId: r.user_id,
    createdAt: iso(r.created_at),
    updatedAt: iso(r.updated_at),
    deletedAt: r.deleted_at == null ? null : iso(r.deleted_at),
  };
}
