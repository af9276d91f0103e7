import { Router } from '@koa/router';
import {
  AppError,
  addStorageSpaceSchema,
  contentByPathSchema,
  fileIdSchema,
  fileListSchema,
  uploadFileByContentSchema,
  uploadIdSchema,
  uploadPartInitSchema,
  type DownloadUrl,
} from '@decisio/domain';
import type { Readable } from 'node:stream';
import zlib from 'node:zlib';
import type { AppContext, AppState } from '../../http/context';
import { reply, type RouteKit } from '../../http/route';
import { jsonBody } from '../../http/body';
import { opened } from '../../http/stream';
import type { Clock } from '../../clock';
import type { ServerConfig } from '../../config';
import type { Database } from '../../db/database';
import { grants } from '../access/service';
import type { BlobOwner, BlobStore } from './blob-store';
import { configureQuotaDefaults } from './quota';
import { StorageService } from './service';

/** JSON limit of `file/uploadFileByContent`: 10 MB of content plus the JSON around it. */
const CODE_BODY_LIMIT = 12 * 1024 * 1024;

/** The caller as a blob owner (after `auth` and `tenant`). */
export function ownerOf(ctx: AppContext): BlobOwner {
  return { tenantId: ctx.state.tenantId!, userId: ctx.state.user!.id };
}

/** The URL of `GET /api/file/download/:fileId`. */
export function downloadUrlOf(fileId: string): string {
  return `/api/file/download/${fileId}`;
}

/** Parses a single `Range: bytes=a-b` header against a size; `null` without one, `'bad'` when unsatisfiable. */
export function parseRange(header: string | undefined, size: number): { start: number; end: number } | null | 'bad' {
  if (!header) return null;
  const m = /^bytes=(\d*)-(\d*)$/.exec(header.trim());
  if (!m || (m[1] === '' && m[2] === '')) return 'bad';
  let start: number;
  let end: number;
  if (m[1] === '') {
    const suffix = Number(m[2]);
    if (suffix === 0) return 'bad';
    start = Math.max(0, size - suffix);
    end = size - 1;
  } else {
    start = Number(m[1]);
    end = m[2] === '' ? size - 1 : Math.min(Number(m[2]), size - 1);
  }
  if (start >= size || start > end) return 'bad';
  return { start, end };
}

/**
 * Answers a blob as a download, honouring a single byte range. Resolves once the blob is open: a
 * blob missing from disk fails here (the envelope), not half-way through the answer.
 */
export async function sendBlob(ctx: AppContext, blobs: BlobStore, file: { blobKey: string; name: string; size: number }): Promise<void> {
  const range = parseRange(ctx.get('range') || undefined, file.size);
  ctx.set('Accept-Ranges', 'bytes');
  ctx.set('Content-Disposition', `attachment; filename*=UTF-8''${encodeURIComponent(file.name)}`);
  ctx.type = 'application/octet-stream';
  ctx.state.audit.type = 'query';
  if (range === 'bad') {
    ctx.status = 416;
    ctx.set('Content-Range', `bytes */${file.size}`);
    ctx.body = '';
    return;
  }
  if (range) {
    ctx.status = 206;
    ctx.set('Content-Range', `bytes ${range.start}-${range.end}/${file.size}`);
    ctx.length = range.end - range.start + 1;
    ctx.body = await opened(blobs.openRead(file.blobKey, range));
    return;
  }
  ctx.status = 200;
  ctx.length = file.size;
  ctx.body = file.size === 0 ? '' : await opened(blobs.openRead(file.blobKey));
}

/**
 * Storage calls. JSON calls go on `router`; the part upload (raw bytes, no size limit, no
 * timeout) and `file/uploadFileByContent` (10 MB of code) go on the returned router, which the
 * app mounts before its 1 MiB JSON body parser.
 */
export function storageRoutes(
  router: Router<AppState>,
  kit: RouteKit,
  deps: { db: Database; blobs: BlobStore; clock: Clock; config: Pick<ServerConfig, 'storageUserQuotaBytes' | 'storageTenantQuotaBytes'> },
): Router<AppState> {
  const { blobs, db } = deps;
  configureQuotaDefaults({ userBytes: deps.config.storageUserQuotaBytes, tenantBytes: deps.config.storageTenantQuotaBytes }, db.knex);
  const storage = new StorageService(db, blobs, deps.clock);
  const guard = [kit.auth, kit.tenant] as const;

  const init = kit.validate(uploadPartInitSchema);
  router.post('/file/uploadpartinit', ...guard, init, reply(async (ctx) => storage.initUpload(ownerOf(ctx), init.input(ctx))));

  const uploadId = kit.validate(uploadIdSchema);
  router.post('/file/uploadPartList', ...guard, uploadId, reply(async (ctx) => storage.state(ownerOf(ctx), uploadId.input(ctx).uploadId)));
  router.post('/file/uploadingList', ...guard, reply(async (ctx) => storage.openUploads(ownerOf(ctx))));
  router.post('/file/uploadPartComplete', ...guard, uploadId, reply(async (ctx) => storage.completeUpload(ownerOf(ctx), uploadId.input(ctx).uploadId)));
  router.post(
    '/file/mpuAbortOne',
    ...guard,
    uploadId,
    reply(async (ctx) => {
      await storage.abortUpload(ownerOf(ctx), uploadId.input(ctx).uploadId);
      return null;
    }),
  );

  router.post('/file/getFreeSpace', ...guard, reply(async (ctx) => storage.freeSpace(ownerOf(ctx))));
  const add = kit.validate(addStorageSpaceSchema);
  router.post(
    '/file/addStorageSpace',
    ...guard,
    add,
    kit.transaction,
    reply(async (ctx) => {
      const { size, userId } = add.input(ctx);
      const me = ctx.state.user!;
      let owner = ownerOf(ctx);
      if (userId && userId !== me.id) {
        if (!grants(me.permissions, 'users:write')) throw new AppError('userNotPermission');
        const target = (await db.executor()('users').where({ id: userId, tenant_id: owner.tenantId }).first('id')) as { id: string } | undefined;
        if (!target) throw new AppError('userNotFound');
        owner = { tenantId: owner.tenantId, userId };
      }
      return storage.addSpace(owner, size);
    }),
  );

  const listBody = kit.validate(fileListSchema);
  router.post('/file/fileItemList', ...guard, listBody, reply(async (ctx) => storage.listFiles(ownerOf(ctx), listBody.input(ctx))));
  router.post('/file/getDeleteFileRecord', ...guard, listBody, reply(async (ctx) => storage.listFiles(ownerOf(ctx), listBody.input(ctx), true)));

  const fileId = kit.validate(fileIdSchema);
  router.post(
    '/file/deleteFile',
    ...guard,
    fileId,
    reply(async (ctx) => {
      await storage.deleteFile(ownerOf(ctx), fileId.input(ctx).fileId);
      return null;
    }),
  );
  router.post(
    '/file/getGeneralFileDownloadUrl',
    ...guard,
    fileId,
    reply(async (ctx): Promise<DownloadUrl> => {
      const f = await storage.file(ownerOf(ctx), fileId.input(ctx).fileId);
      return { url: downloadUrlOf(f.fileId), name: f.name, size: f.size };
    }),
  );
  router.get('/file/download/:fileId', ...guard, async (ctx) => {
    const id = String(ctx.params.fileId ?? '');
    if (!/^[0-9a-f]{32}$/.test(id)) throw new AppError('fileNotFound');
    const row = await storage.fileRow(ownerOf(ctx), id, { includeDataset: true });
    await sendBlob(ctx, blobs, { blobKey: row.blob_key, name: row.name, size: row.size });
  });

  const byPath = kit.validate(contentByPathSchema);
  router.post('/file/getContentByFilePath', ...guard, byPath, reply(async (ctx) => storage.getCode(ownerOf(ctx), byPath.input(ctx).path)));

  // Routes that bypass the JSON body parser.
  /** Bytes a gzipped part may exceed its part's length by (headers of incompressible data). */
  const GZIP_SLACK = 64 * 1024;
  const raw = new Router<AppState>({ prefix: '/api' });
  const part = async (ctx: AppContext) => {
    ctx.req.setTimeout(0);
    const q = ctx.query;
    const id = String(q.uploadId ?? '');
    if (!/^[0-9a-f]{32}$/.test(id)) throw new AppError('paramInvalid', { uploadId: 'validation.invalid' });
    const partNumber = Number(q.partNumber);
    if (!Number.isInteger(partNumber) || partNumber < 1) throw new AppError('paramInvalid', { partNumber: 'validation.invalid' });
    const owner = ownerOf(ctx);
    const u = await storage.upload(owner, id);
    // An optional Content-Range must name exactly this part's bytes.
    const cr = ctx.get('content-range');
    if (cr) {
      const m = /^bytes (\d+)-(\d+)\/(\d+|\*)$/.exec(cr.trim());
      const { start, end } = storage.partRange(u, Math.min(partNumber, u.part_count));
      if (!m || Number(m[1]) !== start || Number(m[2]) !== end - 1 || (m[3] !== '*' && Number(m[3]) !== u.size)) {
        throw new AppError('paramInvalid', { range: 'validation.invalid' });
      }
    }
    // A part may come gzipped (`Content-Encoding: gzip`, when that made it smaller): it is
    // inflated on the way to disk and must inflate to exactly the part's bytes.
    const encoding = ctx.get('content-encoding').trim().toLowerCase();
    if (encoding !== '' && encoding !== 'identity' && encoding !== 'gzip') throw new AppError('paramInvalid', { encoding: 'validation.invalid' }, `Content-Encoding ${encoding} is not accepted`);
    // A declared length other than the part's is refused before any byte is read (a gzipped
    // part is bounded by the part's length too: compression that does not pay is not sent).
    const declared = ctx.get('content-length');
    if (declared && partNumber <= u.part_count) {
      const { start, end } = storage.partRange(u, partNumber);
      const most = encoding === 'gzip' ? end - start + GZIP_SLACK : end - start;
      if (Number(declared) > most) throw new AppError('bodyTooLarge', undefined, `Part ${partNumber} must have ${end - start} bytes`);
      const wrong = encoding !== 'gzip' && Number(declared) !== end - start;
      if (wrong) throw new AppError('paramInvalid', { _: 'validation.invalid' }, `Part ${partNumber} must have ${end - start} bytes`);
    }
    if (encoding !== 'gzip') return storage.writePart(owner, id, partNumber, ctx.req as Readable, u);
    const inflate = zlib.createGunzip();
    // Its error reaches writePart through `errored` whenever it fires; never unhandled.
    inflate.on('error', () => undefined);
    ctx.req.pipe(inflate);
    ctx.req.on('aborted', () => inflate.destroy(Object.assign(new Error('aborted'), { code: 'ECONNRESET' })));
    try {
      return await storage.writePart(owner, id, partNumber, inflate, u);
    } catch (err) {
      const code = (err as { code?: unknown }).code;
      if (typeof code === 'string' && code.startsWith('Z_')) throw new AppError('paramInvalid', { encoding: 'validation.invalid' }, `Part ${partNumber} is not valid gzip`);
      throw err;
    } finally {
      ctx.req.unpipe(inflate);
      if (!ctx.req.readableEnded) ctx.req.resume();
    }
  };
  raw.put('/file/uploadOneFile', ...guard, reply(part));
  raw.post('/file/uploadOneFile', ...guard, reply(part));

  const content = kit.validate(uploadFileByContentSchema);
  raw.post(
    '/file/uploadFileByContent',
    ...guard,
    jsonBody(CODE_BODY_LIMIT),
    content,
    reply(async (ctx) => storage.putCode(ownerOf(ctx), content.input(ctx).files)),
  );
  return raw;
}
