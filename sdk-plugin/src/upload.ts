/**
 * Resumable multipart upload in the browser. The file is sent in parts (`PUT
 * /api/file/uploadOneFile?uploadId&partNumber`, raw bytes, no timeout, with progress). The
 * upload id is kept in local storage under a key made of the file's name, size and modification
 * time, so that after a reload or a dropped connection choosing the same file again asks the
 * server which parts it holds (`file/uploadPartList`) and sends only the rest. Shared by every
 * plugin that uploads (storage, data access): each supplies the transport (its calls).
 * With `compress`, each part is gzipped in the browser (`CompressionStream`) and sent with
 * `Content-Encoding: gzip` when that makes it at least a tenth smaller; the server inflates it
 * on the way to disk. A part that does not shrink is sent raw, and so are the rest of the file.
 */
import { UPLOAD_PART, type FileItem, type UploadPurpose, type UploadState } from '@decisio/domain';

/** What the upload needs from the server. */
export interface UploadTransport {
  init(req: { name: string; size: number; purpose: UploadPurpose; partSize?: number }): Promise<UploadState>;
  state(uploadId: string): Promise<UploadState>;
  /** Sends a part; `encoding` `'gzip'`: `bytes` are the part gzipped (send `Content-Encoding: gzip`). */
  putPart(uploadId: string, partNumber: number, bytes: Blob, onProgress: (loaded: number) => void, signal: AbortSignal, encoding?: 'gzip'): Promise<void>;
  complete(uploadId: string): Promise<FileItem>;
}

/** Where upload ids are kept between page loads (local storage in the app). */
export interface ResumeStore {
  getItem(key: string): string | null;
  setItem(key: string, value: string): void;
  removeItem(key: string): void;
}

/** The local-storage key of a file's upload. */
export function resumeKey(file: { name: string; size: number; lastModified: number }): string {
  return `decisio.upload:${file.name}:${file.size}:${file.lastModified}`;
}

/** Progress of an upload. */
export interface UploadProgress {
  uploadId: string;
  sent: number;
  total: number;
  /** True when the upload continued one the server already had parts of. */
  resumed: boolean;
}

/** Options of {@link uploadResumable}. */
export interface UploadOptions {
  purpose: UploadPurpose;
  store: ResumeStore;
  signal: AbortSignal;
  onProgress?(p: UploadProgress): void;
  /** Tries per part on network failures (default 3). */
  retries?: number;
  /** Part size asked of the server (default: the server's). */
  partSize?: number;
  /** Gzip the parts where that pays (see the module comment). */
  compress?: boolean;
}

/** Largest compressed / original ratio for which a gzipped part is sent. */
export const GZIP_PAYS = 0.9;

/** A blob gzipped (`CompressionStream`), or null where the platform has none. */
export async function gzipBlob(blob: Blob): Promise<Blob | null> {
  if (typeof CompressionStream === 'undefined' || typeof blob.stream !== 'function') return null;
  return new Response(blob.stream().pipeThrough(new CompressionStream('gzip'))).blob();
}

/**
 * A part size for a file: 1 MiB parts below 64 MiB (finer progress and resume), the server's
 * default up to 256 MiB, 32 MiB above (each part is a request with its own checks: fewer parts
 * halved the server's CPU per GiB, see the server's storage README).
 */
export function partSizeFor(size: number): number {
  if (size < 64 * 1024 ** 2) return 1024 ** 2;
  return size < 256 * 1024 ** 2 ? UPLOAD_PART.default : 32 * 1024 ** 2;
}

/** Thrown when the upload was stopped with the abort signal (it can be resumed later). */
export class UploadStopped extends Error {
  constructor() {
    super('Upload stopped');
    this.name = 'UploadStopped';
  }
}

function isNetworkError(err: unknown): boolean {
  return err instanceof TypeError || (err instanceof Error && err.name === 'NetworkError');
}

/**
 * Uploads (or resumes) `file`; resolves with the stored file once the server has assembled it.
 * Stopping through `signal` keeps the server's parts for a later resume.
 */
export async function uploadResumable(file: File, transport: UploadTransport, options: UploadOptions): Promise<FileItem> {
  const key = resumeKey(file);
  let state: UploadState | null = null;
  const known = options.store.getItem(key);
  if (known) {
    try {
      const s = await transport.state(known);
      if (s.state === 'uploading' && s.size === file.size && s.name === file.name) state = s;
    } catch {
      /* gone or not ours any more: start again */
    }
    if (!state) options.store.removeItem(key);
  }
  const resumed = state !== null && state.parts.length > 0;
  if (!state) {
    state = await transport.init({ name: file.name, size: file.size, purpose: options.purpose, ...(options.partSize ? { partSize: options.partSize } : {}) });
    options.store.setItem(key, state.uploadId);
  }
  const { uploadId, partSize, partCount } = state;
  const have = new Set(state.parts);
  const sizeOf = (n: number) => Math.min(file.size, n * partSize) - (n - 1) * partSize;
  let sent = state.parts.reduce((s, n) => s + sizeOf(n), 0);
  const report = (extra: number) => options.onProgress?.({ uploadId, sent: sent + extra, total: file.size, resumed });
  report(0);
  const retries = options.retries ?? 3;
  let compress = options.compress ?? false;
  for (let n = 1; n <= partCount; n++) {
    if (have.has(n)) continue;
    const blob = file.slice((n - 1) * partSize, (n - 1) * partSize + sizeOf(n));
    let body: Blob = blob;
    let encoding: 'gzip' | undefined;
    if (compress) {
      const gz = await gzipBlob(blob);
      if (gz && gz.size <= blob.size * GZIP_PAYS) {
        body = gz;
        encoding = 'gzip';
      } else compress = false;
    }
    // progress in bytes of the file, whatever goes over the wire
    const scale = blob.size / Math.max(1, body.size);
    for (let attempt = 1; ; attempt++) {
      if (options.signal.aborted) throw new UploadStopped();
      try {
        await transport.putPart(uploadId, n, body, (loaded) => report(Math.min(blob.size, Math.round(loaded * scale))), options.signal, encoding);
        break;
      } catch (err) {
        if (options.signal.aborted) throw new UploadStopped();
        if (!isNetworkError(err) || attempt >= retries) throw err;
        await new Promise((r) => setTimeout(r, 500 * attempt));
      }
    }
    sent += sizeOf(n);
    report(0);
  }
  const stored = await transport.complete(uploadId);
  options.store.removeItem(key);
  return stored;
}

/** Headers of a call: the session token and user id (spec platform §7), a request id. */
export function callHeaders(session: { token: string | null; userId: string | null }): Record<string, string> {
  const h: Record<string, string> = { RequestId: `up-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 10)}` };
  if (session.token) h.Authorization = session.token;
  if (session.userId) h.UserId = session.userId;
  return h;
}

/**
 * Sends one part with `XMLHttpRequest` (upload progress events; no timeout). Rejects with a
 * `TypeError` on network failures (retried), with the envelope's message on a refused part.
 */
export function xhrPutPart(
  headers: Record<string, string>,
  uploadId: string,
  partNumber: number,
  bytes: Blob,
  onProgress: (loaded: number) => void,
  signal: AbortSignal,
  encoding?: 'gzip',
): Promise<void> {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open('PUT', `/api/file/uploadOneFile?uploadId=${encodeURIComponent(uploadId)}&partNumber=${partNumber}`);
    xhr.timeout = 0;
    for (const [k, v] of Object.entries(headers)) xhr.setRequestHeader(k, v);
    xhr.setRequestHeader('Content-Type', 'application/octet-stream');
    if (encoding) xhr.setRequestHeader('Content-Encoding', encoding);
    xhr.upload.onprogress = (e) => onProgress(e.loaded);
    const onAbort = () => xhr.abort();
    signal.addEventListener('abort', onAbort, { once: true });
    xhr.onloadend = () => signal.removeEventListener('abort', onAbort);
    xhr.onerror = () => reject(new TypeError('network error'));
    xhr.onabort = () => reject(new UploadStopped());
    xhr.onload = () => {
      let body: { code?: number; message?: string } | null = null;
      try {
        body = JSON.parse(xhr.responseText) as { code?: number; message?: string };
      } catch {
        /* not an envelope */
      }
      if (xhr.status === 200 && body?.code === 0) resolve();
      else reject(Object.assign(new Error(body?.message ?? `HTTP ${xhr.status}`), { code: body?.code, status: xhr.status }));
    };
    xhr.send(bytes);
  });
}
