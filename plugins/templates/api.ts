/** The template calls on the base api (server module `templates`). */
import type { CreateTemplateProjectRequest, TemplateItem, TemplateProject } from '@decisio/domain';
import { definePluginApi, type PluginEndpointBuilder } from '@decisio/sdk-plugin';

export const templatesEndpoints = (build: PluginEndpointBuilder) => ({
  'templates/list': build.query<TemplateItem[], void>({ query: () => ({ url: 'template/getTemplateList', body: {} }) }),
  'templates/createProject': build.mutation<TemplateProject, CreateTemplateProjectRequest>({
    query: (body) => ({ url: 'template/createProject', body }),
    // The project list and the activity feed (projects plugin) show the new project.
    invalidatesTags: [
      { type: 'Project', id: 'LIST' },
      { type: 'ProjectActivity', id: 'LIST' },
    ],
  }),
});

export const templatesApi = definePluginApi('templates', templatesEndpoints, { tagTypes: ['Project', 'ProjectActivity'] });
