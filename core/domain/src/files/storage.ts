import { z } from 'zod';
import { idSchema, pageRequestSchema } from '../admin/schemas';
import { LIMITS } from '../common/limits';
import { uploadFileNameSchema, UPLOAD_MAX_BYTES } from './upload';

/**
 * Storage calls (`file/*`, spec platform §3 "Storage", §5 "Storage expansion", §7 "Files", §9):
 * multipart resumable uploads, quotas, the file list, downloads and code files.
 */

/** What an upload is for: a dataset file (csv, npz, h5 with the dataset name rules) or any file. */
export const UPLOAD_PURPOSES = ['dataset', 'file'] as const;
export type UploadPurpose = (typeof UPLOAD_PURPOSES)[number];

/** Part size bounds of multipart uploads, bytes; the default is 8 MiB. */
export const UPLOAD_PART = { min: 256 * 1024, max: 64 * 1024 ** 2, default: 8 * 1024 ** 2 } as const;
/** Largest number of parts of one upload. */
export const UPLOAD_MAX_PARTS = 10_000;

/** A general file name: 1-255 characters, no path separators or control characters. */
export const generalFileNameSchema = z
  .string()
  .min(1, 'validation.required')
  .max(255, 'validation.tooLong')
  .refine((n) => !/[\\/\u0000-\u001f]/.test(n) && n !== '.' && n !== '..', 'validation.invalid');

/** `file/uploadpartinit`: starts a multipart upload and reserves `size` bytes of the quota. */
export const uploadPartInitSchema = z
  .object({
    name: z.string(),
    // 0 passes here: the server answers `datasetEmpty` for an empty dataset file.
    size: z.number().int().min(0, 'validation.invalid').max(UPLOAD_MAX_BYTES, 'validation.invalid'),
    purpose: z.enum(UPLOAD_PURPOSES).default('dataset'),
    partSize: z.number().int().min(UPLOAD_PART.min).max(UPLOAD_PART.max).optional(),
  })
  .superRefine((v, ctx) => {
    const r = (v.purpose === 'dataset' ? uploadFileNameSchema : generalFileNameSchema).safeParse(v.name);
    if (!r.success) ctx.addIssue({ code: 'custom', path: ['name'], message: r.error.issues[0]!.message });
    if (v.size === 0 && v.purpose !== 'dataset') ctx.addIssue({ code: 'custom', path: ['size'], message: 'validation.required' });
  });
export type UploadPartInitRequest = z.input<typeof uploadPartInitSchema>;

/** An upload in progress (or finished / aborted) and the parts the server holds. */
export interface UploadState {
  uploadId: string;
  name: string;
  purpose: UploadPurpose;
  size: number;
  partSize: number;
  partCount: number;
  state: 'uploading' | 'completed' | 'aborted';
  /** Part numbers (1-based) received so far, ascending. */
  parts: number[];
  receivedBytes: number;
  /** Set once completed. */
  fileId: string | null;
  createdAt: string;
}

/** Body of calls naming one upload (`file/uploadPartList`, `file/uploadPartComplete`, `file/mpuAbortOne`). */
export const uploadIdSchema = z.object({ uploadId: idSchema });

/** Body of calls naming one file. */
export const fileIdSchema = z.object({ fileId: idSchema });

/** `file/fileItemList` and `file/getDeleteFileRecord`. */
export const fileListSchema = pageRequestSchema.extend({
  keyword: z.string().trim().max(100).optional(),
  kind: z.enum(['upload', 'code']).optional(),
});

/** A stored file as the list shows it. */
export interface FileItem {
  fileId: string;
  name: string;
  path: string;
  kind: 'upload' | 'code' | 'dataset';
  size: number;
  userId: string;
  createdAt: string;
  updatedAt: string;
  deletedAt: string | null;
}

/** Remaining and total space (spec platform §3), bytes, of the caller and of the tenant. */
export interface FreeSpace {
  totalBytes: number;
  usedBytes: number;
  /**
   * What `usedBytes` is made of: uploaded files and code files (the storage list), datasets'
   * columnar copies, unfinished uploads, and the artefacts of trainings (the rest).
   */
  breakdown?: { files: number; code: number; datasets: number; uploading: number; artefacts: number };
  freeBytes: number;
  tenant: { totalBytes: number; usedBytes: number; freeBytes: number };
}

/** `file/addStorageSpace`: adds `size` GB (more than 0) to a user's total, capped at 500 GB. */
export const addStorageSpaceSchema = z.object({
  size: z.number().positive('validation.invalid').max(LIMITS.storageCapBytes / 1024 ** 3, 'validation.invalid'),
  /** Another user of the tenant (needs `users:write`); the caller when absent. */
  userId: idSchema.optional(),
});

/** Largest number of files in one `file/uploadFileByContent`. */
export const CODE_UPLOAD_MAX_FILES = 200;

/** A code file path: `/`-separated segments of letters, digits, CJK, `._-()` and spaces; at most 255. */
export const codeFilePathSchema = z
  .string()
  .min(1, 'validation.required')
  .max(255, 'validation.tooLong')
  .refine(
    (p) =>
      !p.startsWith('/') &&
      p.split('/').every((s) => s !== '' && s !== '.' && s !== '..' && /^[\u4e00-\u9fa5A-Za-z0-9_.\-() ]+$/.test(s)),
    'validation.invalid',
  );

/**
 * `file/uploadFileByContent`: one file or a folder of files (text), at most 10 MB of content in
 * all per upload and {@link CODE_UPLOAD_MAX_FILES} files; a path that already exists is
 * overwritten. A folder with no file cannot be uploaded (an entry without content whose path
 * ends with `/` is refused).
 */
export const uploadFileByContentSchema = z.object({
  files: z
    .array(z.object({ path: codeFilePathSchema, content: z.string() }))
    .min(1, 'validation.required')
    .max(CODE_UPLOAD_MAX_FILES, 'validation.invalid')
    .refine((files) => new Set(files.map((f) => f.path)).size === files.length, 'validation.invalid'),
});
export type UploadFileByContentRequest = z.infer<typeof uploadFileByContentSchema>;

/** `file/getContentByFilePath`. */
export const contentByPathSchema = z.object({ path: codeFilePathSchema });

/** A download address: an authenticated GET (token header or cookie) that supports `Range`. */
export interface DownloadUrl {
  url: string;
  name: string;
  size: number;
}
