/**
 * The template storehouse (`templateWarehouse/*`, issue 20 item 3): the industry templates with
 * the fields their tables hold, and the recognizer that matches a user's dataset to the templates
 * whose fields it fits (column names with fuzzy and synonym matching, value types and value
 * ranges), with a score and a proposed field mapping; the user accepts or edits the mapping and
 * gets a project created from the template with their own data mapped onto its fields.
 */
import { z } from 'zod';
import { LIMITS } from '../common/limits';
import type { Locale } from '../errors/messages';
import { projectColourSchema, type ProjectItem } from '../projects/index';

const id = z.string().regex(/^[0-9a-f]{32}$/, 'validation.invalid');
/** A template id or an industry: lower-case kebab words, at most 32 characters (as plugins name them). */
const kebab = z.string().max(32, 'validation.invalid').regex(/^[a-z][a-z0-9]*(-[a-z0-9]+)*$/, 'validation.invalid');

/** Limits of the storehouse. */
export const STOREHOUSE_LIMITS = {
  keywordMax: 50,
  /** A field counts as matched from this score (0..1) on; the recognizer proposes nothing below it. */
  matchThreshold: 0.35,
  /** Most columns of a mapping (a template has far fewer fields). */
  mappingMax: 64,
} as const;

/** How a template's column is used: one of the table correlation's keys, or a field of the graph. */
export type StorehouseFieldRole = 'trajectory' | 'sequence' | 'datetime' | 'field';
/** The value type of a column as the recognizer compares it. */
export type StorehouseValueType = 'integer' | 'number' | 'datetime' | 'text';

/** One column of a template's table, with the value type and range of the template's own data. */
export interface StorehouseField {
  name: string;
  role: StorehouseFieldRole;
  /** The graph node the column feeds (fields only). */
  node: string | null;
  valueType: StorehouseValueType;
  /** Range of the template's data (numeric columns), else null. */
  min: number | null;
  max: number | null;
  /** Distinct values in the template's data. */
  distinct: number;
  /** The policy decides it (a column of the agent node). */
  decision: boolean;
  /**
   * A project needs a column for it: the key columns and the graph's fields. The template's
   * `next_<field>` columns are optional: without one, data processing takes the next row's value.
   */
  required: boolean;
}

/** A template of the storehouse (`templateWarehouse/getList`). */
export interface StorehouseTemplate {
  templateId: string;
  /** The industry (`templateWarehouse/getTemplateTypeList`). */
  type: string;
  /** The server plugin that contributed it. */
  plugin: string;
  name: Record<Locale, string>;
  description: Record<Locale, string>;
  colour: string;
  rows: number;
  nodes: string[];
  agent: string;
  fields: StorehouseField[];
}

/** An industry of the storehouse with its template count. */
export interface StorehouseTemplateType {
  type: string;
  name: Record<Locale, string>;
  count: number;
}

/** `templateWarehouse/getList`: filter by industry and by a keyword (name, description, field names). */
export const storehouseListSchema = z.object({
  type: kebab.optional(),
  keyword: z.string().trim().max(STOREHOUSE_LIMITS.keywordMax).optional(),
});
export type StorehouseListRequest = z.input<typeof storehouseListSchema>;

/** `templateWarehouse/recognizerUsed`: match a dataset of the caller to every template (or to one). */
export const recognizerUsedSchema = z.object({
  tableId: id,
  templateId: kebab.optional(),
});
export type RecognizerUsedRequest = z.input<typeof recognizerUsedSchema>;

/** `templateWarehouse/getRecognizerResult`. */
export const recognitionIdSchema = z.object({ recognitionId: id });
export type RecognitionIdRequest = z.input<typeof recognitionIdSchema>;

/** A column of the user's table as the recognizer saw it. */
export interface RecognizedColumn {
  name: string;
  /** DuckDB's type of the columnar copy. */
  type: string;
  valueType: StorehouseValueType;
  min: number | null;
  max: number | null;
  distinct: number;
}

/** The parts of a field's match score (each 0..1). */
export interface FieldMatchScore {
  name: number;
  type: number;
  range: number;
  total: number;
}

/** The column proposed for one template field (null: none fits). */
export interface FieldMatch {
  field: string;
  role: StorehouseFieldRole;
  required: boolean;
  column: string | null;
  score: FieldMatchScore | null;
}

/** How well the table fits one template. */
export interface TemplateMatch {
  templateId: string;
  name: Record<Locale, string>;
  /** 0..100: the mean of the required fields' scores, unmatched ones counting 0. */
  score: number;
  /** Every required field has a column: a project can be made with the proposed mapping. */
  complete: boolean;
  mapping: FieldMatch[];
  /** Required template fields no column fits. */
  missing: string[];
}

/** A recognition (`recognizerUsed`, `getRecognizerResult`). */
export interface Recognition {
  recognitionId: string;
  tableId: string;
  tableName: string;
  rows: number;
  columns: RecognizedColumn[];
  /** Best first. */
  matches: TemplateMatch[];
  /** The project made from it, once one was. */
  projectId: string | null;
  createdAt: string;
}

/** One accepted pair of a mapping: the template field and the user's column that fills it. */
export const fieldMappingSchema = z.object({ field: z.string().min(1).max(100), column: z.string().min(1).max(100) });
export type FieldMapping = z.infer<typeof fieldMappingSchema>;

/**
 * `templateWarehouse/createProject`: a project from the template with the user's table mapped
 * onto its fields (every required field needs one column, optional ones may have one; a column
 * fills one field).
 */
export const createStorehouseProjectSchema = z.object({
  recognitionId: id,
  templateId: kebab,
  mapping: z.array(fieldMappingSchema).min(1).max(STOREHOUSE_LIMITS.mappingMax),
  name: z.string().trim().max(LIMITS.projectNameMax).optional().transform((v) => (v ? v : undefined)),
  colour: projectColourSchema.optional(),
});
export type CreateStorehouseProjectRequest = z.input<typeof createStorehouseProjectSchema>;
export type CreateStorehouseProjectInput = z.output<typeof createStorehouseProjectSchema>;

/** What `templateWarehouse/createProject` answers. */
export interface StorehouseProject {
  project: ProjectItem;
  templateId: string;
  solutionId: string;
  /** The project's dataset: the user's rows, columns renamed to the template's fields. */
  datasetId: string;
  objectiveId: string;
}
