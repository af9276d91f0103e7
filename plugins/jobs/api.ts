/** Scheduled-job calls (spec platform §7 "Admin": `jobs/page`, `saveOrUpdate`, `delete`, `trigger`, `pause`, `resume`, `check`; and `jobs/history`). */
import type { ImportStatus, ModelServiceItem, Page, ProjectItem, ScheduleCheckRequest, ScheduleCheckResponse, ScheduleHistoryRequest, ScheduleItem, SchedulePageRequest, ScheduleRunItem, ScheduleSaveRequest } from '@decisio/domain';
import { definePluginApi, type PluginEndpointBuilder } from '@decisio/sdk-plugin';

const TAG = 'Schedule';
const RUNS = 'ScheduleRun';

export const jobsEndpoints = (build: PluginEndpointBuilder) => ({
  'jobs/page': build.query<Page<ScheduleItem>, SchedulePageRequest>({ query: (body) => ({ url: 'jobs/page', body }), providesTags: [TAG] }),
  'jobs/saveOrUpdate': build.mutation<ScheduleItem, ScheduleSaveRequest>({ query: (body) => ({ url: 'jobs/saveOrUpdate', body }), invalidatesTags: [TAG] }),
  'jobs/delete': build.mutation<{ id: string }, { id: string }>({ query: (body) => ({ url: 'jobs/delete', body }), invalidatesTags: [TAG, RUNS] }),
  'jobs/trigger': build.mutation<ScheduleRunItem, { id: string }>({ query: (body) => ({ url: 'jobs/trigger', body }), invalidatesTags: [RUNS] }),
  'jobs/pause': build.mutation<ScheduleItem, { id: string }>({ query: (body) => ({ url: 'jobs/pause', body }), invalidatesTags: [TAG] }),
  'jobs/resume': build.mutation<ScheduleItem, { id: string }>({ query: (body) => ({ url: 'jobs/resume', body }), invalidatesTags: [TAG] }),
  'jobs/check': build.query<ScheduleCheckResponse, ScheduleCheckRequest>({ query: (body) => ({ url: 'jobs/check', body }) }),
  'jobs/history': build.query<Page<ScheduleRunItem>, ScheduleHistoryRequest>({ query: (body) => ({ url: 'jobs/history', body }), providesTags: [RUNS] }),
  /** The caller's imports from data connections (`metadata/getImportList`): the datasets a `datasets.refresh` job can refresh. */
  'jobs/imports': build.query<Page<ImportStatus>, { page: number; pageSize: number }>({ query: (body) => ({ url: 'metadata/getImportList', body }) }),
  /** The caller's projects and their model services: the service a `policies.update` job retrains. */
  'jobs/projects': build.query<Page<ProjectItem>, { page: number; pageSize: number }>({ query: (body) => ({ url: 'project/getProjectList', body }) }),
  'jobs/services': build.query<Page<ModelServiceItem>, { projectId: string; page: number; pageSize: number }>({ query: (body) => ({ url: 'modeldeploy/queryPage', body }) }),
});

export const jobsApi = definePluginApi('jobs', jobsEndpoints, { tagTypes: [TAG, RUNS] });
