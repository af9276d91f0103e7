import { z } from 'zod';
import { LIMITS } from '../common/limits';

/**
 * Upload rules of datasets (spec platform §5, workflow §5 "Dataset upload"): types csv, npz and
 * h5; at most 2 GB; not empty; a file name of at most 50 characters made of Chinese or English
 * letters, digits, hyphen, underscore, parentheses and spaces (the extension's dot is allowed
 * once, before the type). These helpers carry no error codes: callers map a failed rule to the
 * catalogue (`tableParamError`, `datasetEmpty`, ...).
 */

/** File types accepted for dataset upload, lower case, without the dot. */
export const UPLOAD_FILE_TYPES = ['csv', 'npz', 'h5'] as const;
/** One accepted upload file type. */
export type UploadFileType = (typeof UPLOAD_FILE_TYPES)[number];

/** Largest accepted upload in bytes (2 GiB). */
export const UPLOAD_MAX_BYTES = LIMITS.csvMaxBytes;

/**
 * Characters allowed in the stem of an upload file name: CJK unified ideographs, ASCII letters
 * and digits, hyphen, underscore, ASCII and full-width parentheses, spaces.
 */
export const UPLOAD_NAME_STEM_PATTERN = /^[\u4e00-\u9fa5A-Za-z0-9_\-() （）]+$/;

/**
 * Splits a file name into stem and lower-case extension (`'a.b.CSV'` -> `['a.b', 'csv']`).
 * A name without a dot has an empty extension.
 */
export function splitFileName(name: string): { stem: string; ext: string } {
  const dot = name.lastIndexOf('.');
  if (dot <= 0) return { stem: name, ext: '' };
  return { stem: name.slice(0, dot), ext: name.slice(dot + 1).toLowerCase() };
}

/** The upload type of a file name by its extension, or `null` when it is not csv, npz or h5. */
export function uploadFileType(name: string): UploadFileType | null {
  const { ext } = splitFileName(name);
  return (UPLOAD_FILE_TYPES as readonly string[]).includes(ext) ? (ext as UploadFileType) : null;
}

/**
 * File name of an upload: at most 50 characters in all (extension included), a stem made of the
 * allowed characters and an extension of an accepted type. Messages are `validation.*` keys.
 */
export const uploadFileNameSchema = z
  .string()
  .min(1, 'validation.required')
  .max(LIMITS.fileNameMax, 'validation.tooLong')
  .refine((n) => UPLOAD_NAME_STEM_PATTERN.test(splitFileName(n).stem), 'validation.invalid')
  .refine((n) => uploadFileType(n) !== null, 'validation.invalid');

/** Size of an upload in bytes: more than 0, at most {@link UPLOAD_MAX_BYTES}. */
export const uploadFileSizeSchema = z
  .number()
  .int()
  .positive('validation.required')
  .max(UPLOAD_MAX_BYTES, 'validation.invalid');

/** What the client knows of a file before upload. */
export const uploadFileSchema = z.object({
  name: uploadFileNameSchema,
  size: uploadFileSizeSchema,
});
/** A file about to be uploaded. */
export type UploadFile = z.infer<typeof uploadFileSchema>;
