import { z } from 'zod';
import { idSchema } from '../admin/schemas';
import { PREVIEW_MAX_ROWS } from './schemas';

/**
 * The table calls beyond create/get/list/drop (spec workflow §7 "Tables"): `table/filter`,
 * `table/getAccessKey`, `table/append`, `table/copyTableToDataSource`, `table/updateTableFileUrl`.
 */

/** Comparisons a filter condition may use. */
export const FILTER_OPS = ['eq', 'ne', 'lt', 'le', 'gt', 'ge', 'in', 'contains', 'isNull', 'notNull'] as const;
export type FilterOp = (typeof FILTER_OPS)[number];

const cellSchema = z.union([z.number().finite(), z.string().max(1000), z.boolean()]);

/** One condition on one column. `value` is a list for `in`, absent for `isNull`/`notNull`. */
export const filterConditionSchema = z
  .object({
    field: z.string().min(1, 'validation.required').max(200),
    op: z.enum(FILTER_OPS),
    value: z.union([cellSchema, z.array(cellSchema).min(1).max(1000)]).optional(),
  })
  .superRefine((c, ctx) => {
    const needsNone = c.op === 'isNull' || c.op === 'notNull';
    if (needsNone && c.value !== undefined) ctx.addIssue({ code: 'custom', message: 'validation.invalid', path: ['value'] });
    if (!needsNone && c.value === undefined) ctx.addIssue({ code: 'custom', message: 'validation.required', path: ['value'] });
    if (c.op === 'in' && c.value !== undefined && !Array.isArray(c.value)) ctx.addIssue({ code: 'custom', message: 'validation.invalid', path: ['value'] });
    if (c.op !== 'in' && Array.isArray(c.value)) ctx.addIssue({ code: 'custom', message: 'validation.invalid', path: ['value'] });
    if (c.op === 'contains' && typeof c.value !== 'string') ctx.addIssue({ code: 'custom', message: 'validation.invalid', path: ['value'] });
  });
export type FilterCondition = z.infer<typeof filterConditionSchema>;

/** `table/filter`: the rows of a dataset matching every condition, a page at a time. */
export const tableFilterSchema = z.object({
  tableId: idSchema,
  conditions: z.array(filterConditionSchema).max(20).default([]),
  /** Columns to return (all when absent), in this order. */
  columns: z.array(z.string().min(1).max(200)).min(1).max(500).optional(),
  orderBy: z.object({ field: z.string().min(1).max(200), desc: z.boolean().default(false) }).optional(),
  offset: z.number().int().min(0).default(0),
  limit: z.number().int().min(1).max(PREVIEW_MAX_ROWS).default(100),
});
export type TableFilterRequest = z.infer<typeof tableFilterSchema>;

/** Longest life of a table access key, seconds (one day); the default is ten minutes. */
export const ACCESS_KEY_MAX_SECONDS = 86_400;

/** `table/getAccessKey`: a key that reads one dataset's data without signing in, until it expires. */
export const tableAccessKeySchema = z.object({
  tableId: idSchema,
  ttlSeconds: z.number().int().min(60).max(ACCESS_KEY_MAX_SECONDS).default(600),
});

/**
 * `table/revokeAccessKeys`: every access key of the dataset issued so far stops reading (the
 * dataset's owner only). Keys issued afterwards read again.
 */
export const tableRevokeAccessKeysSchema = z.object({ tableId: idSchema });

/** Most reads of `GET /api/table/data` one address makes per {@link TABLE_DATA_WINDOW_MS} (then `tooManyRequests`). */
export const TABLE_DATA_READS_PER_WINDOW = 30;
/** The window of {@link TABLE_DATA_READS_PER_WINDOW}: one minute. */
export const TABLE_DATA_WINDOW_MS = 60_000;

/** What `table/getAccessKey` answers: the key, the address it opens (csv or Parquet) and its end. */
export interface TableAccessKey {
  accessKey: string;
  url: string;
  csvUrl: string;
  expiresAt: string;
}

/** `table/append` (rows of another upload added) and `table/updateTableFileUrl` (the data replaced by another upload). */
export const tableFileSchema = z.object({ tableId: idSchema, fileId: idSchema });
export type TableFileRequest = z.infer<typeof tableFileSchema>;

/** A table name on an outside database: letters, digits and `_`, starting with a letter or `_`. */
export const remoteTableNameSchema = z
  .string()
  .trim()
  .min(1, 'validation.required')
  .max(64, 'validation.tooLong')
  .regex(/^[A-Za-z_][A-Za-z0-9_]*$/, 'validation.invalid');

/** `table/copyTableToDataSource`: a new table on a data connection's database holding the dataset's rows. */
export const copyTableToDataSourceSchema = z.object({
  tableId: idSchema,
  dataSourceId: z.string().min(1, 'validation.required'),
  targetTable: remoteTableNameSchema,
  /** The connection's password when it is not kept. */
  password: z.string().max(200).optional(),
});
export type CopyTableToDataSourceRequest = z.infer<typeof copyTableToDataSourceSchema>;

/** What `table/copyTableToDataSource` answers. */
export interface CopyTableResult {
  dataSourceId: string;
  targetTable: string;
  rows: number;
  columns: { name: string; type: string }[];
}
