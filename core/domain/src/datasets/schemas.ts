import { z } from 'zod';
import { idSchema, pageRequestSchema } from '../admin/schemas';
import { LIMITS } from '../common/limits';
import { UPLOAD_NAME_STEM_PATTERN } from '../files/upload';
import { FIELD_DATA_TYPES, FIELD_KINDS, type FieldDataType, type FieldKind } from '../graph/model';

/**
 * Datasets and tables (spec workflow §3 "Dataset / table", §5 "Field settings", "Dataset
 * upload", §7 "Tables"): business, simulation and decision datasets made from an uploaded csv,
 * npz or h5 file, held by the server as a columnar (Parquet) copy.
 */

/** Kinds of dataset in dataset management. */
export const DATASET_TYPES = ['business', 'simulation', 'decision'] as const;
export type DatasetType = (typeof DATASET_TYPES)[number];

/** Longest column name, characters. */
export const COLUMN_NAME_MAX = LIMITS.fileNameMax;
/** Characters allowed in a column name (the spec's name set: Chinese/English letters, digits, `-`, `_`, parentheses, spaces). */
export const COLUMN_NAME_PATTERN = UPLOAD_NAME_STEM_PATTERN;

/** Dataset name: 1-30 characters. */
export const datasetNameSchema = z.string().trim().min(1, 'validation.required').max(LIMITS.datasetNameMax, 'validation.tooLong');

/** `table/create` (also `dataSource/saveDataSourceTable`): a dataset from a completed upload. */
export const createDatasetSchema = z.object({
  fileId: idSchema,
  name: datasetNameSchema,
  type: z.enum(DATASET_TYPES),
  /** Optional project the dataset belongs to (its members may then read it). */
  projectId: idSchema.optional(),
});
export type CreateDatasetRequest = z.infer<typeof createDatasetSchema>;

/** Calls naming one dataset. */
export const tableIdSchema = z.object({ tableId: idSchema });

/** `table/list` (also `dataSource/queryDataSourceTableList`). */
export const datasetListSchema = pageRequestSchema.extend({
  type: z.enum(DATASET_TYPES).optional(),
  keyword: z.string().trim().max(100).optional(),
  projectId: idSchema.optional(),
});
export type DatasetListRequest = z.infer<typeof datasetListSchema>;

/** One column of a dataset and its field settings (kinds and data types of the decision graph's fields). */
export interface DatasetColumn {
  name: string;
  /** Type in the columnar copy (DuckDB's name, e.g. `BIGINT`, `DOUBLE`, `VARCHAR`). */
  type: string;
  kind: FieldKind;
  dataType: FieldDataType;
  min: number | null;
  max: number | null;
  discreteNumber: number | null;
  values: number[] | null;
  hidden: boolean;
}

/** A dataset as the calls show it. */
export interface Dataset {
  tableId: string;
  /** Same as `tableId` (`id` as every record; `datasetId` as the table correlation and deductions name it). */
  id?: string;
  datasetId?: string;
  name: string;
  type: DatasetType;
  /** `sql`: imported from a database connection. */
  fileType: 'csv' | 'npz' | 'h5' | 'sql';
  fileName: string;
  delimiter: string | null;
  /** Rows. */
  amount: number;
  /** Bytes of the uploaded file. */
  size: number;
  columns: DatasetColumn[];
  projectId: string | null;
  creatorId: string;
  creatorName: string | null;
  createdAt: string;
  updatedAt: string;
}

/** Settings of one field (`table/setFields`). Unset properties keep their value. */
export const fieldSettingSchema = z
  .object({
    name: z.string().min(1, 'validation.required'),
    kind: z.enum(FIELD_KINDS).optional(),
    dataType: z.enum(FIELD_DATA_TYPES).optional(),
    min: z.number().finite().nullable().optional(),
    max: z.number().finite().nullable().optional(),
    discreteNumber: z.number().int().positive('validation.invalid').nullable().optional(),
    values: z.array(z.number().finite()).nullable().optional(),
    hidden: z.boolean().optional(),
  })
  .superRefine((f, ctx) => {
    if (f.min != null && f.max != null && !(f.min < f.max)) ctx.addIssue({ code: 'custom', path: ['max'], message: 'validation.invalid' });
    if (f.dataType === 'category' && f.values != null && f.values.length === 0) {
      ctx.addIssue({ code: 'custom', path: ['values'], message: 'validation.required' });
    }
  });
export type FieldSetting = z.infer<typeof fieldSettingSchema>;

/** `table/setFields`: at least one field (the spec's "select fields first"). */
export const setFieldsSchema = z.object({
  tableId: idSchema,
  fields: z.array(fieldSettingSchema).min(1, 'validation.required'),
});
export type SetFieldsRequest = z.infer<typeof setFieldsSchema>;

/** Largest number of rows one preview returns. */
export const PREVIEW_MAX_ROWS = 1000;

/** `file/previewCSV`: first rows, columns and statistics of a dataset or an uploaded csv file. */
export const previewSchema = z
  .object({
    tableId: idSchema.optional(),
    fileId: idSchema.optional(),
    rows: z.number().int().min(1).max(PREVIEW_MAX_ROWS).default(100),
  })
  .refine((v) => Boolean(v.tableId) !== Boolean(v.fileId), { message: 'validation.required', path: ['tableId'] });

/** `file/previewchunkcsv`: rows `[offset, offset + limit)`. */
export const previewChunkSchema = z
  .object({
    tableId: idSchema.optional(),
    fileId: idSchema.optional(),
    offset: z.number().int().min(0).default(0),
    limit: z.number().int().min(1).max(PREVIEW_MAX_ROWS).default(100),
  })
  .refine((v) => Boolean(v.tableId) !== Boolean(v.fileId), { message: 'validation.required', path: ['tableId'] });

/** Statistics of one column. `min`/`max`/`mean` only for numbers. */
export interface ColumnStats {
  name: string;
  type: string;
  count: number;
  nulls: number;
  distinct: number;
  min: number | string | null;
  max: number | string | null;
  mean: number | null;
}

/** A preview: columns, rows (cells as JSON values) and, for `file/previewCSV`, statistics. */
export interface DatasetPreview {
  columns: { name: string; type: string }[];
  rows: (number | string | boolean | null)[][];
  total: number;
  offset: number;
  stats?: ColumnStats[];
}

/** `metadata/getColumnsValue`: distinct values of a column. */
export const columnValuesSchema = z.object({
  tableId: idSchema,
  column: z.string().min(1),
  limit: z.number().int().min(1).max(1000).default(100),
});
