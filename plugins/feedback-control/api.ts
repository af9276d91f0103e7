/** The pidData calls on the base api (server module `pid-data`). */
import type { Page, PidDataCreateRequest, PidDataDetail, PidDataListItem, PidDataListRequest, PidDownloadRecordRequest } from '@decisio/domain';
import { definePluginApi, type PluginEndpointBuilder } from '@decisio/sdk-plugin';

const TAG = 'PidData';

export const gfsEndpoints = (build: PluginEndpointBuilder) => ({
  'feedback-control/list': build.query<Page<PidDataListItem>, PidDataListRequest>({
    query: (body) => ({ url: 'pidData/getPidDataList', body }),
    providesTags: [{ type: TAG, id: 'LIST' }],
  }),
  'feedback-control/get': build.query<PidDataDetail, { id: string }>({
    query: (body) => ({ url: 'pidData/getPidResult', body }),
    providesTags: (_r, _e, a) => [{ type: TAG, id: a.id }],
  }),
  'feedback-control/create': build.mutation<PidDataListItem, PidDataCreateRequest>({
    query: (body) => ({ url: 'pidData/createPidData', body }),
    invalidatesTags: [{ type: TAG, id: 'LIST' }],
  }),
  'feedback-control/download': build.mutation<{ id: string; createdAt: string }, PidDownloadRecordRequest>({
    query: (body) => ({ url: 'pidData/saveDownloadRecord', body }),
  }),
});

export const gfsApi = definePluginApi('feedback-control', gfsEndpoints, { tagTypes: [TAG] });
