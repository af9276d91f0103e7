/**
 * Calls of the report, business decision and policy update pages: `report/*` (spec workflow §7
 * Report), `businessDecision/*`, and the modelling calls they read (`solution/getSolutionList`,
 * `decision/list`, `policy/list`, `table/list`, `train/getTrainUpdateListPage`,
 * `train/createTrainUpdate`).
 */
import type {
  AnalysisReport,
  AnalysisReportCreateRequest,
  AnalysisReportListRequest,
  AnalysisReportView,
  BusinessDecision,
  BusinessDecisionCreateRequest,
  Dataset,
  Page,
  SolutionItem,
} from '@decisio/domain';
import type { PluginEndpointBuilder } from '@decisio/sdk-plugin';

/** A training record as `policy/list` and `decision/list` answer it (the fields these pages read). */
export interface TrainingRecord {
  id: string;
  name: string;
  state: string;
  score?: number | null;
  createdAt?: string;
  /** A policy's environment (`policy/list`). */
  simulatorId?: string;
  /** The record's current job. */
  jobId?: string | null;
}

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

const REPORTS = { type: 'AnalysisReport' as const, id: 'LIST' };
const report = (id: string) => ({ type: 'AnalysisReport' as const, id });
const BUSINESS = { type: 'BusinessDecision' as const, id: 'LIST' };
const runs = (id: string) => ({ type: 'TrainRun' as const, id });

export const reportEndpoints = (build: PluginEndpointBuilder) => ({
  'deploy/solutions': build.query<SolutionItem[], { projectId: string }>({ query: (body) => ({ url: 'solution/getSolutionList', body }) }),
  'deploy/decisions': build.query<{ rows: TrainingRecord[]; total: number }, { solutionId: string }>({ query: (body) => ({ url: 'decision/list', body }) }),
  'deploy/policies': build.query<{ rows: TrainingRecord[]; total: number }, { solutionId: string }>({
    query: (body) => ({ url: 'policy/list', body }),
    providesTags: (_r, _e, a) => [runs(a.solutionId)],
  }),
  'deploy/datasets': build.query<Page<Dataset>, { projectId: string }>({ query: (body) => ({ url: 'table/list', body: { ...body, type: 'business', page: 1, pageSize: 100 } }) }),

  'deploy/reports': build.query<Page<AnalysisReport>, AnalysisReportListRequest>({ query: (body) => ({ url: 'report/getAnalysisReportList', body }), providesTags: [REPORTS] }),
  'deploy/reportView': build.query<AnalysisReportView, { id: string }>({ query: (body) => ({ url: 'report/getAnalysisReportView', body }), providesTags: (_r, _e, a) => [report(a.id)] }),
  'deploy/createReport': build.mutation<AnalysisReport, AnalysisReportCreateRequest>({ query: (body) => ({ url: 'report/createAnalysisReport', body }), invalidatesTags: [REPORTS] }),
  'deploy/renameReport': build.mutation<AnalysisReport, { id: string; name: string }>({
    query: (body) => ({ url: 'report/updateAnalysisReportName', body }),
    invalidatesTags: (_r, _e, a) => [REPORTS, report(a.id)],
  }),
  'deploy/deleteReport': build.mutation<null, { id: string }>({ query: (body) => ({ url: 'report/deleteAnalysisReport', body }), invalidatesTags: [REPORTS] }),

  'deploy/businessList': build.query<Page<BusinessDecision>, { projectId: string; page: number; pageSize: number }>({
    query: (body) => ({ url: 'businessDecision/list', body }),
    providesTags: [BUSINESS],
  }),
  'deploy/businessCreate': build.mutation<BusinessDecision, BusinessDecisionCreateRequest>({ query: (body) => ({ url: 'businessDecision/create', body }), invalidatesTags: [BUSINESS] }),
  'deploy/businessDelete': build.mutation<null, { id: string }>({ query: (body) => ({ url: 'businessDecision/delete', body }), invalidatesTags: [BUSINESS] }),

  'deploy/trainRuns': build.query<Page<TrainRun>, { id: string; kind: 'policy' | 'environment'; page: number; pageSize: number }>({
    query: (body) => ({ url: 'train/getTrainUpdateListPage', body }),
    providesTags: (_r, _e, a) => [runs(a.id)],
  }),
  /** `datasetIds`: an environment update's new data (datasets of the project, e.g. made from a service's calls). */
  'deploy/trainUpdate': build.mutation<TrainingRecord, { id: string; kind: 'policy' | 'environment'; hyperparameters?: Record<string, unknown>; datasetIds?: string[] }>({
    query: (body) => ({ url: 'train/createTrainUpdate', body }),
    invalidatesTags: (_r, _e, a) => [runs(a.id)],
  }),
});

/** Cache tags of these endpoints. */
export const REPORT_TAG_TYPES = ['AnalysisReport', 'BusinessDecision', 'TrainRun'] as const;
