/**
 * Scheme calls (spec workflow §2.2, `scheme/*`): the writes of this area, and the data the form
 * starts from. The list the screens and
 * the training forms read is the trainings kit's `trainings/schemes` (same `Scheme` tag, so a save
 * refreshes it).
 */
import type { CorrelationTable, SchemeRequest } from '@decisio/domain';
import { definePluginApi, type PluginEndpointBuilder } from '@decisio/sdk-plugin';
import { TRAINING_TAGS } from '@decisio/sdk-plugin/trainings/api';

export const schemeEndpoints = (build: PluginEndpointBuilder) => ({
  /** The data the scheme form starts from: the correlation's fields and the datetime field's range (`solution/getTableCorrelation` with `withTable`). */
  'scheme/table': build.query<{ solutionId: string; correlation: unknown; table: CorrelationTable | null }, { solutionId: string }>({
    query: ({ solutionId }) => ({ url: 'solution/getTableCorrelation', body: { solutionId, withTable: true } }),
  }),
  'scheme/create': build.mutation<{ id: string }, SchemeRequest>({ query: (body) => ({ url: 'scheme/create', body }), invalidatesTags: ['Scheme'] }),
  'scheme/set': build.mutation<{ id: string }, SchemeRequest & { id: string }>({ query: (body) => ({ url: 'scheme/set', body }), invalidatesTags: ['Scheme'] }),
  'scheme/delete': build.mutation<unknown, { id: string }>({ query: (body) => ({ url: 'scheme/delete', body }), invalidatesTags: ['Scheme'] }),
  'scheme/process': build.mutation<{ id: string; processState: string }, { id: string }>({ query: (body) => ({ url: 'scheme/schemeDataProcess', body }), invalidatesTags: ['Scheme'] }),
});

export const schemeApi = definePluginApi('scheme', schemeEndpoints, { tagTypes: [...TRAINING_TAGS] });
