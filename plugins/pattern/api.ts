/**
 * Calls of the decision-graph editor on the base api: the solution's pattern
 * (`solution/getPattern`, `solution/setPattern`, server module `modelling`), the solution itself
 * (its goal decides which roles the graph needs), its table correlation (the primary dataset)
 * and the datasets whose fields are dragged into nodes (`table/list`, `table/get`, module
 * `datasets`).
 */
import type { Dataset, DecisionGraph, FileItem, Page, ReviveImportReply, ReviveImportRequest, SolutionItem, UploadPartInitRequest, UploadState } from '@decisio/domain';
import { definePluginApi, type PluginEndpointBuilder } from '@decisio/sdk-plugin';

/** `solution/getPattern`: the stored graph (null before the first save) and the names of its Python files. */
export interface PatternReply {
  solutionId: string;
  graph: unknown;
  files: string[];
  updatedAt: string | null;
}

/** `solution/setPattern` body. */
export interface SetPatternBody {
  solutionId: string;
  graph: DecisionGraph;
  files?: Record<string, string>;
}

/** `solution/getTableCorrelation` reply (only what the editor reads). */
export interface CorrelationReply {
  solutionId: string;
  correlation: { primaryTableId: string; datasetId?: string } | null;
}

const TAG = 'Pattern';

export const patternEndpoints = (build: PluginEndpointBuilder) => ({
  'pattern/get': build.query<PatternReply, { solutionId: string }>({
    query: (body) => ({ url: 'solution/getPattern', body }),
    providesTags: (_r, _e, a) => [{ type: TAG, id: a.solutionId }],
  }),
  'pattern/set': build.mutation<{ solutionId: string; graph: DecisionGraph; warnings: number }, SetPatternBody>({
    query: (body) => ({ url: 'solution/setPattern', body }),
    invalidatesTags: (_r, _e, a) => [{ type: TAG, id: a.solutionId }],
  }),
  'pattern/solution': build.query<SolutionItem, { solutionId: string }>({ query: (body) => ({ url: 'solution/get', body }) }),
  'pattern/correlation': build.query<CorrelationReply, { solutionId: string }>({ query: (body) => ({ url: 'solution/getTableCorrelation', body }) }),
  'pattern/datasets': build.query<Page<Dataset>, { page: number; pageSize: number; projectId?: string }>({
    query: (body) => ({ url: 'table/list', body }),
  }),
  'pattern/dataset': build.query<Dataset, { tableId: string }>({ query: (body) => ({ url: 'table/get', body }) }),
  // REVIVE folder import (server module revive-import): the data file goes up as a resumable upload first.
  'pattern/uploadInit': build.mutation<UploadState, UploadPartInitRequest>({ query: (body) => ({ url: 'file/uploadpartinit', body }) }),
  'pattern/uploadParts': build.mutation<UploadState, { uploadId: string }>({ query: (body) => ({ url: 'file/uploadPartList', body }) }),
  'pattern/uploadComplete': build.mutation<FileItem, { uploadId: string }>({ query: (body) => ({ url: 'file/uploadPartComplete', body, timeoutMs: 0 }) }),
  'pattern/importRevive': build.mutation<ReviveImportReply, ReviveImportRequest>({
    // Reading and checking a large data file takes a while: no 30 s timeout.
    query: (body) => ({ url: 'solution/importRevive', body, timeoutMs: 0 }),
    invalidatesTags: (r, _e, a) => (r?.status === 'imported' ? [{ type: TAG, id: a.solutionId }] : []),
  }),
});

export const patternApi = definePluginApi('pattern', patternEndpoints, { tagTypes: [TAG] });
