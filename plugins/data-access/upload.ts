/** The resumable upload client of `@decisio/sdk-plugin`, for dataset sources (purpose `dataset`, finer parts for small files). */
import { partSizeFor, uploadResumable as upload, type ResumeStore, type UploadProgress, type UploadTransport } from '@decisio/sdk-plugin';
import type { FileItem } from '@decisio/domain';

export { callHeaders, partSizeFor, resumeKey, UploadStopped, xhrPutPart, type ResumeStore, type UploadProgress, type UploadTransport } from '@decisio/sdk-plugin';

/** Uploads (or resumes) `file` as a dataset source; resolves with the stored file. */
export function uploadResumable(
  file: File,
  transport: UploadTransport,
  options: { store: ResumeStore; signal: AbortSignal; onProgress?(p: UploadProgress): void; retries?: number },
): Promise<FileItem> {
  // Datasets are mostly text: gzip pays for csv parts (the client stops trying when a part does not shrink).
  return upload(file, transport, { ...options, purpose: 'dataset', partSize: partSizeFor(file.size), compress: true });
}
