/**
 * Calls of the dashboard: the guided first run (server module `templates`: the built-in industry
 * templates, and a project created from one with its first solution seeded) and the tenant
 * overview (`overview/getResource`, `getOverall`, `getStatistics`, `getTrainingList`).
 */
import type { OverviewResource, TemplateItem, TemplateProject } from '@decisio/domain';
import { definePluginApi, type PluginEndpointBuilder } from '@decisio/sdk-plugin';

/** `overview/getOverall`: counts of the trainings the caller may see. */
export interface OverviewOverall {
  environments: number;
  policies: number;
  parameterSearches: number;
  deductions: number;
  running: number;
  successful: number;
  failed: number;
}

/** `overview/getStatistics`: finished trainings by duration bucket and by score bucket. */
export interface OverviewStatistics {
  trainings: number;
  durations: Record<string, number>;
  scores: Record<string, number>;
}

/** One row of `overview/getTrainingList`. */
export interface OverviewTraining {
  id: string;
  code: string;
  name?: string | null;
  kind: string;
  state: string;
  progress: number | null;
  startTime: string | null;
  projectId?: string | null;
  /** The training's job (followed live while it runs). */
  jobId?: string | null;
}

const OVERVIEW = 'Overview';

export const dashboardEndpoints = (build: PluginEndpointBuilder) => ({
  'dashboard/templates': build.query<TemplateItem[], void>({ query: () => ({ url: 'template/getTemplateList', body: {} }) }),
  'dashboard/createTemplateProject': build.mutation<TemplateProject, { templateId: string }>({
    query: (body) => ({ url: 'template/createProject', body }),
    // The project list and the activity feed (projects plugin) show the new project.
    invalidatesTags: [
      { type: 'Project', id: 'LIST' },
      { type: 'ProjectActivity', id: 'LIST' },
    ],
  }),
  'dashboard/resource': build.query<OverviewResource, void>({ query: () => ({ url: 'overview/getResource', body: {} }), providesTags: [OVERVIEW] }),
  'dashboard/overall': build.query<OverviewOverall, void>({ query: () => ({ url: 'overview/getOverall', body: {} }), providesTags: [OVERVIEW] }),
  'dashboard/statistics': build.query<OverviewStatistics, void>({ query: () => ({ url: 'overview/getStatistics', body: {} }), providesTags: [OVERVIEW] }),
  'dashboard/running': build.query<{ rows: OverviewTraining[]; total: number }, void>({
    query: () => ({ url: 'overview/getTrainingList', body: { limit: 100, running: true } }),
    providesTags: [OVERVIEW],
  }),
});

export const dashboardApi = definePluginApi('dashboard', dashboardEndpoints, { tagTypes: ['Project', 'ProjectActivity', OVERVIEW] });
