/**
 * Calls of the dashboard's guided first run (server module `templates`): the built-in industry
 * templates, and a project created from one with its first solution seeded.
 */
import type { TemplateItem, TemplateProject } from '@decisio/domain';
import { definePluginApi, type PluginEndpointBuilder } from '@decisio/sdk-plugin';

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
});

export const dashboardApi = definePluginApi('dashboard', dashboardEndpoints, { tagTypes: ['Project', 'ProjectActivity'] });
