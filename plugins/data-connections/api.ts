/** Data connection calls (spec platform §7 `jobJdbcDatasource/*`) on the base api. */
import type {
  ConnectionTestResult,
  CreateConnectionRequest,
  DataConnection,
  ImportStatus,
  Page,
  PublicKeyResponse,
  RemoteColumn,
  RemoteTable,
  UpdateConnectionRequest,
} from '@decisio/domain';
import { definePluginApi, type PluginEndpointBuilder } from '@decisio/sdk-plugin';

/** Query of the list. */
export interface ConnectionPageQuery {
  page: number;
  pageSize: number;
  keyword?: string;
  type?: string;
}

/** A test of a saved connection (`id`) or of the form being edited. */
export type ConnectionTestRequest = { id: string; password?: string | null } | CreateConnectionRequest;

const TAG = 'DataConnection';
const IMPORTS = 'DataImport';

export const connectionsEndpoints = (build: PluginEndpointBuilder) => ({
  'data-connections/page': build.query<Page<DataConnection>, ConnectionPageQuery>({
    query: (body) => ({ url: 'jobJdbcDatasource/queryListByPage', body }),
    providesTags: [TAG],
  }),
  'data-connections/all': build.query<DataConnection[], void>({ query: () => ({ url: 'jobJdbcDatasource/all', body: {} }), providesTags: [TAG] }),
  'data-connections/create': build.mutation<DataConnection, CreateConnectionRequest>({
    query: (body) => ({ url: 'jobJdbcDatasource/createDataSourceLink', body }),
    invalidatesTags: [TAG],
  }),
  'data-connections/update': build.mutation<DataConnection, UpdateConnectionRequest>({
    query: (body) => ({ url: 'jobJdbcDatasource/updateDataSourceLink', body }),
    invalidatesTags: [TAG],
  }),
  'data-connections/delete': build.mutation<{ id: string }, { id: string }>({
    query: (body) => ({ url: 'jobJdbcDatasource/deleteDataSourceLink', body }),
    invalidatesTags: [TAG],
  }),
  'data-connections/test': build.mutation<ConnectionTestResult, ConnectionTestRequest>({ query: (body) => ({ url: 'jobJdbcDatasource/test', body }) }),
  'data-connections/tables': build.query<RemoteTable[], { id: string }>({ query: (body) => ({ url: 'jobJdbcDatasource/tables', body }) }),
  'data-connections/columns': build.query<RemoteColumn[], { id: string; table: string; schema?: string }>({
    query: (body) => ({ url: 'jobJdbcDatasource/columns', body }),
  }),
  'data-connections/publicKey': build.mutation<PublicKeyResponse, void>({ query: () => ({ url: 'index/getPublicKey' }) }),
  /** The caller's imports from data connections (`metadata/getImportList`), newest first. */
  'data-connections/imports': build.query<Page<ImportStatus>, { page: number; pageSize: number }>({
    query: (body) => ({ url: 'metadata/getImportList', body }),
    providesTags: [IMPORTS],
  }),
  /** Stops an import that is waiting or copying (`metadata/stopImport`): no dataset is made. */
  'data-connections/stopImport': build.mutation<ImportStatus, { tableId: string }>({
    query: (body) => ({ url: 'metadata/stopImport', body }),
    invalidatesTags: [IMPORTS],
  }),
});

export const connectionsApi = definePluginApi('data-connections', connectionsEndpoints, { tagTypes: [TAG, IMPORTS] });
