/** The model market calls on the base api (server module `market`, `market/*`). */
import type {
  MarketDownload,
  MarketImportRequest,
  MarketImportResult,
  MarketKind,
  MarketListRequest,
  MarketModelDetail,
  MarketModelIdRequest,
  MarketPage,
  MarketPublishRequest,
  MarketUnpublishRequest,
  MarketVersionIdRequest,
  Page,
  ProjectItem,
} from '@decisio/domain';
import { definePluginApi, type PluginEndpointBuilder } from '@decisio/sdk-plugin';

/** A training as `train/getAllTrainList` lists it (the fields the publish form reads). */
export interface MarketTraining {
  id: string;
  name: string;
  state: string;
  solutionId: string;
  score?: number | null;
  reward?: number | null;
}

export const marketEndpoints = (build: PluginEndpointBuilder) => ({
  'market/list': build.query<MarketPage, MarketListRequest>({ query: (body) => ({ url: 'market/list', body }), providesTags: [{ type: 'MarketModel', id: 'LIST' }] }),
  'market/get': build.query<MarketModelDetail, MarketModelIdRequest>({ query: (body) => ({ url: 'market/get', body }), providesTags: (_r, _e, a) => [{ type: 'MarketModel', id: a.modelId }] }),
  'market/publish': build.mutation<MarketModelDetail, MarketPublishRequest>({
    query: (body) => ({ url: 'market/publish', body }),
    invalidatesTags: (r) => [{ type: 'MarketModel', id: 'LIST' }, ...(r ? [{ type: 'MarketModel' as const, id: r.modelId }] : [])],
  }),
  'market/unpublish': build.mutation<{ modelId: string; removed: boolean }, MarketUnpublishRequest>({
    query: (body) => ({ url: 'market/unpublish', body }),
    invalidatesTags: (_r, _e, a) => [
      { type: 'MarketModel', id: 'LIST' },
      { type: 'MarketModel', id: a.modelId },
    ],
  }),
  'market/import': build.mutation<MarketImportResult, MarketImportRequest & { modelId: string }>({
    query: ({ modelId: _m, ...body }) => ({ url: 'market/import', body }),
    // The import count, and the project's solutions, environments and policies.
    invalidatesTags: (_r, _e, a) => [{ type: 'MarketModel', id: 'LIST' }, { type: 'MarketModel', id: a.modelId }, { type: 'Project', id: 'LIST' }, 'Solution', 'Training', 'Scheme', 'Objective'],
  }),
  'market/onnx': build.mutation<MarketDownload, MarketVersionIdRequest>({ query: (body) => ({ url: 'market/getOnnxDownloadUrl', body }) }),
  /** Projects the caller may see (the first 100); the forms keep those the caller may edit. */
  'market/projects': build.query<Page<ProjectItem>, void>({ query: () => ({ url: 'project/getProjectList', body: { page: 1, pageSize: 100 } }), providesTags: [{ type: 'Project', id: 'LIST' }] }),
  /** A project's environment or policy trainings (the first 100, newest first). */
  'market/trainings': build.query<{ rows: MarketTraining[]; total: number }, { projectId: string; kind: MarketKind }>({
    query: ({ projectId, kind }) => ({ url: 'train/getAllTrainList', body: { projectId, kind, page: 1, pageSize: 100 } }),
  }),
});

export const marketApi = definePluginApi('market', marketEndpoints, { tagTypes: ['MarketModel', 'Project', 'Solution', 'Training', 'Scheme', 'Objective'] });
