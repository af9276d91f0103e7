/**
 * Hyperparameter-set calls (spec workflow §6, `hyperparameter/*`): the writes. The list is the
 * trainings kit's `trainings/hypers` (same `Hyper` tag), which the training forms read too.
 */
import type { HyperparameterRequest } from '@decisio/domain';
import { definePluginApi, type PluginEndpointBuilder } from '@decisio/sdk-plugin';
import { TRAINING_TAGS } from '@decisio/sdk-plugin/trainings/api';

export const hyperparametersEndpoints = (build: PluginEndpointBuilder) => ({
  'hyperparameters/create': build.mutation<{ id: string }, HyperparameterRequest>({ query: (body) => ({ url: 'hyperparameter/create', body }), invalidatesTags: ['Hyper'] }),
  'hyperparameters/edit': build.mutation<{ id: string }, HyperparameterRequest & { id: string }>({ query: (body) => ({ url: 'hyperparameter/edit', body }), invalidatesTags: ['Hyper'] }),
  'hyperparameters/delete': build.mutation<unknown, { id: string }>({ query: (body) => ({ url: 'hyperparameter/delete', body }), invalidatesTags: ['Hyper'] }),
});

export const hyperparametersApi = definePluginApi('hyperparameters', hyperparametersEndpoints, { tagTypes: [...TRAINING_TAGS] });
