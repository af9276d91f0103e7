import { z } from 'zod';
import { idSchema, pageRequestSchema } from '../admin/schemas';
import { LIMITS, TAG_COLOURS, type TagColour } from '../common/limits';

/**
 * Projects, collaboration, share links, recent activity and solutions (spec platform §3, §5, §6,
 * §7; workflow §3, §5, §6, §7). The server validates with these schemas; the workbench types its
 * calls with them.
 */

/** Industry templates a project can start from (spec platform §1: electric, coupon). */
export const INDUSTRY_TEMPLATES = ['electric', 'coupon'] as const;
export type IndustryTemplate = (typeof INDUSTRY_TEMPLATES)[number];

/** Rights on a project: `owner` (its creator) > `edit` > `view`. */
export const PROJECT_RIGHTS = ['view', 'edit', 'owner'] as const;
export type ProjectRightName = (typeof PROJECT_RIGHTS)[number];

/** What collaboration can grant. */
export const COLLABORATION_PERMISSIONS = ['edit', 'view'] as const;
export type CollaborationPermission = (typeof COLLABORATION_PERMISSIONS)[number];
/** Who it is granted to. */
export const COLLABORATOR_TYPES = ['user', 'org'] as const;
export type CollaboratorType = (typeof COLLABORATOR_TYPES)[number];

/** Who may open a share link: every member of the tenant, or members of the owner's organisation. */
export const SHARE_SCOPES = ['all', 'org'] as const;
export type ShareScope = (typeof SHARE_SCOPES)[number];
/** Modules of the project area a share link can show (read-only). */
export const SHARE_MODULES = [
  'workbench',
  'data-source',
  'simulator',
  'simulation',
  'policy',
  'parameter',
  'decision',
  'report',
  'deploy',
] as const;
export type ShareModule = (typeof SHARE_MODULES)[number];

/** Solution types (workflow §1): data driven or knowledge mixin; policy search or parameter tuning. */
export const SOLUTION_DATA_TYPES = ['data_driven', 'knowledge_mixin'] as const;
export type SolutionDataType = (typeof SOLUTION_DATA_TYPES)[number];
export const SOLUTION_GOAL_TYPES = ['policy_search', 'parameter_tuning'] as const;
export type SolutionGoalType = (typeof SOLUTION_GOAL_TYPES)[number];

/** What the user types to confirm deleting a solution (either language's phrase is accepted). */
export const SOLUTION_DELETE_CONFIRMATIONS = ['I am sure', '我确定'] as const;

const required = 'validation.required';
const name = (max: number) => z.string().trim().min(1, required).max(max);
const optionalText = (max: number) =>
  z
    .string()
    .trim()
    .max(max)
    .nullish()
    .transform((v) => (v ? v : null));

export const projectColourSchema = z.enum(TAG_COLOURS, { error: 'validation.invalid' });
export const industryTemplateSchema = z.enum(INDUSTRY_TEMPLATES, { error: 'validation.invalid' }).nullish().transform((v) => v ?? null);

/** `project/createProject`. */
export const createProjectRequestSchema = z.object({
  name: name(LIMITS.projectNameMax),
  colour: projectColourSchema,
  industryTemplate: industryTemplateSchema,
  info: optionalText(LIMITS.projectInfoMax),
  imageVersion: optionalText(64),
});
export type CreateProjectRequest = z.input<typeof createProjectRequestSchema>;

/** `project/editProject`: the fields given are changed. */
export const editProjectRequestSchema = z.object({
  projectId: idSchema,
  name: name(LIMITS.projectNameMax).optional(),
  colour: projectColourSchema.optional(),
  industryTemplate: z.enum(INDUSTRY_TEMPLATES, { error: 'validation.invalid' }).nullable().optional(),
  info: z.string().trim().max(LIMITS.projectInfoMax).nullable().optional(),
  imageVersion: z.string().trim().max(64).nullable().optional(),
});
export type EditProjectRequest = z.input<typeof editProjectRequestSchema>;

/** Calls on one project: `getProject`, `deleteProject`, `getProjectPermissionsList`, ... */
export const projectIdRequestSchema = z.object({ projectId: idSchema });
export type ProjectIdRequest = z.input<typeof projectIdRequestSchema>;

/** `project/getProjectList`: newest change first; `scope` mine (owned) or shared (collaborations). */
export const projectListRequestSchema = pageRequestSchema.extend({
  keyword: z.string().trim().max(100).optional(),
  favourite: z
    .union([z.boolean(), z.enum(['true', 'false'])])
    .optional()
    .transform((v) => (v === undefined ? undefined : v === true || v === 'true')),
  scope: z.enum(['all', 'mine', 'shared']).default('all'),
});
export type ProjectListRequest = z.input<typeof projectListRequestSchema>;

/** `project/setFavourite`. */
export const setFavouriteRequestSchema = z.object({ projectId: idSchema, favourite: z.boolean() });
export type SetFavouriteRequest = z.input<typeof setFavouriteRequestSchema>;

/** One project as the list and `getProject` show it. */
export interface ProjectItem {
  projectId: string;
  /** Same as `projectId` (replies name every record's id `id` too). */
  id?: string;
  name: string;
  colour: TagColour;
  industryTemplate: IndustryTemplate | null;
  info: string | null;
  imageVersion: string | null;
  locked: boolean;
  favourite: boolean;
  ownerId: string;
  ownerName: string;
  /** The caller's right on it. */
  right: ProjectRightName;
  solutionCount: number;
  createdAt: string;
  updatedAt: string;
}

/** One grant in `project/createProjectPermissionsList`. */
export const collaboratorGrantSchema = z.object({
  subjectType: z.enum(COLLABORATOR_TYPES, { error: 'validation.invalid' }),
  subjectId: idSchema,
  permission: z.enum(COLLABORATION_PERMISSIONS, { error: 'validation.invalid' }),
});
export type CollaboratorGrant = z.input<typeof collaboratorGrantSchema>;

/** `project/createProjectPermissionsList`: adds or changes grants; at least one is required. */
export const createProjectPermissionsRequestSchema = z.object({
  projectId: idSchema,
  permissions: z.array(collaboratorGrantSchema).min(1, required).max(100),
});
export type CreateProjectPermissionsRequest = z.input<typeof createProjectPermissionsRequestSchema>;

/** `project/deleteProjectPermissionsByProjectId`: removes the given grants, or all when `ids` is absent. */
export const deleteProjectPermissionsRequestSchema = z.object({
  projectId: idSchema,
  ids: z.array(idSchema).min(1).max(100).optional(),
});
export type DeleteProjectPermissionsRequest = z.input<typeof deleteProjectPermissionsRequestSchema>;

/** One grant of `project/getProjectPermissionsList`. */
export interface ProjectPermissionItem {
  id: string;
  subjectType: CollaboratorType;
  subjectId: string;
  /** Username (or nickname) of a user, name of an organisation. */
  subjectName: string;
  permission: CollaborationPermission;
  createdAt: string;
}

/** `project/getCollaboratorCandidates`: users and organisations of the tenant to grant to. */
export const collaboratorCandidatesRequestSchema = z.object({
  projectId: idSchema,
  keyword: z.string().trim().max(100).optional(),
});
export type CollaboratorCandidatesRequest = z.input<typeof collaboratorCandidatesRequestSchema>;
export interface CollaboratorCandidate {
  subjectType: CollaboratorType;
  subjectId: string;
  name: string;
}

/** `project/saveShareSettings`: turns the share link on (or changes it). */
export const saveShareSettingsRequestSchema = z.object({
  projectId: idSchema,
  scope: z.enum(SHARE_SCOPES, { error: 'validation.invalid' }),
  modules: z.array(z.enum(SHARE_MODULES, { error: 'validation.invalid' })).min(1, required),
});
export type SaveShareSettingsRequest = z.input<typeof saveShareSettingsRequestSchema>;

/** Share settings of a project; `token` is `null` while no link exists. */
export interface ShareSettings {
  projectId: string;
  token: string | null;
  scope: ShareScope | null;
  modules: ShareModule[];
}

/** `project/getSharedProject`: opens a share link. */
export const sharedProjectRequestSchema = z.object({ token: z.string().regex(/^[0-9a-f]{32}$/, 'validation.invalid') });
export type SharedProjectRequest = z.input<typeof sharedProjectRequestSchema>;
/** What a share link shows: read-only, the chosen modules only. */
export interface SharedProject {
  project: Omit<ProjectItem, 'favourite' | 'right'> & { right: 'view' };
  readOnly: true;
  modules: ShareModule[];
  solutions: SolutionItem[];
}

/** `message/getActivity`: the recent activity of the projects the caller can see. */
export const activityRequestSchema = pageRequestSchema.extend({ projectId: idSchema.optional() });
export type ActivityRequest = z.input<typeof activityRequestSchema>;
export const ACTIVITY_ACTIONS = [
  'project.create',
  'project.edit',
  'project.delete',
  'project.share',
  'project.unshare',
  'collaboration.grant',
  'collaboration.revoke',
  'solution.create',
  'solution.edit',
  'solution.copy',
  'solution.delete',
  'solution.pin',
  'solution.unpin',
] as const;
export type ActivityAction = (typeof ACTIVITY_ACTIONS)[number];
export interface ActivityItem {
  id: string;
  action: ActivityAction;
  projectId: string | null;
  solutionId: string | null;
  userId: string;
  username: string;
  /** Name of the project or solution (as it was then). */
  targetName: string;
  createdAt: string;
}

/** `solution/create`. */
export const createSolutionRequestSchema = z.object({
  projectId: idSchema,
  name: name(LIMITS.solutionNameMax),
  dataType: z.enum(SOLUTION_DATA_TYPES, { error: 'validation.invalid' }),
  goalType: z.enum(SOLUTION_GOAL_TYPES, { error: 'validation.invalid' }),
  description: optionalText(LIMITS.descriptionMax),
});
export type CreateSolutionRequest = z.input<typeof createSolutionRequestSchema>;

/** `solution/edit`: the fields given are changed (types are fixed at creation). */
export const editSolutionRequestSchema = z.object({
  solutionId: idSchema,
  name: name(LIMITS.solutionNameMax).optional(),
  description: z.string().trim().max(LIMITS.descriptionMax).nullable().optional(),
});
export type EditSolutionRequest = z.input<typeof editSolutionRequestSchema>;

/** `solution/get`. */
export const solutionIdRequestSchema = z.object({ solutionId: idSchema });
export type SolutionIdRequest = z.input<typeof solutionIdRequestSchema>;

/**
 * `solution/copy`: a new solution with the same settings and content (graph, correlation,
 * schemes, rewards); name defaults to "<name> (copy)". `withModels`: also the finished
 * environment and policy trainings, with their artefact files copied (charged to the caller).
 */
export const copySolutionRequestSchema = z.object({ solutionId: idSchema, name: name(LIMITS.solutionNameMax).optional(), withModels: z.boolean().optional() });
export type CopySolutionRequest = z.input<typeof copySolutionRequestSchema>;

/** `solution/delete`: `confirm` must be one of `SOLUTION_DELETE_CONFIRMATIONS` ("I am sure"). */
export const deleteSolutionRequestSchema = z.object({
  solutionId: idSchema,
  confirm: z.enum(SOLUTION_DELETE_CONFIRMATIONS, { error: 'validation.invalid' }),
});
export type DeleteSolutionRequest = z.input<typeof deleteSolutionRequestSchema>;

/** `solution/pin`. */
export const pinSolutionRequestSchema = z.object({ solutionId: idSchema, pinned: z.boolean() });
export type PinSolutionRequest = z.input<typeof pinSolutionRequestSchema>;

/** `solution/getSolutionList`: pinned first (latest pin first), then newest. */
export const solutionListRequestSchema = z.object({
  projectId: idSchema,
  keyword: z.string().trim().max(100).optional(),
});
export type SolutionListRequest = z.input<typeof solutionListRequestSchema>;

export interface SolutionItem {
  solutionId: string;
  /** Same as `solutionId`. */
  id?: string;
  projectId: string;
  name: string;
  dataType: SolutionDataType;
  goalType: SolutionGoalType;
  description: string | null;
  pinned: boolean;
  creatorId: string;
  creatorName: string;
  copiedFrom: string | null;
  createdAt: string;
  updatedAt: string;
}
