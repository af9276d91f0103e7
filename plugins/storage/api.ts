/**
 * Storage calls (spec platform §7 "Files"), as endpoints `storage/<verb>` on the base api. The
 * part upload itself is not an endpoint: it sends raw bytes with progress (see `upload.ts`).
 */
import type { FileItem, FreeSpace, Page, UploadFileByContentRequest, UploadPartInitRequest, UploadState } from '@decisio/domain';
import { definePluginApi, type PluginEndpointBuilder } from '@decisio/sdk-plugin';

const FILES = { type: 'StorageFile' as const, id: 'LIST' };
const SPACE = { type: 'StorageSpace' as const, id: 'ME' };
const UPLOADS = { type: 'StorageUpload' as const, id: 'LIST' };

/** The endpoint builder, also listed in the manifest's `endpoints`. */
export const storageEndpoints = (build: PluginEndpointBuilder) => ({
  'storage/freeSpace': build.query<FreeSpace, void>({ query: () => ({ url: 'file/getFreeSpace' }), providesTags: [SPACE] }),
  'storage/files': build.query<Page<FileItem>, { page: number; pageSize: number; keyword?: string }>({
    query: (body) => ({ url: 'file/fileItemList', body }),
    providesTags: [FILES],
  }),
  'storage/deletedFiles': build.query<Page<FileItem>, { page: number; pageSize: number }>({
    query: (body) => ({ url: 'file/getDeleteFileRecord', body }),
    providesTags: [FILES],
  }),
  'storage/addSpace': build.mutation<FreeSpace, { size: number }>({
    query: (body) => ({ url: 'file/addStorageSpace', body }),
    invalidatesTags: [SPACE],
  }),
  'storage/uploading': build.query<UploadState[], void>({ query: () => ({ url: 'file/uploadingList' }), providesTags: [UPLOADS] }),
  'storage/deleteFile': build.mutation<null, { fileId: string }>({
    query: (body) => ({ url: 'file/deleteFile', body }),
    invalidatesTags: [FILES, SPACE],
  }),
  /** Text code files kept under their paths (a folder upload); an existing path is overwritten. */
  'storage/putCode': build.mutation<FileItem[], UploadFileByContentRequest>({ query: (body) => ({ url: 'file/uploadFileByContent', body }), invalidatesTags: [FILES, SPACE] }),
  'storage/codeContent': build.query<{ path: string; content: string; size: number; updatedAt: string }, { path: string }>({
    query: (body) => ({ url: 'file/getContentByFilePath', body }),
    providesTags: [FILES],
  }),
  'storage/downloadUrl': build.mutation<{ url: string; name: string; size: number }, { fileId: string }>({
    query: (body) => ({ url: 'file/getGeneralFileDownloadUrl', body }),
  }),
  'storage/init': build.mutation<UploadState, UploadPartInitRequest>({
    query: (body) => ({ url: 'file/uploadpartinit', body }),
    invalidatesTags: [SPACE, UPLOADS],
  }),
  'storage/parts': build.mutation<UploadState, { uploadId: string }>({ query: (body) => ({ url: 'file/uploadPartList', body }) }),
  'storage/complete': build.mutation<FileItem, { uploadId: string }>({
    // Assembling a large file takes a while: no 30 s timeout.
    query: (body) => ({ url: 'file/uploadPartComplete', body, timeoutMs: 0 }),
    invalidatesTags: [FILES, SPACE, UPLOADS],
  }),
  'storage/abort': build.mutation<null, { uploadId: string }>({
    query: (body) => ({ url: 'file/mpuAbortOne', body }),
    invalidatesTags: [SPACE, UPLOADS],
  }),
});

/** Cache tags of this plugin. */
export const STORAGE_TAG_TYPES = ['StorageFile', 'StorageSpace', 'StorageUpload'] as const;

/** The storage api with typed hooks. */
export const storageApi = definePluginApi('storage', storageEndpoints, { tagTypes: STORAGE_TAG_TYPES });
