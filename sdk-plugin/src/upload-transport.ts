/**
 * The React side of {@link uploadResumable}: a plugin that uploads passes its own mutations of
 * the upload calls (`file/uploadpartinit`, `file/uploadPartList`, `file/uploadPartComplete`, with
 * its own cache tags) and gets the transport, the parts going out with the session's headers.
 */
import { useMemo } from 'react';
import type { FileItem, UploadState } from '@decisio/domain';
import { useSession } from './react';
import { callHeaders, resumeKey, xhrPutPart, type ResumeStore, type UploadTransport } from './upload';

/** An RTK Query mutation trigger (`const [init] = api.endpoints[...].useMutation()`). */
export type MutationTrigger<A, R> = (arg: A) => { unwrap(): Promise<R> };

/**
 * The transport of {@link uploadResumable} over the plugin's mutations of the upload calls:
 * `init` (`file/uploadpartinit`), `parts` (`file/uploadPartList`), `complete`
 * (`file/uploadPartComplete`); parts are PUT by `xhrPutPart` with the session's headers.
 */
export function useUploadTransport(
  init: MutationTrigger<Parameters<UploadTransport['init']>[0], UploadState>,
  parts: MutationTrigger<{ uploadId: string }, UploadState>,
  complete: MutationTrigger<{ uploadId: string }, FileItem>,
): UploadTransport {
  const session = useSession();
  return useMemo<UploadTransport>(
    () => ({
      init: (req) => init(req).unwrap(),
      state: (uploadId) => parts({ uploadId }).unwrap(),
      complete: (uploadId) => complete({ uploadId }).unwrap(),
      putPart: (uploadId, n, bytes, onProgress, signal, encoding) => xhrPutPart(callHeaders(session), uploadId, n, bytes, onProgress, signal, encoding),
    }),
    [init, parts, complete, session],
  );
}

/** A {@link ResumeStore} that can be walked (local storage). */
export interface ListableResumeStore extends ResumeStore {
  readonly length: number;
  key(index: number): string | null;
}

/** Forgets an upload that was discarded (`file/mpuAbortOne`): removes every resume key ({@link resumeKey}) that points at it. */
export function forgetUpload(store: ListableResumeStore, uploadId: string): void {
  const prefix = resumeKey({ name: '', size: 0, lastModified: 0 }).split(':')[0]!;
  for (let i = store.length - 1; i >= 0; i--) {
    const key = store.key(i);
    if (key?.startsWith(`${prefix}:`) && store.getItem(key) === uploadId) store.removeItem(key);
  }
}
