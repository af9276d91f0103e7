/**
 * Reward calls (spec workflow §2.4, `objective/*`): detail, writes and the try on sample data. The
 * list is the trainings kit's `trainings/objectives` (same `Objective` tag).
 */
import type { ObjectiveRequest } from '@decisio/domain';
import { definePluginApi, type PluginEndpointBuilder } from '@decisio/sdk-plugin';
import { TRAINING_TAGS, type ObjectiveRow, type TryRewardReply } from '@decisio/sdk-plugin/trainings/api';

export const rewardEndpoints = (build: PluginEndpointBuilder) => ({
  'reward/get': build.query<ObjectiveRow, { id: string }>({ query: (body) => ({ url: 'objective/detail', body }), providesTags: ['Objective'] }),
  'reward/create': build.mutation<ObjectiveRow, ObjectiveRequest>({ query: (body) => ({ url: 'objective/create', body }), invalidatesTags: ['Objective'] }),
  'reward/edit': build.mutation<ObjectiveRow, Omit<ObjectiveRequest, 'solutionId'> & { id: string }>({ query: (body) => ({ url: 'objective/edit', body }), invalidatesTags: ['Objective'] }),
  'reward/try': build.mutation<TryRewardReply, { solutionId: string; files: Record<string, string>; rows?: number }>({ query: (body) => ({ url: 'objective/tryReward', body }) }),
  'reward/delete': build.mutation<unknown, { id: string }>({ query: (body) => ({ url: 'objective/delete', body }), invalidatesTags: ['Objective'] }),
});

export const rewardApi = definePluginApi('reward', rewardEndpoints, { tagTypes: [...TRAINING_TAGS] });
