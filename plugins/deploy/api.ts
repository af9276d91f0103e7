/** Model-service calls (spec workflow §7 `modeldeploy/*`) as endpoints `deploy/<verb>`. */
import type {
  DecisionReply,
  ModelServiceBatch,
  ModelServiceBatchCreateRequest,
  ModelServiceCreateRequest,
  ModelServiceDecisionRequest,
  ModelServiceDetail,
  ModelServiceItem,
  ModelServiceMonitor,
  ModelServicePageRequest,
  ModelServiceRecord,
  ModelServiceRecordsDatasetRequest,
  ModelServiceRecordsPageRequest,
  ModelServiceRotateTokenRequest,
  ModelServiceUpdateRequest,
  ModelServiceWithToken,
  MonitorUnit,
  Page,
  PolicyUpdateReport,
} from '@decisio/domain';
import { definePluginApi, type PluginEndpointBuilder } from '@decisio/sdk-plugin';

const LIST = { type: 'ModelService' as const, id: 'LIST' };
const one = (id: string) => ({ type: 'ModelService' as const, id });
const records = (id: string) => ({ type: 'ModelServiceRecord' as const, id });
const batches = (id: string) => ({ type: 'ModelServiceBatch' as const, id });

/** The endpoint builder, also listed in the manifest's `endpoints`. */
export const deployEndpoints = (build: PluginEndpointBuilder) => ({
  'deploy/page': build.query<Page<ModelServiceItem>, ModelServicePageRequest>({ query: (body) => ({ url: 'modeldeploy/queryPage', body }), providesTags: [LIST] }),
  'deploy/detail': build.query<ModelServiceDetail, { id: string }>({ query: (body) => ({ url: 'modeldeploy/queryDetail', body }), providesTags: (_r, _e, a) => [one(a.id)] }),
  'deploy/create': build.mutation<ModelServiceWithToken, ModelServiceCreateRequest>({ query: (body) => ({ url: 'modeldeploy/create', body }), invalidatesTags: [LIST] }),
  'deploy/update': build.mutation<ModelServiceItem, ModelServiceUpdateRequest>({
    query: (body) => ({ url: 'modeldeploy/update', body }),
    invalidatesTags: (_r, _e, a) => [LIST, one(a.id)],
  }),
  'deploy/start': build.mutation<ModelServiceItem, { id: string }>({ query: (body) => ({ url: 'modeldeploy/start', body }), invalidatesTags: (_r, _e, a) => [LIST, one(a.id)] }),
  'deploy/stop': build.mutation<ModelServiceItem, { id: string }>({ query: (body) => ({ url: 'modeldeploy/stop', body }), invalidatesTags: (_r, _e, a) => [LIST, one(a.id)] }),
  'deploy/delete': build.mutation<null, { id: string }>({ query: (body) => ({ url: 'modeldeploy/delete', body }), invalidatesTags: [LIST] }),
  'deploy/rotateToken': build.mutation<ModelServiceWithToken, ModelServiceRotateTokenRequest>({
    query: (body) => ({ url: 'modeldeploy/rotateToken', body }),
    invalidatesTags: (_r, _e, a) => [LIST, one(a.id)],
  }),
  'deploy/records': build.query<Page<ModelServiceRecord>, ModelServiceRecordsPageRequest>({
    query: (body) => ({ url: 'modeldeploy/queryModelServiceRecordsPage', body }),
    providesTags: (_r, _e, a) => [records(a.id)],
  }),
  'deploy/recordsToDataset': build.mutation<{ tableId: string }, ModelServiceRecordsDatasetRequest>({
    query: (body) => ({ url: 'modeldeploy/createDatasetFromRecords', body }),
  }),
  'deploy/deleteRecords': build.mutation<{ deleted: number }, { id: string; recordIds: string[] }>({
    query: (body) => ({ url: 'modeldeploy/deleteModelServiceRecord', body }),
    invalidatesTags: (_r, _e, a) => [records(a.id), one(a.id)],
  }),
  /** The service's policy updates from its recorded calls (scheduled `policies.update` loops). */
  'deploy/policyUpdates': build.query<Page<PolicyUpdateReport>, { id: string; page: number; pageSize: number }>({
    query: (body) => ({ url: 'modeldeploy/queryPolicyUpdates', body }),
  }),
  'deploy/batches': build.query<Page<ModelServiceBatch>, { id: string; page: number; pageSize: number }>({
    query: (body) => ({ url: 'modeldeploy/queryBatchDecisionPage', body }),
    providesTags: (_r, _e, a) => [batches(a.id)],
  }),
  'deploy/createBatch': build.mutation<ModelServiceBatch, ModelServiceBatchCreateRequest>({
    query: (body) => ({ url: 'modeldeploy/createBatchDecision', body }),
    invalidatesTags: (_r, _e, a) => [batches(a.id), records(a.id)],
  }),
  /** A trial decision from the service page with the session token (recorded like a call at the access address). */
  'deploy/decide': build.mutation<DecisionReply, ModelServiceDecisionRequest>({
    query: (body) => ({ url: 'modeldeploy/decision', body }),
    invalidatesTags: (_r, _e, a) => [records(a.id), one(a.id)],
  }),
  'deploy/monitor': build.query<ModelServiceMonitor, { id: string; unit: MonitorUnit }>({
    query: (body) => ({ url: 'modeldeploy/queryMonitor', body }),
    providesTags: (_r, _e, a) => [records(a.id)],
  }),
});

/** Cache tags of this plugin. */
export const DEPLOY_TAG_TYPES = ['ModelService', 'ModelServiceRecord', 'ModelServiceBatch'] as const;

/** The deploy api with typed hooks. */
export const deployApi = definePluginApi('deploy', deployEndpoints, { tagTypes: DEPLOY_TAG_TYPES });
