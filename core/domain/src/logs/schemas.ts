import { z } from 'zod';
import { idSchema, pageRequestSchema } from '../admin/schemas';

/**
 * The system log (spec platform §3 "Log", §7 `POST logs/page`, `DELETE logs/delete`): one row per
 * API call and one per scheduled-job run. Tenant administrators read their tenant's rows; system
 * administrators every tenant's. Rows older than the retention setting are removed by the
 * `logs.retention` scheduled job.
 */

/** Kinds of rows: a sign-in, a change, a read, a failed call; `job` for a scheduled-job run. */
export const LOG_TYPES = ['login', 'operation', 'query', 'error', 'job'] as const;
export type LogKind = (typeof LOG_TYPES)[number];

/** Outcome filter: `success` is reply code 0, `failure` any other. */
export const LOG_RESULTS = ['success', 'failure'] as const;

/** Limits of the log calls. */
export const LOG_LIMITS = {
  /** Rows one CSV export writes at most. */
  exportRows: 50_000,
  /** Ids one `logs/delete` takes at most. */
  deleteIds: 500,
  /** Retention bounds, days. */
  retentionMinDays: 1,
  retentionMaxDays: 3650,
  /** Retention when nobody set one, days. */
  retentionDefaultDays: 180,
} as const;

const isoDate = z.iso.datetime({ offset: true, message: 'validation.invalid' });

/** Filters of `logs/page` (body) and `logs/export` (query string). */
export const logFilterSchema = z
  .object({
    /** Part of the caller's user name (case-insensitive). */
    username: z.string().trim().max(64).optional(),
    /** The first segment of the call, e.g. `users` for `users/getUserList`. */
    module: z
      .string()
      .trim()
      .regex(/^[A-Za-z0-9_-]{1,64}$/, 'validation.invalid')
      .optional(),
    /** Part of the call name (the row's title), e.g. `getUserList`. */
    call: z.string().trim().max(100).optional(),
    result: z.enum(LOG_RESULTS, { message: 'validation.invalid' }).optional(),
    type: z.enum(LOG_TYPES, { message: 'validation.invalid' }).optional(),
    /** From this instant (inclusive), ISO 8601 with offset. */
    from: isoDate.optional(),
    /** Up to this instant (exclusive). */
    to: isoDate.optional(),
    /** System administrators only: rows of this tenant. */
    tenantId: idSchema.optional(),
  })
  .refine((f) => !f.from || !f.to || Date.parse(f.from) < Date.parse(f.to), { message: 'validation.invalid', path: ['to'] });
export type LogFilter = z.infer<typeof logFilterSchema>;

/** `POST logs/page` body. */
export const logPageRequestSchema = z.intersection(pageRequestSchema, logFilterSchema);
export type LogPageRequest = z.infer<typeof logPageRequestSchema>;

/** One row of `logs/page`. */
export interface LogItem {
  id: string;
  /** The call name (`users/getUserList`) or the job's name. */
  title: string;
  type: LogKind;
  host: string | null;
  uri: string;
  method: string;
  /** Request parameters as JSON text, secrets masked. */
  params: string | null;
  /** Reply code (0 success). */
  responseCode: number;
  httpStatus: number;
  timeMs: number;
  userId: string | null;
  username: string | null;
  tenantId: string | null;
  requestId: string;
  ip: string | null;
  userAgent: string | null;
  createdAt: string;
}

/** `DELETE logs/delete` body: the rows `ids`, or every row before `before` (at least one of them). */
export const logDeleteRequestSchema = z
  .object({
    ids: z.array(idSchema).min(1).max(LOG_LIMITS.deleteIds).optional(),
    before: isoDate.optional(),
  })
  .refine((b) => b.ids !== undefined || b.before !== undefined, { message: 'validation.required', path: ['ids'] });
export type LogDeleteRequest = z.infer<typeof logDeleteRequestSchema>;

/** `logs/delete` reply. */
export interface LogDeleteResponse {
  deleted: number;
}

/** `logs/setRetention` body: rows older than `days` are removed by the retention job. */
export const logRetentionRequestSchema = z.object({
  days: z.number().int().min(LOG_LIMITS.retentionMinDays).max(LOG_LIMITS.retentionMaxDays),
});
export type LogRetentionRequest = z.infer<typeof logRetentionRequestSchema>;

/** `logs/getRetention` and `logs/setRetention` reply. */
export interface LogRetention {
  days: number;
  /** Null while the default applies. */
  updatedAt: string | null;
  updatedBy: string | null;
}

/** Columns of the CSV export, in order (header row uses these names). */
export const LOG_CSV_COLUMNS = ['createdAt', 'username', 'tenantId', 'type', 'title', 'method', 'uri', 'responseCode', 'httpStatus', 'timeMs', 'ip', 'requestId', 'params'] as const;
