/**
 * Project-log calls (spec platform §2, `train/getAllTrainList` by project): every data
 * processing, training and deduction of a project, paged by the server, and the solutions that
 * name them.
 */
import { definePluginApi, type PluginEndpointBuilder } from '@decisio/sdk-plugin';
import { TRAINING_TAGS, type TrainingRow } from '@decisio/sdk-plugin/trainings/api';

/** A training of the project log: a record of any kind with the solution it belongs to. */
export type ProjectLogRow = TrainingRow & { kind: string; projectId?: string; solutionId?: string };

export const projectLogEndpoints = (build: PluginEndpointBuilder) => ({
  'project-log/trainings': build.query<{ rows: ProjectLogRow[]; total: number; page: number; pageSize: number }, { projectId: string; kind?: string; page: number; pageSize: number }>({
    query: (body) => ({ url: 'train/getAllTrainList', body }),
    providesTags: ['Training'],
  }),
  'project-log/solutions': build.query<Array<{ solutionId: string; name: string }>, { projectId: string }>({ query: (body) => ({ url: 'solution/getSolutionList', body }) }),
});

export const projectLogApi = definePluginApi('project-log', projectLogEndpoints, { tagTypes: [...TRAINING_TAGS] });
