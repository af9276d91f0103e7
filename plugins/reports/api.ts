/**
 * Analysis-report calls (spec workflow §7 Report, `report/*`) and the decision deductions a
 * report compares (`decision/list`).
 */
import type { AnalysisReport, AnalysisReportCreateRequest, AnalysisReportListRequest, AnalysisReportView, Page } from '@decisio/domain';
import { definePluginApi, type PluginEndpointBuilder } from '@decisio/sdk-plugin';
import type { Rows, TrainingRow } from '@decisio/sdk-plugin/trainings/api';

const LIST = { type: 'AnalysisReport' as const, id: 'LIST' };
const one = (id: string) => ({ type: 'AnalysisReport' as const, id });

export const reportsEndpoints = (build: PluginEndpointBuilder) => ({
  'reports/decisions': build.query<Rows<TrainingRow>, { solutionId: string }>({ query: (body) => ({ url: 'decision/list', body }) }),
  'reports/list': build.query<Page<AnalysisReport>, AnalysisReportListRequest>({ query: (body) => ({ url: 'report/getAnalysisReportList', body }), providesTags: [LIST] }),
  'reports/view': build.query<AnalysisReportView, { id: string }>({ query: (body) => ({ url: 'report/getAnalysisReportView', body }), providesTags: (_r, _e, a) => [one(a.id)] }),
  'reports/create': build.mutation<AnalysisReport, AnalysisReportCreateRequest>({ query: (body) => ({ url: 'report/createAnalysisReport', body }), invalidatesTags: [LIST] }),
  'reports/rename': build.mutation<AnalysisReport, { id: string; name: string }>({
    query: (body) => ({ url: 'report/updateAnalysisReportName', body }),
    invalidatesTags: (_r, _e, a) => [LIST, one(a.id)],
  }),
  'reports/delete': build.mutation<null, { id: string }>({ query: (body) => ({ url: 'report/deleteAnalysisReport', body }), invalidatesTags: [LIST] }),
});

export const reportsApi = definePluginApi('reports', reportsEndpoints, { tagTypes: ['AnalysisReport'] });
