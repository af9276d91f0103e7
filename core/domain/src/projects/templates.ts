/**
 * Industry templates on the wire (`template/getTemplateList`, `template/createProject`): plugins
 * contribute them to the server (`@decisio/sdk-plugin/server`, `templates`); the template centre,
 * the dashboard and the project dialog show and create them.
 */
import { z } from 'zod';
import { LIMITS, type TagColour } from '../common/limits';
import type { Locale } from '../errors/messages';
import { createProjectRequestSchema, projectColourSchema, type ProjectItem } from './index';

/** Text in both languages. */
export type TemplateText = Record<Locale, string>;

/**
 * A template id: lower-case kebab words, at most 32 characters (`electric`, `coupon`,
 * `inventory`). Unique across the server's plugins.
 */
export const TEMPLATE_ID_PATTERN = /^[a-z][a-z0-9]*(-[a-z0-9]+)*$/;
/** Longest template id (a project keeps it in a 32-character column). */
export const TEMPLATE_ID_MAX = 32;

/** One measured figure of a template's report. */
export interface TemplateReportFigure {
  /** Stable key within the report, e.g. `meanPower`. */
  id: string;
  label: TemplateText;
  /** The measured value (finite). */
  value: number;
  /** Unit shown after the value (`°C`, `kW`, ...); none when unitless. */
  unit?: string;
  /** Decimals shown (default 2). */
  digits?: number;
}

/**
 * What a template's report renderer measured on the template's own data (e.g. how the logged
 * controller did): every figure is computed from the data, none is typed in.
 */
export interface TemplateReport {
  title: TemplateText;
  /** What the figures were measured on (rows, trajectories, which controller). */
  basis: TemplateText;
  figures: TemplateReportFigure[];
}

/** What `template/getTemplateList` answers for one template. */
export interface TemplateItem {
  id: string;
  /** Industry of the template centre's filter (`electric`, `coupon`, `retail`, ...). */
  industry?: string;
  /** The industry's name (the template centre's tab). */
  industryName?: TemplateText;
  /** Id of the server plugin that contributed it. */
  plugin?: string;
  name: Record<Locale, string>;
  description: Record<Locale, string>;
  /** What the template is made from (e.g. the learning engine's reference task it was generated with). */
  task: string;
  colour: TagColour;
  trajectories: number;
  steps: number;
  rows: number;
  columns: string[];
  trajectoryField: string;
  sequenceField: string;
  datetimeField: string;
  /** Node names of the decision graph and the agent the policy decides. */
  nodes: string[];
  agent: string;
  /** The table's columns the policy decides (the agent node's fields). */
  decisionFields?: string[];
  /** The first rows of the template's own data (its CSV cells, as written). */
  sample?: { columns: string[]; rows: string[][] };
  /** The results its report renderer measured on its data; `null` when the template has none. */
  report?: TemplateReport | null;
}

/**
 * `template/createProject`: a template id and the project's fields (all optional but the
 * template; `info` and `imageVersion` as `project/createProject` takes them).
 */
export const createTemplateProjectSchema = createProjectRequestSchema.pick({ info: true, imageVersion: true }).extend({
  templateId: z.string().max(TEMPLATE_ID_MAX, { error: 'validation.invalid' }).regex(TEMPLATE_ID_PATTERN, { error: 'validation.invalid' }),
  name: z.string().trim().max(LIMITS.projectNameMax).optional().transform((v) => (v ? v : undefined)),
  colour: projectColourSchema.optional(),
});
export type CreateTemplateProjectRequest = z.input<typeof createTemplateProjectSchema>;
export type CreateTemplateProjectInput = z.output<typeof createTemplateProjectSchema>;

/** What `template/createProject` answers: the project and the seeded records of its first solution. */
export interface TemplateProject {
  project: ProjectItem;
  templateId: string;
  solutionId: string;
  datasetId: string;
  fileId: string;
  objectiveId: string;
}
