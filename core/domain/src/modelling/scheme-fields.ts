import { z } from 'zod';
import type { FieldKind } from '../graph/model';

/**
 * What the scheme form offers as choices (spec workflow §3 "Scheme"), read by the form and
 * matching what the scheme data processing accepts (server `engine/scheme.ts`): business periods,
 * field types, aggregation functions and the operators of derived fields. And the call that
 * describes the data a scheme works on: `solution/getTableCorrelation` with `withTable`.
 */

/** Business periods an aggregation rolls rows up to. */
export const SCHEME_PERIODS = ['hour', 'day', 'week', 'month', 'quarter', 'year'] as const;
export type SchemePeriod = (typeof SCHEME_PERIODS)[number];

/** Field types of a scheme: continuous (optionally in [min, max]) or discrete (whole numbers, or listed values). */
export const SCHEME_TYPE_KINDS = ['continuous', 'discrete'] as const;
export type SchemeTypeKind = (typeof SCHEME_TYPE_KINDS)[number];

/** Functions that roll the rows of one trajectory and business period into one row. */
export const SCHEME_AGGREGATIONS = ['sum', 'product', 'max', 'min', 'count', 'average', 'and', 'or', 'first', 'last'] as const;
export type SchemeAggregation = (typeof SCHEME_AGGREGATIONS)[number];

/** Operators of a derived field `a <op> b` (addition, subtraction, multiplication, division, and). */
export const SCHEME_DERIVED_OPS = ['+', '-', '*', '/', '&'] as const;
export type SchemeDerivedOp = (typeof SCHEME_DERIVED_OPS)[number];

/** `solution/getTableCorrelation`: with `withTable`, the reply also describes the correlation's table (`table`). */
export const getTableCorrelationSchema = z.object({
  solutionId: z.string().regex(/^[0-9a-f]{32}$/, 'validation.invalid'),
  withTable: z.boolean().optional(),
});
export type GetTableCorrelationRequest = z.infer<typeof getTableCorrelationSchema>;

/** One field of the correlation's table (the primary table joined with its related tables). */
export interface CorrelationField {
  /** The name a scheme uses (a related table's column whose name was taken is `<table>_<column>`). */
  name: string;
  /** The table it comes from (its name) and its column there. */
  table: string;
  column: string;
  /** Type in the columnar copy (`DOUBLE`, `VARCHAR`, `TIMESTAMP`, ...); `VARCHAR` for an uploaded csv file. */
  type: string;
  /** The field kind of the dataset's settings; null for an uploaded csv file. */
  kind: FieldKind | null;
  /** The column's min and max where the dataset knows them (numbers). */
  min: number | null;
  max: number | null;
}

/** The data a scheme works on, as `solution/getTableCorrelation` with `withTable` describes it. */
export interface CorrelationTable {
  /** Name of the primary table. */
  primary: string;
  /** Rows of the primary table (the joined table has as many). */
  rows: number;
  fields: CorrelationField[];
  /** The datetime field's first and last time (ISO 8601, UTC) over every row; null without a datetime field, or when no cell reads as a time. */
  dateRange: { field: string; min: string; max: string } | null;
}
