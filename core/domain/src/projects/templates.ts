/**
 * Industry templates on the wire (`template/getTemplateList`, `template/createProject`): the
 * server builds them from the learning engine's reference tasks; the dashboard and the project
 * dialog show and create them.
 */
import { z } from 'zod';
import { LIMITS, type TagColour } from '../common/limits';
import type { Locale } from '../errors/messages';
import { createProjectRequestSchema, INDUSTRY_TEMPLATES, projectColourSchema, type IndustryTemplate, type ProjectItem } from './index';

/** What `template/getTemplateList` answers for one template. */
export interface TemplateItem {
  id: IndustryTemplate;
  name: Record<Locale, string>;
  description: Record<Locale, string>;
  /** The reference task of the learning engine behind it. */
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
}

/**
 * `template/createProject`: a template id and the project's fields (all optional but the
 * template; `info` and `imageVersion` as `project/createProject` takes them).
 */
export const createTemplateProjectSchema = createProjectRequestSchema.pick({ info: true, imageVersion: true }).extend({
  templateId: z.enum(INDUSTRY_TEMPLATES, { error: 'validation.invalid' }),
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
