/**
 * Policy-update calls (`train/getTrainUpdateListPage`, `train/createTrainUpdate`): the jobs a
 * policy or an environment ran, and a new run on more data (datasets of the project, e.g. made
 * from a service's calls).
 */
import type { Dataset, Page } from '@decisio/domain';
import { definePluginApi, type PluginEndpointBuilder } from '@decisio/sdk-plugin';
import type { TrainingRow } from '@decisio/sdk-plugin/trainings/api';

/** One job a policy or an environment ran (`train/getTrainUpdateListPage`). */
export interface TrainRun {
  jobId: string;
  reason: 'create' | 'restore' | 'update';
  state: string;
  progress: number;
  error: string | null;
  createdAt: string;
  startTime: string | null;
  endTime: string | null;
}

const runs = (id: string) => ({ type: 'TrainRun' as const, id });

export const policyUpdateEndpoints = (build: PluginEndpointBuilder) => ({
  'policy-update/datasets': build.query<Page<Dataset>, { projectId: string }>({ query: (body) => ({ url: 'table/list', body: { ...body, type: 'business', page: 1, pageSize: 100 } }) }),
  'policy-update/runs': build.query<Page<TrainRun>, { id: string; kind: 'policy' | 'environment'; page: number; pageSize: number }>({
    query: (body) => ({ url: 'train/getTrainUpdateListPage', body }),
    providesTags: (_r, _e, a) => [runs(a.id)],
  }),
  /** `datasetIds`: an environment update's new data. */
  'policy-update/update': build.mutation<TrainingRow, { id: string; kind: 'policy' | 'environment'; hyperparameters?: Record<string, unknown>; datasetIds?: string[] }>({
    query: (body) => ({ url: 'train/createTrainUpdate', body }),
    invalidatesTags: (_r, _e, a) => [runs(a.id), 'Training'],
  }),
});

export const policyUpdateApi = definePluginApi('policy-update', policyUpdateEndpoints, { tagTypes: ['TrainRun', 'Training'] });
