/**
 * Business-decision calls (`businessDecision/*`): a trained policy run over a business dataset
 * of the project (`table/list` of type `business`).
 */
import type { BusinessDecision, BusinessDecisionCreateRequest, Dataset, Page } from '@decisio/domain';
import { definePluginApi, type PluginEndpointBuilder } from '@decisio/sdk-plugin';

const LIST = { type: 'BusinessDecision' as const, id: 'LIST' };

export const businessDecisionEndpoints = (build: PluginEndpointBuilder) => ({
  'business-decision/datasets': build.query<Page<Dataset>, { projectId: string }>({ query: (body) => ({ url: 'table/list', body: { ...body, type: 'business', page: 1, pageSize: 100 } }) }),
  'business-decision/list': build.query<Page<BusinessDecision>, { projectId: string; page: number; pageSize: number }>({
    query: (body) => ({ url: 'businessDecision/list', body }),
    providesTags: [LIST],
  }),
  'business-decision/create': build.mutation<BusinessDecision, BusinessDecisionCreateRequest>({ query: (body) => ({ url: 'businessDecision/create', body }), invalidatesTags: [LIST] }),
  'business-decision/delete': build.mutation<null, { id: string }>({ query: (body) => ({ url: 'businessDecision/delete', body }), invalidatesTags: [LIST] }),
});

export const businessDecisionApi = definePluginApi('business-decision', businessDecisionEndpoints, { tagTypes: ['BusinessDecision'] });
