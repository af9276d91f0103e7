/**
 * Project, collaboration, share-link, activity and solution calls (spec platform §7, workflow
 * §7), as endpoints `projects/<verb>` on the base api. Payload types come from `@decisio/domain`.
 */
import type {
  ActivityItem,
  ActivityRequest,
  CollaboratorCandidate,
  CollaboratorCandidatesRequest,
  CopySolutionRequest,
  CreateProjectPermissionsRequest,
  CreateProjectRequest,
  CreateSolutionRequest,
  DeleteProjectPermissionsRequest,
  DeleteSolutionRequest,
  EditProjectRequest,
  EditSolutionRequest,
  Locale,
  Page,
  PinSolutionRequest,
  ProjectItem,
  ProjectListRequest,
  ProjectPermissionItem,
  SaveShareSettingsRequest,
  SetFavouriteRequest,
  SharedProject,
  ShareSettings,
  SolutionItem,
  SolutionListRequest,
  CreateTemplateProjectRequest,
  TemplateItem,
  TemplateProject,
  SharedModuleView,
  ShareModule,
} from '@decisio/domain';
import { definePluginApi, type PluginEndpointBuilder } from '@decisio/sdk-plugin';

const PROJECTS = { type: 'Project' as const, id: 'LIST' };

const ACTIVITY = { type: 'ProjectActivity' as const, id: 'LIST' };

/** The endpoint builder, also listed in the manifest's `endpoints`. */
export const projectsEndpoints = (build: PluginEndpointBuilder) => ({
  'projects/list': build.query<Page<ProjectItem>, ProjectListRequest>({
    query: (body) => ({ url: 'project/getProjectList', body }),
    providesTags: (r) => [PROJECTS, ...(r?.rows ?? []).map((p) => ({ type: 'Project' as const, id: p.projectId }))],
  }),
  'projects/get': build.query<ProjectItem, { projectId: string }>({
    query: (body) => ({ url: 'project/getProject', body }),
    providesTags: (_r, _e, a) => [{ type: 'Project', id: a.projectId }],
  }),
  'projects/create': build.mutation<ProjectItem, CreateProjectRequest>({
    query: (body) => ({ url: 'project/createProject', body }),
    invalidatesTags: [PROJECTS, ACTIVITY],
  }),
  /** Engine versions of the online workers (`atmVersion/getAtmVersionList`): what a project's default algorithm image version may be. */
  'projects/engineVersions': build.query<{ rows: Array<{ version: string; workers: number | null }> }, void>({
    query: () => ({ url: 'atmVersion/getAtmVersionList', body: {} }),
  }),
  'projects/templates': build.query<TemplateItem[], void>({ query: () => ({ url: 'template/getTemplateList', body: {} }) }),
  'projects/createFromTemplate': build.mutation<TemplateProject, CreateTemplateProjectRequest>({
    query: (body) => ({ url: 'template/createProject', body }),
    invalidatesTags: [PROJECTS, ACTIVITY],
  }),
  'projects/edit': build.mutation<ProjectItem, EditProjectRequest>({
    query: (body) => ({ url: 'project/editProject', body }),
    invalidatesTags: (_r, _e, a) => [PROJECTS, ACTIVITY, { type: 'Project', id: a.projectId }],
  }),
  'projects/delete': build.mutation<{ projectId: string }, { projectId: string }>({
    query: (body) => ({ url: 'project/deleteProject', body }),
    invalidatesTags: [PROJECTS, ACTIVITY],
  }),
  'projects/setFavourite': build.mutation<{ projectId: string; favourite: boolean }, SetFavouriteRequest>({
    query: (body) => ({ url: 'project/setFavourite', body }),
    invalidatesTags: (_r, _e, a) => [PROJECTS, { type: 'Project', id: a.projectId }],
  }),
  'projects/permissions': build.query<ProjectPermissionItem[], { projectId: string }>({
    query: (body) => ({ url: 'project/getProjectPermissionsList', body }),
    providesTags: (_r, _e, a) => [{ type: 'ProjectPermission', id: a.projectId }],
  }),
  'projects/grant': build.mutation<ProjectPermissionItem[], CreateProjectPermissionsRequest>({
    query: (body) => ({ url: 'project/createProjectPermissionsList', body }),
    invalidatesTags: (_r, _e, a) => [{ type: 'ProjectPermission', id: a.projectId }, ACTIVITY],
  }),
  'projects/revoke': build.mutation<{ projectId: string; removed: number }, DeleteProjectPermissionsRequest>({
    query: (body) => ({ url: 'project/deleteProjectPermissionsByProjectId', body }),
    invalidatesTags: (_r, _e, a) => [{ type: 'ProjectPermission', id: a.projectId }, ACTIVITY],
  }),
  'projects/candidates': build.query<CollaboratorCandidate[], CollaboratorCandidatesRequest>({
    query: (body) => ({ url: 'project/getCollaboratorCandidates', body }),
  }),
  'projects/shareSettings': build.query<ShareSettings, { projectId: string }>({
    query: (body) => ({ url: 'project/getShareSettings', body }),
    providesTags: (_r, _e, a) => [{ type: 'ProjectShare', id: a.projectId }],
  }),
  'projects/saveShare': build.mutation<ShareSettings, SaveShareSettingsRequest>({
    query: (body) => ({ url: 'project/saveShareSettings', body }),
    invalidatesTags: (_r, _e, a) => [{ type: 'ProjectShare', id: a.projectId }, ACTIVITY],
  }),
  'projects/removeShare': build.mutation<ShareSettings, { projectId: string }>({
    query: (body) => ({ url: 'project/deleteShareSettings', body }),
    invalidatesTags: (_r, _e, a) => [{ type: 'ProjectShare', id: a.projectId }, ACTIVITY],
  }),
  'projects/shared': build.query<SharedProject, { token: string }>({
    query: (body) => ({ url: 'project/getSharedProject', body }),
  }),
  'projects/sharedModule': build.query<SharedModuleView, { token: string; module: ShareModule }>({
    query: (body) => ({ url: 'project/getSharedModule', body }),
  }),
  'projects/activity': build.query<Page<ActivityItem>, ActivityRequest>({
    query: (body) => ({ url: 'message/getActivity', body }),
    providesTags: [ACTIVITY],
  }),
  'projects/solutions': build.query<SolutionItem[], SolutionListRequest>({
    query: (body) => ({ url: 'solution/getSolutionList', body }),
    providesTags: (_r, _e, a) => [{ type: 'Solution', id: a.projectId }],
  }),
  'projects/createSolution': build.mutation<SolutionItem, CreateSolutionRequest>({
    query: (body) => ({ url: 'solution/create', body }),
    invalidatesTags: (r) => [{ type: 'Solution', id: r?.projectId }, PROJECTS, ACTIVITY],
  }),
  'projects/editSolution': build.mutation<SolutionItem, EditSolutionRequest>({
    query: (body) => ({ url: 'solution/edit', body }),
    invalidatesTags: (r) => [{ type: 'Solution', id: r?.projectId }, ACTIVITY],
  }),
  'projects/copySolution': build.mutation<SolutionItem, CopySolutionRequest>({
    query: (body) => ({ url: 'solution/copy', body }),
    invalidatesTags: (r) => [{ type: 'Solution', id: r?.projectId }, PROJECTS, ACTIVITY],
  }),
  'projects/deleteSolution': build.mutation<{ solutionId: string }, DeleteSolutionRequest & { projectId: string }>({
    query: ({ projectId: _p, ...body }) => ({ url: 'solution/delete', body }),
    invalidatesTags: (_r, _e, a) => [{ type: 'Solution', id: a.projectId }, PROJECTS, ACTIVITY],
  }),
  'projects/pinSolution': build.mutation<SolutionItem, PinSolutionRequest>({
    query: (body) => ({ url: 'solution/pin', body }),
    invalidatesTags: (r) => [{ type: 'Solution', id: r?.projectId }, ACTIVITY],
  }),
});

/** Cache tags of this plugin. */
export const PROJECT_TAG_TYPES = ['Project', 'ProjectPermission', 'ProjectShare', 'ProjectActivity', 'Solution'] as const;

/** The projects api with typed hooks. */
export const projectsApi = definePluginApi('projects', projectsEndpoints, { tagTypes: PROJECT_TAG_TYPES });
