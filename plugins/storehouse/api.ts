/** The template storehouse calls on the base api (server module `storehouse`, `templateWarehouse/*`). */
import type {
  CreateStorehouseProjectRequest,
  Dataset,
  Page,
  Recognition,
  RecognitionIdRequest,
  RecognizerUsedRequest,
  StorehouseListRequest,
  StorehouseProject,
  StorehouseTemplate,
  StorehouseTemplateType,
} from '@decisio/domain';
import { definePluginApi, type PluginEndpointBuilder } from '@decisio/sdk-plugin';

export const storehouseEndpoints = (build: PluginEndpointBuilder) => ({
  'storehouse/list': build.query<StorehouseTemplate[], StorehouseListRequest>({ query: (body) => ({ url: 'templateWarehouse/getList', body }) }),
  'storehouse/types': build.query<StorehouseTemplateType[], void>({ query: () => ({ url: 'templateWarehouse/getTemplateTypeList', body: {} }) }),
  /** The caller's datasets the recognizer can read (the first 100, newest first). */
  'storehouse/datasets': build.query<Page<Dataset>, void>({ query: () => ({ url: 'table/list', body: { page: 1, pageSize: 100 } }), providesTags: [{ type: 'Dataset', id: 'LIST' }] }),
  'storehouse/recognize': build.mutation<Recognition, RecognizerUsedRequest>({ query: (body) => ({ url: 'templateWarehouse/recognizerUsed', body }) }),
  'storehouse/result': build.query<Recognition, RecognitionIdRequest>({ query: (body) => ({ url: 'templateWarehouse/getRecognizerResult', body }), providesTags: (_r, _e, a) => [{ type: 'Recognition', id: a.recognitionId }] }),
  'storehouse/createProject': build.mutation<StorehouseProject, CreateStorehouseProjectRequest>({
    query: (body) => ({ url: 'templateWarehouse/createProject', body }),
    // The project list, the activity feed and the recognition (it now names its project).
    // Only once made: a refused mapping keeps the editor's state (no refetch).
    invalidatesTags: (r, _e, a) =>
      r
        ? [
            { type: 'Project', id: 'LIST' },
            { type: 'ProjectActivity', id: 'LIST' },
            { type: 'Dataset', id: 'LIST' },
            { type: 'Recognition', id: a.recognitionId },
          ]
        : [],
  }),
});

export const storehouseApi = definePluginApi('storehouse', storehouseEndpoints, { tagTypes: ['Project', 'ProjectActivity', 'Dataset', 'Recognition'] });
