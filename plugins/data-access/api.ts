/**
 * Calls of the data-access plugin on the base api: datasets (`table/*`), previews
 * (`file/previewCSV`), the upload calls it needs (`file/*`), database imports (`metadata/*`,
 * `jobJdbcDatasource/all`) and the solution's table correlation (`solution/*TableCorrelation`).
 */
import type {
  CopyTableResult,
  CopyTableToDataSourceRequest,
  DataConnection,
  Dataset,
  DatasetPreview,
  DatasetType,
  FieldSetting,
  FileItem,
  FreeSpace,
  ImportStatus,
  Page,
  RemoteColumn,
  RemoteTable,
  SetTableCorrelationRequest,
  StartImportRequest,
  TableAccessKey,
  TableFilterRequest,
  UploadPartInitRequest,
  UploadState,
} from '@decisio/domain';
import { definePluginApi, type PluginEndpointBuilder } from '@decisio/sdk-plugin';

const DATASETS = { type: 'Dataset' as const, id: 'LIST' };
const CORRELATION = 'TableCorrelation' as const;

/** What `solution/getTableCorrelation` answers. */
export interface CorrelationReply {
  solutionId: string;
  correlation: SetTableCorrelationRequest['correlation'] | null;
}

export const dataAccessEndpoints = (build: PluginEndpointBuilder) => ({
  'data-access/list': build.query<Page<Dataset>, { page: number; pageSize: number; type?: DatasetType; keyword?: string; projectId?: string }>({
    query: (body) => ({ url: 'table/list', body }),
    providesTags: [DATASETS],
  }),
  'data-access/get': build.query<Dataset, { tableId: string }>({
    query: (body) => ({ url: 'table/get', body }),
    providesTags: (_r, _e, a) => [{ type: 'Dataset' as const, id: a.tableId }],
  }),
  'data-access/create': build.mutation<Dataset, { fileId: string; name: string; type: DatasetType; projectId?: string }>({
    // Ingesting a large file into Parquet takes a while: no 30 s timeout.
    query: (body) => ({ url: 'table/create', body, timeoutMs: 0 }),
    invalidatesTags: [DATASETS],
  }),
  'data-access/drop': build.mutation<null, { tableId: string }>({
    query: (body) => ({ url: 'table/drop', body }),
    invalidatesTags: [DATASETS],
  }),
  'data-access/setFields': build.mutation<Dataset, { tableId: string; fields: FieldSetting[] }>({
    query: (body) => ({ url: 'table/setFields', body }),
    invalidatesTags: (_r, _e, a) => [DATASETS, { type: 'Dataset' as const, id: a.tableId }],
  }),
  'data-access/preview': build.query<DatasetPreview, { tableId: string; rows?: number }>({
    query: (body) => ({ url: 'file/previewCSV', body, timeoutMs: 0 }),
  }),
  'data-access/filter': build.query<DatasetPreview, Pick<TableFilterRequest, 'tableId' | 'conditions' | 'offset' | 'limit'>>({ query: (body) => ({ url: 'table/filter', body }) }),
  /** Where the dataset's original uploaded file downloads from (the token cookie authenticates the GET). */
  'data-access/sourceDownload': build.mutation<{ url: string; name: string; size: number }, { tableId: string }>({ query: (body) => ({ url: 'file/getDataSourceDownloadUrl', body }) }),
  /** A dataset column's distinct values, most frequent first (at most `limit`). */
  'data-access/columnValues': build.mutation<{ values: (number | string | boolean | null)[] }, { tableId: string; column: string; limit: number }>({
    query: (body) => ({ url: 'metadata/getColumnsValue', body }),
  }),
  'data-access/files': build.query<Page<FileItem>, { page: number; pageSize: number; keyword?: string }>({ query: (body) => ({ url: 'file/fileItemList', body }) }),
  'data-access/append': build.mutation<Dataset, { tableId: string; fileId: string }>({
    query: (body) => ({ url: 'table/append', body, timeoutMs: 0 }),
    invalidatesTags: (_r, _e, a) => [DATASETS, { type: 'Dataset', id: a.tableId }],
  }),
  'data-access/replaceFile': build.mutation<Dataset, { tableId: string; fileId: string }>({
    query: (body) => ({ url: 'table/updateTableFileUrl', body, timeoutMs: 0 }),
    invalidatesTags: (_r, _e, a) => [DATASETS, { type: 'Dataset', id: a.tableId }],
  }),
  'data-access/accessKey': build.mutation<TableAccessKey, { tableId: string; ttlSeconds: number }>({ query: (body) => ({ url: 'table/getAccessKey', body }) }),
  'data-access/revokeAccessKeys': build.mutation<{ tableId: string; revokedAt: string }, { tableId: string }>({ query: (body) => ({ url: 'table/revokeAccessKeys', body }) }),
  'data-access/copyOut': build.mutation<CopyTableResult, CopyTableToDataSourceRequest>({ query: (body) => ({ url: 'table/copyTableToDataSource', body, timeoutMs: 0 }) }),
  'data-access/freeSpace': build.query<FreeSpace, void>({ query: () => ({ url: 'file/getFreeSpace' }) }),
  'data-access/uploadInit': build.mutation<UploadState, UploadPartInitRequest>({ query: (body) => ({ url: 'file/uploadpartinit', body }) }),
  'data-access/uploadParts': build.mutation<UploadState, { uploadId: string }>({ query: (body) => ({ url: 'file/uploadPartList', body }) }),
  'data-access/uploadComplete': build.mutation<FileItem, { uploadId: string }>({
    query: (body) => ({ url: 'file/uploadPartComplete', body, timeoutMs: 0 }),
  }),
  'data-access/uploadAbort': build.mutation<null, { uploadId: string }>({ query: (body) => ({ url: 'file/mpuAbortOne', body }) }),
  'data-access/connections': build.query<DataConnection[], void>({ query: () => ({ url: 'jobJdbcDatasource/all', body: {} }) }),
  'data-access/remoteTables': build.query<RemoteTable[], { id: string }>({ query: (body) => ({ url: 'metadata/getTables', body }) }),
  /** The columns of a remote table, as they will become dataset columns. */
  'data-access/remoteColumns': build.mutation<RemoteColumn[], { id: string; table: string; schema?: string }>({ query: (body) => ({ url: 'metadata/getColumns', body }) }),
  /** The columns a SELECT query returns (run on the outside server, at most 100 rows read). */
  'data-access/queryColumns': build.mutation<RemoteColumn[], { id: string; sql: string }>({ query: (body) => ({ url: 'metadata/getColumnsByQuerySql', body }) }),
  'data-access/startImport': build.mutation<ImportStatus, StartImportRequest>({ query: (body) => ({ url: 'metadata/startImport', body }) }),
  'data-access/importStatus': build.mutation<ImportStatus, { tableId: string }>({ query: (body) => ({ url: 'metadata/getCopyStatusByTableId', body }) }),
  /** Stops an import that is waiting or copying (`metadata/stopImport`): no dataset is made. */
  'data-access/stopImport': build.mutation<ImportStatus, { tableId: string }>({ query: (body) => ({ url: 'metadata/stopImport', body }) }),
  'data-access/getCorrelation': build.query<CorrelationReply, { solutionId: string }>({
    query: (body) => ({ url: 'solution/getTableCorrelation', body }),
    providesTags: (_r, _e, a) => [{ type: CORRELATION, id: a.solutionId }],
  }),
  'data-access/setCorrelation': build.mutation<CorrelationReply, SetTableCorrelationRequest>({
    query: (body) => ({ url: 'solution/setTableCorrelation', body }),
    invalidatesTags: (_r, _e, a) => [{ type: CORRELATION, id: a.solutionId }],
  }),
});

export const dataAccessApi = definePluginApi('data-access', dataAccessEndpoints, { tagTypes: ['Dataset', CORRELATION] });
